// A source's file format: the format file's keys, the transcoder and the
// reader that turns delivered values into the contract's.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "core/errors.hpp"
#include "io/csv_fields.hpp"
#include "io/file_format.hpp"
#include "io/file_scan.hpp"
#include "io/format_read.hpp"
#include "io/header_map.hpp"
#include "io/transcode.hpp"
#include "temp_file.hpp"

using namespace loader::io;
using loader::ErrorKind;
using loader::LoaderError;

namespace
{
/// The message parse_format refuses json with (config), or "" if it reads.
std::string refusal(std::string const &json)
{
  try
  {
    parse_format(json);
  }
  catch (LoaderError const &e)
  {
    CHECK(e.kind == ErrorKind::config);
    return e.what();
  }
  return {};
}

std::string utf8_of(Encoding e, std::string const &bytes,
                    std::string *stopped = nullptr, std::size_t chunk = 0)
{
  Transcoder t{e};
  std::string out;
  std::size_t const step = chunk == 0 ? bytes.size() : chunk;
  for (std::size_t at = 0; at < bytes.size(); at += step)
  {
    auto const stop = t.convert(bytes.data() + at,
                                std::min(step, bytes.size() - at), out);
    if (stop)
    {
      if (stopped) *stopped = stop->what;
      break;
    }
  }
  return out;
}

/// The contract's values of one record read with format (header names as
/// delivered, fields as delivered).
struct Read
{
  RecordFields values;
  RecordRead info;
  std::string note;
};
Read read_with(FileFormat const &format, std::vector<std::string> const &names,
               std::string const &record, RuleSet failed = ~RuleSet{0})
{
  static HeaderMapping mapping;
  mapping = map_header(names, false, format);
  static FieldSplitter splitter{format.delimiter, format.quote};
  splitter = FieldSplitter{format.delimiter, format.quote};
  static std::string raw;
  raw = record;
  auto const &fields = splitter.split(raw);
  static FormatReader *reader = nullptr;
  delete reader;
  reader = new FormatReader{format, mapping};
  Read r;
  reader->read(fields, r.values, r.info);
  r.note = reader->note(r.values, r.info, failed);
  return r;
}

std::vector<std::string> german_header()
{
  return {"Nr",     "Datum",  "Kunde", "Netto",
          "Steuer", "Brutto", "Art",   "Status"};
}

FileFormat german()
{
  return parse_format(R"({"delimiter": ";", "decimal_separator": ",",
    "group_separator": ".", "date_format": "DD.MM.YYYY",
    "columns": {"Nr": "invoice_number", "Datum": "invoice_date",
                "Kunde": "customer_id", "Netto": "net_amount",
                "Steuer": "tax_amount", "Brutto": "gross_amount",
                "Art": "document_type", "Status": "status"},
    "defaults": {"revision": "0", "currency": "EUR"},
    "values": {"status": {"offen": "ISSUED", "storniert": "VOID"},
               "document_type": {"Rechnung": "INVOICE"}}})");
}
} // namespace

