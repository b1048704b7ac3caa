// download(): one GET into the spool, hashed while written, renamed to its
// SHA-256 only when complete; conditional GET from a sidecar.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/sha256.hpp"
#include "net/curl_easy.hpp"

namespace loader::net
{
namespace
{
namespace fs = std::filesystem;

[[noreturn]] void throw_errno(int err, std::string const &what)
{
  throw TransportError{classify_errno(err) == ErrorKind::internal
                         ? ErrorKind::internal
                         : classify_errno(err),
                       what + ": " + std::strerror(err), 0, 0, false,
                       std::nullopt};
}

void fsync_dir(std::string const &dir)
{
  int const fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) throw_errno(errno, "cannot open spool directory " + dir);
  int const rc = ::fsync(fd);
  int const err = errno;
  ::close(fd);
  if (rc != 0) throw_errno(err, "cannot fsync spool directory " + dir);
}

/// Create the spool directory (0700) if missing, and refuse one that
/// someone else owns or may write to: in a shared /var/tmp another user
/// could otherwise plant files under a hash name.
void prepare_spool(std::string const &dir)
{
  std::error_code ec;
  if (fs::create_directories(dir, ec)) ::chmod(dir.c_str(), 0700);
  if (ec) throw_errno(ec.value(), "cannot create spool directory " + dir);
  struct stat st{};
  if (::stat(dir.c_str(), &st) != 0)
    throw_errno(errno, "cannot use spool directory " + dir);
  if (not S_ISDIR(st.st_mode) or st.st_uid != ::geteuid() or
      (st.st_mode & 022) != 0)
    throw TransportError{ErrorKind::config,
                         "spool directory " + dir +
                           " must be a directory owned by this user and "
                           "writable by no one else",
                         0, 0, false, std::nullopt};
}

/// A temporary file in the spool, removed unless commit() renamed it.
class TempFile
{
public:
  explicit TempFile(std::string const &dir)
  {
    std::string tmpl = dir + "/.part-XXXXXX";
    m_fd = ::mkstemp(tmpl.data());
    if (m_fd < 0)
      throw_errno(errno, "cannot create a file in spool directory " + dir);
    m_path = tmpl;
  }
  TempFile(TempFile const &) = delete;
  TempFile &operator=(TempFile const &) = delete;
  ~TempFile()
  {
    if (m_fd >= 0) ::close(m_fd);
    if (not m_path.empty()) ::unlink(m_path.c_str());
  }
  int fd() const noexcept { return m_fd; }
  std::string const &path() const noexcept { return m_path; }

