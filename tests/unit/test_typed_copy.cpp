#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "io/csv_fields.hpp"
#include "io/record_rules.hpp"
#include "io/typed_copy.hpp"

using namespace loader::io;

namespace
{
/// The database's bits: the loader's own numbering, shifted by one (so a
/// test sees the mapping at work).
RuleBits const &bits()
{
  static RuleBits const b{[] {
    std::vector<std::pair<std::string, int>> t;
    for (std::size_t k = 0; k < rule_count; ++k)
      t.emplace_back(std::string{code_of(rule_at(k))},
                     static_cast<int>(k + 1));
    return t;
  }()};
  return b;
}

Currencies const &currencies()
{
  static Currencies const c{{{"EUR", 2}, {"JPY", 0}}};
  return c;
}

/// The COPY row of a record given as raw CSV (12 contract columns).
std::string row_of(std::string const &raw, std::uint64_t record_no = 1)
{
  FieldSplitter splitter;
  auto const &fields = splitter.split(raw);
  REQUIRE(fields.size() == col::count);
  RecordFields f{};
  for (std::size_t k = 0; k < col::count; ++k) f[k] = fields[k];
  RecordChecker checker{currencies(), "2026-11-28"};
  Verdict v;
  checker.check(f, v);
  std::string out;
  append_typed_row(out, "42", record_no, f, v, bits());
  return out;
}

/// The row's values, split at its tabs (the row's LF dropped).
std::vector<std::string> values_of(std::string row)
{
  REQUIRE(not row.empty());
  REQUIRE(row.back() == '\n');
  row.pop_back();
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;)
  {
    auto const tab = row.find('\t', start);
    out.push_back(row.substr(start, tab - start));
    if (tab == std::string::npos) break;
    start = tab + 1;
  }
  return out;
}

std::string const null{"\\N"};
std::vector<std::string> const twelve_nulls(12, "\\N");
} // namespace

TEST_CASE("typed_copy: COPY text escaping", "[unit][typed_copy]")
{
  auto const escaped = [](std::string_view s) {
    std::string out;
    append_copy_text(out, s);
    return out;
  };
  CHECK(escaped("plain text") == "plain text");
  CHECK(escaped("a\\b") == "a\\\\b");
  CHECK(escaped("a\tb") == "a\\tb");
  CHECK(escaped("a\nb") == "a\\nb");
  CHECK(escaped("a\rb") == "a\\rb");
  CHECK(escaped("\\N") == "\\\\N");
  CHECK(escaped("\\.") == "\\\\.");
  CHECK(escaped("\r\n\t\\") == "\\r\\n\\t\\\\");
  CHECK(escaped("Z\xC3\xBCrich \xE2\x82\xAC") == "Z\xC3\xBCrich \xE2\x82\xAC");
  CHECK(escaped("") == "");
}

TEST_CASE("typed_copy: the statement names 28 columns in the row's order",
          "[unit][typed_copy]")
{
  std::string_view const s{typed_copy_statement};
  auto const open = s.find('('), close = s.find(')');
  REQUIRE(close != std::string_view::npos);
  std::string_view const list = s.substr(open + 1, close - open - 1);
  CHECK(std::count(list.begin(), list.end(), ',') == 27);
  CHECK(list.substr(0, 34) == "batch_id, record_no, rules, invoic");
  CHECK(s.substr(close) == ") from stdin");
  CHECK(values_of(row_of("I,0,ISSUED,INVOICE,C,2026-11-20,,EUR,1,0,1,"))
          .size() == 28);
  CHECK(values_of(row_of(",,,,,,,,,,,")).size() == 28);
}

