#pragma once
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/log.hpp"
#include "core/retry.hpp"
#include "flows/outcome.hpp"

namespace loader::flows
{
/// How a URL input (and its manifest) is fetched (net/transport.hpp).
struct FeedOptions
{
  /// Where downloads are spooled; empty: net::default_spool_dir().
  std::string spool_dir;
  std::string netrc_file; ///< --netrc-file; empty: no netrc
  std::string ca_file;    ///< --cacert; empty: the system's CAs
  std::chrono::seconds connect_timeout{10};
  /// A transfer slower than 1 byte/s for this long is cut (transient).
  std::chrono::seconds low_speed_time{30};
  /// --max-input-bytes: the largest input a run accepts, downloaded or
  /// local; a larger one is refused (config) before anything is
  /// registered.
  std::uint64_t max_input_bytes = std::uint64_t{10} << 30;
  /// Whether --max-input-bytes was given: then it wins over the source's
  /// own limit (source add --max-input-bytes).
  bool max_input_bytes_given = false;
  /// --spool-max-bytes: the most the spool may hold (net/spool_policy.hpp).
  std::uint64_t spool_max_bytes = std::uint64_t{32} << 30;
  /// --allow-redirect-host: hosts a download may be redirected to besides
  /// its own scheme, host and port.
  std::vector<std::string> allow_redirect_hosts;
};

/// `load`: one file of one source for one business date.
struct LoadRequest
{
  std::string source;
  std::string business_date;
  /// A local path, or an http(s)://, file:// or sftp:// URL.
  std::string input;
  std::optional<std::string> manifest; ///< explicit --manifest (path or URL)
  std::optional<std::int64_t> expect_count;
  std::optional<std::string> expect_total;
  /// --wait-for-manifest: how long to poll for a local manifest not there
  /// yet.
  std::chrono::seconds wait_for_manifest{0};
  /// --dry-run: stage and validate in a transaction that is rolled back.
  bool dry_run = false;
  RetryPolicy retry;
  FeedOptions feed;
};

/// What one load did, for catch-up's line per date.
struct LoadReport
{
  /// outcome and the summary `load` prints.
  Result result;
  std::int64_t batch_id = 0; ///< 0 when nothing was registered
  /// done: published by an earlier run (nothing changed).
  bool already_published = false;
};

/// Drive one file's batch from wherever it stands to published:
/// received -> staged -> validated -> published, each step one transaction
/// ending in its checkpoint.  Business flow only: no SQL; each step runs
/// under the one retry layer (core/retry.hpp), and after a lost session the
/// attempt resumes on a new one from the checkpoint the database holds,
/// never by redoing a step blindly.
///
/// A URL input is first downloaded into the spool (step "download" of the
/// same retry layer, before the database hears of it; net/ itself never
/// retries), and the complete spooled file, named by its SHA-256, is the
/// input from then on; the manifest likewise.  HTTP 404/410 (or a missing
/// file:// file) ends the run at once: not_delivered, nothing registered.
///
/// Outcomes: done (published, now or before), quarantined, waiting (for an
/// earlier business date), not_delivered, refused (a batch an operator
/// must replay); throws LoaderError for the rest, after closing the
/// attempt with the error's class when the database can still be reached.
/// With dry_run: read, checksum, stage, validate and reconcile, register
/// nothing; done if the file would publish, quarantined if not.
LoadReport load_batch(std::string const &dsn, LoadRequest const &request,
                      Logger const &log);

/// `load`: load_batch's result.
Result load(std::string const &dsn, LoadRequest const &request,
            Logger const &log);
} // namespace loader::flows
