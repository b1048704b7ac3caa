#include <catch2/catch.hpp>

#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "io/header_map.hpp"
#include "io/record_rules.hpp"
#include "record_test_helpers.hpp"

using namespace loader::io;
using namespace record_test;
using loader::ErrorKind;
using loader::LoaderError;

TEST_CASE("record_rules: the rule codes are the registry's, in order",
          "[unit][record_rules]")
{
  CHECK(code_of(Rule::invoice_number_missing) == "invoice_number.missing");
  CHECK(code_of(Rule::gross_amount_sign) == "gross_amount.sign");
  Codes all;
  for (std::size_t k = 0; k < rule_count; ++k)
    all.emplace(code_of(rule_at(k)));
  CHECK(all.size() == rule_count);
  SECTION("the column indexes are header_map's canonical order")
  {
    auto const &columns = invoice_columns();
    REQUIRE(columns.size() == col::count);
    CHECK(columns[col::invoice_number].name == "invoice_number");
    CHECK(columns[col::due_date].name == "due_date");
    CHECK(columns[col::currency].name == "currency");
    CHECK(columns[col::gross_amount].name == "gross_amount");
    CHECK(columns[col::description].name == "description");
  }
}

TEST_CASE("record_rules: a good record fails nothing", "[unit][record_rules]")
{
  Verdict const v{check(Record{})};
  CHECK(v.failed == 0);
  CHECK(v.revision == "0");
  CHECK(v.net_text == "100.00");
  CHECK(v.gross_text == "119.00");
  SECTION("nor does one without the optional columns")
  {
    CHECK(
      failed(
        Record{}.set(col::due_date, "<NULL>").set(col::description, "<NULL>"))
        .empty());
  }
}

TEST_CASE("record_rules: missing means NULL or empty", "[unit][record_rules]")
{
  struct Case
  {
    std::size_t column;
    char const *rule;
  };
  for (Case const c : {Case{col::invoice_number, "invoice_number.missing"},
                       Case{col::revision, "revision.missing"},
                       Case{col::status, "status.missing"},
                       Case{col::document_type, "document_type.missing"},
                       Case{col::customer_id, "customer_id.missing"},
                       Case{col::currency, "currency.missing"},
                       Case{col::tax_amount, "tax_amount.missing"}})
  {
    CAPTURE(c.rule);
    CHECK(failed(Record{}.set(c.column, "<NULL>")) == Codes{c.rule});
    CHECK(failed(Record{}.set(c.column, "")) == Codes{c.rule});
  }
  CHECK(failed(Record{}.set(col::invoice_date, "")) ==
        Codes{"invoice_date.missing"});
  // The sum needs all three amounts.
  CHECK(failed(Record{}.set(col::net_amount, "")) ==
        Codes{"net_amount.missing"});
  CHECK(failed(Record{}.set(col::gross_amount, "<NULL>")) ==
        Codes{"gross_amount.missing"});
  SECTION("optional columns may be empty")
  {
    CHECK(failed(Record{}.set(col::due_date, "")).empty());
    CHECK(failed(Record{}.set(col::description, "")).empty());
  }
  SECTION("a blank is not empty")
  {
    CHECK(failed(Record{}.set(col::customer_id, " ")).empty());
  }
}

TEST_CASE("record_rules: invoice_number is 1-64 of A-Z a-z 0-9 . _ / -",
          "[unit][record_rules]")
{
  CHECK(
    failed(Record{}.set(col::invoice_number, std::string(64, 'A'))).empty());
  CHECK(failed(Record{}.set(col::invoice_number, std::string(65, 'A'))) ==
        Codes{"invoice_number.format"});
  CHECK(failed(Record{}.set(col::invoice_number, "aZ09._/-")).empty());
  for (char const *bad : {"INV 1", "INV#1", "INV\xC3\xA9", "INV,1", "INV\n1",
                          "INV-1 ", "INV\\1", "INV+1"})
  {
    CAPTURE(bad);
    CHECK(failed(Record{}.set(col::invoice_number, bad)) ==
          Codes{"invoice_number.format"});
  }
}

