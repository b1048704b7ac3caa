#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "copy_binary_reader.hpp"
#include "core/errors.hpp"
#include "io/csv_fields.hpp"
#include "io/record_rules.hpp"
#include "io/typed_copy.hpp"

using namespace loader::io;
using copy_test::hex;
using copy_test::Tuple;

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
  static Currencies const c{{{"EUR", 2}, {"JPY", 0}, {"KWD", 3}}};
  return c;
}

RecordFields fields_of(std::string const &raw)
{
  FieldSplitter splitter;
  auto const &fields = splitter.split(raw);
  REQUIRE(fields.size() == col::count);
  RecordFields f{};
  for (std::size_t k = 0; k < col::count; ++k) f[k] = fields[k];
  return f;
}

/// The COPY row of a record given as raw CSV (12 contract columns), read
/// back from a whole stream of it alone.
Tuple row_of(std::string const &raw, std::uint64_t record_no = 1)
{
  RecordFields const f{fields_of(raw)};
  RecordChecker checker{currencies(), "2026-11-28"};
  Verdict v;
  checker.check(f, v);
  std::string out;
  append_typed_header(out);
  append_typed_row(out, 42, record_no, f, v, bits());
  append_typed_trailer(out);
  auto const tuples = copy_test::read_stream(out);
  REQUIRE(tuples.size() == 1);
  REQUIRE(tuples[0].size() == std::size_t{typed_copy_columns});
  return tuples[0];
}

/// The field's bytes as hex; "NULL" for NULL.
std::string at(Tuple const &t, std::size_t column)
{
  return t.at(column) ? hex(*t[column]) : "NULL";
}

/// A text field's bytes; "NULL" for NULL.
std::string text(Tuple const &t, std::size_t column)
{
  return t.at(column) ? *t[column] : "NULL";
}

std::vector<std::string> texts(Tuple const &t, std::size_t from,
                               std::size_t to)
{
  std::vector<std::string> out;
  for (std::size_t k = from; k < to; ++k) out.push_back(text(t, k));
  return out;
}

/// The raw fields (column 16, a text[]) as texts, "NULL" for NULL; one
/// "NULL" alone when the column is NULL.
std::vector<std::string> raw_fields(Tuple const &t)
{
  if (not t.at(16)) return {"NULL"};
  std::vector<std::string> out;
  for (auto const &e : copy_test::read_text_array(*t[16]))
    out.push_back(e ? *e : "NULL");
  return out;
}
} // namespace

TEST_CASE("typed_copy: the statement names the table, 19 columns, binary "
          "format",
          "[unit][typed_copy]")
{
  std::string const stmt{typed_copy_statement("staging.invoice_valid_b7")};
  std::string_view const s{stmt};
  CHECK(s.substr(0, 30) == "copy staging.invoice_valid_b7 ");
  auto const open = s.find('('), close = s.find(')');
  REQUIRE(close != std::string_view::npos);
  std::string_view const list = s.substr(open + 1, close - open - 1);
  CHECK(std::count(list.begin(), list.end(), ',') + 1 == typed_copy_columns);
  CHECK(list.substr(0, 34) == "batch_id, record_no, rules, invoic");
  CHECK(list.substr(list.size() - 44) ==
        "content_hash, raw_fields, format_note, extra");
  CHECK(s.substr(close) == ") from stdin (format binary)");
}

TEST_CASE("typed_copy: a stream of no rows is the header and the trailer",
          "[unit][typed_copy]")
{
  std::string out;
  append_typed_header(out);
  append_typed_trailer(out);
  CHECK(out.size() == 21);
  CHECK(copy_test::read_stream(out).empty());
}

TEST_CASE("typed_copy: a passing record's row holds its canonical values",
          "[unit][typed_copy]")
{
  Tuple const v{row_of("INV-1,007,ISSUED,INVOICE,C-001,"
                       "2026-11-28,,EUR,100,19.0,119.00,",
                       7)};
  CHECK(at(v, 0) == "00 00 00 00 00 00 00 2a"); // batch 42
  CHECK(at(v, 1) == "00 00 00 07");
  CHECK(at(v, 2) == "00 00 00 00"); // no rule failed
  CHECK(text(v, 3) == "INV-1");
  CHECK(at(v, 4) == "00 00 00 07"); // revision 007
  CHECK(texts(v, 5, 8) ==
        std::vector<std::string>{"ISSUED", "INVOICE", "C-001"});
  CHECK(at(v, 8) == "00 00 26 64"); // 2026-11-28: day 9828
  CHECK(at(v, 9) == "NULL");        // no due date
  CHECK(text(v, 10) == "EUR");
  // 100.00, 19.00, 119.00: at EUR's two decimals whatever was written
  CHECK(at(v, 11) == "00 01 00 00 00 00 00 02 00 64");
  CHECK(at(v, 12) == "00 01 00 00 00 00 00 02 00 13");
  CHECK(at(v, 13) == "00 01 00 00 00 00 00 02 00 77");
  CHECK(at(v, 14) == "NULL"); // no description
  // printf %s '6:ISSUED7:INVOICE5:C-00110:2026-11-28-3:EUR6:100.00'
  //   '5:19.006:119.00-' | sha256sum  (one string): its 32 bytes
  CHECK(at(v, 15) == "8b c0 9a 5f 1c 9d 37 8f 07 24 62 b5 75 86 77 06 "
                     "6e c9 a2 29 40 b5 54 e1 1d 11 60 86 ab d0 a6 14");
  CHECK(at(v, 16) == "NULL"); // no raw fields: one NULL, not twelve

  SECTION("texts are their bytes; an empty description is NULL, quoted "
          "or not")
  {
    Tuple const w{row_of("INV-2,0,ISSUED,INVOICE,\"C\t1\","
                         "2026-11-20,2026-12-01,JPY,5,0,5,"
                         "\"line\nand \\ back \xE2\x82\xAC\"")};
    CHECK(text(w, 7) == "C\t1");
    CHECK(at(w, 9) == "00 00 26 67"); // 2026-12-01: day 9831
    CHECK(at(w, 11) == "00 01 00 00 00 00 00 00 00 05");
    CHECK(at(w, 12) == "00 00 00 00 00 00 00 00"); // 0, scale 0
    CHECK(text(w, 14) == "line\nand \\ back \xE2\x82\xAC");
    Tuple const q{row_of("INV-3,0,ISSUED,INVOICE,C,2026-11-20,"
                         "\"\",EUR,1,0,1,\"\"")};
    CHECK(at(q, 9) == "NULL");
    CHECK(at(q, 14) == "NULL");
  }
  SECTION("a credit note's negative amounts, at KWD's three decimals")
  {
    Tuple const w{row_of("CN-1,0,ISSUED,CREDIT_NOTE,C,2026-11-20,,KWD,"
                         "-12.5,-0.00,-12.500,")};
    CHECK(at(w, 11) == "00 02 00 00 40 00 00 03 00 0c 13 88");
    CHECK(at(w, 12) == "00 00 00 00 00 00 00 03"); // -0.00: zero
    CHECK(at(w, 13) == "00 02 00 00 40 00 00 03 00 0c 13 88");
  }
}

