#include "core/utf8.hpp"

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