TEST_CASE("record_rules: revision is 1-9 ASCII digits, canonical without "
          "leading zeros",
          "[unit][record_rules]")
{
  CHECK(check(Record{}.set(col::revision, "999999999")).revision ==
        "999999999");
  CHECK(check(Record{}.set(col::revision, "000000007")).revision == "7");
  CHECK(check(Record{}.set(col::revision, "000")).revision == "0");
  CHECK(failed(Record{}.set(col::revision, "1234567890")) ==
        Codes{"revision.format"});
  CHECK(failed(Record{}.set(col::revision, "0000000001")) ==
        Codes{"revision.format"});
  for (char const *bad : {"-1", "+1", "1.0", " 1", "1e3", "\xD9\xA3", "x"})
  {
    CAPTURE(bad);
    Verdict const v{check(Record{}.set(col::revision, bad))};
    CHECK(codes(v.failed) == Codes{"revision.format"});
    CHECK_FALSE(v.revision_ok);
  }
}

TEST_CASE("record_rules: status and document_type are exact words",
          "[unit][record_rules]")
{
  CHECK(failed(Record{}.set(col::status, "VOID")).empty());
  for (char const *bad : {"issued", "ISSUED ", "CANCELLED", "VOID\n"})
    CHECK(failed(Record{}.set(col::status, bad)) == Codes{"status.value"});
  CHECK(failed(Record{}
                 .set(col::document_type, "CREDIT_NOTE")
                 .set(col::net_amount, "-100.00")
                 .set(col::tax_amount, "-19.00")
                 .set(col::gross_amount, "-119.00"))
          .empty());
  for (char const *bad : {"invoice", "CREDIT-NOTE", "CREDIT_NOTE "})
    CHECK(failed(Record{}.set(col::document_type, bad)) ==
          Codes{"document_type.value"});
}

TEST_CASE("record_rules: dates are real calendar dates written YYYY-MM-DD",
          "[unit][record_rules]")
{
  for (char const *real : {"2024-02-29", "2000-02-29", "0001-01-01",
                           "9999-12-31", "2026-04-30", "2026-01-31"})
  {
    CAPTURE(real);
    CHECK(is_iso_date(real));
  }
  for (char const *not_real :
       {"2023-02-29", "2100-02-29", "0000-01-01", "2026-13-01", "2026-00-10",
        "2026-04-31", "2026-11-00", "2026-1-05", "26-11-28", "today",
        "2026/11/28", "2026-11-28 ", "20261128", "+2026-11-28", "2026-11-2x",
        ""})
  {
    CAPTURE(not_real);
    CHECK_FALSE(is_iso_date(not_real));
  }
  CHECK(failed(Record{}.set(col::invoice_date, "2023-02-29")) ==
        Codes{"invoice_date.format"});
  CHECK(failed(Record{}.set(col::due_date, "2026-02-30")) ==
        Codes{"due_date.format"});
}

TEST_CASE("record_rules: the date order rules", "[unit][record_rules]")
{
  SECTION("invoice_date may be the business date, not after it")
  {
    CHECK(failed(Record{}.set(col::invoice_date, "2026-11-28")).empty());
    CHECK(failed(Record{}
                   .set(col::invoice_date, "2026-11-29")
                   .set(col::due_date, "")) ==
          Codes{"invoice_date.after_business_date"});
  }
  SECTION("due_date may be invoice_date, not before it")
  {
    CHECK(failed(Record{}.set(col::due_date, "2026-11-20")).empty());
    CHECK(failed(Record{}.set(col::due_date, "2026-11-19")) ==
          Codes{"due_date.before_invoice_date"});
  }
  SECTION("only when both are real dates")
  {
    Verdict const v{check(Record{}
                            .set(col::invoice_date, "2026-11-31")
                            .set(col::due_date, "2020-01-01"))};
    CHECK(codes(v.failed) == Codes{"invoice_date.format"});
    CHECK_FALSE(v.invoice_date_ok);
    CHECK(v.due_date_ok);
  }
}

