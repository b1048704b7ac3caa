#pragma once
// Shared by the binary COPY unit tests: a stream read back the way
// PostgreSQL's COPY FROM reads it (header, tuples of length-prefixed
// fields, trailer), and bytes shown as hex.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace copy_test
{
/// "00 01 ff": each byte as two hex digits, a space between them.
inline std::string hex(std::string_view bytes)
{
  static char const digits[] = "0123456789abcdef";
  std::string out;
  for (char const c : bytes)
  {
    auto const b = static_cast<unsigned char>(c);
    if (not out.empty()) out.push_back(' ');
    out.push_back(digits[b >> 4]);
    out.push_back(digits[b & 0x0f]);
  }
  return out;
}

/// The big-endian integer of bytes.size() bytes at the front of bytes.
inline std::uint64_t be(std::string_view bytes)
{
  std::uint64_t v = 0;
  for (char const c : bytes) v = v << 8 | static_cast<unsigned char>(c);
  return v;
}

using Tuple = std::vector<std::optional<std::string>>; ///< nullopt: NULL

/// The tuples of a whole stream; fails the test on a malformed one.
inline std::vector<Tuple> read_stream(std::string_view s)
{
  std::string_view const header{"PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0", 19};
  REQUIRE(s.size() >= header.size() + 2);
  REQUIRE(s.substr(0, header.size()) == header);
  std::size_t at = header.size();
  auto const take = [&](std::size_t n) {
    REQUIRE(at + n <= s.size());
    std::string_view const out{s.substr(at, n)};
    at += n;
    return out;
  };
  std::vector<Tuple> tuples;
  bool ended = false;
  for (std::size_t bound = 0; bound <= s.size() and not ended; ++bound)
  {
    auto const fields = static_cast<std::int16_t>(be(take(2)));
    ended = fields == -1;
    if (ended) break;
    REQUIRE(fields > 0);
    Tuple t;
    for (std::int16_t k = 0; k < fields; ++k)
    {
      auto const length = static_cast<std::int32_t>(be(take(4)));
      if (length == -1)
        t.emplace_back(std::nullopt);
      else
      {
        REQUIRE(length >= 0);
        t.emplace_back(std::string{take(static_cast<std::size_t>(length))});
      }
    }
    tuples.push_back(std::move(t));
  }
  REQUIRE(ended);
  CHECK(at == s.size()); // nothing after the trailer
  return tuples;
}

/// The elements of a text[] field's bytes, read as array_recv reads them
/// (one dimension, lower bound 1, element type text; the NULL flag must
/// say whether an element is NULL); fails the test on anything else.
inline std::vector<std::optional<std::string>> read_text_array(
  std::string_view s)
{
  std::size_t at = 0;
  auto const take = [&](std::size_t n) {
    REQUIRE(at + n <= s.size());
    std::string_view const out{s.substr(at, n)};
    at += n;
    return out;
  };
  auto const int32 = [&] { return static_cast<std::int32_t>(be(take(4))); };
  REQUIRE(int32() == 1); // ndim
  std::int32_t const flags = int32();
  REQUIRE((flags == 0 or flags == 1));
  REQUIRE(int32() == 25); // text
  std::int32_t const count = int32();
  REQUIRE(count >= 0);
  REQUIRE(int32() == 1); // lower bound
  std::vector<std::optional<std::string>> out;
  for (std::int32_t k = 0; k < count; ++k)
  {
    std::int32_t const length = int32();
    if (length == -1)
      out.emplace_back(std::nullopt);
    else
    {
      REQUIRE(length >= 0);
      out.emplace_back(std::string{take(static_cast<std::size_t>(length))});
    }
  }
  CHECK(at == s.size());
  bool any_null = false;
  for (auto const &e : out) any_null = any_null or not e;
  CHECK(flags == (any_null ? 1 : 0));
  return out;
}
} // namespace copy_test
