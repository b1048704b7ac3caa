#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace loader
{
/// The one UTF-8 validator (RFC 3629: no overlongs, no surrogates, nothing
/// above U+10FFFF), a byte at a time so that a stream split anywhere is
/// checked the same.  Written here because the CSV scanner must stop at
/// the exact byte and record number, which no packaged decoder reports.
class Utf8Decoder
{
public:
  enum class Step
  {
    complete, ///< the byte ends a valid character (ASCII included)
    partial,  ///< a valid character continues with the next byte
    invalid,  ///< the byte cannot be here; the decoder is reset
  };

  Step step(unsigned char c) noexcept;
  /// True between characters (nothing pending).
  bool idle() const noexcept { return m_need == 0; }
  void reset() noexcept { m_need = 0; }

private:
  std::uint8_t m_need = 0;
  unsigned char m_lo = 0x80, m_hi = 0xBF;
};

/// Length of the valid UTF-8 character at s[i], or 0 if it is not one.
std::size_t utf8_length(std::string_view s, std::size_t i) noexcept;
} // namespace loader
