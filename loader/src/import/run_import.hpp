#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "core/log.hpp"
#include "core/retry.hpp"
#include "db/steps.hpp"

namespace loader::import
{
struct LoadRequest
{
  std::string source;
  std::string business_date;
  std::string input;
  std::optional<std::string> manifest; ///< explicit --manifest
  std::optional<std::int64_t> expect_count;
  std::optional<std::string> expect_total;
  RetryPolicy retry;
};

struct LoadOutcome
{
  int exit_code = 0;
  std::int64_t batch_id = 0;
  std::string state;   ///< the batch's state when the run ended
  std::string summary; ///< one line for stdout
};

/// Drive one file's batch from wherever it stands to published:
/// received -> staged -> validated -> published, each step one transaction
/// ending in its checkpoint.  Business flow only: no SQL; each step runs
/// under the one retry layer (core/retry.hpp), and after a lost session the
/// attempt resumes on a new one from the checkpoint the database holds,
/// never by redoing a step blindly.  Returns exit 0 (published, now or
/// before), 65 (quarantined), 75 (waiting for an earlier business date);
/// throws LoaderError for the rest, after closing the attempt with the
/// error's class when the database can still be reached.
LoadOutcome run_load(db::Steps &steps, LoadRequest const &request,
                     Logger const &log);
} // namespace loader::import
