#include <catch2/catch.hpp>

#include <string>
#include <string_view>

#include "copy_binary_reader.hpp"
#include "io/copy_binary.hpp"
#include "io/csv_fields.hpp"
#include "io/record_rules.hpp"

// Expected bytes derived by hand from PostgreSQL 15's receive functions
// and checked against the server's own send functions (numeric_send,
// date_send: select numeric_send('-12.5'::numeric), ...).
namespace cb = loader::io::copy_binary;
using copy_test::hex;

namespace
{
/// The field (length prefix included) of amount text at dscale.
std::string numeric(std::string_view text, std::size_t dscale)
{
  loader::io::Decimal const d{loader::io::parse_decimal(text)};
  REQUIRE(d.readable);
  std::string out;
  cb::Writer{out}.numeric(d.negative, d.whole, d.fraction, dscale);
  return hex(out);
}

std::string date(std::string_view iso)
{
  std::string out;
  cb::Writer{out}.date(iso);
  return hex(out);
}
} // namespace

TEST_CASE("copy_binary: header, field count, trailer", "[unit][copy_binary]")
{
  std::string out;
  cb::Writer{out}.header();
  CHECK(out.size() == 19);
  CHECK(hex(out) == "50 47 43 4f 50 59 0a ff 0d 0a 00 " // PGCOPY\n\377\r\n\0
                    "00 00 00 00 00 00 00 00");
  out.clear();
  cb::Writer{out}.field_count(28);
  CHECK(hex(out) == "00 1c");
  out.clear();
  cb::Writer{out}.trailer();
  CHECK(hex(out) == "ff ff");
}

TEST_CASE("copy_binary: NULL, integers, bytes", "[unit][copy_binary]")
{
  auto const field = [](auto write) {
    std::string out;
    cb::Writer w{out};
    write(w);
    w.finish();
    return hex(out);
  };
  CHECK(field([](cb::Writer &o) { o.null(); }) == "ff ff ff ff");
  CHECK(field([](cb::Writer &o) { o.int8(42); }) ==
        "00 00 00 08 00 00 00 00 00 00 00 2a");
  CHECK(field([](cb::Writer &o) { o.int8(0x0102030405060708); }) ==
        "00 00 00 08 01 02 03 04 05 06 07 08");
  CHECK(field([](cb::Writer &o) { o.int8(-2); }) ==
        "00 00 00 08 ff ff ff ff ff ff ff fe");
  CHECK(field([](cb::Writer &o) { o.int4(0); }) == "00 00 00 04 00 00 00 00");
  CHECK(field([](cb::Writer &o) { o.int4(2147483647); }) ==
        "00 00 00 04 7f ff ff ff");
  CHECK(field([](cb::Writer &o) { o.int4(1 << 26); }) ==
        "00 00 00 04 04 00 00 00");
  // Texts are their bytes: nothing escaped, UTF-8 as it is.
  CHECK(field([](cb::Writer &o) { o.bytes("a\t\\N\n"); }) ==
        "00 00 00 05 61 09 5c 4e 0a");
  CHECK(field([](cb::Writer &o) { o.bytes("Z\xC3\xBC"); }) ==
        "00 00 00 03 5a c3 bc");
  CHECK(field([](cb::Writer &o) { o.bytes(""); }) == "00 00 00 00");
  CHECK(field([](cb::Writer &o) {
          o.bytes(std::string_view{"\0\xff", 2});
        }) == "00 00 00 02 00 ff");
}

TEST_CASE("copy_binary: dates are days from 2000-01-01", "[unit][copy_binary]")
{
  CHECK(cb::days_since_2000("2000-01-01") == 0);
  CHECK(cb::days_since_2000("1999-12-31") == -1);
  CHECK(cb::days_since_2000("0001-01-01") == -730119);
  CHECK(cb::days_since_2000("9999-12-31") == 2921939);
  CHECK(cb::days_since_2000("2024-02-29") == 8825);
  CHECK(cb::days_since_2000("2024-03-01") == 8826);
  CHECK(cb::days_since_2000("1900-03-01") == -36465); // 1900: no leap day
  CHECK(cb::days_since_2000("2000-02-29") == 59);     // 2000: one
  CHECK(cb::days_since_2000("2026-11-28") == 9828);
  CHECK(date("2000-01-01") == "00 00 00 04 00 00 00 00");
  CHECK(date("1999-12-31") == "00 00 00 04 ff ff ff ff");
  CHECK(date("0001-01-01") == "00 00 00 04 ff f4 db f9");
  CHECK(date("9999-12-31") == "00 00 00 04 00 2c 95 d3");
  CHECK(date("2024-02-29") == "00 00 00 04 00 00 22 79");
}

