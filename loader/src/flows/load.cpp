#include "flows/load.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>

#include "core/errors.hpp"
#include "core/failpoint.hpp"
#include "core/interrupt.hpp"
#include "core/process.hpp"
#include "db/load_steps.hpp"
#include "flows/load_input.hpp"
#include "flows/load_report.hpp"
#include "flows/load_spool.hpp"
#include "flows/load_step.hpp"
#include "flows/progress.hpp"
#include "io/file_scan.hpp"
#include "io/format_read.hpp"
#include "io/header_map.hpp"
#include "net/transport.hpp"

namespace loader::flows
{
namespace
{
using db::BatchState;
using namespace load_detail;

/// One run of `load`, as the steps a reader follows in run_load(): fetch
/// the input, pass 1, the source, the batch's description, then either a
/// dry run or register and drive the batch from its checkpoint.
class LoadRun
{
public:
  LoadRun(std::string const &dsn, LoadRequest const &rq, Logger const &log) :
          m_steps{dsn},
          m_rq{rq},
          m_log{log},
          // A 429/503's Retry-After travels in the failure (LoaderError::
          // retry_after); the Retrier reads it there.
          m_retry{rq.retry, log, sleep_unless_interrupted},
          m_in{rq.input, shown(rq.input), base_name(rq.input)}
  {}

  /// A URL is downloaded whole into the spool (the source read first: its
  /// limit bounds the body), then both passes read the spooled file; a
  /// local file is measured now and against the source's limit later.
  void fetch_input()
  {
    if (not is_url(m_rq.input))
    {
      check_local_size(m_rq.input, input_limit());
      return;
    }
    read_source();
    m_spooled = download_into_spool(m_retry, m_rq, input_limit(), m_log);
    m_in.path = m_spooled->path;
    m_in.file_name = url_file_name(m_rq.input);
  }

  /// Pass 1: checksum and structure, read as the source's format declares
  /// (the source is read first; nothing is written before registration);
  /// then a local manifest the run may wait for.
  void scan_input()
  {
    read_source();
    m_format = parse_stored_format(m_source->format);
    m_scan = io::scan_file(m_in.path, read_options());
    throw_if_interrupted("reading " + m_in.shown);
    // Bytes registered already are read as they were then, even when the
    // source's format has changed since.
    db::FormatRef const then{m_retry.run(
      "read the file format",
      [&] {
        m_steps.connect();
        return m_steps.file_format_of(m_rq.source, m_scan.sha256);
      },
      reset())};
    if (then.version != m_format.version)
    {
      m_format = parse_stored_format(then);
      m_log.info("reading the file with the format its batch was read with",
                 {{"format_version", then.version ? *then.version : 0}});
      m_scan = io::scan_file(m_in.path, read_options());
    }
    if (m_spooled and m_scan.sha256 != m_spooled->sha256)
      // The spool is the user's own directory; a file there that no longer
      // matches its name was changed behind the loader's back.
      throw LoaderError{ErrorKind::transient,
                        "the spooled copy " + m_in.path + " of " + m_in.shown +
                          " no longer matches its SHA-256 (" + m_scan.sha256 +
                          "); nothing was registered; remove it and load "
                          "again"};
    if (auto const path = manifest_path(m_rq); path and not is_url(*path))
      wait_for(*path, m_rq.wait_for_manifest, m_log);
  }

  io::ReadOptions read_options() const
  {
    return {m_source->max_decompressed_bytes, m_format.format};
  }

  Limit input_limit() const
  {
    return load_detail::input_limit(
      m_rq.feed, m_source ? m_source->max_input_bytes : std::nullopt);
  }
  /// The source's settings (the first connection of the run; once).
  void read_source()
  {
    if (m_source) return;
    m_source = m_retry.run(
      "connect",
      [&] {
        throw_if_interrupted("connecting");
        m_steps.connect();
        return m_steps.get_source(m_rq.source);
      },
      reset());
    if (not is_url(m_rq.input)) check_local_size(m_rq.input, input_limit());
  }

