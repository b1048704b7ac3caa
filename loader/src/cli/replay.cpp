/// `invoice-loader replay --batch ID --reason TEXT` (operator).
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
  return "Authorize one new attempt of a quarantined or reverted batch "
         "(operator: a\nlogin that is a member of invoice_operator; anyone "
         "else exits 77). Prints\nthe attempt it supersedes (attempt number "
         "and run id): the one that\nquarantined the batch, or that "
         "published the reverted publication, not a\nlater rerun that "
         "changed nothing. The next load of the\nbatch's file uses the "
         "authorization once: it starts a new attempt from\nreceived, reads "
         "the manifest (or that load's --expect-*) again and stages\nthe "
         "file again. Another state exits 78. Recorded in "
         "ingest.operator_action\nwhere session_user and the reason are kept. "
         "See "
         "docs/guide/recover.md.\n"
         "For a source added with --require-approval (four eyes) it only "
         "records a\nrequest, prints its action id and exits 0: it takes "
         "effect when a second,\ndifferent operator login runs confirm "
         "--action ID.\n";
}

po::options_description options()
{
  po::options_description d{operator_action_options("replay")};
  d.add_options()(
    "allow-absent-share", po::bool_switch(),
    "for a full extract quarantined by extract.absent_share: let it close "
    "by absence more than the source's --max-absent-share of its current "
    "invoices (kept with the action)");
  return d;
}

Bound bind(po::variables_map const &vm)
{
  flows::OperatorActionRequest out{bind_operator_action(vm, "replay")};
  out.allow_absent_share = flag(vm, "allow-absent-share");
  return {out, [out](GlobalOptions const &g, Logger const &) {
            return flows::replay(g.dsn, out);
          }};
}
} // namespace

CommandSpec replay_command()
{
  return {"replay",
          "operator: authorize a new attempt of a quarantined batch",
          "replay --batch ID --reason TEXT [--allow-absent-share]",
          description,
          options,
          nullptr,
          bind,
          "invoice_operator"};
}
} // namespace loader::cli
