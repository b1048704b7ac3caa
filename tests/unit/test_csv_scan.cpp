#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/csv_scan.hpp"

using loader::io::CsvIssue;
using loader::io::CsvLimits;
using loader::io::CsvProblem;
using loader::io::CsvScanner;
using loader::io::CsvSink;
using loader::io::rule_of;
using namespace std::string_literals;

namespace
{
/// Everything a scan produced, comparable across ways of feeding it.
struct Result
{
  bool header_seen = false;
  std::vector<std::string> header;
  std::vector<std::pair<std::uint64_t, std::string>> records;
  std::optional<CsvIssue> issue;
  bool bom = false;
  bool crlf = false;
  std::uint64_t record_count = 0;
  std::uint64_t bytes = 0;
};

class Collect : public CsvSink
{
public:
  explicit Collect(Result &r) : m_r{r} {}
  void on_header(std::vector<std::string> const &names) override
  {
    CHECK_FALSE(m_r.header_seen);
    m_r.header_seen = true;
    m_r.header = names;
  }
  void on_record(std::uint64_t record_no, std::string_view raw) override
  {
    m_r.records.emplace_back(record_no, std::string{raw});
  }

private:
  Result &m_r;
};

enum class Chunking
{
  whole,
  byte_by_byte,
  random
};

Result run(std::string_view input, Chunking how, CsvLimits limits = {},
           std::uint32_t seed = 1)
{
  Result r;
  Collect sink{r};
  CsvScanner scanner{sink, limits};
  std::mt19937 rng{seed};
  std::size_t pos = 0;
  while (pos < input.size())
  {
    std::size_t n = input.size() - pos;
    if (how == Chunking::byte_by_byte)
      n = 1;
    else if (how == Chunking::random)
      n = std::min(n, std::size_t{rng() % 9});
    // Copy each chunk, so a scanner that keeps pointers into an old chunk
    // reads garbage instead of the right bytes by luck.
    std::string const chunk{input.substr(pos, n)};
    scanner.feed(chunk.data(), chunk.size());
    pos += n;
  }
  scanner.finish();
  r.issue = scanner.issue();
  r.bom = scanner.had_bom();
  r.crlf = scanner.crlf();
  r.record_count = scanner.records();
  r.bytes = scanner.bytes();
  return r;
}

std::string printable(std::string_view s)
{
  std::string out;
  for (char const ch : s)
  {
    auto const c = static_cast<unsigned char>(ch);
    if (c >= 0x20 and c < 0x7f and c != '\\')
      out.push_back(ch);
    else
      out += "\\" + std::to_string(c) + ";";
  }
  return out;
}

/// One line per fact, so that Catch shows which one differs.
std::string describe(Result const &r)
{
  std::string out = "header_seen=" + std::to_string(r.header_seen) + "\n";
  for (auto const &h : r.header) out += "name " + printable(h) + "\n";
  for (auto const &[no, raw] : r.records)
    out += "record " + std::to_string(no) + " " + printable(raw) + "\n";
  if (r.issue)
    out += "issue " + std::string{rule_of(r.issue->problem)} + " record " +
           std::to_string(r.issue->record_no) + ": " + r.issue->detail + "\n";
  out += "bom=" + std::to_string(r.bom) + " crlf=" + std::to_string(r.crlf) +
         " records=" + std::to_string(r.record_count) +
         " bytes=" + std::to_string(r.bytes) + "\n";
  return out;
}

/// Scan whole, byte by byte and in random chunks; all must agree.
Result scan(std::string_view input, CsvLimits limits = {})
{
  Result const whole = run(input, Chunking::whole, limits);
  CHECK(describe(run(input, Chunking::byte_by_byte, limits)) ==
        describe(whole));
  for (std::uint32_t seed = 1; seed <= 3; ++seed)
    CHECK(describe(run(input, Chunking::random, limits, seed)) ==
          describe(whole));
  return whole;
}

using Records = std::vector<std::pair<std::uint64_t, std::string>>;
using Names = std::vector<std::string>;

void check_ok(Result const &r)
{
  INFO(describe(r));
  CHECK_FALSE(r.issue.has_value());
  CHECK(r.record_count == r.records.size());
}

void check_issue(Result const &r, std::string_view rule,
                 std::uint64_t record_no)
{
  INFO(describe(r));
  REQUIRE(r.issue.has_value());
  CHECK(rule_of(r.issue->problem) == rule);
  CHECK(r.issue->record_no == record_no);
  CHECK_FALSE(r.issue->detail.empty());
  // Nothing at or after the bad record was emitted.
  CHECK(r.record_count == (record_no == 0 ? 0 : record_no - 1));
  CHECK(r.records.size() == r.record_count);
}
} // namespace