TEST_CASE("record_rules: the currency must be known", "[unit][record_rules]")
{
  for (char const *bad : {"XXX", "eur", "EURO", "EUR "})
    CHECK(failed(Record{}.set(col::currency, bad)) ==
          Codes{"currency.unknown"});
  Currencies const none{{}};
  RecordChecker checker{none, "2026-11-28"};
  Verdict v;
  checker.check(Record{}.fields(), v);
  CHECK(codes(v.failed) == Codes{"currency.unknown"});
}

TEST_CASE("record_rules: no more decimals than the currency's minor unit",
          "[unit][record_rules]")
{
  SECTION("minor unit 2")
  {
    CHECK(failed(Record{}.set(col::tax_amount, "19.000")) ==
          Codes{"tax_amount.precision"});
    CHECK(failed(Record{}.set(col::gross_amount, "119.0")).empty());
  }
  SECTION("minor unit 0")
  {
    Record r;
    r.set(col::currency, "JPY")
      .set(col::net_amount, "100")
      .set(col::tax_amount, "19")
      .set(col::gross_amount, "119");
    CHECK(failed(r).empty());
    CHECK(failed(r.set(col::gross_amount, "119.0")) ==
          Codes{"gross_amount.precision"});
  }
  SECTION("minor unit 3, trailing zeros counted")
  {
    Record r;
    r.set(col::currency, "KWD")
      .set(col::net_amount, "1.234")
      .set(col::tax_amount, "0")
      .set(col::gross_amount, "1.234");
    CHECK(failed(r).empty());
    CHECK(failed(r.set(col::net_amount, "1.2340")) ==
          Codes{"net_amount.precision"});
  }
  SECTION("only with a known currency")
  {
    CHECK(failed(Record{}
                   .set(col::currency, "XXX")
                   .set(col::net_amount, "100.005")
                   .set(col::tax_amount, "18.995")) ==
          Codes{"currency.unknown"});
  }
}

TEST_CASE("record_rules: net + tax = gross exactly, any scales",
          "[unit][record_rules]")
{
  CHECK(sum("1.1", "0.10", "1.20"));
  CHECK(sum("100", "19", "119.00000000000000000000000000000"));
  CHECK(sum("-5", "10", "5.00"));
  CHECK(sum("-0.00", "0", "0.0"));
  CHECK(sum("999999999999999998", "1", "999999999999999999"));
  CHECK(sum("-999999999999999999", "-999999999999999999.0",
            "-999999999999999999.9") == false);
  CHECK(sum("0.000000000000000000000000001", "0.000000000000000000000000002",
            "0.000000000000000000000000003"));
  CHECK_FALSE(sum("1.1", "0.1", "1.3"));
  CHECK_FALSE(sum("100.00", "19.00", "119.01"));
  CHECK_FALSE(sum("999999999999999999", "1", "0"));
  CHECK_FALSE(sum("0.000000000000000000000000001", "0", "0"));
  CHECK_FALSE(sum("5", "5", "-10"));
  CHECK(sum("5", "-15", "-10"));
  CHECK(failed(Record{}.set(col::gross_amount, "119.01")) ==
        Codes{"amounts.sum"});
  SECTION("independent of precision and currency")
  {
    CHECK(failed(Record{}.set(col::net_amount, "100.005")) ==
          Codes{"net_amount.precision", "amounts.sum"});
    CHECK(failed(Record{}
                   .set(col::currency, "ABC")
                   .set(col::gross_amount, "119.001")) ==
          Codes{"currency.unknown", "amounts.sum"});
  }
}

