#include "io/csv_scan.hpp"

#include <array>
#include <stdexcept>
#include <utility>

namespace loader::io
{
namespace
{
// The scanner's small state values.  Each starts at 0, which is what the
// header's member initialisers set.

/// m_phase: looking for a BOM, scanning, finish() called.
enum : std::uint8_t { phase_bom = 0, phase_scan, phase_done };

/// m_state: where in a record the next byte falls.  The fast path in
/// scan() takes the states up to st_quoted; keep them first.
enum : std::uint8_t
{
  st_field_start = 0, ///< first byte of a field
  st_unquoted,        ///< inside an unquoted field
  st_quoted,          ///< inside a quoted field
  st_quote_seen,      ///< a quote inside a quoted field: "" or the end
  st_cr,              ///< a CR outside quotes: must be followed by LF
};

/// m_line: progress through the current physical line towards "\." (a
/// line PostgreSQL 15 COPY takes for the end of the data).
enum : std::uint8_t
{
  ln_start = 0, ///< nothing seen on this line yet
  ln_backslash, ///< the line so far is "\"
  ln_dot,       ///< the line so far is "\."
  ln_dot_cr,    ///< the line so far is "\.\r"
  ln_other,     ///< the line is something else
};

constexpr char bom_bytes[] = "\xEF\xBB\xBF";
constexpr std::uint8_t bom_size = 3;

/// Bytes that need no attention inside a field: ASCII except NUL, the
/// quote, the comma and the line terminators.
constexpr std::array<bool, 256> make_plain_table()
{
  std::array<bool, 256> t{};
  for (std::size_t c = 1; c < 0x80; ++c) t[c] = true;
  t[std::size_t{'"'}] = false;
  t[std::size_t{','}] = false;
  t[std::size_t{'\r'}] = false;
  t[std::size_t{'\n'}] = false;
  return t;
}
constexpr std::array<bool, 256> plain = make_plain_table();

std::string record_name(std::uint64_t record_no)
{
  if (record_no == 0) return "the header";
  return "record " + std::to_string(record_no);
}

std::string hex_byte(unsigned char c)
{
  static char const digits[] = "0123456789ABCDEF";
  std::string out{"0x"};
  out.push_back(digits[c >> 4]);
  out.push_back(digits[c & 0x0f]);
  return out;
}

std::string fields_phrase(std::size_t n)
{
  return std::to_string(n) + (n == 1 ? " field" : " fields");
}

/// Split a header line the scanner has already checked into unquoted
/// names.
std::vector<std::string> split_header(std::string_view raw,
                                      std::size_t count)
{
  std::vector<std::string> names;
  names.reserve(count);
  std::size_t k = 0;
  for (;;)
  {
    std::string name;
    if (k < raw.size() and raw[k] == '"')
    {
      for (++k; k < raw.size(); ++k)
      {
        if (raw[k] != '"')
        {
          name.push_back(raw[k]);
        }
        else if (k + 1 < raw.size() and raw[k + 1] == '"')
        {
          name.push_back('"');
          ++k;
        }
        else
        {
          ++k;
          break;
        }
      }
    }
    else
    {
      for (; k < raw.size() and raw[k] != ','; ++k) name.push_back(raw[k]);
    }
    names.push_back(std::move(name));
    if (k >= raw.size()) break;
    ++k; // the comma
  }
  return names;
}
} // namespace

std::string_view rule_of(CsvProblem p) noexcept
{
  switch (p)
  {
  case CsvProblem::empty_file: return "csv.empty_file";
  case CsvProblem::nul_byte: return "csv.nul_byte";
  case CsvProblem::invalid_utf8: return "csv.encoding";
  case CsvProblem::quoting: return "csv.quoting";
  case CsvProblem::line_endings: return "csv.line_endings";
  case CsvProblem::column_count: return "csv.column_count";
  case CsvProblem::end_marker: return "csv.end_marker";
  case CsvProblem::record_too_long: return "csv.record_too_long";
  case CsvProblem::header_empty_name: return "header.empty_name";
  case CsvProblem::blank_line: return "csv.blank_line";
  }
  return "csv.unknown";
}

CsvScanner::CsvScanner(CsvSink &sink, CsvLimits limits) :
        m_sink{sink}, m_limits{limits}
{}

std::optional<CsvIssue> const &CsvScanner::issue() const noexcept
{
  return m_issue;
}

bool CsvScanner::had_bom() const noexcept { return m_bom; }

bool CsvScanner::crlf() const noexcept { return m_crlf; }

std::uint64_t CsvScanner::records() const noexcept { return m_records; }

std::uint64_t CsvScanner::bytes() const noexcept { return m_bytes; }

std::uint64_t CsvScanner::trailing_blank_lines() const noexcept
{
  return m_issue ? 0 : m_blank_lines;
}

std::uint64_t CsvScanner::current_record() const noexcept
{
  return m_header_done ? m_records + 1 : 0;
}

void CsvScanner::fail(CsvProblem problem, std::string detail)
{
  m_issue = CsvIssue{problem, current_record(), std::move(detail)};
}

void CsvScanner::fail_blank_lines()
{
  std::uint64_t const last = m_blank_first + m_blank_lines - 1;
  std::string const lines =
    m_blank_lines == 1
      ? "line " + std::to_string(m_blank_first) + " is blank"
      : "lines " + std::to_string(m_blank_first) + " to " +
          std::to_string(last) + " are blank";
  std::string const before =
    m_records == 0 ? "the header" : record_name(m_records);
  fail(CsvProblem::blank_line,
       lines + " (between " + before + " and " +
         record_name(m_records + 1) +
         "); blank lines are allowed only at the end of the file");
}

void CsvScanner::feed(char const *data, std::size_t size)
{
  if (m_phase == phase_done)
    throw std::logic_error{"CsvScanner::feed() after finish()"};
  m_bytes += size;
  if (m_issue or size == 0) return;

  std::size_t i = 0;
  if (m_phase == phase_bom)
  {
    // The BOM may be cut by chunk ends; the bytes matched so far are the
    // BOM's own, so a mismatch replays them from bom_bytes.
    while (i < size and m_prefix_seen < bom_size and
           data[i] == bom_bytes[m_prefix_seen])
    {
      ++i;
      ++m_prefix_seen;
    }
    if (m_prefix_seen == bom_size)
    {
      m_bom = true;
      m_offset = bom_size;
      m_phase = phase_scan;
    }
    else if (i < size)
    {
      m_phase = phase_scan;
      scan(bom_bytes, m_prefix_seen);
      if (m_issue) return;
    }
    else
    {
      return;
    }
  }
  scan(data + i, size - i);
}

void CsvScanner::scan(char const *data, std::size_t size)
{
  auto const *const p = reinterpret_cast<unsigned char const *>(data);
  std::size_t const max = m_limits.max_record_bytes;
  std::size_t begin = 0; // where the current record starts in this chunk

  // Emits the record that a LF at data[i] terminates.
  auto const end_here = [&](std::size_t i, bool crlf) {
    std::size_t const end = i + 1;
    std::size_t const term = crlf ? 2 : 1;
    if (m_carry.empty())
    {
      end_record(std::string_view{data + begin, end - begin - term}, true,
                 crlf);
    }
    else
    {
      m_carry.append(data + begin, end - begin);
      m_carry.resize(m_carry.size() - term);
      end_record(m_carry, true, crlf);
      m_carry.clear();
    }
    begin = end;
  };

  std::size_t i = 0;
  while (i < size)
  {
    // Fast path: plain ASCII in the middle of a line and of a field, up to
    // the record size limit (the byte past it takes the slow path).
    if (m_state <= st_quoted and m_line == ln_other and m_utf8.idle() and
        plain[p[i]])
    {
      std::size_t const room = max - m_record_len;
      std::size_t const stop = (size - i > room) ? i + room : size;
      std::size_t j = i;
      while (j < stop and plain[p[j]]) ++j;
      if (j > i)
      {
        m_record_len += j - i;
        if (m_state == st_field_start) m_state = st_unquoted;
        i = j;
        if (i == size) break;
      }
    }

    unsigned char const c = p[i];
    // Blank lines followed by anything but more blank lines (LF, or CR
    // then LF) are in the middle of the data.  They are pending only at
    // the start of a record, which is the start of a line: the fast path
    // above never runs there (m_line is ln_start).
    if (m_blank_lines != 0 and c != '\n' and
        not (c == '\r' and m_state == st_field_start))
    {
      fail_blank_lines();
      return;
    }
    if (c == 0)
    {
      fail(CsvProblem::nul_byte,
           record_name(current_record()) + " contains a NUL byte (file "
           "offset " + std::to_string(m_offset + i) + ")");
      return;
    }

    if (not m_utf8.idle() or c >= 0x80)
    {
      if (m_utf8.step(c) == Utf8Decoder::Step::invalid)
      {
        fail(CsvProblem::invalid_utf8,
             record_name(current_record()) + " is not valid UTF-8: "
             "unexpected byte " + hex_byte(c) + " at file offset " +
             std::to_string(m_offset + i));
        return;
      }
    }

    if (c == '\n')
    {
      if (m_line == ln_dot or m_line == ln_dot_cr)
      {
        fail(CsvProblem::end_marker,
             record_name(current_record()) + " contains a line that is "
             "only \\., which PostgreSQL COPY reads as the end of the data");
        return;
      }
      m_line = ln_start;
      ++m_lines_ended;
    }
    else if (m_line != ln_other)
    {
      if (m_line == ln_start and c == '\\') m_line = ln_backslash;
      else if (m_line == ln_backslash and c == '.') m_line = ln_dot;
      else if (m_line == ln_dot and c == '\r') m_line = ln_dot_cr;
      else m_line = ln_other;
    }

    // Everything but a line terminator outside quotes is record content.
    if (m_state == st_quoted or (c != '\n' and c != '\r'))
    {
      if (m_record_len >= max)
      {
        fail(CsvProblem::record_too_long,
             record_name(current_record()) + " is longer than " +
             std::to_string(max) + " bytes");
        return;
      }
      ++m_record_len;
    }

    switch (m_state)
    {
    case st_field_start:
      if (c == '"')
      {
        m_state = st_quoted;
        break;
      }
      m_state = st_unquoted;
      [[fallthrough]];
    case st_unquoted:
      if (c == ',')
      {
        ++m_fields;
        m_state = st_field_start;
      }
      else if (c == '"')
      {
        fail(CsvProblem::quoting,
             record_name(current_record()) + " has a quote inside an "
             "unquoted field (quote the whole field and double the quote)");
        return;
      }
      else if (c == '\r')
      {
        m_state = st_cr;
      }
      else if (c == '\n')
      {
        end_here(i, false);
        if (m_issue) return;
      }
      break;
    case st_quoted:
      if (c == '"') m_state = st_quote_seen;
      break;
    case st_quote_seen:
      if (c == '"')
      {
        m_state = st_quoted;
      }
      else if (c == ',')
      {
        ++m_fields;
        m_state = st_field_start;
      }
      else if (c == '\r')
      {
        m_state = st_cr;
      }
      else if (c == '\n')
      {
        end_here(i, false);
        if (m_issue) return;
      }
      else
      {
        fail(CsvProblem::quoting,
             record_name(current_record()) + " has text after the closing "
             "quote of a field");
        return;
      }
      break;
    case st_cr:
      if (c != '\n')
      {
        fail(CsvProblem::line_endings,
             record_name(current_record()) + " contains a carriage return "
             "that is not followed by a line feed");
        return;
      }
      end_here(i, true);
      if (m_issue) return;
      break;
    }
    ++i;
  }

  if (begin < size) m_carry.append(data + begin, size - begin);
  m_offset += size;
}

void CsvScanner::end_header(std::string_view raw)
{
  std::size_t const count = m_fields + 1;
  if (count > m_limits.max_header_fields)
  {
    fail(CsvProblem::column_count,
         "the header has " + fields_phrase(count) + "; at most " +
         std::to_string(m_limits.max_header_fields) + " are allowed");
    return;
  }
  std::vector<std::string> const names = split_header(raw, count);
  for (std::size_t k = 0; k < names.size(); ++k)
  {
    if (names[k].empty())
    {
      fail(CsvProblem::header_empty_name,
           "the header's column " + std::to_string(k + 1) + " of " +
           std::to_string(names.size()) + " has an empty name");
      return;
    }
  }
  m_header_fields = count;
  m_header_done = true;
  m_sink.on_header(names);
}

void CsvScanner::end_record(std::string_view raw, bool terminated,
                            bool crlf)
{
  if (not m_header_done)
  {
    if (raw.empty())
    {
      fail(CsvProblem::blank_line,
           "line 1 is blank; the file must start with the header line");
      return;
    }
    end_header(raw);
    if (m_issue) return;
    // The header line's terminator decides for the whole file.
    if (terminated) m_crlf = crlf;
  }
  else
  {
    if (terminated and crlf != m_crlf)
    {
      fail(CsvProblem::line_endings,
           record_name(current_record()) + " ends with " +
           (crlf ? "CRLF" : "LF") + " but the header line ends with " +
           (m_crlf ? "CRLF" : "LF"));
      return;
    }
    if (raw.empty())
    {
      // Not a record (not even under a one-column header: an empty value
      // there is written ""); an error only if more data follows.
      if (m_blank_lines == 0) m_blank_first = m_lines_ended;
      ++m_blank_lines;
      m_state = st_field_start;
      return;
    }
    std::size_t const fields = m_fields + 1;
    if (fields != m_header_fields)
    {
      fail(CsvProblem::column_count,
           record_name(current_record()) + " has " + fields_phrase(fields) +
           "; the header has " + std::to_string(m_header_fields));
      return;
    }
    ++m_records;
    m_sink.on_record(m_records, raw);
  }
  m_fields = 0;
  m_record_len = 0;
  m_state = st_field_start;
}

void CsvScanner::finish()
{
  if (m_phase == phase_done) return;
  if (m_phase == phase_bom)
  {
    // Fewer than three bytes, all a BOM prefix: they are data.
    m_phase = phase_scan;
    if (not m_issue) scan(bom_bytes, m_prefix_seen);
  }
  m_phase = phase_done;
  if (m_issue) return;

  std::uint64_t const first_byte = m_bom ? bom_size : 0;
  if (m_offset == first_byte)
  {
    fail(CsvProblem::empty_file,
         m_bom ? "the file holds only a byte order mark; a header line is "
                 "required"
               : "the file is empty; a header line is required");
    return;
  }
  std::string const where = record_name(current_record());
  if (not m_utf8.idle())
  {
    fail(CsvProblem::invalid_utf8,
         where + " is not valid UTF-8: the file ends inside a multi-byte "
         "character");
    return;
  }
  if (m_line == ln_dot or m_line == ln_dot_cr)
  {
    fail(CsvProblem::end_marker,
         where + " contains a line that is only \\., which PostgreSQL "
         "COPY reads as the end of the data");
    return;
  }
  if (m_state == st_quoted)
  {
    fail(CsvProblem::quoting,
         "unterminated quoted field starting in " + where);
    return;
  }
  if (m_state == st_cr)
  {
    fail(CsvProblem::line_endings,
         where + " ends with a carriage return that is not followed by a "
         "line feed");
    return;
  }
  if (not m_header_done or m_record_len > 0)
  {
    end_record(m_carry, false, false);
    m_carry.clear();
  }
}
} // namespace loader::io
