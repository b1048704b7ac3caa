#include "flows/load_step.hpp"

#include <chrono>

#include "core/errors.hpp"
#include "core/failpoint.hpp"
#include "core/printable.hpp"
#include "flows/load_report.hpp"
#include "flows/progress.hpp"
#include "io/header_map.hpp"
#include "io/pipeline.hpp"
#include "io/record_rules.hpp"

namespace loader::flows::load_detail
{
using db::BatchState;

namespace
{
/// Pass 2 read other bytes than pass 1 registered: the file changed while
/// it was read.  A LoaderError of kind data, so that the retry layer does
/// not read it again.
struct FileChanged : LoaderError
{
  explicit FileChanged(std::string const &what) :
          LoaderError{ErrorKind::data, what}
  {}
};

Result quarantined(db::LoadSteps &steps, db::Attempt const &at,
                   Logger const &log)
{
  std::vector<db::Rejection> const rows{
    steps.rejections(at.batch_id, rejections_shown + 1)};
  std::string const reasons{describe_rejections(
    rows, "status --batch " + std::to_string(at.batch_id) + " lists all")};
  steps.finish_attempt(at.attempt_id, db::AttemptOutcome::quarantined,
                       ErrorKind::data, "", "quarantined:" + reasons);
  // The log stream carries the outcome too: the first reasons, by rule.
  std::string first;
  for (std::size_t i = 0; i < rows.size() and i < 3; ++i)
    first += (first.empty() ? "" : "; ") +
             (rows[i].record_no == 0
                ? std::string{"file"}
                : "record " + std::to_string(rows[i].record_no)) +
             ": " + rows[i].rule + ": " + rows[i].detail;
  log.error("batch quarantined", {{"batch", at.batch_id}, {"reasons", first}});
  return {Outcome::quarantined,
          "batch " + std::to_string(at.batch_id) +
            " is quarantined; nothing was published:" + reasons + "\n"};
}

} // namespace

/// Pass 2: the file's records into the staging session's COPY, checked
/// against pass 1; returns the records sent.  On a terminal, one updating
/// line: records sent of those counted in pass 1.
std::uint64_t write_records(Input const &in, io::FileScan const &scan,
                            db::StagingSession &staging, Logger const &log)
{
  db::StagingContext const &ctx{staging.context()};
  // The database's bits and currencies (a rule missing there: config).
  io::RuleBits const bits{ctx.rule_bits};
  io::Currencies const currencies{ctx.minor_units};
  io::HeaderMapping const mapping{
    io::map_header(scan.header, true, scan.read.format)};
  io::TypedPass pass;
  pass.batch_id = ctx.batch_id;
  pass.header = scan.header;
  pass.mapping = &mapping;
  pass.bits = &bits;
  pass.currencies = &currencies;
  pass.business_date = ctx.business_date;
  pass.read = scan.read;

  ProgressLine line{log, "COPY"};
  std::int64_t bytes = 0, records = 0;
  auto const total = static_cast<std::int64_t>(scan.records);
  io::TypedResult const r{
    io::stream_typed_rows(in.path, pass, [&](io::Chunk const &chunk) {
      staging.write(chunk.bytes.data(), chunk.bytes.size());
      bytes += static_cast<std::int64_t>(chunk.bytes.size());
      records += static_cast<std::int64_t>(chunk.records);
      if (line.enabled()) line.update(bytes, -1, records, total);
    })};
  line.finish();
  if (r.file.sha256 != scan.sha256 or r.file.issue or r.header_changed)
    throw FileChanged{"input " + in.shown +
                      " changed while it was being loaded (SHA-256 " +
                      r.file.sha256 + ", expected " + scan.sha256 +
                      "); load it again once it is complete"};
  return r.sent;
}

namespace
{
/// Milliseconds since a step started, for its log line.
class StepClock
{
public:
  std::int64_t ms() const
  {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now() - m_started)
      .count();
  }

private:
  std::chrono::steady_clock::time_point m_started{
    std::chrono::steady_clock::now()};
};

/// received -> staged: pass 2 into the batch's COPY.
std::optional<Result> stage(db::LoadSteps &steps, Input const &in,
                            io::FileScan const &scan, db::Attempt &at,
                            Logger const &log)
{
  StepClock const clock;
  try
  {
    db::StagingSession staging{steps.open_staging(at.batch_id, at.attempt_id)};
    std::uint64_t const sent{write_records(in, scan, staging, log)};
    steps.finish_staging(staging, sent);
  }
  catch (FileChanged const &e)
  {
    // The registered bytes cannot be read again: close the batch now
    // (no orphan received batch); the complete file is a new batch.
    steps.abandon(at.batch_id, at.attempt_id, e.what());
    // The batch ends quarantined, so the run says so (65): what it
    // registered will never publish; the complete file is a new batch.
    steps.finish_attempt(at.attempt_id, db::AttemptOutcome::quarantined,
                         ErrorKind::data, "", e.what());
    log.error("the file changed while it was read; batch closed",
              {{"batch", at.batch_id}});
    return Result{Outcome::quarantined,
                  "batch " + std::to_string(at.batch_id) +
                    " is closed (batch.abandoned): " + e.what() + "\n"};
  }
  at.state = BatchState::staged;
  log.info("batch staged", {{"batch", at.batch_id},
                            {"records", scan.records},
                            {"duration_ms", clock.ms()}});
  failpoint("after_staged");
  return std::nullopt;
}

void log_restage(Logger const &log, db::Attempt const &at)
{
  log.warn("staged records lost in a server crash; staging the file "
           "again",
           {{"batch", at.batch_id}});
}

/// staged -> validated (or quarantined; or received after a crash).
std::optional<Result> validate(db::LoadSteps &steps, db::Attempt &at,
                               Logger const &log)
{
  StepClock const clock;
  db::Validated const r{steps.validate(at.batch_id, at.attempt_id)};
  at.state = r.state;
  if (at.state == BatchState::received)
  {
    log_restage(log, at);
    return std::nullopt;
  }
  log.info("batch validated", {{"batch", at.batch_id},
                               {"state", db::name_of(r.state)},
                               {"accepted", r.accepted},
                               {"rejected", r.rejected},
                               {"duration_ms", clock.ms()}});
  if (at.state == BatchState::validated) failpoint("after_validated");
  return std::nullopt;
}

/// A validated batch waits: for an earlier business date, or for another
/// batch of the source that is written and not yet published
/// (ingest.write_batch).
Result waiting(db::LoadSteps &steps, LoadRequest const &rq,
               db::Attempt const &at, db::Published const &r,
               Logger const &log)
{
  auto const other = r.counts.find("waiting_for_batch");
  auto const approval = r.counts.find("awaiting_approval");
  bool const behind_approval{approval != r.counts.end() and
                             approval->second == "true"};
  std::string const what{other == r.counts.end() ? "an earlier business date"
                         : behind_approval
                           ? "batch " + other->second +
                               " (written, awaiting approval: invoice-loader "
                               "approve --batch " +
                               other->second + " --reason TEXT)"
                           : "batch " + other->second +
                               " (written, not yet published)"};
  steps.finish_attempt(at.attempt_id, db::AttemptOutcome::waiting,
                       ErrorKind::transient, "",
                       "waiting for " + what + ": " + r.counts_json);
  log.warn(
    other == r.counts.end()
      ? "batch validated; waiting for an earlier business date"
      : "batch validated; waiting for another batch of the "
        "source, written and not yet published",
    {{"batch", at.batch_id}, {"detail", LogValue::json(r.counts_json)}});
  return Result{Outcome::waiting,
                "batch " + std::to_string(at.batch_id) +
                  " is validated and waits for " + what + " of " + rq.source +
                  " to publish: " + merge_sentence(r) + "\n"};
}

/// A batch of a source with --require-approval: written, unseen by
/// readers, and waiting for an operator's approve or reject (four eyes).
/// A rerun finds it so again and changes nothing.
Result awaiting_approval(db::LoadSteps &steps, LoadRequest const &rq,
                         db::Attempt const &at, db::Published const &r,
                         Logger const &log)
{
  std::string const batch{std::to_string(at.batch_id)};
  steps.finish_attempt(at.attempt_id, db::AttemptOutcome::waiting,
                       ErrorKind::transient, "",
                       "awaiting approval: written, not published until an "
                       "operator approves it: " +
                         r.counts_json);
  log.warn(
    "batch written; awaiting approval",
    {{"batch", at.batch_id}, {"counts", LogValue::json(r.counts_json)}});
  return Result{Outcome::waiting,
                "batch " + batch + " of " + printable(rq.source) + " (" +
                  rq.business_date +
                  ") is written and awaiting approval; readers see nothing "
                  "of it until an operator runs: invoice-loader approve "
                  "--batch " +
                  batch +
                  " --reason TEXT (or: invoice-loader reject --batch " +
                  batch + " --reason TEXT): " + merge_sentence(r) + "\n"};
}

/// validated -> published (write and publish: ingest.publish_batch).
std::optional<Result> publish(db::LoadSteps &steps, LoadRequest const &rq,
                              db::Attempt &at, Logger const &log)
{
  StepClock const clock;
  db::Published const r{steps.publish(at.batch_id, at.attempt_id)};
  switch (r.outcome)
  {
  case db::PublishOutcome::waiting: return waiting(steps, rq, at, r, log);
  case db::PublishOutcome::awaiting_approval:
    return awaiting_approval(steps, rq, at, r, log);
  case db::PublishOutcome::restage:
    at.state = r.state;
    log_restage(log, at);
    return std::nullopt;
  case db::PublishOutcome::published:
  case db::PublishOutcome::already_published:
    at.state = r.state;
    steps.finish_attempt(at.attempt_id,
                         r.outcome == db::PublishOutcome::published
                           ? db::AttemptOutcome::published
                           : db::AttemptOutcome::already_published);
    log.info("batch published", {{"batch", at.batch_id},
                                 {"counts", LogValue::json(r.counts_json)},
                                 {"duration_ms", clock.ms()}});
    return Result{Outcome::done, "batch " + std::to_string(at.batch_id) +
                                   " published: " + merge_sentence(r) + "\n"};
  case db::PublishOutcome::quarantined:
    at.state = r.state;
    return std::nullopt; // reported on the next turn
  }
  return std::nullopt;
}

Result already_published(db::LoadSteps &steps, db::Attempt const &at,
                         Logger const &log)
{
  steps.finish_attempt(at.attempt_id, db::AttemptOutcome::already_published);
  log.info("batch already published; nothing to do", {{"batch", at.batch_id}});
  return Result{Outcome::done, "batch " + std::to_string(at.batch_id) +
                                 " was already published; nothing "
                                 "changed\n"};
}

/// A batch no run moves on (reverted, or a state this binary does not
/// drive): an operator must replay it.
Result refused(db::LoadSteps &steps, db::Attempt const &at)
{
  std::string const message{"batch " + std::to_string(at.batch_id) + " is " +
                            std::string{db::name_of(at.state)} +
                            "; an operator must replay it"};
  steps.finish_attempt(at.attempt_id, db::AttemptOutcome::failed,
                       ErrorKind::config, "", message);
  return Result{Outcome::refused, message + "\n"};
}
} // namespace

/// One step from the batch's current checkpoint; returns the result when
/// the run is over, nothing when there is a next step.
std::optional<Result> advance(db::LoadSteps &steps, LoadRequest const &rq,
                              Input const &in, io::FileScan const &scan,
                              db::Attempt &at, Logger const &log)
{
  switch (at.state)
  {
  case BatchState::received: return stage(steps, in, scan, at, log);
  case BatchState::staged: return validate(steps, at, log);
  case BatchState::validated: return publish(steps, rq, at, log);
  case BatchState::published: return already_published(steps, at, log);
  case BatchState::quarantined: return quarantined(steps, at, log);
  case BatchState::reverted: break;
  }
  return refused(steps, at);
}

/// What the run was doing from a checkpoint, for "interrupted during ...".
std::string step_from(BatchState s)
{
  switch (s)
  {
  case BatchState::received: return "staging (COPY)";
  case BatchState::staged: return "validation";
  case BatchState::validated: return "publication";
  default: return "the run";
  }
}

} // namespace loader::flows::load_detail
