// Both passes over an input file (scan_file, stream_file): one read of
// bounded memory each, hashing the delivered bytes and scanning the CSV
// they hold (decompressed first when they are gzip or zstd).
#include "io/file_scan.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include <sys/stat.h>

#include <boost/locale/utf.hpp>

#include "core/errors.hpp"
#include "io/decompress.hpp"
#include "io/sha256.hpp"
#include "io/transcode.hpp"

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

/// The next chunk of f into buffer (read_chunk bytes unless at the end).
std::size_t read_some(std::FILE *f, std::string const &path, char *buffer)
{
  std::size_t const n = std::fread(buffer, 1, read_chunk, f);
  if (n < read_chunk and std::ferror(f))
  {
    int const err = errno;
    throw LoaderError{classify_errno(err),
                      "reading " + path + " failed: " + std::strerror(err)};
  }
  return n;
}

std::uint64_t size_of(std::FILE *f)
{
  struct stat st
  {};
  if (::fstat(::fileno(f), &st) != 0) return 0;
  return static_cast<std::uint64_t>(st.st_size);
}

/// What the bytes pass through on their way to the scanner: as they are
/// (UTF-8), or turned into UTF-8 from the declared encoding.  A byte that
/// cannot be read stops the scan there, the scanner naming the record and
/// column it fell in.
class ToScanner
{
public:
  ToScanner(CsvScanner &scanner, Encoding encoding) : m_scanner{scanner}
  {
    if (encoding != Encoding::utf8) m_transcoder.emplace(encoding);
  }

  void operator()(char const *data, std::size_t size)
  {
    if (not m_transcoder)
    {
      m_scanner.feed(data, size);
      return;
    }
    if (m_stopped) return;
    m_utf8.clear();
    auto const stop = m_transcoder->convert(data, size, m_utf8);
    m_scanner.feed(m_utf8.data(), m_utf8.size());
    if (stop)
    {
      m_stopped = true;
      m_scanner.fail_encoding(stop->what);
    }
  }

private:
  CsvScanner &m_scanner;
  std::optional<Transcoder> m_transcoder;
  std::string m_utf8;
  bool m_stopped = false;
};

/// A compressed delivery: sha sees the delivered bytes, the scanner the
/// decompressed ones.  A problem of the stream ends the scan with a file
/// issue (the rest of the file is still hashed: the batch is named by all
/// of its bytes).
std::optional<CsvIssue> read_compressed(std::FILE *f, std::string const &path,
                                        Compression format, char *buffer,
                                        std::size_t n, Sha256 &sha,
                                        CsvScanner &scanner,
                                        std::uint64_t &size,
                                        ReadOptions const &read)
{
  std::uint64_t const delivered = size_of(f);
  ToScanner to_scanner{scanner, read.format.encoding};
  Decompressor d{
    format,
    read.max_decompressed_bytes
      ? *read.max_decompressed_bytes
      : default_decompressed_limit(delivered, read.format.max_expansion),
    delivered,
    [&to_scanner](char const *p, std::size_t k) { to_scanner(p, k); }};
  for (;;)
  {
    sha.update(buffer, n);
    size += n;
    d.feed(buffer, n);
    if (n < read_chunk) break;
    n = read_some(f, path, buffer);
  }
  d.finish();
  if (auto const &issue = d.issue())
    return CsvIssue{issue->problem == DecompressProblem::too_large
                      ? CsvProblem::decompressed_size
                      : CsvProblem::compression,
                    0, issue->detail};
  scanner.finish();
  return std::nullopt;
}

/// Feed the whole file to sha and scanner, chunk by chunk; a file that
/// starts with the magic bytes of gzip or zstd is decompressed on the way
/// to the scanner (read_compressed), any other file goes as it is.
/// Returns a problem of the compressed stream, if any.
std::optional<CsvIssue> read_all(std::FILE *f, std::string const &path,
                                 Sha256 &sha, CsvScanner &scanner,
                                 std::uint64_t &size, ReadOptions const &read)
{
  std::unique_ptr<char[]> buffer{new char[read_chunk]};
  std::size_t n = read_some(f, path, buffer.get());
  if (Compression const format = compression_of({buffer.get(), n});
      format != Compression::none)
    return read_compressed(f, path, format, buffer.get(), n, sha, scanner,
                           size, read);
  ToScanner to_scanner{scanner, read.format.encoding};
  for (;;)
  {
    if (n > 0)
    {
      sha.update(buffer.get(), n);
      to_scanner(buffer.get(), n);
      size += n;
    }
    if (n < read_chunk) break;
    n = read_some(f, path, buffer.get());
  }
  scanner.finish();
  return std::nullopt;
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

CsvDialect dialect_of(FileFormat const &f)
{
  return {f.delimiter, f.quote, f.header};
}

FileScan scan_file(std::string const &path, ReadOptions const &read)
{
  File f{open_input(path)};
  FileScan out;
  HeaderSink sink{out.header};
  CsvScanner scanner{sink, {}, dialect_of(read.format)};
  Sha256 sha;
  std::optional<CsvIssue> const stream_issue{
    read_all(f.get(), path, sha, scanner, out.size, read)};
  out.sha256 = sha.hex();
  out.had_bom = scanner.had_bom();
  out.records = scanner.records();
  out.trailing_blank_lines = scanner.trailing_blank_lines();
  // A broken stream outranks what the scanner made of its bytes.
  out.issue = stream_issue ? stream_issue : scanner.issue();
  out.read = read;
  return out;
}

StreamResult stream_file(std::string const &path, CsvSink &sink,
                         ReadOptions const &read)
{
  File f{open_input(path)};
  CsvScanner scanner{sink, {}, dialect_of(read.format)};
  Sha256 sha;
  std::uint64_t size = 0;
  std::optional<CsvIssue> const stream_issue{
    read_all(f.get(), path, sha, scanner, size, read)};
  StreamResult out;
  out.sha256 = sha.hex();
  out.records = scanner.records();
  out.issue = stream_issue ? stream_issue : scanner.issue();
  return out;
}

Compression compression_of_file(std::string const &path)
{
  // Only a regular file is opened: a FIFO would block here.
  struct stat st
  {};
  if (::stat(path.c_str(), &st) != 0 or not S_ISREG(st.st_mode))
    return Compression::none;
  File f{std::fopen(path.c_str(), "rb")};
  if (not f) return Compression::none;
  char head[4];
  std::size_t const n = std::fread(head, 1, sizeof head, f.get());
  return compression_of({head, n});
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