TEST_CASE("record_rules: gross_amount's sign follows the document type",
          "[unit][record_rules]")
{
  Record refund;
  refund.set(col::net_amount, "-1.00")
    .set(col::tax_amount, "0")
    .set(col::gross_amount, "-1.00");
  CHECK(failed(refund) == Codes{"gross_amount.sign"});
  CHECK(failed(Record{}.set(col::document_type, "CREDIT_NOTE")) ==
        Codes{"gross_amount.sign"});
  SECTION("-0.00 is zero, right for both")
  {
    Record zero;
    zero.set(col::net_amount, "0")
      .set(col::tax_amount, "0")
      .set(col::gross_amount, "-0.00");
    CHECK(failed(zero).empty());
    CHECK(failed(zero.set(col::document_type, "CREDIT_NOTE")).empty());
    CHECK(failed(zero.set(col::gross_amount, "0.00")).empty());
  }
  SECTION("only with a valid document type and a readable gross")
  {
    CHECK(failed(refund.set(col::document_type, "RECEIPT")) ==
          Codes{"document_type.value"});
    CHECK(failed(refund.set(col::document_type, "INVOICE")
                   .set(col::gross_amount, "-1e0")) ==
          Codes{"gross_amount.format"});
    CHECK(failed(refund.set(col::gross_amount, "-1.005")) ==
          Codes{"gross_amount.precision", "gross_amount.sign", "amounts.sum"});
  }
}

TEST_CASE("record_rules: every failed rule of a record is reported",
          "[unit][record_rules]")
{
  Record r;
  for (std::size_t k = 0; k < col::count; ++k) r.set(k, "<NULL>");
  CHECK(failed(r) == Codes{"invoice_number.missing", "revision.missing",
                           "status.missing", "document_type.missing",
                           "customer_id.missing", "invoice_date.missing",
                           "currency.missing", "net_amount.missing",
                           "tax_amount.missing", "gross_amount.missing"});
}

TEST_CASE("record_rules: the content hash v2", "[unit][record_rules]")
{
  // Expected digest from outside the loader:
  //   printf %s '6:ISSUED7:INVOICE5:C-00110:2026-11-28-3:EUR6:100.00'
  //     '5:19.006:119.00-' | sha256sum     (one string, without the break)
  std::string_view const values[] = {"ISSUED",     "INVOICE", "C-001",
                                     "2026-11-28", "EUR",     "100.00",
                                     "19.00",      "119.00"};
  std::string scratch;
  auto const h = content_hash({&values[0], &values[1], &values[2], &values[3],
                               nullptr, &values[4], &values[5], &values[6],
                               &values[7], nullptr},
                              scratch);
  CHECK(scratch ==
        "6:ISSUED7:INVOICE5:C-00110:2026-11-28-3:EUR6:100.005:19.006:119.00-");
  CHECK(hex(h) ==
        "8bc09a5f1c9d378f072462b5758677066ec9a22940b554e11d116086abd0a614");

  SECTION("a passing record hashes its canonical values")
  {
    //   printf %s '6:ISSUED7:INVOICE5:C-00110:2026-11-2010:2026-12-20'
    //     '3:EUR6:100.005:19.006:119.0010:Consulting' | sha256sum
    Verdict const v{check(
      Record{}.set(col::net_amount, "100").set(col::tax_amount, "19.0"))};
    REQUIRE(v.failed == 0);
    CHECK(hex(v.content_hash) ==
          "ef595737d3494a51b2f9b12b47a4d00c1932da8947f72bf5c27f9a9a606a4d40");
  }
  SECTION("empty due_date and description hash as NULL, quoted or not")
  {
    Verdict const quoted{check(Record{}
                                 .set(col::invoice_date, "2026-11-28")
                                 .set(col::due_date, "")
                                 .set(col::description, ""))};
    Verdict const absent{check(Record{}
                                 .set(col::invoice_date, "2026-11-28")
                                 .set(col::due_date, "<NULL>")
                                 .set(col::description, "<NULL>"))};
    CHECK(hex(quoted.content_hash) == hex(h));
    CHECK(hex(absent.content_hash) == hex(h));
  }
  SECTION("the lengths keep neighbouring values apart")
  {
    Verdict const a{check(Record{}.set(col::customer_id, "C-0011"))};
    Verdict const b{check(Record{}
                            .set(col::customer_id, "C-001")
                            .set(col::description, "1Consulting"))};
    CHECK(hex(a.content_hash) != hex(b.content_hash));
  }
}
