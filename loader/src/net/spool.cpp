// The spool's files: its directory, temporary files, the sidecars of
// validators, and its housekeeping (net/spool.hpp).
#include "net/spool.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fcntl.h>
#include <sys/stat.h>

#include "io/sha256.hpp"
#include "net/transport.hpp"

namespace loader::net
{
namespace spool
{
namespace fs = std::filesystem;

[[noreturn]] void throw_errno(int err, std::string const &what)
{
  throw TransportError{classify_errno(err) == ErrorKind::internal
                         ? ErrorKind::internal
                         : classify_errno(err),
                       what + ": " + std::strerror(err),
                       0,
                       0,
                       false,
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

void prepare_spool(std::string const &dir)
{
  std::error_code ec;
  if (fs::create_directories(dir, ec)) ::chmod(dir.c_str(), 0700);
  if (ec) throw_errno(ec.value(), "cannot create spool directory " + dir);
  struct stat st
  {};
  if (::stat(dir.c_str(), &st) != 0)
    throw_errno(errno, "cannot use spool directory " + dir);
  if (not S_ISDIR(st.st_mode) or st.st_uid != ::geteuid() or
      (st.st_mode & 022) != 0)
    throw TransportError{ErrorKind::config,
                         "spool directory " + dir +
                           " must be a directory owned by this user and "
                           "writable by no one else",
                         0,
                         0,
                         false,
                         std::nullopt};
}

TempFile::TempFile(std::string const &dir)
{
  std::string tmpl = dir + "/.part-XXXXXX";
  m_fd = ::mkstemp(tmpl.data());
  if (m_fd < 0)
    throw_errno(errno, "cannot create a file in spool directory " + dir);
  m_path = tmpl;
}

void TempFile::commit(std::string const &target, std::string const &dir)
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

namespace
{
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

} // namespace

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

bool is_sha256_hex(std::string const &s) noexcept
{
  if (s.size() != 64) return false;
  for (char c : s)
    if (not((c >= '0' and c <= '9') or (c >= 'a' and c <= 'f'))) return false;
  return true;
}

std::uint64_t file_size_or_zero(std::string const &path, bool &exists)
{
  struct stat st
  {};
  exists = ::stat(path.c_str(), &st) == 0 and S_ISREG(st.st_mode);
  return exists ? static_cast<std::uint64_t>(st.st_size) : 0;
}
} // namespace spool

namespace fs = std::filesystem;

std::size_t remove_stale_temporaries(std::string const &spool_dir,
                                     std::chrono::seconds older_than)
{
  std::error_code ec;
  std::size_t removed = 0;
  auto const cutoff = fs::file_time_type::clock::now() - older_than;
  for (fs::directory_iterator it{spool_dir, ec}, end; not ec and it != end;
       it.increment(ec))
  {
    std::string const name = it->path().filename().string();
    if (name.rfind(".part-", 0) != 0) continue;
    std::error_code e2;
    auto const t = fs::last_write_time(it->path(), e2);
    if (e2 or t > cutoff) continue;
    if (fs::remove(it->path(), e2)) ++removed;
  }
  return removed;
}
} // namespace loader::net