TEST_CASE("typed_copy: a passing record's row holds its canonical values",
          "[unit][typed_copy]")
{
  auto const v = values_of(row_of("INV-1,007,ISSUED,INVOICE,C-001,"
                                  "2026-11-28,,EUR,100,19.0,119.00,",
                                  7));
  std::vector<std::string> const head{
    "42", "7", "0", "INV-1", "7", "ISSUED", "INVOICE", "C-001",
    "2026-11-28", null, "EUR", "100.00", "19.00", "119.00", null};
  CHECK(std::vector<std::string>(v.begin(), v.begin() + 15) == head);
  // printf %s '6:ISSUED7:INVOICE5:C-00110:2026-11-28-3:EUR6:100.00'
  //   '5:19.006:119.00-' | sha256sum  (one string)
  CHECK(v[15] == "\\\\x8bc09a5f1c9d378f072462b5758677066ec9a22940b554e11d"
                 "116086abd0a614");
  CHECK(std::vector<std::string>(v.begin() + 16, v.end()) == twelve_nulls);

  SECTION("texts are escaped, an empty description is NULL quoted or not")
  {
    auto const w = values_of(row_of("INV-2,0,ISSUED,INVOICE,\"C\t1\","
                                    "2026-11-20,2026-12-01,JPY,5,0,5,"
                                    "\"line\nand \\ back\""));
    CHECK(w[7] == "C\\t1");
    CHECK(w[9] == "2026-12-01");
    CHECK(w[11] == "5");
    CHECK(w[14] == "line\\nand \\\\ back");
    auto const q = values_of(row_of("INV-3,0,ISSUED,INVOICE,C,2026-11-20,"
                                    "\"\",EUR,1,0,1,\"\""));
    CHECK(q[9] == null);
    CHECK(q[14] == null);
  }
}

TEST_CASE("typed_copy: a failing record's row holds its rules and raw fields",
          "[unit][typed_copy]")
{
  // revision.format (loader bit 3 -> database bit 4), due_date.format (12
  // -> 13), gross_amount.precision (24 -> 25) and amounts.sum (25 -> 26);
  // the readable values stay, as written.
  auto const v = values_of(row_of("INV-1,1.0,ISSUED,INVOICE,C-001,"
                                  "2026-11-20,soon,EUR,007.5,0,7.499,"
                                  "\"a\tb\""));
  CHECK(v[2] == std::to_string(1 << 4 | 1 << 13 | 1 << 25 | 1 << 26));
  std::vector<std::string> const typed{
    "42", "1", v[2], "INV-1", null, "ISSUED", "INVOICE", "C-001",
    "2026-11-20", null, "EUR", "007.5", "0", "7.499", "a\\tb", null};
  CHECK(std::vector<std::string>(v.begin(), v.begin() + 16) == typed);
  std::vector<std::string> const raw{
    "INV-1", "1.0", "ISSUED", "INVOICE", "C-001", "2026-11-20", "soon",
    "EUR", "007.5", "0", "7.499", "a\\tb"};
  CHECK(std::vector<std::string>(v.begin() + 16, v.end()) == raw);

  SECTION("unquoted empty fields are NULL, quoted ones empty text")
  {
    auto const w = values_of(row_of(",\"\",ISSUED,,\"\",x,,\"\",1e3,,,\"\""));
    CHECK(w[3] == null);
    CHECK(w[4] == null); // revision: not readable
    CHECK(w[6] == null);
    CHECK(w[7] == "");
    CHECK(w[8] == null); // not a date
    CHECK(w[10] == "");
    CHECK(w[11] == null); // 1e3: not readable
    CHECK(w[14] == "");
    std::vector<std::string> const raw_fields{
      null, "", "ISSUED", null, "", "x", null, "", "1e3", null, null, ""};
    CHECK(std::vector<std::string>(w.begin() + 16, w.end()) == raw_fields);
  }
  SECTION("an unreadable invoice number is sent as it is, escaped")
  {
    auto const w = values_of(row_of("\"bad\\\nnumber\",0,ISSUED,INVOICE,C,"
                                    "2026-11-20,,EUR,1,0,1,"));
    CHECK(w[3] == "bad\\\\\\nnumber");
    CHECK(w[16] == "bad\\\\\\nnumber");
  }
}