TEST_CASE("csv_scan: passes the header names and each record's raw bytes",
          "[unit][csv_scan]")
{
  SECTION("LF file with a final newline")
  {
    auto const r = scan("a,b\n1,2\n3,4\n");
    check_ok(r);
    CHECK(r.header == Names{"a", "b"});
    CHECK(r.records == Records{{1, "1,2"}, {2, "3,4"}});
    CHECK_FALSE(r.crlf);
    CHECK(r.bytes == 12);
  }
  SECTION("the last record may lack its terminator")
  {
    auto const r = scan("a,b\n1,2\n3,4");
    check_ok(r);
    CHECK(r.records == Records{{1, "1,2"}, {2, "3,4"}});
  }
  SECTION("quoted header names are unquoted")
  {
    auto const r = scan("\"a\",\"b \"\"x\"\"\",\"c,d\",\"\"\"\"\n1,2,3,4\n");
    check_ok(r);
    CHECK(r.header == Names{"a", "b \"x\"", "c,d", "\""});
    CHECK(r.records == Records{{1, "1,2,3,4"}});
  }
  SECTION("header names keep their blanks and case")
  {
    auto const r = scan(" a ,B\n1,2\n");
    check_ok(r);
    CHECK(r.header == Names{" a ", "B"});
  }
}

TEST_CASE("csv_scan: keeps quoted commas, quotes and newlines in one record",
          "[unit][csv_scan]")
{
  SECTION("comma and doubled quote inside quotes")
  {
    auto const r = scan("a,b\n\"x,y\",\"say \"\"hi\"\"\"\n");
    check_ok(r);
    CHECK(r.records == Records{{1, "\"x,y\",\"say \"\"hi\"\"\""}});
  }
  SECTION("a newline inside quotes does not end the record")
  {
    auto const r = scan("a,b\n\"line1\nline2\",z\n1,2\n");
    check_ok(r);
    CHECK(r.records == Records{{1, "\"line1\nline2\",z"}, {2, "1,2"}});
  }
  SECTION("CR and CRLF inside quotes are data in an LF file")
  {
    auto const r = scan("a\n\"p\r\nq\rr\"\n");
    check_ok(r);
    CHECK(r.records == Records{{1, "\"p\r\nq\rr\""}});
  }
  SECTION("empty quoted and unquoted fields")
  {
    auto const r = scan("a,b,c\n,\"\",\n");
    check_ok(r);
    CHECK(r.records == Records{{1, ",\"\","}});
  }
  SECTION("a quoted field may end the file without a newline")
  {
    auto const r = scan("a,b\n1,\"x\ny\"");
    check_ok(r);
    CHECK(r.records == Records{{1, "1,\"x\ny\""}});
  }
}

TEST_CASE("csv_scan: accepts a header-only file", "[unit][csv_scan]")
{
  SECTION("without a final newline")
  {
    auto const r = scan("a,b");
    check_ok(r);
    CHECK(r.header_seen);
    CHECK(r.header == Names{"a", "b"});
    CHECK(r.records.empty());
  }
  SECTION("with LF")
  {
    auto const r = scan("a,b\n");
    check_ok(r);
    CHECK(r.header == Names{"a", "b"});
    CHECK(r.records.empty());
    CHECK_FALSE(r.crlf);
  }
  SECTION("with CRLF")
  {
    auto const r = scan("a,b\r\n");
    check_ok(r);
    CHECK(r.records.empty());
    CHECK(r.crlf);
  }
}

TEST_CASE("csv_scan: reports a file without a header as empty",
          "[unit][csv_scan]")
{
  SECTION("zero bytes")
  {
    auto const r = scan("");
    check_issue(r, "csv.empty_file", 0);
    CHECK_FALSE(r.header_seen);
  }
  SECTION("finish() without any feed()")
  {
    Result r;
    Collect sink{r};
    CsvScanner s{sink};
    s.finish();
    REQUIRE(s.issue().has_value());
    CHECK(s.issue()->problem == CsvProblem::empty_file);
    CHECK(s.issue()->record_no == 0);
  }
  SECTION("a BOM and nothing else")
  {
    auto const r = scan("\xEF\xBB\xBF");
    check_issue(r, "csv.empty_file", 0);
    CHECK(r.bom);
    CHECK(r.bytes == 3);
  }
}

