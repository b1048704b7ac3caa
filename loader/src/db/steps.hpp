#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pqxx
{
class connection_base;
} // namespace pqxx

namespace loader::db
{
struct SourceConfig
{
  std::string name;
  bool allow_unknown_columns = false;
};

/// A file-level problem the loader found (record_no 0 = the file/header).
struct Problem
{
  std::string rule;
  std::uint64_t record_no = 0;
  std::string detail;
};

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
};

struct Attempt
{
  std::int64_t batch_id = 0;
  std::int64_t attempt_id = 0;
  int attempt_no = 0;
  std::string state;
  bool created = false;
};

struct StepResult
{
  std::string state;
  std::string outcome;     ///< publish: published|already_published|waiting|quarantined
  std::string counts_json; ///< publish: what the merge did (JSON)
  std::string summary;     ///< publish: the same, as a sentence
  long accepted = 0;
  long rejected = 0;
};

struct Rejection
{
  std::int64_t record_no = 0;
  std::string invoice_number;
  std::string rule;
  std::string detail;
};

/// Writes bytes into the running COPY.
using CopyWriter = std::function<void(char const *, std::size_t)>;

struct Resumed
{
  std::string state;       ///< where the batch stands now
  std::string xact_status; ///< of the step transaction that was in flight
};

/// The loader's calls into the database: one SQL entry point each, one
/// transaction each, no retries (the orchestrator retries whole steps).
/// Owns the session, so a retry can drop it and start a new one.
/// Every failure is rethrown as a classified LoaderError.
class Steps
{
public:
  explicit Steps(std::string dsn);
  ~Steps();
  Steps(Steps const &) = delete;
  Steps &operator=(Steps const &) = delete;

  bool connected() const noexcept;
  void connect();
  /// Drop the session (and with it the session's runner lock).
  void disconnect() noexcept;

  SourceConfig get_source(std::string const &source);
  Attempt begin_attempt(BeginArgs const &args);
  /// On a new session: retake the runner lock, read the batch state and
  /// the status of the step transaction whose outcome was lost.
  Resumed resume_attempt(std::int64_t attempt_id);
  /// One transaction: COPY what produce() writes into staging, then
  /// ingest.mark_staged with the record count produce() returns.
  void stage(std::int64_t batch_id, std::int64_t attempt_id,
             std::vector<std::string> const &columns,
             std::function<std::uint64_t(CopyWriter const &)> const &produce);
  StepResult validate(std::int64_t batch_id, std::int64_t attempt_id);
  StepResult publish(std::int64_t batch_id, std::int64_t attempt_id);
  void finish_attempt(std::int64_t attempt_id, std::string const &outcome,
                      std::string const &error_class,
                      std::string const &sqlstate,
                      std::string const &message);
  std::vector<Rejection> rejections(std::int64_t batch_id, int limit);

private:
  /// Fresh statistics of what the step ("validation" or "publication")
  /// reads (ingest.analyze_staging), committed before it plans over them.
  void analyze_staging(char const *step);
  pqxx::connection_base &cx();
  std::string m_dsn;
  struct Session;
  std::unique_ptr<Session> m_session;
  std::string m_xid; ///< xid of the last step transaction sent to commit
};
} // namespace loader::db
