#pragma once
// The load flow's inputs (internal to flows/load*.cpp): where the file and
// its manifest come from (a local path, or a URL downloaded into the
// spool under the run's retry layer), and what messages call them.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "core/log.hpp"
#include "core/retry.hpp"
#include "db/load_steps.hpp"
#include "flows/load.hpp"
#include "io/file_format.hpp"
#include "net/transport.hpp"

namespace loader::flows::load_detail
{
/// The largest manifest read.
constexpr std::size_t max_manifest_bytes = 1 << 20;

/// The input as the run reads it: a local path (the spooled file for a
/// URL), what messages call it, and the name registered with the batch.
struct Input
{
  std::string path;
  std::string shown;
  std::string file_name;
};

/// Thrown past the Retrier (it is no LoaderError): HTTP 404/410 or a
/// missing file:// file means the sender has not published yet, which no
/// retry within this run would change.
struct NotDelivered
{
  std::string message;
};

std::string base_name(std::string const &path);

bool file_exists(std::string const &path);

/// "scheme://...": a URL for net::download, not a local path.
bool is_url(std::string const &s);

/// What messages and log lines call an input: a URL without its userinfo.
std::string shown(std::string const &input);

/// The last segment of a URL's path ("acme_2026-11-28.csv"), without the
/// query string.
std::string url_file_name(std::string const &url);

/// Where the manifest should be: --manifest, or <input>.manifest.json
/// (for a URL, the suffix goes on its path: net::manifest_url_for).
std::optional<std::string> manifest_path(LoadRequest const &rq);

/// --wait-for-manifest: poll once a second until the manifest is there or
/// the time is up (the sender writes the data file first).
void wait_for(std::string const &path, std::chrono::seconds limit,
              Logger const &log);

/// Transfer settings of a run (net::TransferOptions).
net::DownloadOptions download_options(LoadRequest const &rq);

/// A local input larger than max_bytes: LoaderError config, before the
/// file is read, so that --max-input-bytes means the same for a path as
/// for a URL.
/// The largest body a fetch accepts, and what messages call that bound.
struct Limit
{
  std::uint64_t bytes = 0;
  std::string name;
};

void check_local_size(std::string const &path, Limit const &limit);

/// The largest input a run accepts: --max-input-bytes when given, else the
/// source's own limit (source add --max-input-bytes) once it is read, else
/// the loader's default.
Limit input_limit(FeedOptions const &feed,
                  std::optional<std::uint64_t> source_limit);

std::string spool_dir_of(LoadRequest const &rq);

/// GET url into the spool as step `step` of the run's retry layer: a
/// transient failure (timeout, reset, cut body, 5xx, 429) is retried
/// within the budget, Retry-After honoured (the Retrier reads the
/// failure's LoaderError::retry_after); 401/403 (permission) and configuration
/// errors end the run at once; not delivered throws NotDelivered; a body
/// larger than limit is config (exit 78), its partial file removed.
net::Downloaded fetch(Retrier &retry, std::string const &url,
                      std::string const &step, LoadRequest const &rq,
                      Logger const &log, Limit const &limit);

/// The manifest text, or nothing (--expect-* given, or a source that does
/// not require control totals and has none).  A local manifest that is not
/// there means the delivery is not complete: LoaderError{no_input} (66)
/// before anything is registered; a URL one that is not there (404) throws
/// NotDelivered (75).
std::optional<std::string> read_manifest(Retrier &retry, LoadRequest const &rq,
                                         db::SourceConfig const &source,
                                         std::vector<db::Problem> &problems,
                                         Logger const &log);

/// A source's file format as the loader reads with it.
struct StoredFormat
{
  std::optional<int> version; ///< nullopt: the contract's own format
  io::FileFormat format;
};

/// The format a stored version holds (no JSON: the contract's).  A stored
/// text this loader cannot read is a configuration error (78) naming the
/// version.
StoredFormat parse_stored_format(db::FormatRef const &ref);
} // namespace loader::flows::load_detail
