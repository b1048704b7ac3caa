/// `invoice-loader notify resolve --notification ID --as dispatched|pending
/// --reason TEXT` (operator).
#include "cli/commands.hpp"
#include "cli/help.hpp"
#include "cli/values.hpp"
#include "flows/notify.hpp"

namespace po = boost::program_options;

namespace loader::cli
{
namespace
{
/// What an operator may settle an in_doubt notification as.
std::vector<std::string_view> const &settled_states()
{
  static std::vector<std::string_view> const values{"dispatched", "pending"};
  return values;
}

std::string description()
{
  return "Settle a notification left in_doubt (an e-mail whose sending was "
         "interrupted)\nafter checking the mailbox (operator): "
         "--as dispatched when it arrived\n(it is never sent again), --as "
         "pending when it did not (the next notify\nsends it, with the same "
         "Message-ID). Recorded in ingest.operator_action.\nExit 77 for a "
         "login that is not a member of invoice_operator, 78 when the\n"
         "notification does not exist or is not in_doubt, 75 while a "
         "dispatcher's\nsession still holds it.\n";
}

po::options_description options()
{
  po::options_description d{"Options for notify resolve", help_line_length};
  d.add_options()("notification", po::value<std::string>()->value_name("ID"),
                  "the notification_id (ingest.notification) (required)")(
    "as", po::value<std::string>()->value_name("STATE"),
    "dispatched or pending (required)")(
    "reason", po::value<std::string>()->value_name("TEXT"),
    "what the mailbox showed; recorded with your login (required)");
  return d;
}

Bound bind(po::variables_map const &vm)
{
  for (char const *required : {"notification", "as", "reason"})
    if (vm.count(required) == 0)
      usage_error(std::string{"'notify resolve' needs --"} + required,
                  "notify resolve");
  flows::ResolveRequest out;
  out.notification_id = *positive_id(vm, "notification");
  out.as = *get(vm, "as");
  check_one_of("as", out.as, settled_states());
  out.reason = *get(vm, "reason");
  if (out.reason.find_first_not_of(" \t\r\n") == std::string::npos)
    bad_value("reason", "--reason must say what the mailbox showed");
  return {out, [out](GlobalOptions const &g, Logger const &log) {
            return flows::notify_resolve(g.dsn, out, log);
          }};
}
} // namespace

CommandSpec notify_resolve_command()
{
  return {"notify resolve",
          "operator: settle an in_doubt notification (the mailbox checked)",
          "notify resolve --notification ID --as dispatched|pending "
          "--reason TEXT",
          description,
          options,
          nullptr,
          bind,
          "invoice_operator",
          {{"as", settled_states()}}};
}
} // namespace loader::cli
