#include <catch2/catch.hpp>

#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "io/record_rules.hpp"
#include "record_test_helpers.hpp"

using namespace loader::io;
using namespace record_test;
using loader::ErrorKind;
using loader::LoaderError;

TEST_CASE("record_values: amounts are plain decimals, at most 18 integer "
          "digits",
          "[unit][record_rules]")
{
  CHECK(parse_decimal(std::string(18, '9')).readable);
  CHECK(parse_decimal("-" + std::string(18, '9') + ".5").readable);
  CHECK_FALSE(parse_decimal(std::string(19, '9')).readable);
  CHECK_FALSE(parse_decimal("-" + std::string(19, '0')).readable);
  for (char const *bad :
       {"1e3", "NaN", "+5", "5.", ".5", "1,000.00", " 5", "5 ", "--5", "-", "",
        "Infinity", "0x10", "1.2.3", "\xD9\xA1"})
  {
    CAPTURE(bad);
    CHECK_FALSE(parse_decimal(bad).readable);
  }
  Decimal const d{parse_decimal("-007.50")};
  CHECK(d.readable);
  CHECK(d.negative);
  CHECK(d.whole == "007");
  CHECK(d.fraction == "50");
  CHECK(failed(Record{}.set(col::net_amount, "1e3")) ==
        Codes{"net_amount.format"});
}

TEST_CASE("record_values: canonical amounts are round(x, minor_unit)::text",
          "[unit][record_rules]")
{
  CHECK(canonical("5", 2) == "5.00");
  CHECK(canonical("-0.0", 2) == "0.00");
  CHECK(canonical("-0", 0) == "0");
  CHECK(canonical("12.5", 2) == "12.50");
  CHECK(canonical("007.50", 2) == "7.50");
  CHECK(canonical("-000.10", 2) == "-0.10");
  CHECK(canonical("0000", 3) == "0.000");
  CHECK(canonical("1234", 0) == "1234");
  CHECK(canonical("001234", 0) == "1234");
  CHECK(canonical("1.5", 3) == "1.500");
  CHECK(canonical("1.2345", 4) == "1.2345");
  CHECK(canonical("-999999999999999999", 2) == "-999999999999999999.00");
  SECTION("in a passing record's verdict")
  {
    Verdict const v{check(Record{}
                            .set(col::net_amount, "5")
                            .set(col::tax_amount, "-0.0")
                            .set(col::gross_amount, "005.00"))};
    REQUIRE(v.failed == 0);
    CHECK(v.net_text == "5.00");
    CHECK(v.tax_text == "0.00");
    CHECK(v.gross_text == "5.00");
  }
}

TEST_CASE("record_values: RuleBits maps rules to the database's bits by code",
          "[unit][record_rules]")
{
  std::vector<std::pair<std::string, int>> table;
  // The database's numbering, reversed against the loader's.
  for (std::size_t k = 0; k < rule_count; ++k)
    table.emplace_back(std::string{code_of(rule_at(k))},
                       static_cast<int>(rule_count - 1 - k));
  table.emplace_back("duplicate.conflict", 30); // not a field rule: ignored
  RuleBits const bits{table};
  CHECK(bits.mask_of(0) == 0);
  CHECK(bits.mask_of(bit_of(Rule::invoice_number_missing)) == 1 << 26);
  CHECK(bits.mask_of(bit_of(Rule::gross_amount_sign)) == 1);
  CHECK(bits.mask_of(bit_of(Rule::amounts_sum) |
                     bit_of(Rule::invoice_number_format)) ==
        (1 << 1 | 1 << 25));

  SECTION("bit 31 is the sign bit of the integer column")
  {
    table[0].second = 31;
    CHECK(RuleBits{table}.mask_of(bit_of(Rule::invoice_number_missing)) ==
          std::numeric_limits<std::int32_t>::min());
  }
  SECTION("a rule the table lacks is a configuration error naming it")
  {
    table.erase(table.begin() + 17);
    try
    {
      RuleBits{table};
      FAIL("no error");
    }
    catch (LoaderError const &e)
    {
      CHECK(e.kind == ErrorKind::config);
      CHECK(std::string{e.what()}.find("net_amount.format") !=
            std::string::npos);
    }
  }
  SECTION("a bit out of range or shared is a configuration error")
  {
    table[3].second = 32;
    CHECK_THROWS_AS(RuleBits{table}, LoaderError);
    table[3].second = table[4].second;
    CHECK_THROWS_AS(RuleBits{table}, LoaderError);
    table[3].second = -1;
    CHECK_THROWS_AS(RuleBits{table}, LoaderError);
  }
}