TEST_CASE("csv_scan: strips a leading BOM and records it", "[unit][csv_scan]")
{
  SECTION("BOM before the header")
  {
    auto const r = scan("\xEF\xBB\xBF"
                        "a,b\n1,2\n");
    check_ok(r);
    CHECK(r.bom);
    CHECK(r.header == Names{"a", "b"});
    CHECK(r.records == Records{{1, "1,2"}});
    CHECK(r.bytes == 11);
  }
  SECTION("no BOM")
  {
    auto const r = scan("a,b\n1,2\n");
    check_ok(r);
    CHECK_FALSE(r.bom);
  }
  SECTION("a BOM later in the file is data")
  {
    auto const r = scan("a,b\n\xEF\xBB\xBFx,y\n");
    check_ok(r);
    CHECK_FALSE(r.bom);
    CHECK(r.records == Records{{1, "\xEF\xBB\xBFx,y"}});
  }
  SECTION("only the first BOM is stripped")
  {
    auto const r = scan("\xEF\xBB\xBF\xEF\xBB\xBF"
                        "a\n1\n");
    check_ok(r);
    CHECK(r.bom);
    CHECK(r.header == Names{"\xEF\xBB\xBF"
                            "a"});
  }
  SECTION("a BOM prefix that turns into another character is data")
  {
    // EF BB BE is U+FEFE, valid UTF-8 that merely starts like a BOM.
    auto const r = scan("\xEF\xBB\xBE,b\n1,2\n");
    check_ok(r);
    CHECK_FALSE(r.bom);
    CHECK(r.header == Names{"\xEF\xBB\xBE", "b"});
  }
  SECTION("a cut BOM prefix is invalid UTF-8 in the header")
  {
    check_issue(scan("\xEF\xBB"
                     "a\n"),
                "csv.encoding", 0);
    check_issue(scan("\xEF"), "csv.encoding", 0);
    check_issue(scan("\xEF\xBB"), "csv.encoding", 0);
  }
}

TEST_CASE("csv_scan: takes LF or CRLF from the header line",
          "[unit][csv_scan]")
{
  SECTION("a CRLF file passes records without their CR")
  {
    auto const r = scan("a,b\r\n1,2\r\n3,4");
    check_ok(r);
    CHECK(r.crlf);
    CHECK(r.records == Records{{1, "1,2"}, {2, "3,4"}});
  }
  SECTION("a CR inside quotes is data in a CRLF file")
  {
    auto const r = scan("a\r\n\"x\ry\"\r\n\"p\nq\"\r\n");
    check_ok(r);
    CHECK(r.records == Records{{1, "\"x\ry\""}, {2, "\"p\nq\""}});
  }
  SECTION("a CRLF record in an LF file")
  {
    auto const r = scan("a,b\n1,2\n3,4\r\n5,6\n");
    check_issue(r, "csv.line_endings", 2);
    CHECK(r.issue->detail ==
          "record 2 ends with CRLF but the header line ends with LF");
  }
  SECTION("an LF record in a CRLF file")
  {
    auto const r = scan("a,b\r\n1,2\n3,4\r\n");
    check_issue(r, "csv.line_endings", 1);
    CHECK(r.issue->detail ==
          "record 1 ends with LF but the header line ends with CRLF");
  }
  SECTION("a bare CR inside a record")
  {
    check_issue(scan("a,b\n1,2\n3\r4,5\n"), "csv.line_endings", 2);
    check_issue(scan("a,b\r\n1,2\r\n\"3\"\r4,5\r\n"), "csv.line_endings", 2);
  }
  SECTION("a bare CR in the header")
  {
    check_issue(scan("a\rb\n1\n"), "csv.line_endings", 0);
  }
  SECTION("CR-only line endings")
  {
    check_issue(scan("a,b\r1,2\r"), "csv.line_endings", 0);
  }
  SECTION("a bare CR at the end of the file")
  {
    check_issue(scan("a,b\n1,2\r"), "csv.line_endings", 1);
    check_issue(scan("a,b\r\n1,2\r"), "csv.line_endings", 1);
  }
  SECTION("CR CR LF is a bare CR")
  {
    check_issue(scan("a\r\n1\r\r\n"), "csv.line_endings", 1);
  }
}

