#pragma once
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "core/log.hpp"
#include "core/retry.hpp"
#include "flows/outcome.hpp"

namespace loader::flows
{
/// `load`: one file of one source for one business date.
struct LoadRequest
{
  std::string source;
  std::string business_date;
  std::string input;
  std::optional<std::string> manifest; ///< explicit --manifest
  std::optional<std::int64_t> expect_count;
  std::optional<std::string> expect_total;
  /// --wait-for-manifest: how long to poll for a manifest not there yet.
  std::chrono::seconds wait_for_manifest{0};
  /// --dry-run: stage and validate in a transaction that is rolled back.
  bool dry_run = false;
  RetryPolicy retry;
};

/// Drive one file's batch from wherever it stands to published:
/// received -> staged -> validated -> published, each step one transaction
/// ending in its checkpoint.  Business flow only: no SQL; each step runs
/// under the one retry layer (core/retry.hpp), and after a lost session the
/// attempt resumes on a new one from the checkpoint the database holds,
/// never by redoing a step blindly.  Outcomes: done (published, now or
/// before), quarantined, waiting (for an earlier business date), refused
/// (a batch an operator must replay); throws LoaderError for the rest,
/// after closing the attempt with the error's class when the database can
/// still be reached.  With dry_run: read, checksum, stage, validate and
/// reconcile, register nothing; done if the file would publish,
/// quarantined if not.
Result load(std::string const &dsn, LoadRequest const &request,
            Logger const &log);
} // namespace loader::flows
