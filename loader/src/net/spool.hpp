#pragma once
// The spool's files (internal to net/download.cpp and net/spool.cpp): its
// directory, temporary files renamed into place only when complete, and
// the sidecar of validators kept per URL for a conditional GET.
#include <cstdint>
#include <map>
#include <string>

#include <unistd.h>

namespace loader::net::spool
{
/// A failed file operation as a TransportError classified by errno.
[[noreturn]] void throw_errno(int err, std::string const &what);

void fsync_dir(std::string const &dir);

/// Create the spool directory (0700) if missing, and refuse one that
/// someone else owns or may write to: in a shared /var/tmp another user
/// could otherwise plant files under a hash name.
void prepare_spool(std::string const &dir);

/// A temporary file in the spool, removed unless commit() renamed it.
class TempFile
{
public:
  explicit TempFile(std::string const &dir);
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
  void commit(std::string const &target, std::string const &dir);

private:
  int m_fd = -1;
  std::string m_path;
};

/// The sidecar of one URL: key=value lines (sha256, size, etag,
/// last_modified, url).  Values are header values, which hold no newline.
using Meta = std::map<std::string, std::string>;

std::string sidecar_path(std::string const &spool, std::string const &url);
Meta read_meta(std::string const &path);
void write_meta(std::string const &spool, std::string const &path,
                Meta const &m);

/// 64 lower-case hex digits: a name in the spool, nothing else.
bool is_sha256_hex(std::string const &s) noexcept;

std::uint64_t file_size_or_zero(std::string const &path, bool &exists);
} // namespace loader::net::spool
