#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/utf8.hpp"

namespace loader::io
{
/// Structural problems found while scanning a file.  Each has a stable rule
/// code (rule_of), stored with the quarantined batch; see sql/ERRCODES.md.
enum class CsvProblem
{
  empty_file,        ///< csv.empty_file: zero bytes (no header)
  nul_byte,          ///< csv.nul_byte
  invalid_utf8,      ///< csv.encoding
  quoting,           ///< csv.quoting: stray or unterminated quote
  line_endings,      ///< csv.line_endings: mixed LF/CRLF, bare CR
  column_count,      ///< csv.column_count: fields != header fields
  end_marker,        ///< csv.end_marker: a line that is exactly \. (COPY)
  record_too_long,   ///< csv.record_too_long
  header_empty_name, ///< header.empty_name
  blank_line,        ///< csv.blank_line: a blank line before more data
  // Found by the decompressing reader (io/decompress.hpp), not the scanner:
  compression,       ///< file.compression: a corrupt or truncated stream
  decompressed_size, ///< file.decompressed_size: past the size limit
};

std::string_view rule_of(CsvProblem p) noexcept;

struct CsvIssue
{
  CsvProblem problem;
  std::uint64_t record_no; ///< 0 = the header, 1 = first data record
  std::string detail;      ///< a sentence a clerk can act on
};

struct CsvLimits
{
  std::size_t max_record_bytes = 1 << 20;
  std::size_t max_header_fields = 64;
};

/// The characters a file's records are written with (a source's format,
/// io/file_format.hpp); the default is the contract's.
struct CsvDialect
{
  char delimiter = ',';
  char quote = '"';
  /// false: no header line; the first line is record 1, and the header
  /// the sink is given names the positions "1", "2", ...
  bool header = true;
};

/// Receives what the scanner finds, in file order.
class CsvSink
{
public:
  virtual ~CsvSink() = default;
  /// Once, with the unquoted header names (BOM already stripped), or the
  /// positions' numbers for a file without a header.
  virtual void on_header(std::vector<std::string> const &names) = 0;
  /// Once per data record: its raw bytes without the line terminator
  /// (quotes kept as in the file), valid only during the call.
  virtual void on_record(std::uint64_t record_no, std::string_view raw) = 0;
};

/// Incremental RFC 4180 scanner: UTF-8 and NUL check, quoting, consistent
/// line endings (taken from the header line), same field count as the
/// header.  Memory is bounded by max_record_bytes, whatever the file size.
/// Stops at the first problem: later feed() calls are ignored.
///
/// A blank line (nothing before its LF or CRLF, outside quotes) is not a
/// record: blank lines at the very end of the file are ignored, a blank
/// line followed by more data is a problem (csv.blank_line), and so is a
/// blank first line (the header is missing).
class CsvScanner
{
public:
  explicit CsvScanner(CsvSink &sink, CsvLimits limits = {},
                      CsvDialect dialect = {});

  /// Scan the next chunk; throws std::logic_error after finish().
  void feed(char const *data, std::size_t size);
  /// End of input: emits a last record without terminator, checks for an
  /// unterminated quote and an empty file.
  void finish();

  /// Stop with csv.encoding at the current position: what names the bytes
  /// (the caller decoded them), the scanner adds the record and column.
  void fail_encoding(std::string const &what);

  /// The first problem, if any.
  std::optional<CsvIssue> const &issue() const noexcept;
  bool had_bom() const noexcept;
  bool crlf() const noexcept;
  std::uint64_t records() const noexcept; ///< data records emitted
  /// Blank lines at the end of the file, ignored (after finish()).
  std::uint64_t trailing_blank_lines() const noexcept;
  std::uint64_t bytes() const noexcept; ///< bytes fed, BOM included

private:
  /// What a byte did to the record (CsvScanner::advance).
  enum class Next
  {
    more,        ///< the record goes on
    record_lf,   ///< a LF ended it
    record_crlf, ///< a CR LF ended it
    failed       ///< the scan failed; m_issue says why
  };
  void scan(char const *data, std::size_t size);
  bool check_byte(unsigned char c, std::size_t i);
  Next advance(unsigned char c);
  void end_record(std::string_view raw, bool terminated, bool crlf);
  void end_header(std::string_view raw);
  void fail(CsvProblem problem, std::string detail);
  void fail_blank_lines();
  std::uint64_t current_record() const noexcept;
  std::string column_name() const;

  CsvSink &m_sink;
  CsvLimits m_limits;
  std::optional<CsvIssue> m_issue;
  bool m_bom = false;
  bool m_crlf = false;
  std::uint64_t m_records = 0;
  std::uint64_t m_bytes = 0;
  // Implementation state; the meaning of each value is in csv_scan.cpp.
  CsvDialect m_dialect;
  std::array<bool, 256> m_plain{};  ///< bytes the fast path may skip
  std::vector<std::string> m_names; ///< the header's, for messages
  std::string m_carry;              ///< start of a record cut by a chunk end
  std::uint64_t m_offset = 0;       ///< file offset of the next byte scanned
  std::size_t m_record_len = 0;     ///< bytes of the current record so far
  std::size_t m_fields = 0;         ///< commas seen in the current record
  std::size_t m_header_fields = 0;
  std::uint64_t m_lines_ended = 0; ///< LFs seen, quoted ones included
  std::uint64_t m_blank_lines = 0; ///< blank lines since the last record
  std::uint64_t m_blank_first = 0; ///< line number of the first of them
  std::uint8_t m_phase = 0;        ///< BOM check, scanning, finished
  std::uint8_t m_state = 0;        ///< where in a record the scanner is
  std::uint8_t m_line = 0;         ///< progress towards a line that is \.
  std::uint8_t m_prefix_seen = 0;  ///< BOM bytes matched so far
  Utf8Decoder m_utf8;              ///< the one UTF-8 validator (core/utf8.hpp)
  bool m_header_done = false;
};
} // namespace loader::io