TEST_CASE("copy_binary: numerics as numeric_recv reads them",
          "[unit][copy_binary]")
{
  // length, then ndigits, weight, sign, dscale, base-10000 digits
  SECTION("zero has no digits, weight 0 and no sign, whatever its scale")
  {
    CHECK(numeric("0", 0) == "00 00 00 08 00 00 00 00 00 00 00 00");
    CHECK(numeric("0.00", 2) == "00 00 00 08 00 00 00 00 00 00 00 02");
    CHECK(numeric("-0.00", 2) == "00 00 00 08 00 00 00 00 00 00 00 02");
    CHECK(numeric("000", 3) == "00 00 00 08 00 00 00 00 00 00 00 03");
  }
  SECTION("integers, their trailing zero digits stripped")
  {
    CHECK(numeric("5", 2) == "00 00 00 0a 00 01 00 00 00 00 00 02 00 05");
    CHECK(numeric("5.00", 2) == "00 00 00 0a 00 01 00 00 00 00 00 02 00 05");
    CHECK(numeric("-1", 0) == "00 00 00 0a 00 01 00 00 40 00 00 00 00 01");
    CHECK(numeric("10000", 0) == "00 00 00 0a 00 01 00 01 00 00 00 00 00 01");
    CHECK(numeric("100000000", 0) ==
          "00 00 00 0a 00 01 00 02 00 00 00 00 00 01");
    CHECK(numeric("0010001", 0) ==
          "00 00 00 0c 00 02 00 01 00 00 00 00 00 01 00 01");
  }
  SECTION("fractions, aligned at the point, leading zero digits stripped")
  {
    CHECK(numeric("-12.5", 1) ==
          "00 00 00 0c 00 02 00 00 40 00 00 01 00 0c 13 88");
    CHECK(numeric("0.0001", 4) == "00 00 00 0a 00 01 ff ff 00 00 00 04 00 01");
    CHECK(numeric("0.00001", 5) ==
          "00 00 00 0a 00 01 ff fe 00 00 00 05 03 e8");
    CHECK(numeric("9999.9999", 4) ==
          "00 00 00 0c 00 02 00 00 00 00 00 04 27 0f 27 0f");
    CHECK(numeric("1.00000001", 8) ==
          "00 00 00 0e 00 03 00 00 00 00 00 08 00 01 00 00 00 01");
    CHECK(numeric("007.50", 2) ==
          "00 00 00 0c 00 02 00 00 00 00 00 02 00 07 13 88");
    CHECK(numeric("7.5", 3) ==
          "00 00 00 0c 00 02 00 00 00 00 00 03 00 07 13 88");
  }
  SECTION("18 integer digits")
  {
    CHECK(numeric("123456789012345678.99", 2) ==
          "00 00 00 14 00 06 00 04 00 00 00 02 "
          "00 0c 0d 80 1e d2 04 d2 16 2e 26 ac");
    CHECK(numeric("-999999999999999999", 0) ==
          "00 00 00 12 00 05 00 04 40 00 00 00 "
          "00 63 27 0f 27 0f 27 0f 27 0f");
  }
  SECTION("a scale numeric cannot hold is sent as one the server refuses")
  {
    std::string const digits(16384, '1');
    CHECK(numeric("0." + digits, 16384) ==
          "00 00 00 08 00 00 00 00 00 00 40 00");
    std::string const fits(16383, '1');
    std::string out;
    cb::Writer{out}.numeric(false, "", fits, 16383);
    CHECK(out.size() == 4 + 8 + 2 * 4096);
    CHECK(hex(out.substr(0, 12)) == "00 00 20 08 10 00 ff ff 00 00 3f ff");
  }
}

TEST_CASE("copy_binary: the writer appends, grows past its hint and cuts "
          "what it did not use",
          "[unit][copy_binary]")
{
  std::string out{"before"};
  std::string const big(100000, 'x');
  {
    cb::Writer w{out, 8};
    w.int4(1);
    CHECK(out.size() >= 6 + 8); // its room, not cut yet
    w.bytes(big);
    w.null();
    w.finish();
    CHECK(out.size() == 6 + 8 + 4 + big.size() + 4);
    w.int4(2); // still usable: the destructor cuts again
  }
  REQUIRE(out.size() == 6 + 8 + 4 + big.size() + 4 + 8);
  CHECK(out.substr(0, 6) == "before");
  CHECK(hex(out.substr(6, 12)) == "00 00 00 04 00 00 00 01 00 01 86 a0");
  CHECK(out.substr(18, big.size()) == big);
  CHECK(hex(out.substr(18 + big.size())) ==
        "ff ff ff ff 00 00 00 04 00 00 00 02");
}

TEST_CASE("copy_binary: a text[] as array_recv reads it",
          "[unit][copy_binary]")
{
  using loader::io::Field;
  Field const elements[]{
    {"a", false}, {"", true}, {"", false}, {"\xC3\xBC", false}};
  std::string out;
  cb::Writer{out}.text_array(elements, 4);
  // length 39: ndim 1, flags 1 (a NULL), element type 25 (text), 4
  // elements from 1; then "a", NULL, "", "\xC3\xBC".  The bytes of
  // array_send(array['a', null, '', 'ü']::text[]) after the length.
  CHECK(hex(out) ==
        "00 00 00 27 00 00 00 01 00 00 00 01 00 00 00 19 "
        "00 00 00 04 00 00 00 01 "
        "00 00 00 01 61 ff ff ff ff 00 00 00 00 00 00 00 02 c3 bc");
  auto const read = copy_test::read_text_array(
    std::string_view{out}.substr(4));
  REQUIRE(read.size() == 4);
  CHECK(*read[0] == "a");
  CHECK_FALSE(read[1]);
  CHECK(*read[2] == "");
  CHECK(*read[3] == "\xC3\xBC");

  SECTION("no NULL element: flags 0 (array_send(array['x', 'yz']::text[]))")
  {
    Field const two[]{{"x", false}, {"yz", false}};
    out.clear();
    cb::Writer{out}.text_array(two, 2);
    CHECK(hex(out) ==
          "00 00 00 1f 00 00 00 01 00 00 00 00 00 00 00 19 "
          "00 00 00 02 00 00 00 01 00 00 00 01 78 00 00 00 02 79 7a");
    CHECK(copy_test::read_text_array(std::string_view{out}.substr(4)).size() ==
          2);
  }
}
