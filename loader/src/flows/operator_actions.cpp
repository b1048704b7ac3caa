#include "flows/operator_actions.hpp"

#include <vector>

#include "core/printable.hpp"
#include "db/operator.hpp"

namespace loader::flows
{
namespace
{
std::string superseded(std::optional<int> const &attempt_no,
                       std::optional<std::string> const &run_id)
{
  if (not attempt_no) return "no attempt";
  return "attempt " + std::to_string(*attempt_no) + " (run " +
         run_id.value_or("-") + ")";
}
} // namespace

std::string awaiting_confirmation(std::int64_t action_id,
                                  std::string const &what)
{
  std::string const id{std::to_string(action_id)};
  return what + " recorded as operator action " + id +
         ", awaiting confirmation: the source requires four eyes, and "
         "nothing changes until a second, different operator login runs: "
         "invoice-loader confirm --action " +
         id + "\n";
}

Result replay(std::string const &dsn, OperatorActionRequest const &rq)
{
  db::Database database{dsn};
  db::Replayed const r{
    db::replay_batch(database, rq.batch_id, rq.reason, rq.allow_absent_share)};
  std::string const batch{std::to_string(r.batch_id)};
  if (r.pending)
    return {Outcome::done,
            awaiting_confirmation(r.action_id, "replay of batch " + batch)};
  return {Outcome::done,
          std::string{r.created ? "replay authorized"
                                : "replay already "
                                  "authorized"} +
            " for batch " + batch + " (operator action " +
            std::to_string(r.action_id) + "); it supersedes " +
            superseded(r.superseded_attempt_no, r.superseded_run_id) +
            ". The next load of the batch's file runs it again from "
            "received, reading the manifest anew" +
            (rq.allow_absent_share
               ? std::string{"; it may close more than the source's max "
                             "absent share"}
               : std::string{}) +
            ".\n"};
}

Result revert(std::string const &dsn, OperatorActionRequest const &rq)
{
  db::Database database{dsn};
  db::Reverted const r{db::revert_batch(database, rq.batch_id, rq.reason)};
  if (r.pending)
    return {Outcome::done,
            awaiting_confirmation(r.action_id, "revert of batch " +
                                                 std::to_string(r.batch_id))};
  return {Outcome::done,
          "batch " + std::to_string(r.batch_id) +
            " reverted (operator "
            "action " +
            std::to_string(r.action_id) +
            "): " + std::to_string(r.reverted_versions) +
            " version(s) left the reporting views, " +
            std::to_string(r.restored_versions) +
            " earlier version(s) are current again; watermark now " +
            r.watermark.value_or("none") + "; it supersedes " +
            superseded(r.superseded_attempt_no, r.superseded_run_id) + ".\n"};
}

Result revert_to_date(std::string const &dsn, RevertToDateRequest const &rq)
{
  db::Database database{dsn};
  std::vector<db::RevertedToDate> const rows{
    db::revert_to_date(database, rq.source, rq.to_date, rq.reason)};
  std::string const source{printable(rq.source)};
  if (rows.size() == 1 and rows.front().pending)
    return {Outcome::done, awaiting_confirmation(rows.front().action_id,
                                                 "undo of source " + source +
                                                   " to " + rq.to_date)};
  if (rows.empty())
    return {Outcome::done, "nothing of source " + source +
                             " is published after " + rq.to_date +
                             "; nothing changed\n"};
  std::string out{"source " + source + " undone to " + rq.to_date + ": " +
                  std::to_string(rows.size()) +
                  " publication(s) reverted in one transaction\n"};
  for (db::RevertedToDate const &r : rows)
    out += "  batch " + std::to_string(r.batch_id) + " (" + r.business_date +
           ", operator action " + std::to_string(r.action_id) +
           "): " + std::to_string(r.reverted_versions) + " version(s) left, " +
           std::to_string(r.restored_versions) +
           " earlier version(s) current again\n";
  return {Outcome::done, out + "watermark now " +
                           rows.back().watermark.value_or("none") + "\n"};
}

Result approve(std::string const &dsn, OperatorActionRequest const &rq)
{
  db::Database database{dsn};
  db::Approved const a{db::approve_batch(database, rq.batch_id, rq.reason)};
  return {Outcome::done, "batch " + std::to_string(a.batch_id) +
                           " approved and published (operator action " +
                           std::to_string(a.action_id) + "); watermark now " +
                           a.watermark.value_or("none") + "; " +
                           a.counts_json + "\n"};
}

Result reject(std::string const &dsn, OperatorActionRequest const &rq)
{
  db::Database database{dsn};
  db::Rejected const r{db::reject_batch(database, rq.batch_id, rq.reason)};
  std::string const batch{std::to_string(r.batch_id)};
  return {Outcome::done,
          "batch " + batch + " rejected and quarantined (operator action " +
            std::to_string(r.action_id) + "): its " +
            std::to_string(r.withdrawn_versions) +
            " written version(s) are withdrawn, readers never saw them; " +
            std::to_string(r.restored_versions) +
            " version(s) it would have superseded stay current. A corrected "
            "file for its date loads normally; the same bytes load again "
            "after: invoice-loader replay --batch " +
            batch + " --reason TEXT\n"};
}

Result confirm(std::string const &dsn, std::int64_t action_id)
{
  db::Database database{dsn};
  db::Confirmed const c{db::confirm_action(database, action_id)};
  return {Outcome::done, "operator action " + std::to_string(c.action_id) +
                           " (" + c.requested_action + ", requested by " +
                           printable(c.requested_by) + ") confirmed by " +
                           printable(c.confirmed_by) +
                           " and carried out: " + c.result_json + "\n"};
}
} // namespace loader::flows
