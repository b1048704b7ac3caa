/// `invoice-loader approve --batch ID --reason TEXT` and `reject --batch ID
/// --reason TEXT` (operator; four eyes: a source with --require-approval).
#include "cli/commands.hpp"
#include "cli/operator_options.hpp"
#include "flows/operator_actions.hpp"

namespace po = boost::program_options;

namespace loader::cli
{
namespace
{
std::string approve_description()
{
  return "Approve a batch awaiting approval and publish it (operator: a "
         "login that is a\nmember of invoice_operator; anyone else exits "
         "77). A source added with\n--require-approval has each batch "
         "written by its load and stopped there,\nunseen by readers (load "
         "exits 75, awaiting approval). Approve publishes it\nin one "
         "transaction through the normal publication: the same checks, the\n"
         "watermark, one batch_published notification. Any operator may "
         "approve: the\nloader's run wrote the batch, a human approves it. "
         "A batch that is not\nawaiting approval exits 78. Recorded in "
         "ingest.operator_action with\nsession_user and the reason. See "
         "docs/guide/recover.md.\n";
}

std::string reject_description()
{
  return "Reject a batch awaiting approval (operator): it is quarantined "
         "(rule\napproval.rejected, one batch_quarantined notification) and "
         "its written versions\nare withdrawn, in one transaction; readers "
         "never see any of it, and the\nsource's later dates may go on. A "
         "corrected file for the date loads normally;\nthe same bytes load "
         "again after a replay. A batch that is not awaiting\napproval exits "
         "78. Recorded in ingest.operator_action. See\n"
         "docs/guide/recover.md.\n";
}

po::options_description approve_options()
{
  return operator_action_options("approve");
}

po::options_description reject_options()
{
  return operator_action_options("reject");
}

Bound bind_approve(po::variables_map const &vm)
{
  flows::OperatorActionRequest const out{bind_operator_action(vm, "approve")};
  return {out, [out](GlobalOptions const &g, Logger const &) {
            return flows::approve(g.dsn, out);
          }};
}

Bound bind_reject(po::variables_map const &vm)
{
  flows::OperatorActionRequest const out{bind_operator_action(vm, "reject")};
  return {out, [out](GlobalOptions const &g, Logger const &) {
            return flows::reject(g.dsn, out);
          }};
}
} // namespace

CommandSpec approve_command()
{
  return {"approve",
          "operator: publish a batch awaiting approval",
          "approve --batch ID --reason TEXT",
          approve_description,
          approve_options,
          nullptr,
          bind_approve,
          "invoice_operator"};
}

CommandSpec reject_command()
{
  return {"reject",
          "operator: quarantine a batch awaiting approval",
          "reject --batch ID --reason TEXT",
          reject_description,
          reject_options,
          nullptr,
          bind_reject,
          "invoice_operator"};
}
} // namespace loader::cli