  /// What registration records: the file's facts, its header's mapping,
  /// the problems pass 1 found, the manifest.
  void describe_batch()
  {
    db::BeginArgs &a = m_args;
    a.source = m_rq.source;
    a.business_date = m_rq.business_date;
    a.sha256 = m_scan.sha256;
    a.size = m_scan.size;
    a.records = m_scan.records;
    a.file_name = m_in.file_name;
    a.had_bom = m_scan.had_bom;
    a.expect_count = m_rq.expect_count;
    a.expect_total = m_rq.expect_total;
    a.run_id = m_log.run_id();
    a.host = host_name();
    a.pid = static_cast<long>(::getpid());

    io::HeaderMapping const mapping{io::map_header(
      m_scan.header, m_source->allow_unknown_columns, m_format.format)};
    a.columns = mapping.columns;
    a.format_version = m_format.version;
    a.defaults = io::defaults_used(m_format.format, mapping);
    if (m_scan.issue)
      a.problems.push_back({std::string{io::rule_of(m_scan.issue->problem)},
                            m_scan.issue->record_no, m_scan.issue->detail});
    if (not m_scan.header.empty() and not mapping.ok())
      a.problems.push_back({mapping.rule(), 0, mapping.detail()});
    // The session may idle through a manifest download: drop it first.
    if (auto const path = manifest_path(m_rq); path and is_url(*path))
      m_steps.disconnect();
    a.manifest = read_manifest(m_retry, m_rq, *m_source, a.problems, m_log);
  }

  /// --dry-run: stage and validate in a transaction rolled back.
  Result dry_run()
  {
    db::DryRun const d{m_retry.run(
      "dry run",
      [&] {
        throw_if_interrupted("the dry run");
        m_steps.connect();
        db::DryRunSession dry{m_steps.open_dry_run(m_args)};
        std::uint64_t sent = 0;
        if (db::StagingSession *staging = dry.staging())
          sent = write_records(m_in, m_scan, *staging, m_log);
        // Every rejection: a dry run is how a user gets a file right.
        return m_steps.finish_dry_run(dry, sent, 0);
      },
      reset())};
    return dry_run_result(d, m_in);
  }

  /// Register the batch (or find it) and open an attempt.  Another run
  /// holding the batch is transient: retried within the budget, then
  /// recorded as a busy attempt and reported (exit 75) as the result.
  std::optional<Result> register_batch();

  /// Drive the batch from its checkpoint: stage -> validate -> publish,
  /// each step one transaction under the retry layer.  A failure closes
  /// the attempt with its class (when the database can be reached) and is
  /// rethrown.
  Result drive_to_the_end();

  db::Attempt const &attempt() const noexcept { return m_at; }

  /// The batch ended with outcome: settle its spooled file, if any.
  void settle_spool(Outcome outcome) const
  {
    if (m_spooled)
      settle_spooled(m_rq, *m_spooled, outcome, m_source->retention_days,
                     m_log);
  }

private:
  std::function<void()> reset()
  {
    return [this] { m_steps.disconnect(); };
  }

  std::string busy_message() const
  {
    return "another run is loading source " + m_rq.source +
           " for business date " + m_rq.business_date;
  }

  bool give_up_if_busy();
  void ensure_session();
  std::optional<Result> step_once();
  void record_failure(LoaderError const &e);

