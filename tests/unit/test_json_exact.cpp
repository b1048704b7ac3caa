#include <catch2/catch.hpp>

#include "core/json_exact.hpp"

using loader::parse_exact;

TEST_CASE("json_exact: decimals keep the digits they were written with",
          "[unit][json]")
{
  auto const j = parse_exact(
    R"({"gross": 4200.00, "n": 20, "neg": -0.50, "big": 12345678901234567.89,
        "list": [1.10, 2], "nested": {"x": 1e3}, "s": "4200.00"})");
  REQUIRE(j.is_object());
  CHECK(j["gross"] == "4200.00");
  CHECK(j["neg"] == "-0.50");
  CHECK(j["big"] == "12345678901234567.89");
  CHECK(j["n"].is_number_integer());
  CHECK(j["n"] == 20);
  CHECK(j["list"][0] == "1.10");
  CHECK(j["list"][1] == 2);
  CHECK(j["nested"]["x"] == "1e3");
  CHECK(j["s"] == "4200.00");
  SECTION("key order is kept")
  {
    CHECK(j.begin().key() == "gross");
  }
}

TEST_CASE("json_exact: text that is not JSON is discarded", "[unit][json]")
{
  CHECK(parse_exact("{").is_discarded());
  CHECK(parse_exact("[1,]").is_discarded());
  CHECK(parse_exact("").is_discarded());
  CHECK(parse_exact("null").is_null());
}
