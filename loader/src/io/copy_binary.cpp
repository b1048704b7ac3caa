#include "io/copy_binary.hpp"

#include <cstddef>

namespace loader::io::copy_binary
{
namespace
{
/// value's bytes, most significant first (network byte order).
template<typename Unsigned> void put(std::string &out, Unsigned value)
{
  char bytes[sizeof(Unsigned)];
  for (std::size_t k = 0; k < sizeof(Unsigned); ++k)
    bytes[k] = static_cast<char>(value >> (8 * (sizeof(Unsigned) - 1 - k)));
  out.append(bytes, sizeof(Unsigned));
}

void put16(std::string &out, std::int16_t v)
{
  put(out, static_cast<std::uint16_t>(v));
}
void put32(std::string &out, std::int32_t v)
{
  put(out, static_cast<std::uint32_t>(v));
}

/// numeric's largest display scale (NUMERIC_DSCALE_MAX) and its signs.
constexpr std::size_t max_dscale = 0x3FFF;
constexpr std::uint16_t numeric_pos = 0x0000;
constexpr std::uint16_t numeric_neg = 0x4000;
/// Decimal digits per numeric digit (DEC_DIGITS; NBASE 10000).
constexpr std::size_t dec_digits = 4;

int two_digits(std::string_view s, std::size_t at) noexcept
{
  return (s[at] - '0') * 10 + (s[at + 1] - '0');
}
} // namespace

void append_header(std::string &out)
{
  static constexpr char signature[] = "PGCOPY\n\377\r\n"; // + its NUL
  out.append(signature, sizeof signature);
  put32(out, 0); // flags
  put32(out, 0); // header extension length
}

void append_trailer(std::string &out) { put16(out, -1); }

void append_field_count(std::string &out, std::int16_t fields)
{
  put16(out, fields);
}

void append_null(std::string &out) { put32(out, -1); }

void append_int8(std::string &out, std::int64_t value)
{
  put32(out, 8);
  put(out, static_cast<std::uint64_t>(value));
}

void append_int4(std::string &out, std::int32_t value)
{
  put32(out, 4);
  put32(out, value);
}

void append_bytes(std::string &out, std::string_view bytes)
{
  // A field is at most a record (CsvLimits::max_record_bytes, 1 MiB).
  put32(out, static_cast<std::int32_t>(bytes.size()));
  out.append(bytes);
}

std::int32_t days_since_2000(std::string_view iso) noexcept
{
  // Days from civil (H. Hinnant's algorithm), counted in eras of 400
  // years from 0000-03-01; the year starts in March so that the leap day
  // is the last of its year.
  int y = two_digits(iso, 0) * 100 + two_digits(iso, 2);
  int const m = two_digits(iso, 5);
  int const d = two_digits(iso, 8);
  if (m <= 2) --y; // y >= 0: the year is at least 1
  int const era = y / 400;
  int const year_of_era = y - era * 400;
  int const day_of_year = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  int const day_of_era = year_of_era * 365 + year_of_era / 4 -
                         year_of_era / 100 + day_of_year;
  // 0000-03-01 is 730425 days before 2000-01-01.
  return era * 146097 + day_of_era - 730425;
}

void append_date(std::string &out, std::string_view iso)
{
  put32(out, 4);
  put32(out, days_since_2000(iso));
}

void append_numeric(std::string &out, bool negative, std::string_view whole,
                    std::string_view fraction, std::size_t dscale)
{
  while (not whole.empty() and whole.front() == '0') whole.remove_prefix(1);
  while (not fraction.empty() and fraction.back() == '0')
    fraction.remove_suffix(1);
  if (dscale > max_dscale)
  {
    put32(out, 8);
    put16(out, 0); // ndigits
    put16(out, 0); // weight
    put(out, numeric_pos);
    put(out, static_cast<std::uint16_t>(max_dscale + 1));
    return;
  }

  if (whole.empty() and fraction.empty())
  {
    // Zero, whatever its sign: no digits, weight 0, positive.
    put32(out, 8);
    put16(out, 0);
    put16(out, 0);
    put(out, numeric_pos);
    put(out, static_cast<std::uint16_t>(dscale));
    return;
  }

  // The digits 0-9999, aligned at the decimal point: whole padded with
  // zeros on the left, fraction on the right, to whole groups of four.
  std::size_t const int_groups = (whole.size() + dec_digits - 1) / dec_digits;
  std::size_t const frac_groups =
    (fraction.size() + dec_digits - 1) / dec_digits;
  std::size_t const pad = int_groups * dec_digits - whole.size();
  auto const group = [&](std::size_t g) {
    unsigned value = 0;
    for (std::size_t k = 0; k < dec_digits; ++k)
    {
      std::size_t const p = g * dec_digits + k;
      char c = '0';
      if (p < int_groups * dec_digits)
      {
        if (p >= pad) c = whole[p - pad];
      }
      else if (p - int_groups * dec_digits < fraction.size())
        c = fraction[p - int_groups * dec_digits];
      value = value * 10 + static_cast<unsigned>(c - '0');
    }
    return static_cast<std::uint16_t>(value);
  };

  // Stripped as make_result stores them: whole's first digit is not 0, so
  // zero groups lead only a pure fraction; fraction's last digit is not
  // 0, so zero groups trail only an integer.
  std::size_t first = 0, end = int_groups + frac_groups;
  if (whole.empty()) first = fraction.find_first_not_of('0') / dec_digits;
  else if (fraction.empty())
    end -= (whole.size() - 1 - whole.find_last_not_of('0')) / dec_digits;
  std::size_t const ndigits = end - first;
  long const weight =
    static_cast<long>(int_groups) - 1 - static_cast<long>(first);

  put32(out, static_cast<std::int32_t>(8 + 2 * ndigits));
  put16(out, static_cast<std::int16_t>(ndigits));
  put16(out, static_cast<std::int16_t>(weight));
  put(out, negative ? numeric_neg : numeric_pos);
  put(out, static_cast<std::uint16_t>(dscale));
  for (std::size_t g = first; g < end; ++g) put(out, group(g));
}
} // namespace loader::io::copy_binary
