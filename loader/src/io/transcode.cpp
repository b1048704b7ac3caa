#include "io/transcode.hpp"

#include <cerrno>
#include <cstring>

#include <iconv.h>

#include "core/errors.hpp"

namespace loader::io
{
namespace
{
char const *iconv_name(Encoding e)
{
  switch (e)
  {
  case Encoding::windows_1252: return "WINDOWS-1252";
  case Encoding::iso_8859_1: return "ISO-8859-1";
  case Encoding::iso_8859_15: return "ISO-8859-15";
  case Encoding::utf8: break;
  }
  return "UTF-8";
}

std::string hex(unsigned char c)
{
  static char const digits[] = "0123456789ABCDEF";
  return {digits[c >> 4], digits[c & 0x0f]};
}

/// How many continuation bytes a UTF-8 lead byte announces (0: not a lead
/// of a multi-byte character; C0, C1 and F5-FF never are).
std::uint8_t continuations(unsigned char c) noexcept
{
  if (c >= 0xC2 and c <= 0xDF) return 1;
  if (c >= 0xE0 and c <= 0xEF) return 2;
  if (c >= 0xF0 and c <= 0xF4) return 3;
  return 0;
}
} // namespace

Transcoder::Transcoder(Encoding from) : m_from{from}
{
  iconv_t const cd = ::iconv_open("UTF-8", iconv_name(from));
  if (cd == reinterpret_cast<iconv_t>(-1))
    throw LoaderError{ErrorKind::config,
                      std::string{"this system's iconv cannot read "} +
                        iconv_name(from) + ": " + std::strerror(errno)};
  for (unsigned v = 0x80; v <= 0xFF; ++v)
  {
    char in = static_cast<char>(v);
    char *in_p = &in;
    std::size_t in_left = 1;
    std::array<char, 8> buf{};
    char *out_p = buf.data();
    std::size_t out_left = buf.size();
    ::iconv(cd, nullptr, nullptr, nullptr, nullptr); // reset the state
    std::size_t const r = ::iconv(cd, &in_p, &in_left, &out_p, &out_left);
    auto const len = static_cast<std::size_t>(out_p - buf.data());
    if (r == static_cast<std::size_t>(-1) or in_left != 0 or len == 0 or
        len > 3)
      continue; // undefined in this encoding (windows-1252's 81, 8D, ...)
    std::memcpy(m_high[v - 0x80].data(), buf.data(), len);
    m_high_len[v - 0x80] = static_cast<std::uint8_t>(len);
  }
  ::iconv_close(cd);
}

std::optional<Transcoder::Stop> Transcoder::convert(char const *data,
                                                    std::size_t size,
                                                    std::string &out)
{
  auto const *p = reinterpret_cast<unsigned char const *>(data);
  std::size_t i = 0;
  while (i < size)
  {
    // ASCII outside a look-alike sequence: copy the run at once.
    if (m_seq_left == 0 and p[i] < 0x80)
    {
      std::size_t j = i + 1;
      while (j < size and p[j] < 0x80) ++j;
      out.append(data + i, j - i);
      i = j;
      continue;
    }
    unsigned char const c = p[i];
    if (m_seq_left != 0)
    {
      if (c >= 0x80 and c <= 0xBF)
      {
        m_seq[m_seq_len++] = c;
        if (--m_seq_left == 0)
        {
          std::string bytes, as_read, as_utf8;
          for (std::uint8_t k = 0; k < m_seq_len; ++k)
          {
            bytes += (k ? " " : "") + hex(m_seq[k]);
            as_read.append(m_high[m_seq[k] - 0x80].data(),
                           m_high_len[m_seq[k] - 0x80]);
            as_utf8.push_back(static_cast<char>(m_seq[k]));
          }
          return Stop{i, "the bytes " + bytes + " read as " +
                           std::string{name_of(m_from)} + " are \"" + as_read +
                           "\" but are the UTF-8 of \"" + as_utf8 +
                           "\": the file looks like UTF-8, which is not "
                           "the encoding its source's format declares"};
        }
      }
      else
        m_seq_left = 0; // not UTF-8 after all: c is read below
    }
    if (c < 0x80)
      continue; // an ASCII byte ended a look-alike: the fast path takes it
    std::uint8_t const len = m_high_len[c - 0x80];
    if (len == 0)
      return Stop{i, "byte " + hex(c) + " is not a character in " +
                       std::string{name_of(m_from)}};
    out.append(m_high[c - 0x80].data(), len);
    if (m_seq_left == 0 and continuations(c) != 0)
    {
      m_seq[0] = c;
      m_seq_len = 1;
      m_seq_left = continuations(c);
    }
    ++i;
  }
  return std::nullopt;
}
} // namespace loader::io