TEST_CASE("csv_scan: rejects stray and unterminated quotes",
          "[unit][csv_scan]")
{
  SECTION("a quote inside an unquoted field")
  {
    auto const r = scan("a,b\n1,2\n3,x\"y\"\n4,5\n");
    check_issue(r, "csv.quoting", 2);
    CHECK(r.records == Records{{1, "1,2"}});
  }
  SECTION("a quote inside an unquoted header name")
  {
    check_issue(scan("a\"b\",c\n"), "csv.quoting", 0);
  }
  SECTION("text after the closing quote")
  {
    check_issue(scan("a,b\n\"x\"y,2\n"), "csv.quoting", 1);
    check_issue(scan("a,b\n1,2\n\"x\" ,2\n"), "csv.quoting", 2);
    check_issue(scan("a,b\n1,\"x\"\"\"\"y\n"), "csv.quoting", 1);
  }
  SECTION("an unterminated quote at the end of the file")
  {
    auto const r = scan("a,b\n1,2\n3,\"open\n4,5\n");
    check_issue(r, "csv.quoting", 2);
    CHECK(r.issue->detail == "unterminated quoted field starting in record 2");
    CHECK(r.records == Records{{1, "1,2"}});
  }
  SECTION("a quoted field that ends in an escaped quote is unterminated")
  {
    check_issue(scan("a\n\"x\"\""), "csv.quoting", 1);
  }
  SECTION("an unterminated quote in the header")
  {
    check_issue(scan("a,\"b\n"), "csv.quoting", 0);
  }
}

TEST_CASE("csv_scan: requires the header's field count in every record",
          "[unit][csv_scan]")
{
  SECTION("too few fields")
  {
    auto const r = scan("a,b,c\n1,2,3\n1,2\n");
    check_issue(r, "csv.column_count", 2);
    CHECK(r.issue->detail == "record 2 has 2 fields; the header has 3");
  }
  SECTION("too many fields")
  {
    auto const r = scan("a,b\n1,2,3\n");
    check_issue(r, "csv.column_count", 1);
    CHECK(r.issue->detail == "record 1 has 3 fields; the header has 2");
  }
  SECTION("a trailing comma adds an empty field")
  {
    check_issue(scan("a,b\n1,2,\n"), "csv.column_count", 1);
  }
  SECTION("too few fields in a last record without terminator")
  {
    check_issue(scan("a,b\n1,2\n3"), "csv.column_count", 2);
  }
  SECTION("an empty line is a blank line, not a record with one field")
  {
    check_issue(scan("a,b\n1,2\n\n3,4\n"), "csv.blank_line", 2);
  }
  SECTION("under a one-column header an empty value is written \"\"")
  {
    auto const r = scan("a\nx\n\"\"\ny\n");
    check_ok(r);
    CHECK(r.records == Records{{1, "x"}, {2, "\"\""}, {3, "y"}});
    check_issue(scan("a\nx\n\ny\n"), "csv.blank_line", 2);
  }
  SECTION("a header with more fields than the limit")
  {
    CsvLimits limits;
    limits.max_header_fields = 3;
    check_ok(scan("a,b,c\n1,2,3\n", limits));
    auto const r = scan("a,b,c,d\n1,2,3,4\n", limits);
    check_issue(r, "csv.column_count", 0);
    CHECK_FALSE(r.header_seen);
  }
}

TEST_CASE("csv_scan: rejects an empty header name", "[unit][csv_scan]")
{
  SECTION("between two names")
  {
    auto const r = scan("a,,c\n1,2,3\n");
    check_issue(r, "header.empty_name", 0);
    CHECK_FALSE(r.header_seen);
    CHECK(r.issue->detail.find("column 2") != std::string::npos);
  }
  SECTION("quoted empty name")
  {
    check_issue(scan("a,\"\"\n"), "header.empty_name", 0);
  }
  SECTION("trailing comma")
  {
    check_issue(scan("a,b,\n"), "header.empty_name", 0);
  }
}

