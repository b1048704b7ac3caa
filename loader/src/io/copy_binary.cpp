#include "io/copy_binary.hpp"

#include <cstring>

namespace loader::io::copy_binary
{
namespace
{
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

/// v's bytes at p, most significant first (network byte order).
void store16(char *p, std::uint16_t v) noexcept
{
  p[0] = static_cast<char>(v >> 8);
  p[1] = static_cast<char>(v);
}
void store32(char *p, std::uint32_t v) noexcept
{
  store16(p, static_cast<std::uint16_t>(v >> 16));
  store16(p + 2, static_cast<std::uint16_t>(v));
}
} // namespace

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

Writer::Writer(std::string &out, std::size_t hint) :
        m_out{out}, m_used{out.size()}
{
  m_out.resize(m_used + hint);
}

void Writer::finish() noexcept
{
  m_out.resize(m_used);
}

char *Writer::room(std::size_t n)
{
  if (m_out.size() - m_used < n) m_out.resize(m_used + n + 256);
  char *const at = m_out.data() + m_used;
  m_used += n;
  return at;
}

void Writer::put16(std::uint16_t v)
{
  store16(room(2), v);
}
void Writer::put32(std::uint32_t v)
{
  store32(room(4), v);
}

void Writer::header()
{
  static constexpr char signature[] = "PGCOPY\n\377\r\n"; // + its NUL
  std::memcpy(room(sizeof signature), signature, sizeof signature);
  put32(0); // flags
  put32(0); // header extension length
}

void Writer::trailer()
{
  put16(0xFFFF);
}

void Writer::field_count(std::int16_t fields)
{
  put16(static_cast<std::uint16_t>(fields));
}

void Writer::null()
{
  put32(0xFFFFFFFF);
}

void Writer::int8(std::int64_t value)
{
  char *const p = room(12);
  auto const v = static_cast<std::uint64_t>(value);
  store32(p, 8);
  store32(p + 4, static_cast<std::uint32_t>(v >> 32));
  store32(p + 8, static_cast<std::uint32_t>(v));
}

void Writer::int4(std::int32_t value)
{
  char *const p = room(8);
  store32(p, 4);
  store32(p + 4, static_cast<std::uint32_t>(value));
}

void Writer::bytes(std::string_view value)
{
  char *const p = room(4 + value.size());
  store32(p, static_cast<std::uint32_t>(value.size()));
  if (not value.empty()) std::memcpy(p + 4, value.data(), value.size());
}

void Writer::jsonb(std::string_view json_text)
{
  char *const p = room(5 + json_text.size());
  store32(p, static_cast<std::uint32_t>(json_text.size() + 1));
  p[4] = 1; // jsonb's binary format version
  if (not json_text.empty())
    std::memcpy(p + 5, json_text.data(), json_text.size());
}

void Writer::array_head(std::size_t size, bool any_null, std::size_t count)
{
  constexpr std::uint32_t text_oid = 25; // pg_type.oid of text
  char *const p = room(24);
  store32(p, static_cast<std::uint32_t>(size));
  store32(p + 4, 1);                  // one dimension
  store32(p + 8, any_null ? 1U : 0U); // has NULL elements
  store32(p + 12, text_oid);
  store32(p + 16, static_cast<std::uint32_t>(count));
  store32(p + 20, 1); // lower bound
}

void Writer::date(std::string_view iso)
{
  char *const p = room(8);
  store32(p, 4);
  store32(p + 4, static_cast<std::uint32_t>(days_since_2000(iso)));
}

void Writer::numeric(bool negative, std::string_view whole,
                     std::string_view fraction, std::size_t dscale)
{
  while (not whole.empty() and whole.front() == '0') whole.remove_prefix(1);
  while (not fraction.empty() and fraction.back() == '0')
    fraction.remove_suffix(1);
  auto const head = [this](std::size_t ndigits, long weight,
                           std::uint16_t sign, std::size_t scale) {
    char *const p = room(12);
    store32(p, static_cast<std::uint32_t>(8 + 2 * ndigits));
    store16(p + 4, static_cast<std::uint16_t>(ndigits));
    store16(p + 6, static_cast<std::uint16_t>(weight));
    store16(p + 8, sign);
    store16(p + 10, static_cast<std::uint16_t>(scale));
  };
  if (dscale > max_dscale)
  {
    head(0, 0, numeric_pos, max_dscale + 1);
    return;
  }
  if (whole.empty() and fraction.empty())
  {
    head(0, 0, numeric_pos, dscale); // zero, whatever its sign
    return;
  }

  // The digits 0-9999, aligned at the decimal point: whole padded with
  // zeros on the left, fraction on the right, to whole groups of four.
  std::size_t const int_groups = (whole.size() + dec_digits - 1) / dec_digits;
  std::size_t const frac_groups = (fraction.size() + dec_digits - 1) /
                                  dec_digits;
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
  if (whole.empty())
    first = fraction.find_first_not_of('0') / dec_digits;
  else if (fraction.empty())
    end -= (whole.size() - 1 - whole.find_last_not_of('0')) / dec_digits;
  head(end - first,
       static_cast<long>(int_groups) - 1 - static_cast<long>(first),
       negative ? numeric_neg : numeric_pos, dscale);
  char *p = room(2 * (end - first));
  for (std::size_t g = first; g < end; ++g, p += 2) store16(p, group(g));
}
} // namespace loader::io::copy_binary
