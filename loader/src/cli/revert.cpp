/// `invoice-loader revert --batch ID --reason TEXT` and `revert --source S
/// --to-date D --reason TEXT` (operator).
#include <boost/algorithm/string/trim.hpp>

#include "cli/commands.hpp"
#include "cli/operator_options.hpp"
#include "cli/values.hpp"
#include "flows/operator_actions.hpp"

namespace po = boost::program_options;

namespace loader::cli
{
namespace
{
std::string description()
{
  return "Undo a publication in one transaction (operator): the versions "
         "the batch\nintroduced leave reporting.* (history keeps them, "
         "marked reverted), the\nversions it superseded are current again, "
         "the watermark returns to the\nprevious published date (or none), "
         "the batch becomes reverted and one\nbatch_reverted notification "
         "is written. Only the latest published batch\nof its source: an "
         "earlier one exits 78 naming the batch to revert first. While\n"
         "another batch of the source is written and not yet published,\n"
         "revert exits 75: that batch publishes first.\nThe same "
         "bytes publish again only after a replay; a corrected file (new\n"
         "bytes) for that date loads normally. See docs/guide/recover.md.\n"
         "With --source S --to-date D instead of --batch: every publication "
         "of S after\nbusiness date D, newest first, in one transaction "
         "(one revert action and one\nbatch_reverted notification per "
         "batch; readers never see a state in between;\nthe watermark ends "
         "at D or before). When one of them cannot be reverted (a\nclosed "
         "period: 78 naming its date), none is.\n"
         "For a source added with --require-approval (four eyes) it only "
         "records a\nrequest, prints its action id and exits 0: it takes "
         "effect when a second,\ndifferent operator login runs confirm "
         "--action ID.\n";
}

po::options_description options()
{
  po::options_description d{operator_action_options("revert")};
  d.add_options()("source", po::value<std::string>()->value_name("S"),
                  "with --to-date, instead of --batch: the source")(
    "to-date", po::value<std::string>()->value_name("D"),
    "with --source: undo every publication after business date D, "
    "YYYY-MM-DD");
  return d;
}

Bound bind(po::variables_map const &vm)
{
  if (vm.count("to-date") != 0 or vm.count("source") != 0)
  {
    if (vm.count("batch") != 0)
      usage_error("--batch and --source/--to-date cannot be combined",
                  "revert");
    for (char const *required : {"source", "to-date", "reason"})
      if (vm.count(required) == 0)
        usage_error("'revert --to-date' needs --" + std::string{required},
                    "revert");
    flows::RevertToDateRequest out;
    out.source = *get(vm, "source");
    check_not_empty("source", out.source);
    out.to_date = *get(vm, "to-date");
    check_date("to-date", out.to_date);
    out.reason = *get(vm, "reason");
    if (boost::algorithm::trim_copy(out.reason).empty())
      bad_value("reason", "--reason must say why");
    return {out, [out](GlobalOptions const &g, Logger const &) {
              return flows::revert_to_date(g.dsn, out);
            }};
  }
  flows::OperatorActionRequest const out{bind_operator_action(vm, "revert")};
  return {out, [out](GlobalOptions const &g, Logger const &) {
            return flows::revert(g.dsn, out);
          }};
}
} // namespace

CommandSpec revert_command()
{
  return {"revert",
          "operator: undo a publication (views, watermark, notification)",
          "revert --batch ID --reason TEXT\n"
          "       revert --source S --to-date D --reason TEXT",
          description,
          options,
          nullptr,
          bind,
          "invoice_operator"};
}
} // namespace loader::cli
