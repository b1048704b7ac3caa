/// `invoice-loader revert --batch ID --reason TEXT` (operator).
#include "cli/commands.hpp"
#include "cli/operator_options.hpp"
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
         "bytes) for that date loads normally. See docs/guide/recover.md.\n";
}

po::options_description options()
{
  return operator_action_options("revert");
}

Bound bind(po::variables_map const &vm)
{
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
          "revert --batch ID --reason TEXT",
          description,
          options,
          nullptr,
          bind,
          "invoice_operator"};
}
} // namespace loader::cli