TEST_CASE("csv_scan: ignores blank lines at the end, rejects them inside",
          "[unit][csv_scan]")
{
  SECTION("trailing LF blanks")
  {
    auto const r = scan("a,b\n1,2\n3,4\n\n\n\n");
    check_ok(r);
    CHECK(r.records == Records{{1, "1,2"}, {2, "3,4"}});
    CHECK(r.record_count == 2);
    CHECK(r.bytes == 15);
  }
  SECTION("one trailing blank line")
  {
    auto const r = scan("a,b\n1,2\n3,4\n\n");
    check_ok(r);
    CHECK(r.record_count == 2);
  }
  SECTION("trailing CRLF blanks")
  {
    auto const r = scan("a,b\r\n1,2\r\n\r\n\r\n");
    check_ok(r);
    CHECK(r.crlf);
    CHECK(r.records == Records{{1, "1,2"}});
  }
  SECTION("a trailing CRLF blank in an LF file is a line-ending problem")
  {
    check_issue(scan("a,b\n1,2\n\r\n"), "csv.line_endings", 2);
  }
  SECTION("a trailing LF blank in a CRLF file is a line-ending problem")
  {
    check_issue(scan("a,b\r\n1,2\r\n\n"), "csv.line_endings", 2);
  }
  SECTION("a blank in the middle")
  {
    auto const r = scan("a,b\n1,2\n\n3,4\n");
    check_issue(r, "csv.blank_line", 2);
    CHECK(r.issue->detail == "line 3 is blank (between record 1 and "
                             "record 2); blank lines are allowed only at "
                             "the end of the file");
    CHECK(r.records == Records{{1, "1,2"}});
  }
  SECTION("several blanks in the middle of a CRLF file, right after the "
          "header")
  {
    auto const r = scan("a,b\r\n\r\n\r\n1,2\r\n");
    check_issue(r, "csv.blank_line", 1);
    CHECK(r.issue->detail == "lines 2 to 3 are blank (between the header "
                             "and record 1); blank lines are allowed only "
                             "at the end of the file");
  }
  SECTION("the line number counts newlines inside quotes")
  {
    auto const r = scan("a,b\n\"x\ny\",2\n\n3,4");
    check_issue(r, "csv.blank_line", 2);
    CHECK(r.issue->detail.find("line 4 is blank") == 0);
  }
  SECTION("a blank followed by a record that is bad itself names the blank")
  {
    check_issue(scan("a,b\n1,2\n\n3\"\n"), "csv.blank_line", 2);
    check_issue(scan("a,b\n1,2\n\n\0\n"s), "csv.blank_line", 2);
    check_issue(scan("a,b\n1,2\n\n\rx\n"), "csv.blank_line", 2);
  }
  SECTION("a blank inside quotes is data")
  {
    auto const r = scan("a,b\n\"x\n\ny\",2\n\"\n\",\"\r\n\r\n\"\n");
    check_ok(r);
    CHECK(r.records ==
          Records{{1, "\"x\n\ny\",2"}, {2, "\"\n\",\"\r\n\r\n\""}});
  }
  SECTION("a header-only file followed by blank lines is an empty day")
  {
    auto const lf = scan("a,b\n\n\n");
    check_ok(lf);
    CHECK(lf.header == Names{"a", "b"});
    CHECK(lf.record_count == 0);
    auto const crlf = scan("a,b\r\n\r\n");
    check_ok(crlf);
    CHECK(crlf.record_count == 0);
    CHECK(crlf.crlf);
  }
  SECTION("a blank first line: the header is missing")
  {
    auto const r = scan("\na\n");
    check_issue(r, "csv.blank_line", 0);
    CHECK_FALSE(r.header_seen);
    check_issue(scan("\xEF\xBB\xBF\r\na\r\n"), "csv.blank_line", 0);
  }
}

TEST_CASE("csv_scan: counts the blank lines it ignored at the end",
          "[unit][csv_scan]")
{
  Result r;
  Collect sink{r};
  CsvScanner s{sink};
  std::string const in = "a\n1\n\n\n\n";
  s.feed(in.data(), in.size());
  s.finish();
  CHECK_FALSE(s.issue().has_value());
  CHECK(s.records() == 1);
  CHECK(s.trailing_blank_lines() == 3);
}

TEST_CASE("csv_scan: rejects a NUL byte anywhere", "[unit][csv_scan]")
{
  SECTION("in the header")
  {
    check_issue(scan("a\0,b\n1,2\n"s), "csv.nul_byte", 0);
  }
  SECTION("in a record, with its file offset")
  {
    auto const r = scan("a\n1\n2\0\n3\n"s);
    check_issue(r, "csv.nul_byte", 2);
    CHECK(r.issue->detail.find("offset 5") != std::string::npos);
  }
  SECTION("inside quotes")
  {
    check_issue(scan("a\n\"x\0y\"\n"s), "csv.nul_byte", 1);
  }
  SECTION("as the last byte")
  {
    check_issue(scan("a\n1\n\0"s), "csv.nul_byte", 2);
  }
}

