#include "io/file_scan.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include <sys/stat.h>

#include <boost/locale/utf.hpp>

#include "core/errors.hpp"
#include "io/sha256.hpp"

namespace loader::io
{
namespace
{
constexpr std::size_t read_chunk = 1 << 20;

struct FileCloser
{
  void operator()(std::FILE *f) const noexcept { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

File open_input(std::string const &path)
{
  struct stat st
  {};
  if (::stat(path.c_str(), &st) != 0)
  {
    int const err = errno;
    throw LoaderError{classify_errno(err),
                      "cannot read input " + path + ": " + std::strerror(err)};
  }
  if (not S_ISREG(st.st_mode))
    throw LoaderError{ErrorKind::no_input,
                      "input " + path + " is not a regular file"};
  File f{std::fopen(path.c_str(), "rb")};
  if (not f)
  {
    int const err = errno;
    throw LoaderError{classify_errno(err),
                      "cannot open input " + path + ": " + std::strerror(err)};
  }
  return f;
}

/// Feed the whole file to sha and scanner, chunk by chunk.
void read_all(std::FILE *f, std::string const &path, Sha256 &sha,
              CsvScanner &scanner, std::uint64_t &size)
{
  std::unique_ptr<char[]> buffer{new char[read_chunk]};
  for (;;)
  {
    std::size_t const n = std::fread(buffer.get(), 1, read_chunk, f);
    if (n > 0)
    {
      sha.update(buffer.get(), n);
      scanner.feed(buffer.get(), n);
      size += n;
    }
    if (n < read_chunk)
    {
      if (std::ferror(f))
      {
        int const err = errno;
        throw LoaderError{classify_errno(err),
                          "reading " + path +
                            " failed: " + std::strerror(err)};
      }
      break;
    }
  }
  scanner.finish();
}

class HeaderSink final : public CsvSink
{
public:
  explicit HeaderSink(std::vector<std::string> &header) : m_header{header} {}
  void on_header(std::vector<std::string> const &names) override
  {
    m_header = names;
  }
  void on_record(std::uint64_t, std::string_view) override {}

private:
  std::vector<std::string> &m_header;
};

} // namespace

FileScan scan_file(std::string const &path)
{
  File f{open_input(path)};
  FileScan out;
  HeaderSink sink{out.header};
  CsvScanner scanner{sink};
  Sha256 sha;
  read_all(f.get(), path, sha, scanner, out.size);
  out.sha256 = sha.hex();
  out.had_bom = scanner.had_bom();
  out.records = scanner.records();
  out.trailing_blank_lines = scanner.trailing_blank_lines();
  out.issue = scanner.issue();
  return out;
}

StreamResult stream_file(std::string const &path, CsvSink &sink)
{
  File f{open_input(path)};
  CsvScanner scanner{sink};
  Sha256 sha;
  std::uint64_t size = 0;
  read_all(f.get(), path, sha, scanner, size);
  StreamResult out;
  out.sha256 = sha.hex();
  out.records = scanner.records();
  out.issue = scanner.issue();
  return out;
}

std::string read_small_file(std::string const &path, std::size_t max_bytes)
{
  File f{open_input(path)};
  std::string text;
  std::unique_ptr<char[]> buffer{new char[64 * 1024]};
  for (;;)
  {
    std::size_t const n = std::fread(buffer.get(), 1, 64 * 1024, f.get());
    text.append(buffer.get(), n);
    if (text.size() > max_bytes)
      throw LoaderError{ErrorKind::data, path + " is larger than " +
                                           std::to_string(max_bytes) +
                                           " bytes"};
    if (n < 64 * 1024)
    {
      if (std::ferror(f.get()))
        throw LoaderError{ErrorKind::transient, "reading " + path + " failed"};
      break;
    }
  }
  // Text only: libpq would cut the text at a NUL, and the server refuses
  // invalid UTF-8 before any SQL runs (Boost.Locale's decoder, header-only).
  using utf = boost::locale::utf::utf_traits<char>;
  for (auto it = text.cbegin(); it != text.cend();)
  {
    auto const at = std::to_string(it - text.cbegin());
    auto const c = utf::decode(it, text.cend());
    if (c == 0 or c == boost::locale::utf::illegal or
        c == boost::locale::utf::incomplete)
      throw LoaderError{
        ErrorKind::data,
        path + " is not text: " +
          (c == 0 ? "a NUL byte" : "bytes that are not UTF-8") +
          " at byte offset " + at};
  }
  return text;
}
} // namespace loader::io