  db::LoadSteps m_steps;
  LoadRequest const &m_rq;
  Logger const &m_log;
  Retrier m_retry;
  Input m_in;
  std::optional<net::Downloaded> m_spooled;
  io::FileScan m_scan;
  StoredFormat m_format;                    ///< what pass 1 read the file with
  std::optional<db::SourceConfig> m_source; ///< read once (read_source)
  db::BeginArgs m_args;
  db::Attempt m_at;
  bool m_last_try_busy = false;
};

std::optional<Result> LoadRun::register_batch()
{
  auto const begin = [&] {
    m_last_try_busy = false;
    throw_if_interrupted("registering the batch");
    m_steps.connect();
    std::optional<db::Attempt> got{m_steps.begin_attempt(m_args)};
    m_last_try_busy = not got;
    if (not got) throw LoaderError{ErrorKind::transient, busy_message()};
    return *got;
  };
  try
  {
    m_at = m_retry.run("register", begin, reset());
  }
  catch (LoaderError const &e)
  {
    if (not give_up_if_busy()) throw;
    return Result{Outcome::busy,
                  std::string{e.what()} + "; rerunning later is safe\n"};
  }
  m_log.info(m_at.created ? "batch registered" : "batch found",
             {{"batch", m_at.batch_id},
              {"attempt", m_at.attempt_no},
              {"state", db::name_of(m_at.state)},
              {"sha256", m_scan.sha256}});
  if (m_at.state == BatchState::received) failpoint("after_received");
  return std::nullopt;
}

/// After the retries: a busy batch is recorded as a busy attempt.
bool LoadRun::give_up_if_busy()
{
  if (not m_last_try_busy) return false;
  try
  {
    m_steps.connect();
    m_steps.record_busy(m_args);
  }
  catch (LoaderError const &again)
  {
    m_log.warn("could not record the busy run", {{"error", again.what()}});
  }
  return true;
}

/// After a lost session: a new one, the runner lock again, and the state
/// the database holds (a step whose COMMIT reply was lost shows as done).
void LoadRun::ensure_session()
{
  if (m_steps.connected()) return;
  m_steps.connect();
  db::Resumed const r{m_steps.resume_attempt(m_at.attempt_id)};
  if (r.taken_over)
  {
    // Another run closed this attempt while we were away: start anew.
    std::optional<db::Attempt> again{m_steps.begin_attempt(m_args)};
    if (not again) throw LoaderError{ErrorKind::transient, busy_message()};
    m_at = *again;
    m_log.info("attempt taken over; continuing as a new attempt",
               {{"batch", m_at.batch_id},
                {"attempt", m_at.attempt_no},
                {"state", db::name_of(m_at.state)}});
    return;
  }
  m_log.info(
    "session resumed",
    {{"batch", m_at.batch_id},
     {"state", db::name_of(r.state)},
     {"lost_transaction", r.xact_status.empty() ? "none" : r.xact_status}});
  m_at.state = r.state;
}

/// One try of the step from the current checkpoint (advance()).
std::optional<Result> LoadRun::step_once()
{
  try
  {
    throw_if_interrupted(step_from(m_at.state));
    ensure_session();
    // No statement outlives the run's budget: a hung server cannot hold
    // the run past it.
    m_steps.bound_next_step(m_retry.remaining());
    std::string const step{step_from(m_at.state)};
    auto const t0 = std::chrono::steady_clock::now();
    auto result = advance(m_steps, m_rq, m_in, m_scan, m_at, m_log);
    m_log.debug(
      "step finished",
      {{"step", step},
       {"batch", m_at.batch_id},
       {"state", db::name_of(m_at.state)},
       {"duration_ms", std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::steady_clock::now() - t0)
                         .count()}});
    return result;
  }
  catch (LoaderError const &e)
  {
    // A cancelled query (57014) or a lost COPY after a signal is the
    // interruption, not a failure to retry.
    if (e.kind != ErrorKind::interrupted)
      throw_if_interrupted(step_from(m_at.state));
    throw;
  }
}

Result LoadRun::drive_to_the_end()
{
  try
  {
    for (;;)
    {
      std::optional<Result> done{m_retry.run(
        "after " + std::string{db::name_of(m_at.state)},
        [&] { return step_once(); }, reset())};
      if (done) return *done;
    }
  }
  catch (LoaderError const &e)
  {
    record_failure(e);
    throw;
  }
}

/// main() logs the error itself; here the attempt records it.
void LoadRun::record_failure(LoaderError const &e)
{
  try
  {
    ensure_session();
    bool const stopped = e.kind == ErrorKind::interrupted;
    m_steps.finish_attempt(m_at.attempt_id,
                           stopped ? db::AttemptOutcome::interrupted
                                   : db::AttemptOutcome::failed,
                           e.kind, e.sqlstate, e.what());
    // Ending the session releases the batch's runner lock now, so an
    // immediate rerun proceeds.
    if (stopped) m_steps.disconnect();
  }
  catch (LoaderError const &again)
  {
    // The database is out of reach; the next run closes the attempt as
    // abandoned.
    m_log.warn("could not record the failed attempt",
               {{"batch", m_at.batch_id}, {"error", again.what()}});
  }
}

/// The run: download (for a URL), pass 1, registration, then the steps.
/// report.batch_id is set once the batch is registered.
Result run_load(std::string const &dsn, LoadRequest const &rq,
                Logger const &log, LoadReport &report)
{
  install_interrupt_handlers();
  LoadRun run{dsn, rq, log};
  run.fetch_input();
  run.scan_input();
  run.read_source();
  run.describe_batch();
  if (rq.dry_run) return run.dry_run();
  if (std::optional<Result> busy{run.register_batch()}) return *busy;
  report.batch_id = run.attempt().batch_id;
  report.already_published = run.attempt().state == BatchState::published;
  Result result{run.drive_to_the_end()};
  run.settle_spool(result.outcome);
  return result;
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
                     shown(rq.input) + " is not delivered yet (" + nd.message +
                       "); nothing was registered. Load again later: "
                       "rerunning is safe\n"};
  }
  return report;
}

Result load(std::string const &dsn, LoadRequest const &rq, Logger const &log)
{
  return load_batch(dsn, rq, log).result;
}
} // namespace loader::flows
