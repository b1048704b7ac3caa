#include "import/run_import.hpp"

#include <unistd.h>

#include <climits>
#include <sstream>

#include "core/errors.hpp"
#include "core/failpoint.hpp"
#include "io/file_scan.hpp"
#include "io/header_map.hpp"

namespace loader::import
{
namespace
{
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

/// The manifest text, or nothing: an explicit --manifest must exist (66);
/// the default <input>.manifest.json may be absent.
std::optional<std::string> read_manifest(LoadRequest const &rq,
                                         std::vector<db::Problem> &problems)
{
  std::string path;
  if (rq.manifest)
    path = *rq.manifest;
  else if (rq.expect_count)
    return std::nullopt;
  else
  {
    path = rq.input + ".manifest.json";
    if (not file_exists(path)) return std::nullopt;
  }
  try
  {
    return io::read_small_file(path, max_manifest_bytes);
  }
  catch (LoaderError const &e)
  {
    if (e.kind != ErrorKind::data) throw;
    problems.push_back({"manifest.invalid", 0, e.what()});
    return std::nullopt;
  }
}

std::string describe_rejections(db::Steps &steps, std::int64_t batch_id)
{
  std::ostringstream out;
  auto const rows = steps.rejections(batch_id, rejections_shown + 1);
  int shown = 0;
  for (db::Rejection const &r : rows)
  {
    if (shown++ == rejections_shown)
    {
      out << "\n  ... (status --batch " << batch_id << " lists all)";
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

LoadOutcome quarantined(db::Steps &steps, db::Attempt const &at,
                        Logger const &log)
{
  std::string const reasons{describe_rejections(steps, at.batch_id)};
  steps.finish_attempt(at.attempt_id, "quarantined", "data", "",
                       "quarantined:" + reasons);
  log.error("batch quarantined", {{"batch", std::to_string(at.batch_id)}});
  return {exit_data, at.batch_id, "quarantined",
          "batch " + std::to_string(at.batch_id) +
            " is quarantined; nothing was published:" + reasons};
}

/// One step from the batch's current checkpoint; returns the outcome when
/// the run is over, nothing when there is a next step.
std::optional<LoadOutcome> advance(db::Steps &steps, LoadRequest const &rq,
                                   io::FileScan const &scan,
                                   std::vector<std::string> const &columns,
                                   db::Attempt &at, Logger const &log)
{
  std::string const batch{std::to_string(at.batch_id)};
  if (at.state == "received")
  {
    std::string const prefix{batch + ","};
    steps.stage(at.batch_id, at.attempt_id, columns,
                [&](db::CopyWriter const &write) {
                  io::StreamResult const r{
                    io::stream_records(rq.input, prefix, write)};
                  if (r.sha256 != scan.sha256 or r.issue)
                    throw LoaderError{
                      ErrorKind::transient,
                      "input " + rq.input +
                        " changed while it was being loaded (SHA-256 " +
                        r.sha256 + ", expected " + scan.sha256 +
                        "); load it again once it is complete"};
                  return r.records;
                });
    at.state = "staged";
    log.info("batch staged",
             {{"batch", batch}, {"records", std::to_string(scan.records)}});
    failpoint("after_staged");
    return std::nullopt;
  }
  if (at.state == "staged")
  {
    db::StepResult const r{steps.validate(at.batch_id, at.attempt_id)};
    at.state = r.state;
    if (at.state == "received")
    {
      log.warn("staged records lost in a server crash; staging the file "
               "again",
               {{"batch", batch}});
      return std::nullopt;
    }
    log.info("batch validated", {{"batch", batch},
                                 {"state", r.state},
                                 {"accepted", std::to_string(r.accepted)},
                                 {"rejected", std::to_string(r.rejected)}});
    if (at.state == "validated") failpoint("after_validated");
    return std::nullopt;
  }
  if (at.state == "validated")
  {
    db::StepResult const r{steps.publish(at.batch_id, at.attempt_id)};
    if (r.outcome == "waiting")
    {
      steps.finish_attempt(at.attempt_id, "waiting", "transient", "",
                           "waiting for an earlier business date: " +
                             r.counts_json);
      log.warn("batch validated; waiting for an earlier business date",
               {{"batch", batch}, {"detail", r.counts_json}});
      return LoadOutcome{exit_temp_fail, at.batch_id, "validated",
                         "batch " + batch + " is validated and waits for an "
                         "earlier business date of " + rq.source +
                         " to publish: " + r.summary};
    }
    at.state = r.state;
    if (r.outcome == "restage")
    {
      log.warn("staged records lost in a server crash; staging the file "
               "again",
               {{"batch", batch}});
      return std::nullopt;
    }
    if (r.outcome == "published" or r.outcome == "already_published")
    {
      steps.finish_attempt(at.attempt_id, r.outcome, "", "", "");
      log.info("batch published",
               {{"batch", batch}, {"counts", r.counts_json}});
      return LoadOutcome{exit_ok, at.batch_id, "published",
                         "batch " + batch + " published: " + r.summary};
    }
    return std::nullopt; // quarantined: reported below on the next turn
  }
  if (at.state == "published")
  {
    steps.finish_attempt(at.attempt_id, "already_published", "", "", "");
    log.info("batch already published; nothing to do", {{"batch", batch}});
    return LoadOutcome{exit_ok, at.batch_id, "published",
                       "batch " + batch +
                         " was already published; nothing changed"};
  }
  if (at.state == "quarantined") return quarantined(steps, at, log);
  std::string const message{"batch " + batch + " is " + at.state +
                            "; an operator must replay it"};
  steps.finish_attempt(at.attempt_id, "failed", "data", "", message);
  return LoadOutcome{exit_data, at.batch_id, at.state, message};
}
} // namespace

LoadOutcome run_load(db::Steps &steps, LoadRequest const &rq,
                     Logger const &log)
{
  Retrier retry{rq.retry, log};
  auto const reset = [&steps] { steps.disconnect(); };

  // Pass 1: checksum and structure, before the database hears of the file.
  io::FileScan const scan{io::scan_file(rq.input)};

  db::SourceConfig const source{retry.run(
    "connect",
    [&] {
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
  args.file_name = base_name(rq.input);
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
  args.manifest = read_manifest(rq, args.problems);

  auto const begin = [&] {
    steps.connect();
    return steps.begin_attempt(args);
  };
  db::Attempt at{retry.run("register", begin, reset)};
  std::string batch{std::to_string(at.batch_id)};
  log.info(at.created ? "batch registered" : "batch found",
           {{"batch", batch},
            {"attempt", std::to_string(at.attempt_no)},
            {"state", at.state},
            {"sha256", scan.sha256}});
  if (at.state == "received") failpoint("after_received");

  // After a lost session: a new one, the runner lock again, and the state
  // the database holds (a step whose COMMIT reply was lost shows as done).
  auto const ensure_session = [&] {
    if (steps.connected()) return;
    steps.connect();
    try
    {
      db::Resumed const r{steps.resume_attempt(at.attempt_id)};
      log.info("session resumed",
               {{"batch", batch},
                {"state", r.state},
                {"lost_transaction", r.xact_status.empty() ? "none"
                                                           : r.xact_status}});
      at.state = r.state;
    }
    catch (LoaderError const &e)
    {
      if (e.sqlstate != "IV209") throw;
      // Another run closed this attempt while we were away: start anew.
      at = steps.begin_attempt(args);
      log.info("attempt taken over; continuing as a new attempt",
               {{"batch", batch}, {"attempt", std::to_string(at.attempt_no)},
                {"state", at.state}});
    }
  };

  try
  {
    for (;;)
    {
      std::optional<LoadOutcome> done{retry.run(
        "after " + at.state,
        [&]() -> std::optional<LoadOutcome> {
          ensure_session();
          return advance(steps, rq, scan, args.columns, at, log);
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
      steps.finish_attempt(at.attempt_id, "failed",
                           std::string{name_of(e.kind)}, e.sqlstate,
                           e.what());
    }
    catch (LoaderError const &again)
    {
      // The database is out of reach; the next run closes the attempt as
      // abandoned.
      log.warn("could not record the failed attempt",
               {{"batch", batch}, {"error", again.what()}});
    }
    throw;
  }
}
} // namespace loader::import
