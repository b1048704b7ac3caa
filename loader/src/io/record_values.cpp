#include "io/record_rules.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>

#include <nettle/sha2.h>

#include "core/digits.hpp"

// The values the field rules read (record_rules.hpp): plain decimals with
// their exact sum and canonical text, ISO dates, the content hash.
namespace loader::io
{
namespace
{
/// Most integer digits of an amount (ingest.is_plain_decimal).
constexpr std::size_t max_whole_digits = 18;

int two_digits(std::string_view s, std::size_t at) noexcept
{
  return (s[at] - '0') * 10 + (s[at + 1] - '0');
}

/// The digit of d at decimal position p (0 = units, -1 = tenths, ...).
int digit_at(Decimal const &d, long p) noexcept
{
  if (p >= 0)
  {
    auto const back = static_cast<std::size_t>(p);
    if (back >= d.whole.size()) return 0;
    return d.whole[d.whole.size() - 1 - back] - '0';
  }
  auto const k = static_cast<std::size_t>(-p - 1);
  return k < d.fraction.size() ? d.fraction[k] - '0' : 0;
}

void append_hashed(std::string &out, std::string_view const *value)
{
  if (value == nullptr)
  {
    out.push_back('-');
    return;
  }
  std::array<char, 24> digits{};
  char *const end = digits.data() + digits.size();
  out.append(digits.data(),
             std::to_chars(digits.data(), end, value->size()).ptr);
  out.push_back(':');
  out.append(*value);
}
} // namespace

bool is_zero(Decimal const &d) noexcept
{
  for (char const c : d.whole)
    if (c != '0') return false;
  for (char const c : d.fraction)
    if (c != '0') return false;
  return true;
}

Decimal parse_decimal(std::string_view text) noexcept
{
  Decimal d;
  std::size_t k = 0;
  if (k < text.size() and text[k] == '-')
  {
    d.negative = true;
    ++k;
  }
  std::size_t const whole_start = k;
  while (k < text.size() and is_digit(text[k])) ++k;
  d.whole = text.substr(whole_start, k - whole_start);
  if (d.whole.empty() or d.whole.size() > max_whole_digits) return {};
  if (k < text.size())
  {
    if (text[k] != '.') return {};
    d.fraction = text.substr(k + 1);
    if (d.fraction.empty() or not all_digits(d.fraction)) return {};
  }
  d.readable = true;
  return d;
}

bool sum_holds(Decimal const &a, Decimal const &b, Decimal const &c) noexcept
{
  // a + b - c == 0, one decimal position at a time from the smallest: the
  // total is zero exactly when every position leaves no remainder and no
  // carry is left at the top (no overflow whatever the scales).
  std::size_t const scale = std::max(
    {a.fraction.size(), b.fraction.size(), c.fraction.size()});
  std::size_t const width = std::max(
    {a.whole.size(), b.whole.size(), c.whole.size()});
  int const sa = a.negative ? -1 : 1;
  int const sb = b.negative ? -1 : 1;
  int const sc = c.negative ? -1 : 1;
  int carry = 0;
  for (long p = -static_cast<long>(scale); p < static_cast<long>(width); ++p)
  {
    int const t = carry + sa * digit_at(a, p) + sb * digit_at(b, p) -
                  sc * digit_at(c, p);
    if (t % 10 != 0) return false;
    carry = t / 10;
  }
  return carry == 0;
}

void canonical_amount(Decimal const &d, int minor_unit, std::string &out)
{
  out.clear();
  std::size_t lead = 0;
  while (lead + 1 < d.whole.size() and d.whole[lead] == '0') ++lead;
  if (d.negative and not is_zero(d)) out.push_back('-');
  out.append(d.whole.substr(lead));
  if (minor_unit <= 0 and d.fraction.empty()) return;
  out.push_back('.');
  out.append(d.fraction);
  auto const unit = static_cast<std::size_t>(minor_unit < 0 ? 0 : minor_unit);
  if (d.fraction.size() < unit) out.append(unit - d.fraction.size(), '0');
}

bool is_iso_date(std::string_view p) noexcept
{
  if (p.size() != 10 or p[4] != '-' or p[7] != '-') return false;
  for (std::size_t k : {0u, 1u, 2u, 3u, 5u, 6u, 8u, 9u})
    if (not is_digit(p[k])) return false;
  int const year = two_digits(p, 0) * 100 + two_digits(p, 2);
  int const month = two_digits(p, 5);
  int const day = two_digits(p, 8);
  if (year == 0 or month < 1 or month > 12) return false;
  if (day >= 1 and day <= 28) return true;
  int days = 31;
  if (month == 4 or month == 6 or month == 9 or month == 11)
    days = 30;
  else if (month == 2)
    days = (year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)) ? 29 : 28;
  return day >= 1 and day <= days;
}

std::array<unsigned char, 32> content_hash(
  std::array<std::string_view const *, 10> const &values, std::string &scratch)
{
  scratch.clear();
  for (std::string_view const *v : values) append_hashed(scratch, v);
  // Nettle's SHA-256: a plain context on the stack, no per-call algorithm
  // lookup (OpenSSL 3's EVP took 140-250 ms a million records against
  // 90 ms here, and its first use reads openssl.cnf and loads a provider:
  // docs/PERFORMANCE.md, "SHA-256 without OpenSSL's start").
  sha256_ctx ctx;
  sha256_init(&ctx);
  sha256_update(&ctx, scratch.size(),
                reinterpret_cast<std::uint8_t const *>(scratch.data()));
  std::array<unsigned char, 32> digest{};
  sha256_digest(&ctx, digest.size(), digest.data());
  return digest;
}
} // namespace loader::io