TEST_CASE("csv_scan: accepts valid multi-byte UTF-8", "[unit][csv_scan]")
{
  // Boundaries: U+0080, U+07FF, U+0800, U+D7FF, U+E000, U+FFFF, U+10000,
  // U+10FFFF.
  std::string const text = "\xC2\x80\xDF\xBF\xE0\xA0\x80\xED\x9F\xBF"
                           "\xEE\x80\x80\xEF\xBF\xBF\xF0\x90\x80\x80"
                           "\xF4\x8F\xBF\xBF W\xC3\xA4hrung \xE2\x82\xAC";
  auto const r = scan("name\n" + text + "\n\"" + text + "\"\n");
  check_ok(r);
  CHECK(r.records == Records{{1, text}, {2, '"' + text + '"'}});
}

TEST_CASE("csv_scan: rejects invalid UTF-8 naming the record",
          "[unit][csv_scan]")
{
  std::vector<std::string> const bad = {
    "\xC0\xAF",         // overlong '/'
    "\xC1\xBF",         // overlong
    "\xE0\x80\xAF",     // overlong, three bytes
    "\xE0\x9F\xBF",     // overlong U+07FF
    "\xF0\x80\x80\xAF", // overlong, four bytes
    "\xF0\x8F\xBF\xBF", // overlong U+FFFF
    "\xED\xA0\x80",     // surrogate U+D800
    "\xED\xBF\xBF",     // surrogate U+DFFF
    "\xF4\x90\x80\x80", // U+110000
    "\xF5\x80\x80\x80", // beyond U+10FFFF
    "\xF8\x88\x80\x80\x80",
    "\xFE",
    "\xFF",
    "\x80", // stray continuation
    "\xBF",
    "\xC3", // truncated: followed by ASCII
    "\xE2\x82",
    "\xF0\x9F\x98",
    "\xC3\xC3\xA9", // lead byte where a continuation belongs
    "caf\xE9",      // Latin-1
  };
  for (std::size_t k = 0; k < bad.size(); ++k)
  {
    CAPTURE(k, printable(bad[k]));
    SECTION("in a record " + std::to_string(k))
    {
      check_issue(scan("a,b\n1,2\nx" + bad[k] + "y,2\n3,4\n"), "csv.encoding",
                  2);
    }
  }
  SECTION("in the header")
  {
    check_issue(scan("a\xC3(,b\n"), "csv.encoding", 0);
  }
  SECTION("inside a quoted field")
  {
    check_issue(scan("a\n\"x\xED\xA0\x80\"\n"), "csv.encoding", 1);
  }
  SECTION("a sequence cut by the end of the file")
  {
    auto const r = scan("a,b\n1,2\n3,x\xE2\x82");
    check_issue(r, "csv.encoding", 2);
  }
  SECTION("the detail names the byte and its offset")
  {
    auto const r = scan("a\n\xFF\n");
    check_issue(r, "csv.encoding", 1);
    CHECK(r.issue->detail.find("0xFF") != std::string::npos);
    CHECK(r.issue->detail.find("offset 2") != std::string::npos);
  }
}

TEST_CASE("csv_scan: rejects a line that is only \\. (COPY end marker)",
          "[unit][csv_scan]")
{
  SECTION("an unquoted line")
  {
    auto const r = scan("a\nx\n\\.\ny\n");
    check_issue(r, "csv.end_marker", 2);
    CHECK(r.records == Records{{1, "x"}});
  }
  SECTION("in a CRLF file")
  {
    check_issue(scan("a\r\nx\r\n\\.\r\ny\r\n"), "csv.end_marker", 2);
  }
  SECTION("at the end of the file without a terminator")
  {
    check_issue(scan("a\nx\n\\."), "csv.end_marker", 2);
    check_issue(scan("a\r\nx\r\n\\.\r"), "csv.end_marker", 2);
  }
  SECTION("inside a quoted field")
  {
    check_issue(scan("a,b\n\"x\n\\.\ny\",2\n"), "csv.end_marker", 1);
    check_issue(scan("a\n\"\n\\."), "csv.end_marker", 1);
  }
  SECTION("as the header")
  {
    check_issue(scan("\\.\n"), "csv.end_marker", 0);
  }
  SECTION("lines that only resemble it are data")
  {
    auto const r = scan(
      "a\n\\.x\nx\\.\n \\.\n\\\\.\n\\\n.\n\"\\.\"\n\\.\r\"\"\n");
    INFO(describe(r));
    // The last line is "\.", CR, quotes: a bare CR, not an end marker.
    check_issue(r, "csv.line_endings", 8);
    CHECK(r.records == Records{{1, "\\.x"},
                               {2, "x\\."},
                               {3, " \\."},
                               {4, "\\\\."},
                               {5, "\\"},
                               {6, "."},
                               {7, "\"\\.\""}});
  }
}

