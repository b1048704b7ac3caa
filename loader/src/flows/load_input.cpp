#include "flows/load_input.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <thread>

#include "core/errors.hpp"
#include "core/interrupt.hpp"
#include "core/process.hpp"
#include "flows/progress.hpp"
#include "io/file_scan.hpp"
#include "net/spool_policy.hpp"

namespace loader::flows::load_detail
{
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

/// The last segment of a URL's path ("acme_2026-11-28.csv"), without the
/// query string.
std::string url_file_name(std::string const &url)
{
  std::string u{net::redact_url(url)};
  if (auto const q = u.find_first_of("?#"); q != std::string::npos) u.erase(q);
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

/// Transfer settings of a run (net::TransferOptions).
net::DownloadOptions download_options(LoadRequest const &rq)
{
  net::DownloadOptions o;
  o.transfer.connect_timeout = rq.feed.connect_timeout;
  o.transfer.low_speed_time = rq.feed.low_speed_time;
  o.transfer.ca_file = rq.feed.ca_file;
  o.transfer.netrc_file = rq.feed.netrc_file;
  o.transfer.redirect_hosts = rq.feed.allow_redirect_hosts;
  return o;
}

void check_local_size(std::string const &path, Limit const &limit)
{
  struct stat st
  {};
  // A missing file is reported by the scan, as before.
  if (::stat(path.c_str(), &st) != 0 or not S_ISREG(st.st_mode)) return;
  auto const size = static_cast<std::uint64_t>(st.st_size);
  if (size > limit.bytes)
    throw LoaderError{ErrorKind::config,
                      "the input " + path + " is " + std::to_string(size) +
                        " bytes, larger than the limit of " +
                        std::to_string(limit.bytes) + " bytes (" + limit.name +
                        "); nothing was registered"};
}

Limit input_limit(FeedOptions const &feed,
                  std::optional<std::uint64_t> source_limit)
{
  if (not feed.max_input_bytes_given and source_limit)
    return {*source_limit, "the source's limit, source add --max-input-bytes"};
  return {feed.max_input_bytes, "--max-input-bytes"};
}

std::string spool_dir_of(LoadRequest const &rq)
{
  return rq.feed.spool_dir.empty() ? net::default_spool_dir()
                                   : rq.feed.spool_dir;
}

/// GET url into the spool as step `step` of the run's retry layer: a
/// transient failure (timeout, reset, cut body, 5xx, 429) is retried
/// within the budget, Retry-After honoured (the Retrier reads the
/// failure's LoaderError::retry_after); 401/403 (permission) and configuration
/// errors end the run at once; not delivered throws NotDelivered.
net::Downloaded fetch(Retrier &retry, std::string const &url,
                      std::string const &step, LoadRequest const &rq,
                      Logger const &log, Limit const &limit)
{
  std::string const spool{spool_dir_of(rq)};
  std::string const name{shown(url)};
  return retry.run(step, [&]() -> net::Downloaded {
    throw_if_interrupted("downloading " + name);
    net::DownloadOptions options{download_options(rq)};
    options.transfer.max_bytes = limit.bytes;
    options.on_redirect = [&log](long status, std::string const &from,
                                 std::string const &to) {
      log.info("following a redirect",
               {{"http_status", static_cast<std::int64_t>(status)},
                {"from", from},
                {"to", to}});
    };
    // The transfer ends with the retry budget: a body that keeps trickling
    // (faster than the low-speed limit) would otherwise run past it.  The
    // last try, made when the budget is spent, gets one connect timeout.
    auto const left = retry.remaining();
    options.transfer.total_timeout =
      left.count() > 0 ? left
                       : std::chrono::milliseconds{rq.feed.connect_timeout};
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
      if (e.too_large)
        throw LoaderError{e.kind, std::string{e.what()} + " (" + limit.name +
                                    "): not retried, nothing was "
                                    "registered"};
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
        local = fetch(retry, *path, "download manifest", rq, log,
                      {max_manifest_bytes, "the largest manifest"})
                  .path;
        break;
      }
      catch (NotDelivered const &nd)
      {
        if (not needed) return std::nullopt;
        if (std::chrono::steady_clock::now() >= until)
          throw NotDelivered{"the manifest is not there (yet): " + nd.message +
                             "; the delivery of " + shown(rq.input) +
                             " is not complete"};
        if (not waited)
          log.info("waiting for the manifest",
                   {{"manifest", shown(*path)},
                    {"wait_s", rq.wait_for_manifest.count()}});
        waited = true;
        sleep_unless_interrupted(std::chrono::seconds{1});
        throw_if_interrupted("waiting for the manifest");
      }
    }
  }
  else if (not file_exists(local))
  {
    if (not needed) return std::nullopt;
    throw LoaderError{ErrorKind::no_input,
                      "the manifest " + local +
                        " does not exist (yet): "
                        "the delivery of " +
                        shown(rq.input) +
                        " is not complete; "
                        "nothing was registered. Load again once it is "
                        "there, or let the load wait for it with "
                        "--wait-for-manifest SECONDS"};
  }
  try
  {
    std::string text{io::read_small_file(local, max_manifest_bytes)};
    // The text goes with the batch; a downloaded copy is not needed again.
    if (is_url(*path))
      net::release_spooled(spool_dir_of(rq), base_name(local));
    return text;
  }
  catch (LoaderError const &e)
  {
    if (e.kind != ErrorKind::data) throw;
    problems.push_back({"manifest.invalid", 0, e.what()});
    return std::nullopt;
  }
}

StoredFormat parse_stored_format(db::FormatRef const &ref)
{
  StoredFormat out;
  out.version = ref.version;
  if (not ref.json) return out;
  try
  {
    out.format = io::parse_format(*ref.json);
  }
  catch (LoaderError const &e)
  {
    throw LoaderError{ErrorKind::config,
                      "the stored file format version " +
                        std::to_string(ref.version.value_or(0)) +
                        " cannot be read by this loader (" + e.what() +
                        "); store it again with source add --format-file"};
  }
  return out;
}

} // namespace loader::flows::load_detail
