#pragma once
// The staging step's open transaction, handed to the flow: the flow
// writes the file's rows into it, then hands it back to LoadSteps to end
// the COPY, mark the batch staged and commit (or, for a dry run, to
// validate and roll back).  The database never calls back into the flow.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace loader::db
{
/// What the staging pass decides the field rules with, read in the
/// staging transaction before its COPY.
struct StagingContext
{
  std::int64_t batch_id = 0;
  std::string business_date; ///< YYYY-MM-DD, the batch's
  /// ingest.field_rule: (rule code, bit of staging.invoice_valid.rules).
  std::vector<std::pair<std::string, int>> rule_bits;
  /// ingest.currency: (code, minor unit).
  std::vector<std::pair<std::string, int>> minor_units;
};

/// A COPY into the batch's typed staging table (io::typed_copy_statement:
/// the binary format's whole stream, header, one row per record,
/// trailer), inside its transaction.  Dropped without being finished
/// (LoadSteps::finish_staging), the COPY and its transaction roll back.
class StagingSession
{
public:
  struct Impl; ///< db/ only (staging_copy.hpp)
  explicit StagingSession(std::unique_ptr<Impl> impl);
  StagingSession(StagingSession &&) noexcept;
  StagingSession &operator=(StagingSession &&) noexcept;
  ~StagingSession();

  StagingContext const &context() const noexcept;
  /// Send bytes of the COPY stream (buffered); throws LoaderError, also
  /// after SIGTERM/SIGINT (interrupted).
  void write(char const *data, std::size_t size);

  Impl &impl() noexcept { return *m_impl; }

private:
  std::unique_ptr<Impl> m_impl;
};

/// `load --dry-run`'s one transaction, never committed: the batch as
/// ingest.begin_attempt found or made it, and its staging when it is
/// received.  Dropped without LoadSteps::finish_dry_run, it rolls back
/// and ends the session.
class DryRunSession
{
public:
  struct Impl; ///< db/ only (staging_copy.hpp)
  explicit DryRunSession(std::unique_ptr<Impl> impl);
  DryRunSession(DryRunSession &&) noexcept;
  DryRunSession &operator=(DryRunSession &&) noexcept;
  ~DryRunSession();

  /// The COPY to write the file's rows into; null when the batch is past
  /// staging (nothing to write).
  StagingSession *staging() noexcept;

  Impl &impl() noexcept { return *m_impl; }

private:
  std::unique_ptr<Impl> m_impl;
};
} // namespace loader::db