TEST_CASE("csv_scan: rejects a record longer than max_record_bytes",
          "[unit][csv_scan]")
{
  CsvLimits limits;
  limits.max_record_bytes = 10;

  SECTION("exactly the limit is fine, terminators not counted")
  {
    check_ok(scan("a\n0123456789\n", limits));
    check_ok(scan("a\r\n0123456789\r\n", limits));
    check_ok(scan("a\n0123456789", limits));
  }
  SECTION("one byte more")
  {
    auto const r = scan("a\nshort\n01234567890\n", limits);
    check_issue(r, "csv.record_too_long", 2);
    CHECK(r.issue->detail == "record 2 is longer than 10 bytes");
  }
  SECTION("newlines and quotes inside a quoted field count")
  {
    // '"12', LF, '""567"': ten bytes.
    check_ok(scan("a\n\"12\n\"\"567\"\n", limits));
    check_issue(scan("a\n\"12\n\"\"5678\"\n", limits), "csv.record_too_long",
                1);
  }
  SECTION("the header counts too")
  {
    check_issue(scan("abcdefghijk\n", limits), "csv.record_too_long", 0);
  }
}

TEST_CASE("csv_scan: stops buffering an endless record at the limit",
          "[unit][csv_scan]")
{
  CsvLimits limits;
  limits.max_record_bytes = 1024;
  Result r;
  Collect sink{r};
  CsvScanner s{sink, limits};
  s.feed("a\n", 2);

  std::string const block(1000, 'x');
  s.feed(block.data(), block.size());
  s.feed(block.data(), 24);
  // 1024 bytes of the record so far: still within the limit.
  CHECK_FALSE(s.issue().has_value());
  s.feed("x", 1);
  // Detected while feeding, before any terminator or finish().
  REQUIRE(s.issue().has_value());
  CHECK(s.issue()->problem == CsvProblem::record_too_long);
  CHECK(s.issue()->record_no == 1);

  // Later input is ignored, though counted.
  std::string const more(1 << 20, 'y');
  for (int k = 0; k < 16; ++k) s.feed(more.data(), more.size());
  s.feed("\n1\n", 3);
  s.finish();
  CHECK(s.issue()->problem == CsvProblem::record_too_long);
  CHECK(s.records() == 0);
  CHECK(r.records.empty());
  CHECK(s.bytes() == 2 + 1000 + 24 + 1 + 16 * (std::uint64_t{1} << 20) + 3);
}

TEST_CASE("csv_scan: emits nothing after the first problem",
          "[unit][csv_scan]")
{
  Result r;
  Collect sink{r};
  CsvScanner s{sink};
  std::string const first = "a\n1\n2\"\n3\n";
  s.feed(first.data(), first.size());
  REQUIRE(s.issue().has_value());
  CHECK(s.issue()->problem == CsvProblem::quoting);
  CHECK(s.issue()->record_no == 2);

  std::string const second = "4\n\0\n5\n"s;
  s.feed(second.data(), second.size());
  s.finish();
  CHECK(s.issue()->problem == CsvProblem::quoting);
  CHECK(s.issue()->record_no == 2);
  CHECK(r.records == Records{{1, "1"}});
  CHECK(s.records() == 1);

  SECTION("feed() after finish() is a programming error")
  {
    CHECK_THROWS_AS(s.feed("x", 1), std::logic_error);
  }
}

TEST_CASE("csv_scan: gives the same result for every split of the input",
          "[unit][csv_scan]")
{
  std::vector<std::string> const inputs = {
    "\xEF\xBB\xBF"
    "a,b\r\n\"x\r\ny\",\xE2\x82\xAC\r\n\"\"\"\",\r\n3,4",
    "a,b\n1,\"2\n\\.\n\"\n",
    "a,b\n1,2\n3,\xF0\x9F\x98\x80\n5,\xF0\x9F\x98\n",
    "a\r\n1\r\n2\n",
    "a\n1\n2\r\n",
    "\xEF\xBB\xBE\n\xC3\xA9\n",
  };
  for (std::size_t k = 0; k < inputs.size(); ++k)
  {
    std::string const &in = inputs[k];
    Result const whole = run(in, Chunking::whole);
    for (std::size_t cut = 0; cut <= in.size(); ++cut)
    {
      Result r;
      Collect sink{r};
      CsvScanner s{sink};
      std::string const a = in.substr(0, cut), b = in.substr(cut);
      s.feed(a.data(), a.size());
      s.feed(b.data(), b.size());
      s.finish();
      r.issue = s.issue();
      r.bom = s.had_bom();
      r.crlf = s.crlf();
      r.record_count = s.records();
      r.bytes = s.bytes();
      CAPTURE(k, cut);
      CHECK(describe(r) == describe(whole));
    }
  }
}

