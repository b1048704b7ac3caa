#include "cli/operator_options.hpp"

#include <boost/algorithm/string/trim.hpp>

#include "cli/help.hpp"
#include "cli/values.hpp"

namespace po = boost::program_options;

namespace loader::cli
{
po::options_description operator_action_options(char const *command)
{
  po::options_description d{std::string{"Options for "} + command,
                            help_line_length};
  d.add_options()(
    "batch", po::value<std::string>()->value_name("ID"),
    "the batch, a positive integer (required; `status` lists them)")(
    "reason", po::value<std::string>()->value_name("TEXT"),
    "why, in words; kept with the action in ingest.operator_action "
    "(required)");
  return d;
}

flows::OperatorActionRequest bind_operator_action(po::variables_map const &vm,
                                                  char const *command)
{
  for (char const *required : {"batch", "reason"})
    if (vm.count(required) == 0)
      usage_error("'" + std::string{command} + "' needs --" + required,
                  command);
  flows::OperatorActionRequest out;
  out.batch_id = *positive_id(vm, "batch");
  out.reason = *get(vm, "reason");
  if (boost::algorithm::trim_copy(out.reason).empty())
    bad_value("reason", "--reason must say why");
  return out;
}
} // namespace loader::cli
