/// `invoice-loader confirm --action ID` (operator; four eyes).
#include "cli/commands.hpp"
#include "cli/help.hpp"
#include "cli/values.hpp"
#include "flows/operator_actions.hpp"

namespace po = boost::program_options;

namespace loader::cli
{
namespace
{
std::string description()
{
  return "Confirm another operator's request and carry it out (operator). "
         "For a source\nadded with --require-approval, replay, revert (a "
         "batch, or --to-date) and\nperiod reopen only record a request and "
         "print its action id; the action\ntakes effect when a second, "
         "different operator login runs confirm: in one\ntransaction, "
         "through the same function as without four eyes (the same checks,\n"
         "notifications and watermark). The requesting login itself exits "
         "77; an\nunknown or already confirmed action exits 78. "
         "ingest.operator_action names\nthe requester (requested_by) and the "
         "confirmer (db_user). status lists the\nrequests awaiting "
         "confirmation. See docs/guide/recover.md.\n";
}

po::options_description options()
{
  po::options_description d{"Options for confirm", help_line_length};
  d.add_options()("action", po::value<std::string>()->value_name("ID"),
                  "the request's operator action id, a positive integer "
                  "(required; printed by the request, listed by status)");
  return d;
}

Bound bind(po::variables_map const &vm)
{
  if (vm.count("action") == 0)
    usage_error("'confirm' needs --action", "confirm");
  std::int64_t const id{*positive_id(vm, "action")};
  return {id, [id](GlobalOptions const &g, Logger const &) {
            return flows::confirm(g.dsn, id);
          }};
}
} // namespace

CommandSpec confirm_command()
{
  return {"confirm",
          "operator: carry out another operator's request (four eyes)",
          "confirm --action ID",
          description,
          options,
          nullptr,
          bind,
          "invoice_operator"};
}
} // namespace loader::cli