TEST_CASE("csv_scan: random inputs scan alike in any chunking",
          "[unit][csv_scan]")
{
  // Inputs drawn from the bytes the scanner cares about; every chunking
  // must give the same records and the same first problem.
  std::vector<std::string> const alphabet = {
    "a",           "b",        ",",    "\"",   "\"\"",
    "\n",          "\r\n",     "\r",   "\\",   ".",
    "\n\\.",       "\xC3\xA9", "\xC3", "\xA9", "\xEF\xBB\xBF",
    "\xE2\x82\xAC"};
  std::mt19937 rng{4180};
  CsvLimits limits;
  limits.max_record_bytes = 24;
  int accepted = 0;
  for (int n = 0; n < 400; ++n)
  {
    std::string in = (n % 2 == 0) ? "a,b\n" : "a\r\n";
    std::size_t const len = rng() % 40;
    for (std::size_t k = 0; k < len; ++k)
    {
      std::string const &piece = alphabet[rng() % alphabet.size()];
      // Mostly ordinary bytes, so some inputs are accepted.
      in += (rng() % 3 == 0) ? piece : "a";
    }
    CAPTURE(n, printable(in));
    Result const r = scan(in, limits);
    if (not r.issue) ++accepted;
  }
  // The generator must reach both outcomes to test anything.
  CHECK(accepted > 20);
  CHECK(accepted < 380);
}

TEST_CASE("csv_scan: passes a record inside one chunk without copying it",
          "[unit][csv_scan]")
{
  struct Pointers : CsvSink
  {
    std::vector<char const *> data;
    std::vector<std::string> raw;
    void on_header(std::vector<std::string> const &) override {}
    void on_record(std::uint64_t, std::string_view r) override
    {
      data.push_back(r.data());
      raw.emplace_back(r);
    }
  } sink;
  CsvScanner s{sink};
  std::string const first = "a,b\n1,2\n3,";
  std::string const second = "4\n5,6\n";
  s.feed(first.data(), first.size());
  s.feed(second.data(), second.size());
  s.finish();
  REQUIRE_FALSE(s.issue().has_value());
  REQUIRE(sink.raw == std::vector<std::string>{"1,2", "3,4", "5,6"});
  CHECK(sink.data[0] == first.data() + 4);
  CHECK(sink.data[2] == second.data() + 2);
}

TEST_CASE("csv_scan: counts records and bytes", "[unit][csv_scan]")
{
  auto const r = scan("\xEF\xBB\xBFid\r\n1\r\n2\r\n3");
  check_ok(r);
  CHECK(r.record_count == 3);
  CHECK(r.bytes == 14);
  CHECK(r.bom);
  CHECK(r.crlf);
}

TEST_CASE("csv_scan: each problem has its stable rule code",
          "[unit][csv_scan]")
{
  CHECK(rule_of(CsvProblem::empty_file) == "csv.empty_file");
  CHECK(rule_of(CsvProblem::nul_byte) == "csv.nul_byte");
  CHECK(rule_of(CsvProblem::invalid_utf8) == "csv.encoding");
  CHECK(rule_of(CsvProblem::quoting) == "csv.quoting");
  CHECK(rule_of(CsvProblem::line_endings) == "csv.line_endings");
  CHECK(rule_of(CsvProblem::column_count) == "csv.column_count");
  CHECK(rule_of(CsvProblem::end_marker) == "csv.end_marker");
  CHECK(rule_of(CsvProblem::record_too_long) == "csv.record_too_long");
  CHECK(rule_of(CsvProblem::header_empty_name) == "header.empty_name");
  CHECK(rule_of(CsvProblem::blank_line) == "csv.blank_line");
  CHECK(rule_of(CsvProblem::compression) == "file.compression");
  CHECK(rule_of(CsvProblem::decompressed_size) == "file.decompressed_size");
}
