#pragma once
// PostgreSQL's binary COPY format (the COPY page of the manual, "Binary
// Format"): a header, then per tuple an int16 field count and per field an
// int32 byte length (-1 for NULL) and the bytes the type's receive
// function reads, all in network byte order; an int16 -1 ends the data.
//
// Written by hand because neither libpq nor libpqxx 6.4 has a binary COPY
// encoder (libpqxx's stream_to writes text, a line at a time).  The field
// encodings are those of PostgreSQL 15's int8recv, int4recv, textrecv,
// bytearecv, date_recv, numeric_recv and array_recv (of text); only the
// types the loader sends.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace loader::io::copy_binary
{
/// Days from 2000-01-01 (PostgreSQL's date epoch) to the real calendar
/// date iso, written YYYY-MM-DD with a year 0001-9999 (proleptic
/// Gregorian, as PostgreSQL counts).
std::int32_t days_since_2000(std::string_view iso) noexcept;

/// Appends to out, a field at a time.  It makes room in steps (one resize
/// for a row, the size hint, rather than an append per length and value)
/// and cuts what it did not use in finish() or its destructor; out is not
/// to be touched by others meanwhile.
class Writer
{
public:
  explicit Writer(std::string &out, std::size_t hint = 256);
  ~Writer() { finish(); }
  Writer(Writer const &) = delete;
  Writer &operator=(Writer const &) = delete;
  /// out ends with what was written (the writer stays usable).
  void finish() noexcept;

  /// The 19-byte header: "PGCOPY\n\377\r\n\0", flags 0 (no OIDs), no
  /// header extension.
  void header();
  /// The end of the data: a field count of -1.
  void trailer();
  /// A tuple's field count.
  void field_count(std::int16_t fields);

  /// A NULL field (length -1).
  void null();
  /// bigint (int8recv).
  void int8(std::int64_t value);
  /// integer (int4recv).
  void int4(std::int32_t value);
  /// text (textrecv: the bytes in the client encoding, which the server
  /// converts and verifies as for the text format) or bytea (bytearecv:
  /// the bytes as they are).  At most a record (1 MiB, CsvLimits).
  void bytes(std::string_view value);
  /// jsonb (jsonb_recv): the version byte 1, then the JSON text.
  void jsonb(std::string_view json_text);
  /// date (date_recv: the int32 days_since_2000 of a real date).
  void date(std::string_view iso);
  /// numeric (numeric_recv): the exact value -?whole.fraction (decimal
  /// digits; either may be empty, leading zeros of whole and trailing
  /// zeros of fraction are allowed) at display scale dscale (at least
  /// fraction.size(), or digits would be cut): int16 ndigits, weight, sign
  /// (0x0000, 0x4000 negative), dscale, then ndigits base-10000 digits
  /// aligned at the decimal point, most significant first, with leading
  /// and trailing zero digits stripped as PostgreSQL stores them; zero
  /// (whatever its sign) is ndigits 0, weight 0, positive.  A dscale beyond
  /// numeric's 16383 is sent as 16384, which the server refuses (22P03) as
  /// it refuses such a value written as text (22003).
  void numeric(bool negative, std::string_view whole,
               std::string_view fraction, std::size_t dscale);

  /// text[] (array_recv): int32 ndim 1, int32 flags (1 if an element is
  /// NULL), element type text (OID 25, which array_recv requires to be
  /// the column's), then the dimension's length and lower bound 1, then
  /// each element as bytes() writes a field (length -1 for NULL).
  /// Element has members text (std::string_view) and null (io::Field).
  template<class Element>
  void text_array(Element const *elements, std::size_t count)
  {
    std::size_t size = 20; // ndim, flags, element type, length, bound
    bool any_null = false;
    for (std::size_t k = 0; k < count; ++k)
    {
      any_null = any_null or elements[k].null;
      size += 4 + (elements[k].null ? 0 : elements[k].text.size());
    }
    array_head(size, any_null, count);
    for (std::size_t k = 0; k < count; ++k)
    {
      if (elements[k].null)
        null();
      else
        bytes(elements[k].text);
    }
  }

private:
  /// The field length and the header of a one-dimensional text[].
  void array_head(std::size_t size, bool any_null, std::size_t count);
  /// Room for n more bytes; where they go.
  char *room(std::size_t n);
  void put16(std::uint16_t v);
  void put32(std::uint32_t v);

  std::string &m_out;
  std::size_t m_used; ///< out's bytes that are written
};
} // namespace loader::io::copy_binary
