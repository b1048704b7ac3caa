#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "io/header_map.hpp"

using loader::io::absent_column;
using loader::io::HeaderMapping;
using loader::io::invoice_columns;
using loader::io::map_header;

namespace
{
using Names = std::vector<std::string>;

Names contract_names()
{
  Names out;
  for (auto const &c : invoice_columns()) out.emplace_back(c.name);
  return out;
}

Names without(Names names, std::string const &drop)
{
  names.erase(std::remove(names.begin(), names.end(), drop), names.end());
  return names;
}

/// The file position of contract column `name`, or absent_column.
std::size_t position_of(HeaderMapping const &m, std::string const &name)
{
  Names const canonical = contract_names();
  auto const k = static_cast<std::size_t>(
    std::find(canonical.begin(), canonical.end(), name) - canonical.begin());
  REQUIRE(k < m.position.size());
  return m.position[k];
}

/// Every contract column's position is where names has it.
void check_positions(HeaderMapping const &m, Names const &names)
{
  for (std::string const &c : contract_names())
  {
    CAPTURE(c);
    auto const at = std::find(names.begin(), names.end(), c);
    std::size_t const want = at == names.end()
                               ? absent_column
                               : static_cast<std::size_t>(at - names.begin());
    CHECK(position_of(m, c) == want);
  }
}

bool all_printable_ascii(std::string const &s)
{
  return std::all_of(s.begin(), s.end(), [](char ch) {
    auto const c = static_cast<unsigned char>(ch);
    return c >= 0x20 and c < 0x7f;
  });
}
} // namespace

TEST_CASE("header_map: lists the contract columns in canonical order",
          "[unit][header_map]")
{
  auto const &cols = invoice_columns();
  REQUIRE(cols.size() == 12);
  CHECK(contract_names() ==
        Names{"invoice_number", "revision", "status", "document_type",
              "customer_id", "invoice_date", "due_date", "currency",
              "net_amount", "tax_amount", "gross_amount", "description"});
  for (auto const &c : cols)
  {
    CAPTURE(std::string{c.name});
    bool const optional = c.name == "due_date" or c.name == "description";
    CHECK(c.required == not optional);
  }
}

TEST_CASE("header_map: maps the columns by name in any order",
          "[unit][header_map]")
{
  SECTION("canonical order")
  {
    auto const m = map_header(contract_names(), false);
    CHECK(m.ok());
    CHECK(m.columns == contract_names());
    check_positions(m, contract_names());
    CHECK(m.rule().empty());
    CHECK(m.detail().empty());
  }
  SECTION("reversed and shuffled orders keep the file order")
  {
    Names names = contract_names();
    std::reverse(names.begin(), names.end());
    auto m = map_header(names, false);
    CHECK(m.ok());
    CHECK(m.columns == names);
    check_positions(m, names);
    CHECK(position_of(m, "description") == 0);
    CHECK(position_of(m, "invoice_number") == 11);

    std::mt19937 rng{12};
    std::shuffle(names.begin(), names.end(), rng);
    m = map_header(names, false);
    CHECK(m.ok());
    CHECK(m.columns == names);
    check_positions(m, names);
  }
  SECTION("optional columns may be absent")
  {
    Names const names = without(without(contract_names(), "due_date"),
                                "description");
    auto const m = map_header(names, false);
    CHECK(m.ok());
    CHECK(m.columns == names);
    CHECK(m.missing_required.empty());
    CHECK(position_of(m, "due_date") == absent_column);
    CHECK(position_of(m, "description") == absent_column);
    check_positions(m, names);
  }
}

TEST_CASE("header_map: reports missing required columns", "[unit][header_map]")
{
  SECTION("one")
  {
    auto const m = map_header(without(contract_names(), "gross_amount"),
                              false);
    CHECK_FALSE(m.ok());
    CHECK(m.missing_required == Names{"gross_amount"});
    CHECK(m.rule() == "header.missing_column");
    CHECK(m.detail() == "missing required column gross_amount");
  }
  SECTION("several, in canonical order whatever the file order")
  {
    Names names = without(without(contract_names(), "tax_amount"),
                          "invoice_number");
    std::reverse(names.begin(), names.end());
    auto const m = map_header(names, false);
    CHECK(m.missing_required == Names{"invoice_number", "tax_amount"});
    CHECK(m.detail() == "missing required columns invoice_number, tax_amount");
  }
  SECTION("an empty header misses every required column")
  {
    auto const m = map_header({}, false);
    CHECK(m.missing_required.size() == 10);
    CHECK(m.columns.empty());
    for (std::size_t p : m.position) CHECK(p == absent_column);
  }
}

TEST_CASE("header_map: matches names exactly", "[unit][header_map]")
{
  SECTION("case matters")
  {
    Names names = without(contract_names(), "currency");
    names.push_back("Currency");
    auto const m = map_header(names, false);
    CHECK(m.missing_required == Names{"currency"});
    CHECK(m.unknown == Names{"Currency"});
  }
  SECTION("blanks are not trimmed")
  {
    Names names = without(contract_names(), "currency");
    names.push_back(" currency");
    auto const m = map_header(names, false);
    CHECK(m.missing_required == Names{"currency"});
    CHECK(m.unknown == Names{" currency"});
    CHECK(m.detail() == "missing required column currency; "
                        "unknown column \" currency\"");
  }
}