TEST_CASE("file_format: every key refuses a value outside its set",
          "[unit][file_format]")
{
  CHECK(refusal("{}").empty());
  CHECK(refusal("[]").find("must be a JSON object") != std::string::npos);
  CHECK(refusal("{").find("not valid JSON") != std::string::npos);
  CHECK(refusal(R"({"thousands": "."})").find("unknown key \"thousands\"") !=
        std::string::npos);
  CHECK(refusal(R"({"delimiter": ":"})").find("delimiter may be") !=
        std::string::npos);
  CHECK(refusal(R"({"delimiter": 59})").find("delimiter must be a string") !=
        std::string::npos);
  CHECK(refusal(R"({"quote": "`"})").find("quote may be") !=
        std::string::npos);
  CHECK(refusal(R"({"header": "no"})").find("header must be") !=
        std::string::npos);
  CHECK(refusal(R"({"encoding": "UTF-16"})").find("encoding may be") !=
        std::string::npos);
  CHECK(refusal(R"({"decimal_separator": "'"})").find("decimal_separator") !=
        std::string::npos);
  CHECK(refusal(R"({"group_separator": "_"})").find("group_separator") !=
        std::string::npos);
  CHECK(refusal(R"({"date_format": "DD-MM-YYYY"})").find("date_format may") !=
        std::string::npos);
  CHECK(
    refusal(R"({"columns": {"A": "amount"}})").find("not a contract column") !=
    std::string::npos);
  CHECK(refusal(R"({"columns": {"A": "net_amount", "B": "net_amount"}})")
          .find("maps two file columns to net_amount") != std::string::npos);
  CHECK(refusal(R"({"header": false})").find("needs columns") !=
        std::string::npos);
  CHECK(refusal(R"({"header": false, "columns": {"A": "net_amount"}})")
          .find("must be a list") != std::string::npos);
  CHECK(refusal(R"({"defaults": {"colour": "red"}})")
          .find("not a contract column") != std::string::npos);
  CHECK(refusal(R"({"defaults": {"currency": ""}})").find("non-empty") !=
        std::string::npos);
  CHECK(refusal(R"({"values": {"customer_id": {"a": "b"}}})")
          .find("values may map status") != std::string::npos);
  CHECK(refusal(R"({"max_expansion": 0})").find("max_expansion") !=
        std::string::npos);
  CHECK(refusal(R"({"max_expansion": 2.5})").find("max_expansion") !=
        std::string::npos);
  CHECK(refusal(R"({"delimiter": ";", "quote": ";"})").find("quote may be") !=
        std::string::npos);
  CHECK(refusal(R"({"decimal_separator": ",", "group_separator": ","})")
          .find("must differ") != std::string::npos);
  CHECK(refusal(R"({"decimal_separator": ","})")
          .find("decimal_separator must differ from the delimiter") !=
        std::string::npos);
  CHECK(refusal(R"({"header": false, "columns": ["currency"],
                   "defaults": {"currency": "EUR"}})")
          .find("the file delivers that column") != std::string::npos);
}

TEST_CASE("file_format: the stored text is canonical", "[unit][file_format]")
{
  FileFormat const a{parse_format(
    R"({"encoding": "cp1252", "delimiter": ";", "decimal_separator": ","})")};
  FileFormat const b{parse_format(
    R"({"decimal_separator": ",", "delimiter": ";", "encoding": "Windows-1252"})")};
  CHECK(format_json(a) == format_json(b));
  CHECK(format_json(parse_format(format_json(a))) == format_json(a));
  CHECK(parse_format("{}").is_default());
  CHECK_FALSE(a.is_default());
  CHECK(describe(german()) ==
        "delimiter ;, header, UTF-8, amounts 1.234,56, dates DD.MM.YYYY, 8 "
        "columns renamed, 2 defaults, 2 value maps");
}

TEST_CASE("file_format: single-byte encodings become UTF-8 through iconv",
          "[unit][file_format]")
{
  CHECK(utf8_of(Encoding::windows_1252, "B\xFCro \x80") == "Büro €");
  CHECK(utf8_of(Encoding::iso_8859_15, "\xA4") == "€");
  CHECK(utf8_of(Encoding::iso_8859_1, "\xA4") == "¤");
  CHECK(utf8_of(Encoding::iso_8859_1, "\x81") == "\xC2\x81"); // a C1 control

  std::string why;
  CHECK(utf8_of(Encoding::windows_1252, "ab\x81z", &why) == "ab");
  CHECK(why == "byte 81 is not a character in windows-1252");

  // UTF-8 declared windows-1252: "Büro" in UTF-8, cut anywhere.
  for (std::size_t chunk : {0u, 1u, 2u, 3u})
  {
    why.clear();
    utf8_of(Encoding::windows_1252, "B\xC3\xBCro", &why, chunk);
    CHECK(why.find("C3 BC") != std::string::npos);
    CHECK(why.find("looks like UTF-8") != std::string::npos);
  }
  // A lead byte followed by no continuation is plain windows-1252.
  why.clear();
  CHECK(utf8_of(Encoding::windows_1252, "\xC3x \xE9t\xE9", &why) == "Ãx été");
  CHECK(why.empty());
}

TEST_CASE("file_format: amounts only of the declared form",
          "[unit][file_format]")
{
  FileFormat const f{german()};
  auto const names = german_header();
  auto const net = [&](std::string const &v) {
    Read const r{read_with(
      f, names, "R-1;24.11.2026;K;" + v + ";0,00;0,00;Rechnung;offen")};
    bool const unreadable = (r.info.unreadable &
                             bit_of(Rule::net_amount_format)) != 0;
    return unreadable
             ? std::string{"!"} + std::string{r.values[col::net_amount].text}
             : std::string{r.values[col::net_amount].text};
  };
  CHECK(net("1.234,56") == "1234.56");
  CHECK(net("1234,56") == "1234.56");
  CHECK(net("-1.234.567,8") == "-1234567.8");
  CHECK(net("0,50") == "0.50");
  CHECK(net("12") == "12");
  CHECK(net("\"1.234\"") == "1234");
  CHECK(net("1234.56") == "!1234.56");   // the point groups: 4 digits
  CHECK(net("1,234.56") == "!1,234.56"); // English form
  CHECK(net("12.34") == "!12.34");
  CHECK(net("1.2345") == "!1.2345");
  CHECK(net(".234") == "!.234");
  CHECK(net("1,") == "!1,");
  CHECK(net("+1,00") == "!+1,00");
  CHECK(net("1 234,00") == "!1 234,00");
  CHECK(net("") == ""); // missing stays missing

  FileFormat const plain{parse_format(
    R"({"delimiter": ";", "decimal_separator": ",", "columns": {"N": "net_amount"}})")};
  Read const r{read_with(plain, {"N"}, "1.234,00")};
  CHECK((r.info.unreadable & bit_of(Rule::net_amount_format)) != 0);
}

TEST_CASE("file_format: dates from each declared form, calendar left to "
          "the rule",
          "[unit][file_format]")
{
  struct Case
  {
    char const *form, *good, *bad;
  };
  for (Case const c : {Case{"DD.MM.YYYY", "28.11.2026", "2026-11-28"},
                       Case{"DD/MM/YYYY", "28/11/2026", "28.11.2026"},
                       Case{"MM/DD/YYYY", "11/28/2026", "28/11/202"},
                       Case{"YYYYMMDD", "20261128", "2026112"},
                       Case{"YYYY-MM-DD", "2026-11-28", "2026-11-28"}})
  {
    FileFormat const f{
      parse_format(std::string{R"({"date_format": ")"} + c.form + R"("})")};
    Read const good{read_with(f, {"invoice_date"}, c.good)};
    CHECK(good.values[col::invoice_date].text == "2026-11-28");
    CHECK(good.info.unreadable == 0);
    if (std::string{c.form} != "YYYY-MM-DD")
    {
      Read const bad{read_with(f, {"invoice_date"}, c.bad)};
      CHECK((bad.info.unreadable & bit_of(Rule::invoice_date_format)) != 0);
      CHECK(bad.note.find("is not of the declared form " +
                          std::string{c.form}) != std::string::npos);
    }
  }
  FileFormat const f{parse_format(R"({"date_format": "DD.MM.YYYY"})")};
  Read const r{read_with(f, {"invoice_date"}, "31.11.2026")};
  CHECK(r.values[col::invoice_date].text == "2026-11-31");
  CHECK(r.note == "as delivered: invoice_date \"31.11.2026\" read as "
                  "\"2026-11-31\"");
}

TEST_CASE("file_format: renamed columns, defaults and value maps",
          "[unit][file_format]")
{
  FileFormat const f{german()};
  Read const r{read_with(f, german_header(),
                         "R-1;24.11.2026;K-9;1.000,00;190,00;1.190,00;"
                         "Rechnung;storniert")};
  CHECK(r.values[col::invoice_number].text == "R-1");
  CHECK(r.values[col::revision].text == "0");
  CHECK(r.values[col::currency].text == "EUR");
  CHECK(r.values[col::status].text == "VOID");
  CHECK(r.values[col::document_type].text == "INVOICE");
  CHECK(r.values[col::gross_amount].text == "1190.00");
  CHECK(r.info.delivered[col::status].text == "storniert");
  CHECK(r.info.delivered[col::gross_amount].text == "1.190,00");
  // The note names only the columns of the failed rules.
  Read const s{read_with(f, german_header(),
                         "R-1;24.11.2026;K-9;1,00;0,00;1,00;Rechnung;bezahlt",
                         bit_of(Rule::status_value))};
  CHECK(s.note ==
        "as delivered: status \"bezahlt\" is not in the format's values map");
  Read const t{read_with(f, german_header(),
                         "R-1;24.11.2026;K-9;1,00;0,00;1,00;Rechnung;offen",
                         bit_of(Rule::customer_id_missing))};
  CHECK(t.note.empty());

  std::vector<std::string> const used{
    defaults_used(f, map_header(german_header(), false, f))};
  CHECK(used == std::vector<std::string>{"currency=EUR", "revision=0"});
  HeaderMapping const m{map_header(german_header(), false, f)};
  CHECK(m.ok());
  HeaderMapping const extra{
    map_header({"Nr", "Datum", "Kunde", "Netto", "Steuer", "Brutto", "Art",
                "Status", "Farbe"},
               false, f)};
  CHECK(extra.rule() == "header.unknown_column");
}

TEST_CASE("file_format: a file without a header, by position",
          "[unit][file_format]")
{
  FileFormat const f{parse_format(R"({"header": false, "delimiter": "\t",
    "encoding": "ISO-8859-15",
    "columns": ["invoice_number", null, "gross_amount"]})")};
  TempFile file{"A-1\tx\t1.00\nA-2\ty\t\xA4\n"};
  ReadOptions read;
  read.format = f;
  FileScan const s{scan_file(file.path, read)};
  CHECK_FALSE(s.issue);
  CHECK(s.records == 2);
  CHECK(s.header == std::vector<std::string>{"1", "2", "3"});
  HeaderMapping const m{map_header(s.header, false, f)};
  // The other required columns of the contract (due_date and description
  // are optional).
  CHECK(m.missing_required.size() == 8);
  CHECK(m.unknown.empty());

  TempFile wide{"A-1\tx\t1.00\tmore\n"};
  HeaderMapping const w{
    map_header(scan_file(wide.path, read).header, false, f)};
  CHECK(w.unknown == std::vector<std::string>{"at position 4"});
}

TEST_CASE("file_format: a byte the encoding lacks names record and column",
          "[unit][file_format]")
{
  ReadOptions read;
  read.format = parse_format(
    R"({"delimiter": ";", "encoding": "windows-1252"})");
  TempFile file{"a;b;c\n1;2;3\n4;5\x81;6\n"};
  FileScan const s{scan_file(file.path, read)};
  REQUIRE(s.issue);
  CHECK(rule_of(s.issue->problem) == "csv.encoding");
  CHECK(s.issue->record_no == 2);
  CHECK(s.issue->detail ==
        "record 2, column 2 (b): byte 81 is not a character in windows-1252");

  ReadOptions utf8; // the same bytes declared UTF-8
  utf8.format = parse_format(R"({"delimiter": ";"})");
  TempFile latin{"a;b\n1;M\xFCller\n"};
  FileScan const u{scan_file(latin.path, utf8)};
  REQUIRE(u.issue);
  CHECK(u.issue->detail.rfind("record 1, column 2 (b) is not valid UTF-8",
                              0) == 0);
}
