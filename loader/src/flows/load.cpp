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
#include "db/load_steps.hpp"
#include "flows/progress.hpp"
#include "io/file_scan.hpp"
#include "io/header_map.hpp"
#include "net/transport.hpp"

namespace loader::flows
{
namespace
{
using db::BatchState;

constexpr std::size_t max_manifest_bytes = 1 << 20;
constexpr int rejections_shown = 10;

std::string host_name()
{
  char buffer[HOST_NAME_MAX + 1] = {};
  if (::gethostname(buffer, sizeof buffer - 1) != 0) return "unknown";
  return buffer;
}

std::string base_name(std::string const &path)
{
  auto const slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool file_exists(std::string const &path)
{
  return ::access(path.c_str(), F_OK) == 0;
}

/// "scheme://...": a URL for net::download, not a local path.
bool is_url(std::string const &s)
{
  return s.find("://") != std::string::npos;
}

/// What messages and log lines call an input: a URL without its userinfo.
std::string shown(std::string const &input)
{
  return is_url(input) ? net::redact_url(input) : input;
}

/// The input as the run reads it: a local path (the spooled file for a
/// URL), what messages call it, and the name registered with the batch.
struct Input
{
  std::string path;
  std::string shown;
  std::string file_name;
};

/// The last segment of a URL's path ("acme_2026-11-28.csv"), without the
/// query string.
std::string url_file_name(std::string const &url)
{
  std::string u{net::redact_url(url)};
  if (auto const q = u.find_first_of("?#"); q != std::string::npos)
    u.erase(q);
  std::string name{base_name(u)};
  return name.empty() ? u : name;
}

/// Where the manifest should be: --manifest, or <input>.manifest.json
/// (for a URL, the suffix goes on its path: net::manifest_url_for).
std::optional<std::string> manifest_path(LoadRequest const &rq)
{
  if (rq.manifest) return rq.manifest;
  if (rq.expect_count) return std::nullopt;
  return is_url(rq.input) ? net::manifest_url_for(rq.input)
                          : rq.input + ".manifest.json";
}

/// --wait-for-manifest: poll once a second until the manifest is there or
/// the time is up (the sender writes the data file first).
void wait_for(std::string const &path, std::chrono::seconds limit,
              Logger const &log)
{
  if (limit.count() == 0 or file_exists(path)) return;
  log.info("waiting for the manifest",
           {{"manifest", path}, {"wait_s", limit.count()}});
  auto const until = std::chrono::steady_clock::now() + limit;
  while (not file_exists(path) and std::chrono::steady_clock::now() < until)
    ::sleep(1);
}

/// Thrown past the Retrier (it is no LoaderError): HTTP 404/410 or a
/// missing file:// file means the sender has not published yet, which no
/// retry within this run would change.
struct NotDelivered
{
  std::string message;
};

/// Transfer settings of a run (net::TransferOptions).
net::DownloadOptions download_options(LoadRequest const &rq)
{
  net::DownloadOptions o;
  o.transfer.connect_timeout = rq.feed.connect_timeout;
  o.transfer.low_speed_time = rq.feed.low_speed_time;
  o.transfer.ca_file = rq.feed.ca_file;
  o.transfer.netrc_file = rq.feed.netrc_file;
  return o;
}

std::string spool_dir_of(LoadRequest const &rq)
{
  return rq.feed.spool_dir.empty() ? net::default_spool_dir()
                                   : rq.feed.spool_dir;
}

/// GET url into the spool as step `step` of the run's retry layer: a
/// transient failure (timeout, reset, cut body, 5xx, 429) is retried
/// within the budget, Retry-After honoured (the Retrier reads it from the
/// TransportError); 401/403 (permission) and configuration errors end the
/// run at once; not delivered throws NotDelivered.
net::Downloaded fetch(Retrier &retry, std::string const &url,
                      std::string const &step, LoadRequest const &rq,
                      Logger const &log)
{
  std::string const spool{spool_dir_of(rq)};
  std::string const name{shown(url)};
  return retry.run(step, [&]() -> net::Downloaded {
    throw_if_interrupted("downloading " + name);
    net::DownloadOptions options{download_options(rq)};
    ProgressLine line{log, "download " + url_file_name(url)};
    // Always set: libcurl's progress callback is also where net/ aborts a
    // transfer on SIGTERM/SIGINT.
    options.transfer.progress = [&line](std::int64_t done,
                                        std::int64_t total) {
      line.update(done, total);
    };
    try
    {
      net::Downloaded d{net::download(url, spool, options)};
      line.finish();
      log.info(d.not_modified ? "download not modified; using the spooled "
                                "file"
                              : "downloaded",
               {{"url", name},
                {"bytes", static_cast<std::int64_t>(d.size)},
                {"sha256", d.sha256},
                {"http_status", d.http_status}});
      return d;
    }
    catch (net::TransportError const &e)
    {
      line.finish();
      throw_if_interrupted("downloading " + name);
      if (e.not_delivered) throw NotDelivered{e.what()};
      if (e.kind == ErrorKind::permission)
        throw LoaderError{e.kind,
                          std::string{e.what()} +
                            ": the feed refused the credentials (a netrc "
                            "file: --netrc-file); not retried, nothing was "
                            "registered"};
      if (e.kind == ErrorKind::config)
        throw LoaderError{e.kind, std::string{e.what()} +
                                    ": not retried, nothing was registered"};
      throw;
    }
  });
}

/// The retry layer's waits, cut short by SIGTERM/SIGINT.
void interruptible_sleep(std::chrono::milliseconds d)
{
  auto const until = std::chrono::steady_clock::now() + d;
  while (interrupted() == 0 and std::chrono::steady_clock::now() < until)
  {
    auto const left = until - std::chrono::steady_clock::now();
    std::this_thread::sleep_for(
      std::min<std::chrono::steady_clock::duration>(
        left, std::chrono::milliseconds{50}));
  }
}

/// The manifest text, or nothing (--expect-* given, or a source that does
/// not require control totals and has none).  A local manifest that is not
/// there means the delivery is not complete: LoaderError{no_input} (66)
/// before anything is registered; a URL one that is not there (404) throws
/// NotDelivered (75).
std::optional<std::string> read_manifest(Retrier &retry, LoadRequest const &rq,
                                         db::SourceConfig const &source,
                                         std::vector<db::Problem> &problems,
                                         Logger const &log)
{
  auto const path = manifest_path(rq);
  if (not path) return std::nullopt;
  bool const needed = rq.manifest or source.require_control_totals;
  std::string local{*path};
  if (is_url(*path))
  {
    // --wait-for-manifest: ask again once a second while it is not there.
    auto const until = std::chrono::steady_clock::now() + rq.wait_for_manifest;
    for (bool waited = false;;)
    {
      try
      {
        local = fetch(retry, *path, "download manifest", rq, log).path;
        break;
      }
      catch (NotDelivered const &nd)
      {
        if (not needed) return std::nullopt;
        if (std::chrono::steady_clock::now() >= until)
          throw NotDelivered{"the manifest is not there (yet): " +
                             nd.message + "; the delivery of " +
                             shown(rq.input) + " is not complete"};
        if (not waited)
          log.info("waiting for the manifest",
                   {{"manifest", shown(*path)},
                    {"wait_s", rq.wait_for_manifest.count()}});
        waited = true;
        interruptible_sleep(std::chrono::seconds{1});
        throw_if_interrupted("waiting for the manifest");
      }
    }
  }
  else if (not file_exists(local))
  {
    if (not needed) return std::nullopt;
    throw LoaderError{ErrorKind::no_input,
                      "the manifest " + local + " does not exist (yet): "
                      "the delivery of " + shown(rq.input) + " is not complete; "
                      "nothing was registered. Load again once it is "
                      "there, or let the load wait for it with "
                      "--wait-for-manifest SECONDS"};
  }
  try
  {
    return io::read_small_file(local, max_manifest_bytes);
  }
  catch (LoaderError const &e)
  {
    if (e.kind != ErrorKind::data) throw;
    problems.push_back({"manifest.invalid", 0, e.what()});
    return std::nullopt;
  }
}

/// "20 records: 20 inserted, 0 amended, ...; gross 4200.00, control total
/// 4200.00", or the counts as the database gave them when they are not a
/// merge's (a waiting batch's reason).
std::string merge_sentence(db::Published const &p)
{
  auto const &c = p.counts;
  if (c.count("records") == 0) return p.counts_json == "{}" ? "" : p.counts_json;
  auto const at = [&c](char const *key, char const *none = "0") {
    auto const it = c.find(key);
    return it == c.end() or it->second == "null" ? std::string{none}
                                                 : it->second;
  };
  return at("records") + " records: " + at("inserted") + " inserted, " +
         at("amended") + " amended, " + at("voided") + " voided, " +
         at("unchanged") + " unchanged, " + at("late") + " late, " +
         at("duplicates") + " duplicate, " + at("rejected") +
         " rejected; gross " + at("accepted_gross") + ", control total " +
         at("control_total", "none");
}

/// The first rejections, one line each, as a load and a dry run print
/// them; rows holds at most one more than is shown.
std::string describe_rejections(std::vector<db::Rejection> const &rows,
                                std::string const &all_hint)
{
  std::ostringstream out;
  int shown = 0;
  for (db::Rejection const &r : rows)
  {
    if (shown++ == rejections_shown)
    {
      out << "\n  ... (" << all_hint << ")";
      break;
    }
    out << "\n  ";
    if (r.record_no == 0)
      out << "file";
    else
      out << "record " << r.record_no;
    if (not r.invoice_number.empty()) out << " (" << r.invoice_number << ')';
    out << ": " << r.rule << ": " << r.detail;
  }
  return out.str();
}

std::string describe_rejections(db::LoadSteps &steps, std::int64_t batch_id)
{
  return describe_rejections(
    steps.rejections(batch_id, rejections_shown + 1),
    "status --batch " + std::to_string(batch_id) + " lists all");
}

/// Pass 2 read other bytes than pass 1 registered: the file changed while
/// it was read.  A LoaderError of kind data, so that the retry layer does
/// not read it again and db/ passes it through as it is.
struct FileChanged : LoaderError
{
  explicit FileChanged(std::string const &what) :
          LoaderError{ErrorKind::data, what}
  {}
};

/// Pass 2: the file's records into the COPY, checked against pass 1.  On
/// a terminal, one updating line: records sent of those counted in pass 1.
db::Producer records_of(Input const &in, io::FileScan const &scan,
                        Logger const &log)
{
  return [&in, &scan, &log](std::int64_t batch_id,
                            db::CopyWriter const &write) {
    ProgressLine line{log, "COPY"};
    std::int64_t bytes = 0, records = 0;
    auto const total = static_cast<std::int64_t>(scan.records);
    std::function<void(char const *, std::size_t)> counted{write};
    if (line.enabled())
      counted = [&](char const *data, std::size_t size) {
        write(data, size);
        bytes += static_cast<std::int64_t>(size);
        // io::stream_records ends every record with a write of "\n" alone
        // (a raw record is never just a line end).
        if (size == 1 and *data == '\n')
          line.update(bytes, -1, ++records, total);
      };
    io::StreamResult const r{io::stream_records(
      in.path, std::to_string(batch_id) + ",", counted)};
    line.finish();
    if (r.sha256 != scan.sha256 or r.issue)
      throw FileChanged{"input " + in.shown +
                        " changed while it was being loaded (SHA-256 " +
                        r.sha256 + ", expected " + scan.sha256 +
                        "); load it again once it is complete"};
    return r.records;
  };
}

Result quarantined(db::LoadSteps &steps, db::Attempt const &at,
                   Logger const &log)
{
  std::string const reasons{describe_rejections(steps, at.batch_id)};
  steps.finish_attempt(at.attempt_id, "quarantined", "data", "",
                       "quarantined:" + reasons);
  log.error("batch quarantined", {{"batch", at.batch_id}});
  return {Outcome::quarantined,
          "batch " + std::to_string(at.batch_id) +
            " is quarantined; nothing was published:" + reasons + "\n"};
}

/// One step from the batch's current checkpoint; returns the result when
/// the run is over, nothing when there is a next step.
std::optional<Result> advance(db::LoadSteps &steps, LoadRequest const &rq,
                              Input const &in, io::FileScan const &scan,
                              std::vector<std::string> const &columns,
                              db::Attempt &at, Logger const &log)
{
  std::string const batch{std::to_string(at.batch_id)};
  auto const started = std::chrono::steady_clock::now();
  auto const ms = [&started] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now() - started)
      .count();
  };
  switch (at.state)
  {
  case BatchState::received:
  {
    try
    {
      steps.stage(at.batch_id, at.attempt_id, columns,
                  records_of(in, scan, log));
    }
    catch (FileChanged const &e)
    {
      // The registered bytes cannot be read again: close the batch now
      // (no orphan received batch); the complete file is a new batch.
      steps.abandon(at.batch_id, at.attempt_id, e.what());
      steps.finish_attempt(at.attempt_id, "failed", "transient", "",
                           e.what());
      log.error("the file changed while it was read; batch closed",
                {{"batch", at.batch_id}});
      return Result{Outcome::not_delivered,
                    "batch " + batch + " is closed (batch.abandoned): " +
                      e.what() + "\n"};
    }
    at.state = BatchState::staged;
    log.info("batch staged", {{"batch", at.batch_id},
                              {"records", scan.records},
                              {"duration_ms", ms()}});
    failpoint("after_staged");
    return std::nullopt;
  }
  case BatchState::staged:
  {
    db::Validated const r{steps.validate(at.batch_id, at.attempt_id)};
    at.state = r.state;
    if (at.state == BatchState::received)
    {
      log.warn("staged records lost in a server crash; staging the file "
               "again",
               {{"batch", at.batch_id}});
      return std::nullopt;
    }
    log.info("batch validated", {{"batch", at.batch_id},
                                 {"state", db::name_of(r.state)},
                                 {"accepted", r.accepted},
                                 {"rejected", r.rejected},
                                 {"duration_ms", ms()}});
    if (at.state == BatchState::validated) failpoint("after_validated");
    return std::nullopt;
  }
  case BatchState::validated:
  {
    db::Published const r{steps.publish(at.batch_id, at.attempt_id)};
    switch (r.outcome)
    {
    case db::PublishOutcome::waiting:
      steps.finish_attempt(at.attempt_id, "waiting", "transient", "",
                           "waiting for an earlier business date: " +
                             r.counts_json);
      log.warn("batch validated; waiting for an earlier business date",
               {{"batch", at.batch_id},
                {"detail", LogValue::json(r.counts_json)}});
      return Result{Outcome::waiting,
                    "batch " + batch + " is validated and waits for an "
                    "earlier business date of " + rq.source +
                    " to publish: " + merge_sentence(r) + "\n"};
    case db::PublishOutcome::restage:
      at.state = r.state;
      log.warn("staged records lost in a server crash; staging the file "
               "again",
               {{"batch", at.batch_id}});
      return std::nullopt;
    case db::PublishOutcome::published:
    case db::PublishOutcome::already_published:
      at.state = r.state;
      steps.finish_attempt(at.attempt_id,
                           r.outcome == db::PublishOutcome::published
                             ? "published"
                             : "already_published",
                           "", "", "");
      log.info("batch published", {{"batch", at.batch_id},
                                   {"counts", LogValue::json(r.counts_json)},
                                   {"duration_ms", ms()}});
      return Result{Outcome::done,
                    "batch " + batch + " published: " + merge_sentence(r) +
                      "\n"};
    case db::PublishOutcome::quarantined:
      at.state = r.state;
      return std::nullopt; // reported on the next turn
    }
    return std::nullopt;
  }
  case BatchState::published:
    steps.finish_attempt(at.attempt_id, "already_published", "", "", "");
    log.info("batch already published; nothing to do",
             {{"batch", at.batch_id}});
    return Result{Outcome::done, "batch " + batch +
                                   " was already published; nothing "
                                   "changed\n"};
  case BatchState::quarantined: return quarantined(steps, at, log);
  case BatchState::reverted: break;
  }
  std::string const message{"batch " + batch + " is " +
                            std::string{db::name_of(at.state)} +
                            "; an operator must replay it"};
  steps.finish_attempt(at.attempt_id, "failed", "config", "", message);
  return Result{Outcome::refused, message + "\n"};
}

/// What --dry-run prints: the same rejection lines as a real load.
Result dry_run_result(db::DryRun const &d, Input const &in)
{
  std::string const head{"dry run of " + in.shown + ": "};
  std::string const kept{"; nothing was registered"};
  std::string const reasons{describe_rejections(
    d.rejections, "a real load's status --batch lists all")};
  switch (d.state)
  {
  case BatchState::quarantined:
    return {Outcome::quarantined,
            head + (d.created ? "it would be quarantined"
                              : "batch " + std::to_string(d.batch_id) +
                                  " is quarantined") +
              kept + ":" + reasons + "\n"};
  case BatchState::validated:
    return {Outcome::done,
            head + "it would publish: " + std::to_string(d.accepted) +
              " accepted, " + std::to_string(d.rejected) + " rejected" +
              kept + (d.rejected > 0 ? ":" + reasons : "") + "\n"};
  case BatchState::published:
    return {Outcome::done, head + "these bytes are batch " +
                             std::to_string(d.batch_id) +
                             ", already published" + kept + "\n"};
  default:
    return {Outcome::refused, head + "batch " + std::to_string(d.batch_id) +
                                " is " + std::string{db::name_of(d.state)} +
                                kept + "\n"};
  }
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

/// The run: download (for a URL), pass 1, registration, then the steps.
/// report.batch_id is set once the batch is registered.
Result run_load(std::string const &dsn, LoadRequest const &rq,
                Logger const &log, LoadReport &report)
{
  install_interrupt_handlers();
  db::LoadSteps steps{dsn};
  Retrier retry{rq.retry, log, interruptible_sleep};
  // A 429/503's Retry-After is the least the next try waits (capped by
  // what is left of the budget: core/retry.cpp).
  retry.set_retry_after_of(
    [](LoaderError const &e) -> std::optional<std::chrono::milliseconds> {
      auto const *t = dynamic_cast<net::TransportError const *>(&e);
      if (t == nullptr or not t->retry_after) return std::nullopt;
      return std::chrono::milliseconds{*t->retry_after};
    });
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
  args.columns = mapping.copy_columns;
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
        return steps.dry_run(args, args.columns, records_of(in, scan, log),
                             rejections_shown + 1);
      },
      reset)};
    return dry_run_result(d, in);
  }

  auto const begin = [&] {
    throw_if_interrupted("registering the batch");
    steps.connect();
    return steps.begin_attempt(args);
  };
  db::Attempt at{retry.run("register", begin, reset)};
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
      at = steps.begin_attempt(args);
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
            std::string const step{step_from(at.state)};
            auto const t0 = std::chrono::steady_clock::now();
            auto result =
              advance(steps, rq, in, scan, args.columns, at, log);
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
      steps.finish_attempt(at.attempt_id, stopped ? "interrupted" : "failed",
                           std::string{name_of(e.kind)}, e.sqlstate,
                           e.what());
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
