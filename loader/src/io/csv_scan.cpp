#include "io/csv_scan.hpp"

#include "io/csv_scan_detail.hpp"

#include <array>
#include <stdexcept>
#include <utility>

namespace loader::io
{
namespace
{
/// Bytes that need no attention inside a field: ASCII except NUL, the
/// quote, the delimiter and the line terminators.
std::array<bool, 256> make_plain_table(CsvDialect const &d)
{
  std::array<bool, 256> t{};
  for (std::size_t c = 1; c < 0x80; ++c) t[c] = true;
  t[static_cast<unsigned char>(d.quote)] = false;
  t[static_cast<unsigned char>(d.delimiter)] = false;
  t[std::size_t{'\r'}] = false;
  t[std::size_t{'\n'}] = false;
  return t;
}

} // namespace

using namespace csv_detail;

CsvScanner::CsvScanner(CsvSink &sink, CsvLimits limits, CsvDialect dialect) :
        m_sink{sink},
        m_limits{limits},
        m_dialect{dialect},
        m_plain{make_plain_table(dialect)}
{}

std::optional<CsvIssue> const &CsvScanner::issue() const noexcept
{
  return m_issue;
}

bool CsvScanner::had_bom() const noexcept
{
  return m_bom;
}

bool CsvScanner::crlf() const noexcept
{
  return m_crlf;
}

std::uint64_t CsvScanner::records() const noexcept
{
  return m_records;
}

std::uint64_t CsvScanner::bytes() const noexcept
{
  return m_bytes;
}

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

std::string CsvScanner::column_name() const
{
  std::string out{"column " + std::to_string(m_fields + 1)};
  if (m_dialect.header and m_fields < m_names.size())
    out += " (" + m_names[m_fields] + ")";
  return out;
}

void CsvScanner::fail_encoding(std::string const &what)
{
  if (m_issue) return;
  fail(CsvProblem::invalid_utf8,
       record_name(current_record()) + ", " + column_name() + ": " + what);
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
    else { return; }
  }
  scan(data + i, size - i);
}

// The checks of a byte the fast path did not take, at data offset i of the
// current chunk: blank lines inside the data, NUL, UTF-8, a line that is
// only \. (COPY's end marker), the record size limit.  False: the scan
// failed (m_issue is set).  This and advance() are forced inline: they
// run for every delimiter, quote and line end, inside scan()'s loop.
[[gnu::always_inline]] inline bool CsvScanner::check_byte(unsigned char c,
                                                          std::size_t i)
{
  // Blank lines followed by anything but more blank lines (LF, or CR
  // then LF) are in the middle of the data.  They are pending only at
  // the start of a record, which is the start of a line: the fast path
  // never runs there (m_line is ln_start).
  if (m_blank_lines != 0 and c != '\n' and
      not(c == '\r' and m_state == st_field_start))
  {
    fail_blank_lines();
    return false;
  }
  if (c == 0)
  {
    fail(CsvProblem::nul_byte, record_name(current_record()) +
                                 " contains a NUL byte (file "
                                 "offset " +
                                 std::to_string(m_offset + i) + ")");
    return false;
  }

  if (not m_utf8.idle() or c >= 0x80)
  {
    if (m_utf8.step(c) == Utf8Decoder::Step::invalid)
    {
      fail(CsvProblem::invalid_utf8,
           record_name(current_record()) + ", " + column_name() +
             " is not valid UTF-8: "
             "unexpected byte " +
             hex_byte(c) + " at file offset " + std::to_string(m_offset + i));
      return false;
    }
  }

  if (c == '\n')
  {
    if (m_line == ln_dot or m_line == ln_dot_cr)
    {
      fail(CsvProblem::end_marker,
           record_name(current_record()) +
             " contains a line that is "
             "only \\., which PostgreSQL COPY reads as the end of the data");
      return false;
    }
    m_line = ln_start;
    ++m_lines_ended;
  }
  else if (m_line != ln_other)
  {
    if (m_line == ln_start and c == '\\')
      m_line = ln_backslash;
    else if (m_line == ln_backslash and c == '.')
      m_line = ln_dot;
    else if (m_line == ln_dot and c == '\r')
      m_line = ln_dot_cr;
    else
      m_line = ln_other;
  }

  // Everything but a line terminator outside quotes is record content.
  if (m_state == st_quoted or (c != '\n' and c != '\r'))
  {
    if (m_record_len >= m_limits.max_record_bytes)
    {
      fail(CsvProblem::record_too_long,
           record_name(current_record()) + " is longer than " +
             std::to_string(m_limits.max_record_bytes) + " bytes");
      return false;
    }
    ++m_record_len;
  }
  return true;
}

// The quoting state machine, one byte: RFC 4180 fields, CRLF or LF
// records.  Says whether the byte ends a record (and how) or the scan
// failed (m_issue is set).
[[gnu::always_inline]] inline CsvScanner::Next CsvScanner::advance(
  unsigned char c)
{
  auto const quote = static_cast<unsigned char>(m_dialect.quote);
  auto const delimiter = static_cast<unsigned char>(m_dialect.delimiter);
  switch (m_state)
  {
  case st_field_start:
    if (c == quote)
    {
      m_state = st_quoted;
      return Next::more;
    }
    m_state = st_unquoted;
    [[fallthrough]];
  case st_unquoted:
    if (c == delimiter)
    {
      ++m_fields;
      m_state = st_field_start;
    }
    else if (c == quote)
    {
      fail(CsvProblem::quoting,
           record_name(current_record()) +
             " has a quote inside an "
             "unquoted field (quote the whole field and double the quote)");
      return Next::failed;
    }
    else if (c == '\r') { m_state = st_cr; }
    else if (c == '\n') { return Next::record_lf; }
    return Next::more;
  case st_quoted:
    if (c == quote) m_state = st_quote_seen;
    return Next::more;
  case st_quote_seen:
    if (c == quote) { m_state = st_quoted; }
    else if (c == delimiter)
    {
      ++m_fields;
      m_state = st_field_start;
    }
    else if (c == '\r') { m_state = st_cr; }
    else if (c == '\n') { return Next::record_lf; }
    else
    {
      fail(CsvProblem::quoting, record_name(current_record()) +
                                  " has text after the closing "
                                  "quote of a field");
      return Next::failed;
    }
    return Next::more;
  case st_cr:
    if (c != '\n')
    {
      fail(CsvProblem::line_endings, record_name(current_record()) +
                                       " contains a carriage return "
                                       "that is not followed by a line feed");
      return Next::failed;
    }
    return Next::record_crlf;
  }
  return Next::more;
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
        m_plain[p[i]])
    {
      std::size_t const room = max - m_record_len;
      std::size_t const stop = (size - i > room) ? i + room : size;
      std::size_t j = i;
      while (j < stop and m_plain[p[j]]) ++j;
      if (j > i)
      {
        m_record_len += j - i;
        if (m_state == st_field_start) m_state = st_unquoted;
        i = j;
        if (i == size) break;
      }
    }

    unsigned char const c = p[i];
    if (not check_byte(c, i)) return;
    Next const next = advance(c);
    if (next == Next::failed) return;
    if (next != Next::more)
    {
      end_here(i, next == Next::record_crlf);
      if (m_issue) return;
    }
    ++i;
  }

  if (begin < size) m_carry.append(data + begin, size - begin);
  m_offset += size;
}

} // namespace loader::io
