#pragma once
// Internal to the CSV scanner (csv_scan.cpp, csv_scan_ends.cpp): its state
// values and the wording its messages share.  Not for other rooms.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace loader::io::csv_detail
{
// The scanner's small state values.  Each starts at 0, which is what the
// header's member initialisers set.

/// m_phase: looking for a BOM, scanning, finish() called.
enum : std::uint8_t
{
  phase_bom = 0,
  phase_scan,
  phase_done
};

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

inline std::string record_name(std::uint64_t record_no)
{
  if (record_no == 0) return "the header";
  return "record " + std::to_string(record_no);
}

inline std::string hex_byte(unsigned char c)
{
  static char const digits[] = "0123456789ABCDEF";
  std::string out{"0x"};
  out.push_back(digits[c >> 4]);
  out.push_back(digits[c & 0x0f]);
  return out;
}

inline std::string fields_phrase(std::size_t n)
{
  return std::to_string(n) + (n == 1 ? " field" : " fields");
}

/// Split a header line the scanner has already checked into unquoted
/// names.
std::vector<std::string> split_header(std::string_view raw, std::size_t count,
                                      char delimiter, char quote);
} // namespace loader::io::csv_detail