  /// fsync, close, rename to target (atomic), fsync the directory.
  void commit(std::string const &target, std::string const &dir)
  {
    if (::fsync(m_fd) != 0) throw_errno(errno, "cannot fsync " + m_path);
    int const fd = m_fd;
    m_fd = -1;
    if (::close(fd) != 0) throw_errno(errno, "cannot close " + m_path);
    if (::rename(m_path.c_str(), target.c_str()) != 0)
      throw_errno(errno, "cannot rename " + m_path + " to " + target);
    m_path.clear();
    fsync_dir(dir);
  }

private:
  int m_fd = -1;
  std::string m_path;
};

void write_all(int fd, char const *p, std::size_t n, std::string const &path)
{
  while (n > 0)
  {
    ssize_t const w = ::write(fd, p, n);
    if (w < 0)
    {
      if (errno == EINTR) continue;
      throw_errno(errno, "cannot write " + path);
    }
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}

/// The sidecar of one URL: key=value lines (sha256, size, etag,
/// last_modified, url).  Values are header values, which hold no newline.
using Meta = std::map<std::string, std::string>;

std::string sidecar_path(std::string const &spool, std::string const &url)
{
  io::Sha256 h;
  std::string const key = redact_url(url);
  h.update(key.data(), key.size());
  return spool + "/" + h.hex() + ".meta";
}

Meta read_meta(std::string const &path)
{
  Meta m;
  std::ifstream in{path};
  std::string line;
  while (std::getline(in, line))
  {
    if (line.empty() or line[0] == '#') continue;
    auto const eq = line.find('=');
    if (eq == std::string::npos) continue;
    m[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return m;
}

void write_meta(std::string const &spool, std::string const &path,
                Meta const &m)
{
  TempFile tmp{spool};
  std::string text =
    "# invoice-loader: validators of the last download of this URL\n";
  for (auto const &[k, v] : m) text += k + "=" + v + "\n";
  write_all(tmp.fd(), text.data(), text.size(), tmp.path());
  tmp.commit(path, spool);
}

/// 64 lower-case hex digits: a name in the spool, nothing else.
bool is_sha256_hex(std::string const &s) noexcept
{
  if (s.size() != 64) return false;
  for (char c : s)
    if (not((c >= '0' and c <= '9') or (c >= 'a' and c <= 'f'))) return false;
  return true;
}

std::uint64_t file_size_or_zero(std::string const &path, bool &exists)
{
  struct stat st{};
  exists = ::stat(path.c_str(), &st) == 0 and S_ISREG(st.st_mode);
  return exists ? static_cast<std::uint64_t>(st.st_size) : 0;
}

/// What the write callback needs.  Bodies of error responses (a 503's
/// HTML) are not written to the spool.
struct Sink
{
  CURL *h = nullptr;
  int fd = -1;
  std::string const *path = nullptr;
  io::Sha256 sha;
  std::uint64_t size = 0;
  int write_errno = 0;
};

std::size_t on_write(char *p, std::size_t, std::size_t n, void *user)
{
  auto &s = *static_cast<Sink *>(user);
  long status = 0;
  curl_easy_getinfo(s.h, CURLINFO_RESPONSE_CODE, &status);
  if (status != 0 and (status < 200 or status > 299)) return n;
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
    if (fd >= 0) ::close(fd);
    else if (err != ENOENT and err != ENOTDIR)
      throw TransportError{classify_errno(err),
                           "GET " + easy.redacted_url() + ": " +
                             std::strerror(err),
                           code, 0, false, std::nullopt};
  }
  detail::throw_curl(easy, "GET", code);
}
} // namespace

Downloaded download(std::string const &url, std::string const &spool_dir,
                    DownloadOptions const &options)
{
  std::string const scheme = scheme_of(url);
  bool const is_http = scheme == "http" or scheme == "https";

  prepare_spool(spool_dir);

  detail::Easy easy{url, options.transfer,
                    detail::allowed({"http", "https", "file", "sftp"})};
  if (is_http and options.transfer.max_redirects > 0)
  {
    easy.set(CURLOPT_FOLLOWLOCATION, 1L);
    easy.set(CURLOPT_MAXREDIRS, options.transfer.max_redirects);
    // Never from https down to http, never to file:// or elsewhere.
    easy.set(CURLOPT_REDIR_PROTOCOLS_STR,
             scheme == "https" ? "https" : "http,https");
  }

  // Conditional GET: only when the earlier file is still in the spool.
  std::string const meta_path = sidecar_path(spool_dir, url);
  Meta const earlier = is_http and options.conditional
                         ? read_meta(meta_path)
                         : Meta{};
  bool conditional = false;
  std::string earlier_path;
  std::uint64_t earlier_size = 0;
  detail::Slist headers;
  headers.append("Accept-Encoding: identity");
  if (auto it = earlier.find("sha256");
      it != earlier.end() and is_sha256_hex(it->second))
  {
    earlier_path = spool_dir + "/" + it->second;
    bool exists = false;
    earlier_size = file_size_or_zero(earlier_path, exists);
    auto const sz = earlier.find("size");
    if (exists and sz != earlier.end() and
        sz->second == std::to_string(earlier_size))
    {
      auto const etag = earlier.find("etag");
      auto const lm = earlier.find("last_modified");
      if (etag != earlier.end() and not etag->second.empty())
      {
        headers.append("If-None-Match: " + etag->second);
        conditional = true;
      }
      if (lm != earlier.end() and not lm->second.empty())
      {
        headers.append("If-Modified-Since: " + lm->second);
        conditional = true;
      }
    }
  }
  easy.set(CURLOPT_HTTPHEADER, headers.get());

  TempFile tmp{spool_dir};
  Sink sink;
  sink.h = easy.get();
  sink.fd = tmp.fd();
  sink.path = &tmp.path();
  easy.set(CURLOPT_WRITEFUNCTION, on_write);
  easy.set(CURLOPT_WRITEDATA, static_cast<void *>(&sink));

  CURLcode const rc = easy.perform();
  if (rc == CURLE_WRITE_ERROR and sink.write_errno != 0)
    throw_errno(sink.write_errno, "GET " + easy.redacted_url() +
                                    ": cannot write " + tmp.path());
  if (rc == CURLE_FILE_COULDNT_READ_FILE and scheme == "file")
    throw_file_url(easy, rc, url);
  if (rc != CURLE_OK) detail::throw_curl(easy, "GET", rc);

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

  if (is_http and status == 304 and conditional)
  {
    out.path = earlier_path;
    out.sha256 = earlier.at("sha256");
    out.size = earlier_size;
    out.not_modified = true;
    if (out.etag.empty() and earlier.count("etag"))
      out.etag = earlier.at("etag");
    if (out.last_modified.empty() and earlier.count("last_modified"))
      out.last_modified = earlier.at("last_modified");
    return out;
  }
  if (is_http and (status < 200 or status > 299))
  {
    std::string const after = easy.header("Retry-After");
    std::string reason = "HTTP " + std::to_string(status);
    if (status == 304) reason += " without a conditional request";
    int const s = static_cast<int>(status);
    throw TransportError{classify_http_status(s),
                         "GET " + easy.redacted_url() + ": " + reason, 0,
                         status, is_not_delivered_http(s),
                         after.empty() ? std::nullopt
                                       : parse_retry_after(after)};
  }

  // The whole body?  libcurl reports a short body on a closed connection
  // as 18; check Content-Length here as well, whatever the protocol.
  curl_off_t length = -1;
  curl_easy_getinfo(easy.get(), CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length);
  if (length >= 0 and static_cast<std::uint64_t>(length) != sink.size)
    throw TransportError{ErrorKind::transient,
                         "GET " + easy.redacted_url() + ": body of " +
                           std::to_string(sink.size) +
                           " bytes, Content-Length said " +
                           std::to_string(length),
                         CURLE_PARTIAL_FILE, status, false, std::nullopt};

  out.sha256 = sink.sha.hex();
  out.size = sink.size;
  out.path = spool_dir + "/" + out.sha256;
  tmp.commit(out.path, spool_dir);

  if (is_http)
  {
    if (out.etag.empty() and out.last_modified.empty())
      ::unlink(meta_path.c_str());
    else
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
  return out;
}
} // namespace loader::net
