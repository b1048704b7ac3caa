/// `invoice-loader period close --source S --through D --reason TEXT` and
/// `period reopen --source S [--through D] --reason TEXT` (operator).
#include <boost/algorithm/string/trim.hpp>

#include "cli/commands.hpp"
#include "cli/help.hpp"
#include "cli/values.hpp"
#include "flows/period.hpp"

namespace po = boost::program_options;

namespace loader::cli
{
namespace
{
std::string close_description()
{
  return "Close a source's period through a date (operator): from then on "
         "a record of\nany later batch dated on or before it, a new "
         "invoice, an amendment or a VOID\nalike, is rejected with rule "
         "period.closed (under all-or-nothing the batch is\nquarantined; "
         "under partial it counts against the share); an exact resend\n"
         "(same invoice number, revision and content) is no change and "
         "passes. A revert\nthat would change an invoice dated in the "
         "period exits 78 until it is reopened.\nThe date only moves "
         "forward (an earlier one exits 78: reopen instead); closing\n"
         "through the same date again changes nothing. Recorded in "
         "ingest.operator_action.\n";
}

std::string reopen_description()
{
  return "Reopen a source's closed period (operator): entirely, or back to "
         "--through D\n(earlier than the date it is closed through). "
         "Recorded in\ningest.operator_action; a source with no closed "
         "period exits 78.\n"
         "For a source added with --require-approval (four eyes) it only "
         "records a\nrequest, prints its action id and exits 0: it takes "
         "effect when a second,\ndifferent operator login runs confirm "
         "--action ID.\n";
}

po::options_description period_options(char const *title, bool close)
{
  po::options_description d{title, help_line_length};
  d.add_options()("source", po::value<std::string>()->value_name("S"),
                  "the source (required)")(
    "through", po::value<std::string>()->value_name("D"),
    close ? "the last invoice date of the closed period, YYYY-MM-DD (required)"
          : "keep the period closed through this earlier date, YYYY-MM-DD "
            "(default: reopen it entirely)")(
    "reason", po::value<std::string>()->value_name("TEXT"),
    "why, in words; kept with the action in ingest.operator_action "
    "(required)");
  return d;
}

po::options_description close_options()
{
  return period_options("Options for period close", true);
}

po::options_description reopen_options()
{
  return period_options("Options for period reopen", false);
}

flows::PeriodRequest bind_period(po::variables_map const &vm, bool close)
{
  char const *command{close ? "period close" : "period reopen"};
  std::vector<char const *> required{"source", "reason"};
  if (close) required.push_back("through");
  for (char const *option : required)
    if (vm.count(option) == 0)
      usage_error("'" + std::string{command} + "' needs --" + option, command);
  flows::PeriodRequest out;
  out.close = close;
  out.source = *get(vm, "source");
  check_not_empty("source", out.source);
  out.through = get(vm, "through");
  if (out.through) check_date("through", *out.through);
  out.reason = *get(vm, "reason");
  if (boost::algorithm::trim_copy(out.reason).empty())
    bad_value("reason", "--reason must say why");
  return out;
}

Bound bind_close(po::variables_map const &vm)
{
  flows::PeriodRequest const out{bind_period(vm, true)};
  return {out, [out](GlobalOptions const &g, Logger const &) {
            return flows::set_period(g.dsn, out);
          }};
}

Bound bind_reopen(po::variables_map const &vm)
{
  flows::PeriodRequest const out{bind_period(vm, false)};
  return {out, [out](GlobalOptions const &g, Logger const &) {
            return flows::set_period(g.dsn, out);
          }};
}
} // namespace

CommandSpec period_close_command()
{
  return {"period close",
          "operator: close a source's period through a date",
          "period close --source S --through D --reason TEXT",
          close_description,
          close_options,
          nullptr,
          bind_close,
          "invoice_operator"};
}

CommandSpec period_reopen_command()
{
  return {"period reopen",
          "operator: reopen a source's closed period",
          "period reopen --source S [--through D] --reason TEXT",
          reopen_description,
          reopen_options,
          nullptr,
          bind_reopen,
          "invoice_operator"};
}
} // namespace loader::cli
