/// The CSV scanner at the end of a header, a record and the file: the
/// field count, the blank-line and terminator rules, and each problem's
/// rule code (the byte-by-byte part is csv_scan.cpp).
#include "io/csv_scan.hpp"

#include <utility>

#include "io/csv_scan_detail.hpp"

namespace loader::io
{
namespace csv_detail
{
std::vector<std::string> split_header(std::string_view raw, std::size_t count,
                                      char delimiter, char quote)
{
  std::vector<std::string> names;
  names.reserve(count);
  std::size_t k = 0;
  for (;;)
  {
    std::string name;
    if (k < raw.size() and raw[k] == quote)
    {
      for (++k; k < raw.size(); ++k)
      {
        if (raw[k] != quote) { name.push_back(raw[k]); }
        else if (k + 1 < raw.size() and raw[k + 1] == quote)
        {
          name.push_back(quote);
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
      for (; k < raw.size() and raw[k] != delimiter; ++k)
        name.push_back(raw[k]);
    }
    names.push_back(std::move(name));
    if (k >= raw.size()) break;
    ++k; // the delimiter
  }
  return names;
}
} // namespace csv_detail

using namespace csv_detail;

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
  case CsvProblem::compression: return "file.compression";
  case CsvProblem::decompressed_size: return "file.decompressed_size";
  }
  return "csv.unknown";
}

void CsvScanner::fail_blank_lines()
{
  std::uint64_t const last = m_blank_first + m_blank_lines - 1;
  std::string const lines = m_blank_lines == 1
                              ? "line " + std::to_string(m_blank_first) +
                                  " is blank"
                              : "lines " + std::to_string(m_blank_first) +
                                  " to " + std::to_string(last) + " are blank";
  std::string const before = m_records == 0 ? "the header"
                                            : record_name(m_records);
  fail(CsvProblem::blank_line,
       lines + " (between " + before + " and " + record_name(m_records + 1) +
         "); blank lines are allowed only at the end of the file");
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
  if (not m_dialect.header)
  {
    // No header line: the positions are the names, and this line is the
    // first record (end_record goes on with it).
    std::vector<std::string> positions;
    for (std::size_t k = 1; k <= count; ++k)
      positions.push_back(std::to_string(k));
    m_header_fields = count;
    m_header_done = true;
    m_sink.on_header(positions);
    return;
  }
  std::vector<std::string> const names = split_header(
    raw, count, m_dialect.delimiter, m_dialect.quote);
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
  m_names = names;
  m_sink.on_header(names);
}

void CsvScanner::end_record(std::string_view raw, bool terminated, bool crlf)
{
  // Without a header, the first line is both: the field count and record 1.
  bool header_line = false;
  if (not m_header_done)
  {
    if (raw.empty())
    {
      fail(CsvProblem::blank_line,
           m_dialect.header
             ? "line 1 is blank; the file must start with the header line"
             : "line 1 is blank; the file must start with a record");
      return;
    }
    end_header(raw);
    if (m_issue) return;
    // The first line's terminator decides for the whole file.
    if (terminated) m_crlf = crlf;
    header_line = m_dialect.header;
  }
  if (not header_line)
  {
    if (terminated and crlf != m_crlf)
    {
      fail(CsvProblem::line_endings,
           record_name(current_record()) + " ends with " +
             (crlf ? "CRLF" : "LF") + " but " +
             (m_dialect.header ? "the header line" : "record 1") +
             " ends with " + (m_crlf ? "CRLF" : "LF"));
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
             (m_dialect.header ? "; the header has " : "; record 1 has ") +
             std::to_string(m_header_fields));
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