TEST_CASE("typed_copy: a failing record's row holds its rules and raw fields",
          "[unit][typed_copy]")
{
  // revision.format (loader bit 3 -> database bit 4), due_date.format (12
  // -> 13), gross_amount.precision (24 -> 25) and amounts.sum (25 -> 26);
  // the readable values stay, at the scale they were written with.
  Tuple const v{row_of("INV-1,1.0,ISSUED,INVOICE,C-001,"
                       "2026-11-20,soon,EUR,007.5,0,7.499,"
                       "\"a\tb\"")};
  CHECK(at(v, 2) == "06 00 20 10"); // 1 << 4 | 1 << 13 | 1 << 25 | 1 << 26
  CHECK(text(v, 3) == "INV-1");
  CHECK(at(v, 4) == "NULL");
  CHECK(at(v, 8) == "00 00 26 5c"); // 2026-11-20: day 9820
  CHECK(at(v, 9) == "NULL");
  CHECK(text(v, 10) == "EUR");
  CHECK(at(v, 11) == "00 02 00 00 00 00 00 01 00 07 13 88"); // 7.5
  CHECK(at(v, 12) == "00 00 00 00 00 00 00 00");             // 0
  CHECK(at(v, 13) == "00 02 00 00 00 00 00 03 00 07 13 7e"); // 7.499
  CHECK(text(v, 14) == "a\tb");
  CHECK(at(v, 15) == "NULL"); // no hash
  std::vector<std::string> const raw{
    "INV-1", "1.0", "ISSUED", "INVOICE", "C-001", "2026-11-20",
    "soon",  "EUR", "007.5",  "0",       "7.499", "a\tb"};
  CHECK(raw_fields(v) == raw); // in one text[]

  SECTION("unquoted empty fields are NULL, quoted ones empty text")
  {
    Tuple const w{row_of(",\"\",ISSUED,,\"\",x,,\"\",1e3,,,\"\"")};
    CHECK(at(w, 3) == "NULL");
    CHECK(at(w, 4) == "NULL"); // revision: not readable
    CHECK(at(w, 6) == "NULL");
    CHECK(at(w, 7) == "");
    CHECK(at(w, 8) == "NULL"); // not a date
    CHECK(at(w, 10) == "");
    CHECK(at(w, 11) == "NULL"); // 1e3: not readable
    CHECK(at(w, 14) == "");
    std::vector<std::string> const as_in_file{"NULL", "",     "ISSUED", "NULL",
                                              "",     "x",    "NULL",   "",
                                              "1e3",  "NULL", "NULL",   ""};
    CHECK(raw_fields(w) == as_in_file);
  }
  SECTION("an unreadable invoice number is sent as it is")
  {
    Tuple const w{row_of("\"bad\\\nnumber\",0,ISSUED,INVOICE,C,"
                         "2026-11-20,,EUR,1,0,1,")};
    CHECK(text(w, 3) == "bad\\\nnumber");
    CHECK(raw_fields(w).front() == "bad\\\nnumber");
  }
  SECTION("-0.00 in an unknown currency is zero at two decimals")
  {
    Tuple const w{row_of("INV-1,0,ISSUED,INVOICE,C,2026-11-20,,XXX,"
                         "-0.00,0,-0.00,")};
    CHECK(at(w, 11) == "00 00 00 00 00 00 00 02");
    CHECK(at(w, 13) == "00 00 00 00 00 00 00 02");
  }
}

TEST_CASE("typed_copy: a record number beyond integer is refused",
          "[unit][typed_copy]")
{
  RecordFields const f{
    fields_of("I,0,ISSUED,INVOICE,C,2026-11-20,,EUR,1,0,1,")};
  RecordChecker checker{currencies(), "2026-11-28"};
  Verdict v;
  checker.check(f, v);
  std::string out;
  append_typed_row(out, 42, 2147483647, f, v, bits());
  CHECK_FALSE(out.empty());
  try
  {
    append_typed_row(out, 42, 2147483648, f, v, bits());
    FAIL("no error");
  }
  catch (loader::LoaderError const &e)
  {
    CHECK(e.kind == loader::ErrorKind::data);
    CHECK(std::string{e.what()}.find("batch 42 record 2147483648") !=
          std::string::npos);
  }
}
