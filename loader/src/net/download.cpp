// download(): one GET into the spool, hashed while written, renamed to its
// SHA-256 only when complete; conditional GET from a sidecar.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/sha256.hpp"
#include "net/curl_easy.hpp"
#include "net/spool.hpp"

namespace loader::net
{
namespace
{
using namespace spool;

/// What the write callback needs.  Bodies of error responses (a 503's
/// HTML) are not written to the spool.
struct Sink
{
  CURL *h = nullptr;
  int fd = -1;
  std::string const *path = nullptr;
  io::Sha256 sha;
  std::uint64_t size = 0;
  std::uint64_t max_bytes = 0; ///< 0: no limit
  bool too_large = false;
  int write_errno = 0;
};

std::size_t on_write(char *p, std::size_t, std::size_t n, void *user)
{
  auto &s = *static_cast<Sink *>(user);
  long status = 0;
  curl_easy_getinfo(s.h, CURLINFO_RESPONSE_CODE, &status);
  if (status != 0 and (status < 200 or status > 299)) return n;
  // A body without a Content-Length (or with a false one) is cut here, at
  // the first chunk that would pass the limit, before it is written.
  if (s.max_bytes != 0 and n > s.max_bytes - s.size)
  {
    s.too_large = true;
    return 0; // CURLE_WRITE_ERROR
  }
  for (std::size_t done = 0; done < n;)
  {
    ssize_t const w = ::write(s.fd, p + done, n - done);
    if (w < 0)
    {
      if (errno == EINTR) continue;
      s.write_errno = errno;
      return 0; // CURLE_WRITE_ERROR
    }
    done += static_cast<std::size_t>(w);
  }
  s.sha.update(p, n);
  s.size += n;
  return n;
}

/// file:// failures libcurl reports as "couldn't read": missing (not
/// delivered) or unreadable (permission)?  Ask the file system.
[[noreturn]] void throw_file_url(detail::Easy const &easy, CURLcode code,
                                 std::string const &url)
{
  detail::UrlHandle u{curl_url()};
  char *path = nullptr;
  if (u and
      curl_url_set(u.get(), CURLUPART_URL, url.c_str(), 0) == CURLUE_OK and
      curl_url_get(u.get(), CURLUPART_PATH, &path, CURLU_URLDECODE) ==
        CURLUE_OK and
      path != nullptr)
  {
    std::string const p{path};
    curl_free(path);
    int const fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
    int const err = errno;
    if (fd >= 0)
      ::close(fd);
    else if (err != ENOENT and err != ENOTDIR)
      throw TransportError{classify_errno(err),
                           "GET " + easy.redacted_url() + ": " +
                             std::strerror(err),
                           code,
                           0,
                           false,
                           std::nullopt};
  }
  detail::throw_curl(easy, "GET", code);
}
/// The earlier download of a URL, for a conditional GET: only when its
/// sidecar names a file still in the spool with the size it recorded.
struct Earlier
{
  Meta meta;
  std::string path;
  std::uint64_t size = 0;
  bool conditional = false; ///< If-None-Match or If-Modified-Since sent
};

/// Read the sidecar and add the validators it holds to headers.
Earlier conditional_headers(Meta meta, std::string const &spool_dir,
                            detail::Slist &headers)
{
  Earlier e;
  e.meta = std::move(meta);
  auto const it = e.meta.find("sha256");
  if (it == e.meta.end() or not is_sha256_hex(it->second)) return e;
  e.path = spool_dir + "/" + it->second;
  bool exists = false;
  e.size = file_size_or_zero(e.path, exists);
  auto const sz = e.meta.find("size");
  if (not exists or sz == e.meta.end() or sz->second != std::to_string(e.size))
    return e;
  auto const etag = e.meta.find("etag");
  auto const lm = e.meta.find("last_modified");
  if (etag != e.meta.end() and not etag->second.empty())
  {
    headers.append("If-None-Match: " + etag->second);
    e.conditional = true;
  }
  if (lm != e.meta.end() and not lm->second.empty())
  {
    headers.append("If-Modified-Since: " + lm->second);
    e.conditional = true;
  }
  return e;
}

/// A 304 to a conditional GET: the earlier file, with its validators when
/// the answer has none.
Downloaded not_modified(Downloaded out, Earlier const &earlier)
{
  out.path = earlier.path;
  out.sha256 = earlier.meta.at("sha256");
  out.size = earlier.size;
  out.not_modified = true;
  if (out.etag.empty() and earlier.meta.count("etag"))
    out.etag = earlier.meta.at("etag");
  if (out.last_modified.empty() and earlier.meta.count("last_modified"))
    out.last_modified = earlier.meta.at("last_modified");
  return out;
}

/// An HTTP status that is no success, with the server's Retry-After.
[[noreturn]] void throw_http_status(detail::Easy &easy, long status)
{
  std::string const after = easy.header("Retry-After");
  std::string reason = "HTTP " + std::to_string(status);
  if (status == 304) reason += " without a conditional request";
  int const s = static_cast<int>(status);
  throw TransportError{classify_http_status(s),
                       "GET " + easy.redacted_url() + ": " + reason,
                       0,
                       status,
                       is_not_delivered_http(s),
                       after.empty() ? std::nullopt
                                     : parse_retry_after(after)};
}

/// The whole body?  libcurl reports a short body on a closed connection
/// as 18; check Content-Length here as well, whatever the protocol.
void check_length(detail::Easy &easy, std::uint64_t size, long status)
{
  curl_off_t length = -1;
  curl_easy_getinfo(easy.get(), CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length);
  if (length >= 0 and static_cast<std::uint64_t>(length) != size)
    throw TransportError{
      ErrorKind::transient,
      "GET " + easy.redacted_url() + ": body of " + std::to_string(size) +
        " bytes, Content-Length said " + std::to_string(length),
      CURLE_PARTIAL_FILE,
      status,
      false,
      std::nullopt};
}

/// Keep the validators of a 200 in the URL's sidecar (none: no sidecar).
void remember(detail::Easy &easy, std::string const &spool_dir,
              std::string const &meta_path, Downloaded const &out)
{
  if (out.etag.empty() and out.last_modified.empty())
  {
    ::unlink(meta_path.c_str());
    return;
  }
  try
  {
    write_meta(spool_dir, meta_path,
               Meta{{"url", easy.redacted_url()},
                    {"sha256", out.sha256},
                    {"size", std::to_string(out.size)},
                    {"etag", out.etag},
                    {"last_modified", out.last_modified}});
  }
  catch (LoaderError const &)
  {
    // The body is complete and spooled; without its sidecar the next
    // run just downloads unconditionally.
    ::unlink(meta_path.c_str());
  }
}

/// The body is larger than the limit: refused whatever the retry budget,
/// since the next try would get the same body.
[[noreturn]] void throw_too_large(detail::Easy const &easy, Sink const &sink)
{
  TransportError e{
    ErrorKind::config,
    "GET " + easy.redacted_url() + ": the body is larger than the limit of " +
      std::to_string(sink.max_bytes) + " bytes; stopped after " +
      std::to_string(sink.size) + " bytes and removed the partial file",
    CURLE_FILESIZE_EXCEEDED,
    easy.response_code(),
    false,
    std::nullopt};
  e.too_large = true;
  throw e;
}

/// Run the transfer into the temporary file; throws on a failed one.
void perform(detail::Easy &easy, Sink &sink, TempFile const &tmp,
             std::string const &scheme, std::string const &url)
{
  easy.set(CURLOPT_WRITEFUNCTION, on_write);
  easy.set(CURLOPT_WRITEDATA, static_cast<void *>(&sink));
  CURLcode const rc = easy.perform();
  if ((rc == CURLE_WRITE_ERROR and sink.too_large) or
      (rc == CURLE_FILESIZE_EXCEEDED and sink.max_bytes != 0))
    throw_too_large(easy, sink);
  if (rc == CURLE_WRITE_ERROR and sink.write_errno != 0)
    throw_errno(sink.write_errno,
                "GET " + easy.redacted_url() + ": cannot write " + tmp.path());
  if (rc == CURLE_FILE_COULDNT_READ_FILE and scheme == "file")
    throw_file_url(easy, rc, url);
  if (rc != CURLE_OK) detail::throw_curl(easy, "GET", rc);
}
/// While the answer is a redirect: check it against the policy, tell the
/// caller, and ask the new URL.  A refused redirect or one too many is
/// config: the same server would answer the same way on a retry.  Bodies
/// of 3xx answers are never written (on_write).
void follow_redirects(detail::Easy &easy, Sink &sink, TempFile const &tmp,
                      DownloadOptions const &options)
{
  for (long hops = 0;; ++hops)
  {
    long const status = easy.response_code();
    char *next = nullptr;
    curl_easy_getinfo(easy.get(), CURLINFO_REDIRECT_URL, &next);
    if (status < 300 or status > 399 or next == nullptr) return;
    std::string const target{next};
    std::string const from{easy.redacted_url()};
    auto const refused = [&](std::string const &why) {
      throw TransportError{ErrorKind::config,
                           "GET " + from + ": redirect (HTTP " +
                             std::to_string(status) + ") to " +
                             redact_url(target) + " refused: " + why,
                           CURLE_TOO_MANY_REDIRECTS,
                           status,
                           false,
                           std::nullopt};
    };
    if (hops >= options.transfer.max_redirects)
      refused("more than " + std::to_string(options.transfer.max_redirects) +
              " redirects");
    std::string const problem{
      redirect_problem(from, target, options.transfer.redirect_hosts)};
    if (not problem.empty()) refused(problem);
    if (options.on_redirect)
      options.on_redirect(status, from, redact_url(target));
    easy.retarget(target);
    perform(easy, sink, tmp, "http", target);
  }
}
} // namespace

Downloaded download(std::string const &url, std::string const &spool_dir,
                    DownloadOptions const &options)
{
  std::string const scheme = scheme_of(url);
  bool const is_http = scheme == "http" or scheme == "https";

  prepare_spool(spool_dir);

  // Redirects are followed by hand (follow_redirects), never by libcurl.
  detail::Easy easy{url, options.transfer,
                    detail::allowed({"http", "https", "file", "sftp"})};

  // Conditional GET: only when the earlier file is still in the spool.
  std::string const meta_path = sidecar_path(spool_dir, url);
  detail::Slist headers;
  headers.append("Accept-Encoding: identity");
  Earlier const earlier{conditional_headers(
    is_http and options.conditional ? read_meta(meta_path) : Meta{}, spool_dir,
    headers)};
  easy.set(CURLOPT_HTTPHEADER, headers.get());

  TempFile tmp{spool_dir};
  Sink sink;
  sink.h = easy.get();
  sink.fd = tmp.fd();
  sink.path = &tmp.path();
  sink.max_bytes = options.transfer.max_bytes;
  // A declared Content-Length above the limit is refused before the body.
  if (sink.max_bytes != 0)
    easy.set(CURLOPT_MAXFILESIZE_LARGE,
             static_cast<curl_off_t>(std::min<std::uint64_t>(
               sink.max_bytes, std::numeric_limits<curl_off_t>::max())));
  perform(easy, sink, tmp, scheme, url);
  if (is_http) follow_redirects(easy, sink, tmp, options);

  long const status = easy.response_code();
  Downloaded out;
  out.http_status = status;
  {
    char *eff = nullptr;
    curl_easy_getinfo(easy.get(), CURLINFO_EFFECTIVE_URL, &eff);
    out.url = eff != nullptr ? redact_url(eff) : easy.redacted_url();
  }
  if (is_http)
  {
    out.etag = easy.header("ETag");
    out.last_modified = easy.header("Last-Modified");
  }
  if (is_http and status == 304 and earlier.conditional)
    return not_modified(std::move(out), earlier);
  if (is_http and (status < 200 or status > 299))
    throw_http_status(easy, status);
  check_length(easy, sink.size, status);

  out.sha256 = sink.sha.hex();
  out.size = sink.size;
  out.path = spool_dir + "/" + out.sha256;
  tmp.commit(out.path, spool_dir);
  if (is_http) remember(easy, spool_dir, meta_path, out);
  return out;
}
} // namespace loader::net
