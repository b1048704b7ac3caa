#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "db/batch_state.hpp"
#include "db/database.hpp"
#include "db/staging_session.hpp"

namespace loader::db
{
/// A version of a source's file format, as stored (ingest.source_format).
struct FormatRef
{
  std::optional<int> version;      ///< nullopt: the contract's format
  std::optional<std::string> json; ///< the loader's canonical JSON
};

struct SourceConfig
{
  std::string name;
  bool allow_unknown_columns = false;
  bool require_control_totals = true;
  /// source add --feed-url: the URL template ({date}), for catch-up.
  std::optional<std::string> feed_url;
  std::optional<std::string> start_date; ///< YYYY-MM-DD
  /// The last published business date (ingest.watermark), if any.
  std::optional<std::string> watermark;
  /// Days a quarantined batch's rows (and its spooled file) are kept.
  int retention_days = 30;
  /// source add --max-input-bytes; nullopt: the loader's limit.
  std::optional<std::uint64_t> max_input_bytes;
  /// source add --max-decompressed-bytes; nullopt: the default.
  std::optional<std::uint64_t> max_decompressed_bytes;
  /// The source's file format (source add --format-file) for new files.
  FormatRef format;
};

/// A file-level problem the loader found (record_no 0 = the file/header).
struct Problem
{
  std::string rule;
  std::uint64_t record_no = 0;
  std::string detail;
};

/// What ingest.begin_attempt needs to know of the file and the run.
struct BeginArgs
{
  std::string source;
  std::string business_date;
  std::string sha256;
  std::uint64_t size = 0;
  std::uint64_t records = 0; ///< data records counted in pass 1
  std::string file_name;
  bool had_bom = false;
  std::vector<std::string> columns;
  std::vector<Problem> problems;
  std::optional<std::string> manifest;
  std::optional<std::int64_t> expect_count;
  std::optional<std::string> expect_total;
  std::string run_id;
  std::string host;
  long pid = 0;
  /// The version of the source's format the bytes were read with.
  std::optional<int> format_version;
  /// Columns the format gave a value (column=value).
  std::vector<std::string> defaults;
};

struct Attempt
{
  std::int64_t batch_id = 0;
  std::int64_t attempt_id = 0;
  int attempt_no = 0;
  BatchState state = BatchState::received;
  bool created = false;
};

struct Validated
{
  BatchState state = BatchState::received;
  long accepted = 0;
  long rejected = 0;
};

struct Published
{
  PublishOutcome outcome = PublishOutcome::published;
  BatchState state = BatchState::validated;
  std::string counts_json; ///< what the merge did, as the database said
  /// The same, one value per key, as text ("records" -> "20").
  std::map<std::string, std::string> counts;
};

struct Rejection
{
  std::int64_t record_no = 0;
  std::string invoice_number;
  std::string rule;
  std::string detail;
};

/// What a dry run found (nothing of it was kept).
struct DryRun
{
  bool created = false;      ///< the bytes were new (not a registered batch)
  std::int64_t batch_id = 0; ///< the registered batch's (when not created)
  BatchState state = BatchState::received; ///< where the batch would stand
  long accepted = 0;
  long rejected = 0;
  std::vector<Rejection> rejections;
};

struct Resumed
{
  BatchState state = BatchState::received; ///< where the batch stands now
  std::string xact_status; ///< of the step transaction that was in flight
  /// Another run closed this attempt while we were away: start a new one.
  bool taken_over = false;
};

/// The load's calls into the database: one SQL entry point each, one
/// transaction each, no retries (the orchestrator retries whole steps).
/// Owns the session, so a retry can drop it and start a new one.
/// Every failure is rethrown as a classified LoaderError.
class LoadSteps
{
public:
  explicit LoadSteps(std::string dsn);

  bool connected() const noexcept { return m_db.connected(); }
  void connect() { m_db.connect(); }
  /// Drop the session (and with it the session's runner lock).
  void disconnect() noexcept { m_db.disconnect(); }
  /// The next step's statement_timeout from what is left of the budget.
  void bound_next_step(std::chrono::milliseconds remaining_budget)
  {
    m_db.bound_statements(remaining_budget);
  }

  SourceConfig get_source(std::string const &source);
  /// The format the bytes sha256 of source are read with: their batch's,
  /// when registered, else the source's current one.
  FormatRef file_format_of(std::string const &source,
                           std::string const &sha256);
  /// ingest.begin_attempt; nothing when another run holds the batch (its
  /// runner lock: IV203).
  std::optional<Attempt> begin_attempt(BeginArgs const &args);
  /// ingest.record_busy_attempt: the run that gave up because another held
  /// the batch, as a finished attempt with outcome busy (when the batch is
  /// registered).
  void record_busy(BeginArgs const &args);
  /// On a new session: retake the runner lock, read the batch state and
  /// the status of the step transaction whose outcome was lost.
  Resumed resume_attempt(std::int64_t attempt_id);
  /// The staging step, handed to the flow: ingest.typed_staging in a
  /// transaction of its own (the table to COPY into: the batch's own
  /// partition of staging.invoice_valid, which it may attach, or the
  /// shared one); then one transaction that reads the field rules' bits
  /// and the currencies (StagingSession::context) and opens the COPY the
  /// flow writes the file's rows into.
  StagingSession open_staging(std::int64_t batch_id, std::int64_t attempt_id);
  /// End the COPY, ingest.mark_staged with the records the flow sent, and
  /// commit.
  void finish_staging(StagingSession &staging, std::uint64_t sent);
  Validated validate(std::int64_t batch_id, std::int64_t attempt_id);
  /// `load --dry-run`, in one transaction that is rolled back: register
  /// (ingest.begin_attempt) and, for a received batch, open the COPY the
  /// flow writes into (DryRunSession::staging) ...
  DryRunSession open_dry_run(BeginArgs const &args);
  /// ... then stage and validate (with reconciliation), roll back and
  /// drop the session (and the runner lock with it); returns the state
  /// the batch would reach and its rejections, at most rejection_limit
  /// (0: all of them).
  DryRun finish_dry_run(DryRunSession &dry_run, std::uint64_t sent,
                        int rejection_limit);
  Published publish(std::int64_t batch_id, std::int64_t attempt_id);
  /// ingest.abandon_batch: close a received batch whose file changed while
  /// it was read (quarantined, rule batch.abandoned, with the reason).
  void abandon(std::int64_t batch_id, std::int64_t attempt_id,
               std::string const &reason);
  /// ingest.finish_attempt: close the attempt with its outcome and, for
  /// a failure, the error's class (the ErrorKind's name), SQLSTATE and
  /// message (empty: none).
  void finish_attempt(std::int64_t attempt_id, AttemptOutcome outcome,
                      std::optional<ErrorKind> error_class = std::nullopt,
                      std::string const &sqlstate = {},
                      std::string const &message = {});
  /// The batch's rejections in record order, at most limit (0: all).
  std::vector<Rejection> rejections(std::int64_t batch_id, int limit);

private:
  /// Fresh statistics of what the step ("validation" or "publication")
  /// reads (ingest.analyze_staging), committed before it plans over them.
  void analyze_staging(char const *step, std::int64_t batch_id);
  Database m_db;
  std::string m_xid; ///< xid of the last step transaction sent to commit
};
} // namespace loader::db
