#include "core/utf8.hpp"
#include "core/printable.hpp"

namespace loader
{
Utf8Decoder::Step Utf8Decoder::step(unsigned char c) noexcept
{
  if (m_need != 0)
  {
    if (c < m_lo or c > m_hi)
    {
      m_need = 0;
      return Step::invalid;
    }
    m_lo = 0x80;
    m_hi = 0xBF;
    return --m_need == 0 ? Step::complete : Step::partial;
  }
  if (c < 0x80) return Step::complete;
  if (c >= 0xC2 and c <= 0xDF) { m_need = 1; }
  else if (c >= 0xE0 and c <= 0xEF)
  {
    // E0: no overlongs; ED: no UTF-16 surrogates (D800-DFFF).
    m_need = 2;
    m_lo = (c == 0xE0) ? 0xA0 : 0x80;
    m_hi = (c == 0xED) ? 0x9F : 0xBF;
    return Step::partial;
  }
  else if (c >= 0xF0 and c <= 0xF4)
  {
    // F0: no overlongs; F4: nothing above U+10FFFF.
    m_need = 3;
    m_lo = (c == 0xF0) ? 0x90 : 0x80;
    m_hi = (c == 0xF4) ? 0x8F : 0xBF;
    return Step::partial;
  }
  else { return Step::invalid; }
  m_lo = 0x80;
  m_hi = 0xBF;
  return Step::partial;
}

std::size_t utf8_length(std::string_view s, std::size_t i) noexcept
{
  Utf8Decoder d;
  for (std::size_t k = i; k < s.size(); ++k)
  {
    switch (d.step(static_cast<unsigned char>(s[k])))
    {
    case Utf8Decoder::Step::complete: return k - i + 1;
    case Utf8Decoder::Step::partial: continue;
    case Utf8Decoder::Step::invalid: return 0;
    }
  }
  return 0;
}
} // namespace loader

namespace loader
{
namespace
{
/// The code point of the valid UTF-8 character s[i, i + len).
char32_t code_point(std::string_view s, std::size_t i, std::size_t len)
{
  auto const b = [&](std::size_t k) {
    return static_cast<char32_t>(static_cast<unsigned char>(s[i + k]));
  };
  if (len == 1) return b(0);
  char32_t cp = b(0) & (0x7f >> len);
  for (std::size_t k = 1; k < len; ++k) cp = (cp << 6) | (b(k) & 0x3f);
  return cp;
}

bool hidden_control(char32_t cp) noexcept
{
  return (cp >= 0x80 and cp <= 0x9f) or cp == 0x061c or cp == 0x200e or
         cp == 0x200f or (cp >= 0x2028 and cp <= 0x202e) or
         (cp >= 0x2066 and cp <= 0x2069);
}
} // namespace

std::string printable(std::string_view s)
{
  static char const hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();)
  {
    auto const c = static_cast<unsigned char>(s[i]);
    std::size_t const len = utf8_length(s, i);
    if (len == 0 or c < 0x20 or c == 0x7f)
      out += {'\\', 'x', hex[c >> 4], hex[c & 0x0f]};
    else if (char32_t const cp = code_point(s, i, len); hidden_control(cp))
      out += {'\\',
              'u',
              hex[(cp >> 12) & 15],
              hex[(cp >> 8) & 15],
              hex[(cp >> 4) & 15],
              hex[cp & 15]};
    else
      out.append(s.substr(i, len));
    i += len == 0 ? 1 : len;
  }
  return out;
}
} // namespace loader
