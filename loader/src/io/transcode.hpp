#pragma once
// A delivery declared in a single-byte encoding (windows-1252, ISO-8859-1,
// ISO-8859-15) turned into UTF-8 before the CSV scanner reads it, so that
// everything after it (the scanner, the rules, the database) sees the one
// encoding.  Each byte value's UTF-8 comes from glibc's iconv, asked once
// per value when the transcoder is made: no table is written by hand, and
// a chunk is then converted by lookup, at memory speed.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "io/file_format.hpp"

namespace loader::io
{
class Transcoder
{
public:
  /// Throws LoaderError{config} when iconv does not know the encoding.
  explicit Transcoder(Encoding from);

  /// Where the bytes stopped being readable: the offset in the chunk of
  /// the byte at fault and a sentence naming the bytes.
  struct Stop
  {
    std::size_t at;
    std::string what;
  };

  /// Appends the UTF-8 of data to out, up to the first byte that cannot
  /// be read (then returns where): a byte the encoding leaves undefined,
  /// or the last byte of a sequence that is UTF-8 for a character
  /// (C3 BC, "Ã¼" in windows-1252, is the UTF-8 of "ü"): such a file was
  /// written in UTF-8 and declared otherwise, and reading it on would fill
  /// the books with "Ã¼".  A sequence may span chunks.
  std::optional<Stop> convert(char const *data, std::size_t size,
                              std::string &out);

private:
  Encoding m_from;
  std::array<std::array<char, 3>, 128> m_high{}; ///< UTF-8 of 0x80-0xFF
  std::array<std::uint8_t, 128> m_high_len{};    ///< 0: undefined
  // A UTF-8 look-alike in progress: its bytes so far and those to come.
  std::array<unsigned char, 4> m_seq{};
  std::uint8_t m_seq_len = 0;
  std::uint8_t m_seq_left = 0;
};
} // namespace loader::io