TEST_CASE("header_map: rejects unknown columns unless the source allows them",
          "[unit][header_map]")
{
  Names names = contract_names();
  names.insert(names.begin() + 2, "colour");
  names.push_back("size");

  SECTION("not allowed: each unknown name is a problem")
  {
    auto const m = map_header(names, false);
    CHECK_FALSE(m.ok());
    CHECK(m.unknown == Names{"colour", "size"});
    CHECK(m.rule() == "header.unknown_column");
    CHECK(m.detail() == "unknown columns colour, size");
  }
  SECTION("allowed: read past, never staged")
  {
    auto const m = map_header(names, true);
    CHECK(m.ok());
    CHECK(m.unknown.empty());
    // Only the contract's columns, which moved to make room for them.
    CHECK(m.columns == contract_names());
    check_positions(m, names);
    CHECK(position_of(m, "status") == 3);
    CHECK(position_of(m, "description") == 12);
  }
  SECTION("allowed in any number (the header's own limit is the scanner's)")
  {
    Names many = contract_names();
    for (int k = 1; k <= 40; ++k) many.push_back("x" + std::to_string(k));
    auto const m = map_header(many, true);
    CHECK(m.ok());
    CHECK(m.rule().empty());
    CHECK(m.columns == contract_names());
  }
  SECTION("a long list is cut in the detail")
  {
    Names many = contract_names();
    for (int k = 1; k <= 13; ++k) many.push_back("u" + std::to_string(k));
    auto const m = map_header(many, false);
    CHECK(m.unknown.size() == 13);
    CHECK(m.detail() == "unknown columns u1, u2, u3, u4, u5, u6, u7, u8, "
                        "u9, u10 and 3 more");
  }
}

TEST_CASE("header_map: rejects duplicated columns", "[unit][header_map]")
{
  SECTION("a contract column twice")
  {
    Names names = contract_names();
    names.push_back("currency");
    auto const m = map_header(names, false);
    CHECK_FALSE(m.ok());
    CHECK(m.duplicated == Names{"currency"});
    CHECK(m.rule() == "header.duplicate_column");
    CHECK(m.detail() == "duplicate column currency");
    // The first one maps (the batch is quarantined for the second anyway).
    CHECK(position_of(m, "currency") == 7);
  }
  SECTION("three times is listed once")
  {
    Names names = contract_names();
    names.push_back("status");
    names.push_back("status");
    CHECK(map_header(names, false).duplicated == Names{"status"});
  }
  SECTION("an unknown column twice, even when unknown columns are allowed")
  {
    Names names = contract_names();
    names.push_back("colour");
    names.push_back("colour");
    auto const m = map_header(names, true);
    CHECK_FALSE(m.ok());
    CHECK(m.duplicated == Names{"colour"});
    CHECK(m.rule() == "header.duplicate_column");

    auto const strict = map_header(names, false);
    CHECK(strict.unknown == Names{"colour"});
    CHECK(strict.duplicated == Names{"colour"});
  }
}

TEST_CASE("header_map: names every problem, the first one deciding the rule",
          "[unit][header_map]")
{
  Names names = without(contract_names(), "gross_amount");
  names.push_back("colour");
  names.push_back("status");
  auto const m = map_header(names, false);
  CHECK(m.rule() == "header.missing_column");
  CHECK(m.detail() == "missing required column gross_amount; "
                      "unknown column colour; duplicate column status");

  SECTION("unknown comes before duplicate")
  {
    names.push_back("gross_amount");
    CHECK(map_header(names, false).rule() == "header.unknown_column");
  }
}

TEST_CASE("header_map: shows names from the file safely", "[unit][header_map]")
{
  Names names = contract_names();
  names.push_back("bad\nname\x1b[31m");
  names.push_back(std::string(200, 'z'));
  names.push_back("W\xC3\xA4hrung");
  names.push_back("back\\slash");
  auto const m = map_header(names, false);
  std::string const d = m.detail();
  INFO(d);
  CHECK(all_printable_ascii(d));
  CHECK(d.find("bad\\x0aname\\x1b[31m") != std::string::npos);
  CHECK(d.find("W\\xc3\\xa4hrung") != std::string::npos);
  CHECK(d.find("back\\\\slash") != std::string::npos);
  // The 200-character name is cut to 64 characters and marked.
  CHECK(d.find(std::string(64, 'z') + "...") != std::string::npos);
  CHECK(d.find(std::string(65, 'z')) == std::string::npos);
  // The mapping itself keeps the names as they are.
  CHECK(m.unknown[0] == "bad\nname\x1b[31m");
}

TEST_CASE("header_map: unknown columns a source allows are kept, by "
          "position",
          "[unit][header_map]")
{
  Names names = contract_names();
  names.insert(names.begin() + 2, "cost_centre");
  names.push_back("order_ref");
  names.push_back("cost_centre"); // repeated: kept once, the first
  HeaderMapping const kept{map_header(names, true)};
  CHECK(kept.ok() == false); // the repeat is still a problem
  using Extra = std::vector<std::pair<std::size_t, std::string>>;
  CHECK(kept.extra == Extra{{2, "cost_centre"}, {13, "order_ref"}});
  names.pop_back();
  HeaderMapping const ok{map_header(names, true)};
  CHECK(ok.ok());
  CHECK(ok.extra.size() == 2);
  HeaderMapping const refused{map_header(names, false)};
  CHECK(refused.extra.empty());
  CHECK(refused.unknown == Names{"cost_centre", "order_ref"});
}
