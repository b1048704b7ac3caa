#include <catch2/catch.hpp>

#include <cstddef>
#include <random>
#include <stdexcept>
#include <string>

#include "io/sha256.hpp"

using loader::io::Sha256;

namespace
{
std::string digest_of(std::string const &s)
{
  Sha256 h;
  h.update(s.data(), s.size());
  return h.hex();
}

std::string const million_a_digest =
  "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
} // namespace

TEST_CASE("sha256: matches the FIPS 180-2 test vectors", "[unit][sha256]")
{
  SECTION("empty input")
  {
    CHECK(digest_of("") ==
          "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  }
  SECTION("abc")
  {
    CHECK(digest_of("abc") ==
          "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  }
  SECTION("two-block message")
  {
    std::string const msg =
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    CHECK(digest_of(msg) ==
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  }
  SECTION("one million times 'a' in one call")
  {
    CHECK(digest_of(std::string(1000000, 'a')) == million_a_digest);
  }
}

TEST_CASE("sha256: chunked input gives the same digest as one call",
          "[unit][sha256]")
{
  std::string const input(1000000, 'a');

  SECTION("chunks of odd sizes that cross block boundaries")
  {
    Sha256 h;
    std::size_t const sizes[] = {1, 3, 63, 65, 127, 1001, 4097};
    std::size_t pos = 0, k = 0;
    while (pos < input.size())
    {
      std::size_t const n = std::min(sizes[k++ % 7], input.size() - pos);
      h.update(input.data() + pos, n);
      pos += n;
    }
    CHECK(h.hex() == million_a_digest);
  }
  SECTION("random chunk sizes with a fixed seed, empty updates included")
  {
    std::mt19937 rng{20261129};
    Sha256 h;
    std::size_t pos = 0;
    while (pos < input.size())
    {
      std::size_t const n = std::min(std::size_t{rng() % 5000},
                                     input.size() - pos);
      h.update(input.data() + pos, n);
      pos += n;
    }
    CHECK(h.hex() == million_a_digest);
  }
  SECTION("byte by byte")
  {
    std::string const text = "The quick brown fox jumps over the lazy dog";
    Sha256 h;
    for (char const c : text) h.update(&c, 1);
    CHECK(h.hex() ==
          "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592");
  }
}

TEST_CASE("sha256: hex is lower case, 64 characters and stable",
          "[unit][sha256]")
{
  Sha256 h;
  h.update("abc", 3);
  std::string const first = h.hex();
  CHECK(first.size() == 64);
  CHECK(first.find_first_not_of("0123456789abcdef") == std::string::npos);

  SECTION("a second hex() returns the same digest")
  {
    CHECK(h.hex() == first);
  }
  SECTION("update() after hex() is refused")
  {
    CHECK_THROWS_AS(h.update("d", 1), std::logic_error);
  }
}
