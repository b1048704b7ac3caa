#include "flows/load.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <thread>
#include <sstream>

#include "core/errors.hpp"
#include "core/failpoint.hpp"
#include "core/interrupt.hpp"
#include "core/process.hpp"
#include "db/load_steps.hpp"
#include "flows/load_input.hpp"
#include "flows/load_report.hpp"
#include "flows/load_step.hpp"
#include "flows/progress.hpp"
#include "io/file_scan.hpp"
#include "io/header_map.hpp"
#include "net/transport.hpp"

namespace loader::flows
{
namespace
{
using db::BatchState;
using namespace load_detail;

/// The run: download (for a URL), pass 1, registration, then the steps.
/// report.batch_id is set once the batch is registered.
Result run_load(std::string const &dsn, LoadRequest const &rq,
                Logger const &log, LoadReport &report)
{
  install_interrupt_handlers();
  db::LoadSteps steps{dsn};
  // A 429/503's Retry-After travels in the failure (LoaderError::
  // retry_after); the Retrier reads it there.
  Retrier retry{rq.retry, log, sleep_unless_interrupted};
  auto const reset = [&steps] { steps.disconnect(); };

  // A URL is downloaded whole into the spool first; from then on the
  // spooled file, named by its SHA-256, is the input of both passes.
  Input in{rq.input, shown(rq.input), base_name(rq.input)};
  std::optional<net::Downloaded> spooled;
  if (is_url(rq.input))
  {
    net::remove_stale_temporaries(spool_dir_of(rq), std::chrono::hours{24});
    spooled = fetch(retry, rq.input, "download", rq, log);
    in.path = spooled->path;
    in.file_name = url_file_name(rq.input);
  }

  // Pass 1: checksum and structure, before the database hears of the file.
  io::FileScan const scan{io::scan_file(in.path)};
  throw_if_interrupted("reading " + in.shown);
  if (spooled and scan.sha256 != spooled->sha256)
    // The spool is the user's own directory; a file there that no longer
    // matches its name was changed behind the loader's back.
    throw LoaderError{ErrorKind::transient,
                      "the spooled copy " + in.path + " of " + in.shown +
                        " no longer matches its SHA-256 (" + scan.sha256 +
                        "); nothing was registered; remove it and load "
                        "again"};
  if (auto const path = manifest_path(rq); path and not is_url(*path))
    wait_for(*path, rq.wait_for_manifest, log);

  db::SourceConfig const source{retry.run(
    "connect",
    [&] {
      throw_if_interrupted("connecting");
      steps.connect();
      return steps.get_source(rq.source);
    },
    reset)};

  db::BeginArgs args;
  args.source = rq.source;
  args.business_date = rq.business_date;
  args.sha256 = scan.sha256;
  args.size = scan.size;
  args.records = scan.records;
  args.file_name = in.file_name;
  args.had_bom = scan.had_bom;
  args.expect_count = rq.expect_count;
  args.expect_total = rq.expect_total;
  args.run_id = log.run_id();
  args.host = host_name();
  args.pid = static_cast<long>(::getpid());

  io::HeaderMapping const mapping{
    io::map_header(scan.header, source.allow_unknown_columns)};
  args.columns = mapping.columns;
  if (scan.issue)
    args.problems.push_back({std::string{io::rule_of(scan.issue->problem)},
                             scan.issue->record_no, scan.issue->detail});
  if (not scan.header.empty() and not mapping.ok())
    args.problems.push_back({mapping.rule(), 0, mapping.detail()});
  // The session may idle through a manifest download: drop it first.
  if (auto const path = manifest_path(rq); path and is_url(*path))
    steps.disconnect();
  args.manifest = read_manifest(retry, rq, source, args.problems, log);

  if (rq.dry_run)
  {
    db::DryRun const d{retry.run(
      "dry run",
      [&] {
        throw_if_interrupted("the dry run");
        steps.connect();
        return steps.dry_run(args, records_of(in, scan, log),
                             rejections_shown + 1);
      },
      reset)};
    return dry_run_result(d, in);
  }

  // Another run holding the batch is transient: retried within the budget,
  // then recorded as a busy attempt and reported (exit 75).
  std::string const busy{"another run is loading source " + rq.source +
                         " for business date " + rq.business_date};
  bool last_try_busy = false;
  auto const begin = [&] {
    last_try_busy = false;
    throw_if_interrupted("registering the batch");
    steps.connect();
    std::optional<db::Attempt> got{steps.begin_attempt(args)};
    last_try_busy = not got;
    if (not got) throw LoaderError{ErrorKind::transient, busy};
    return *got;
  };
  auto const give_up_if_busy = [&] {
    if (not last_try_busy) return false;
    try
    {
      steps.connect();
      steps.record_busy(args);
    }
    catch (LoaderError const &again)
    {
      log.warn("could not record the busy run", {{"error", again.what()}});
    }
    return true;
  };
  db::Attempt at;
  try
  {
    at = retry.run("register", begin, reset);
  }
  catch (LoaderError const &e)
  {
    if (not give_up_if_busy()) throw;
    return Result{Outcome::busy, std::string{e.what()} +
                                   "; rerunning later is safe\n"};
  }
  report.batch_id = at.batch_id;
  report.already_published = at.state == BatchState::published;
  log.info(at.created ? "batch registered" : "batch found",
           {{"batch", at.batch_id},
            {"attempt", at.attempt_no},
            {"state", db::name_of(at.state)},
            {"sha256", scan.sha256}});
  if (at.state == BatchState::received) failpoint("after_received");

  // After a lost session: a new one, the runner lock again, and the state
  // the database holds (a step whose COMMIT reply was lost shows as done).
  auto const ensure_session = [&] {
    if (steps.connected()) return;
    steps.connect();
    db::Resumed const r{steps.resume_attempt(at.attempt_id)};
    if (r.taken_over)
    {
      // Another run closed this attempt while we were away: start anew.
      std::optional<db::Attempt> again{steps.begin_attempt(args)};
      if (not again) throw LoaderError{ErrorKind::transient, busy};
      at = *again;
      log.info("attempt taken over; continuing as a new attempt",
               {{"batch", at.batch_id},
                {"attempt", at.attempt_no},
                {"state", db::name_of(at.state)}});
      return;
    }
    log.info("session resumed",
             {{"batch", at.batch_id},
              {"state", db::name_of(r.state)},
              {"lost_transaction",
               r.xact_status.empty() ? "none" : r.xact_status}});
    at.state = r.state;
  };

  try
  {
    for (;;)
    {
      std::optional<Result> done{retry.run(
        "after " + std::string{db::name_of(at.state)},
        [&]() -> std::optional<Result> {
          try
          {
            throw_if_interrupted(step_from(at.state));
            ensure_session();
            // No statement outlives the run's budget: a hung server
            // cannot hold the run past it.
            steps.bound_next_step(retry.remaining());
            std::string const step{step_from(at.state)};
            auto const t0 = std::chrono::steady_clock::now();
            auto result =
              advance(steps, rq, in, scan, at, log);
            log.debug("step finished",
                      {{"step", step},
                       {"batch", at.batch_id},
                       {"state", db::name_of(at.state)},
                       {"duration_ms",
                        std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::steady_clock::now() - t0)
                          .count()}});
            return result;
          }
          catch (LoaderError const &e)
          {
            // A cancelled query (57014) or a lost COPY after a signal is
            // the interruption, not a failure to retry.
            if (e.kind != ErrorKind::interrupted)
              throw_if_interrupted(step_from(at.state));
            throw;
          }
        },
        reset)};
      if (done) return *done;
    }
  }
  catch (LoaderError const &e)
  {
    // main() logs the error itself; here the attempt records it.
    try
    {
      ensure_session();
      bool const stopped = e.kind == ErrorKind::interrupted;
      steps.finish_attempt(at.attempt_id,
                           stopped ? db::AttemptOutcome::interrupted
                                   : db::AttemptOutcome::failed,
                           e.kind, e.sqlstate, e.what());
      // Ending the session releases the batch's runner lock now, so an
      // immediate rerun proceeds.
      if (stopped) steps.disconnect();
    }
    catch (LoaderError const &again)
    {
      // The database is out of reach; the next run closes the attempt as
      // abandoned.
      log.warn("could not record the failed attempt",
               {{"batch", at.batch_id}, {"error", again.what()}});
    }
    throw;
  }
}

} // namespace

LoadReport load_batch(std::string const &dsn, LoadRequest const &rq,
                      Logger const &run_log)
{
  // Every line of this run names the batch's source and business date.
  Logger const log{run_log.with(
    {{"source", rq.source}, {"business_date", rq.business_date}})};
  LoadReport report;
  try
  {
    report.result = run_load(dsn, rq, log, report);
  }
  catch (NotDelivered const &nd)
  {
    log.warn("not delivered yet; nothing registered",
             {{"input", shown(rq.input)}, {"reason", nd.message}});
    report.result = {Outcome::not_delivered,
                     shown(rq.input) + " is not delivered yet (" +
                       nd.message +
                       "); nothing was registered. Load again later: "
                       "rerunning is safe\n"};
  }
  return report;
}

Result load(std::string const &dsn, LoadRequest const &rq,
            Logger const &log)
{
  return load_batch(dsn, rq, log).result;
}
} // namespace loader::flows
