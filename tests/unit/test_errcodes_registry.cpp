// sql/ERRCODES.md is executable: every SQLSTATE row's "kind (exit)" column
// is what core/errors.cpp classifies the code as, and what main() exits
// with.  A code added to the SQL without its row, or a row whose kind the
// classifier disagrees with, fails here.  So does a file rule the loader's
// pass 1 can report without its row in the rejection-rule table.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "core/errors.hpp"
#include "io/csv_scan.hpp"

using loader::classify_sqlstate;
using loader::ErrorKind;
using loader::exit_code_of;
using loader::name_of;

namespace
{
struct Row
{
  std::string kind; ///< "config", "transient", ...; "(caught)", "retired"
  int exit_code = -1;
};

/// code -> row, from the table's lines "| IVnnn | kind (exit) | ...".
std::map<std::string, Row> registry()
{
  std::ifstream in{REPO_DIR "/sql/ERRCODES.md"};
  REQUIRE(in);
  std::regex const line{
    R"(^\|\s*(IV[0-9A-Z]{3})\s*\|\s*([a-z_()]+)\s*(?:\((\d+)\))?\s*\|)"};
  std::map<std::string, Row> rows;
  std::string text;
  while (std::getline(in, text))
  {
    std::smatch m;
    if (not std::regex_search(text, m, line)) continue;
    INFO(text);
    CHECK(rows.count(m[1]) == 0); // a number is never listed twice
    rows[m[1]] = {m[2], m[3].matched ? std::stoi(m[3]) : -1};
  }
  return rows;
}
} // namespace

TEST_CASE("errcodes: every registered SQLSTATE is classified as listed",
          "[unit][errcodes]")
{
  auto const rows = registry();
  REQUIRE(rows.size() >= 10);
  for (auto const &[code, row] : rows)
  {
    INFO(code << " listed as " << row.kind << " (" << row.exit_code << ")");
    if (row.kind == "retired" or row.kind == "(caught)") continue;
    ErrorKind const k = classify_sqlstate(code);
    CHECK(std::string{name_of(k)} == row.kind);
    CHECK(exit_code_of(k) == row.exit_code);
  }
}

TEST_CASE("errcodes: the classes have the kinds the registry promises",
          "[unit][errcodes]")
{
  // Unlisted codes of each class still land in the class's kind.
  CHECK(classify_sqlstate("IV1ZZ") == ErrorKind::data);
  CHECK(classify_sqlstate("IV3ZZ") == ErrorKind::config);
  CHECK(classify_sqlstate("IV4ZZ") == ErrorKind::permission);
  CHECK(classify_sqlstate("IV2ZZ") == ErrorKind::internal);
}

TEST_CASE("errcodes: every SQLSTATE the SQL raises is registered",
          "[unit][errcodes]")
{
  auto const rows = registry();
  std::regex const raised{R"(errcode\s*=\s*'(IV[0-9A-Z]{3})')"};
  std::set<std::string> seen;
  for (auto const &entry :
       std::filesystem::recursive_directory_iterator{REPO_DIR "/sql"})
  {
    if (entry.path().extension() != ".sql") continue;
    std::ifstream in{entry.path()};
    std::stringstream text;
    text << in.rdbuf();
    std::string const body{text.str()};
    for (std::sregex_iterator m{body.begin(), body.end(), raised}, end;
         m != end; ++m)
    {
      std::string const code{(*m)[1]};
      INFO(entry.path().string() << " raises " << code);
      CHECK(rows.count(code) == 1);
      if (rows.count(code) == 1) CHECK(rows.at(code).kind != "retired");
      seen.insert(code);
    }
  }
  CHECK(seen.size() >= 10);
}

namespace
{
/// The rule codes of the "Rejection rules" table (a row may list several,
/// comma-separated), with the row's level ("file", "retired", ...).
std::map<std::string, std::string> rejection_rules()
{
  std::ifstream in{REPO_DIR "/sql/ERRCODES.md"};
  REQUIRE(in);
  std::regex const row{R"(^\|\s*([a-z_.,\s]+?)\s*\|\s*([a-z]+)\s*\|)"};
  std::regex const code{R"([a-z_]+\.[a-z_]+)"};
  std::map<std::string, std::string> rules;
  bool in_table = false;
  std::string text;
  while (std::getline(in, text))
  {
    if (text.rfind("# ", 0) == 0) in_table = text == "# Rejection rules";
    std::smatch m;
    if (not in_table or not std::regex_search(text, m, row)) continue;
    std::string const names{m[1]};
    for (std::sregex_iterator c{names.begin(), names.end(), code}, end;
         c != end; ++c)
      rules[c->str()] = m[2];
  }
  return rules;
}
} // namespace

TEST_CASE("errcodes: every file rule of pass 1 is a registered rejection "
          "rule",
          "[unit][errcodes]")
{
  using loader::io::CsvProblem;
  auto const rules = rejection_rules();
  REQUIRE(rules.size() >= 20);
  for (CsvProblem p : {CsvProblem::empty_file, CsvProblem::nul_byte,
                       CsvProblem::invalid_utf8, CsvProblem::quoting,
                       CsvProblem::line_endings, CsvProblem::column_count,
                       CsvProblem::end_marker, CsvProblem::record_too_long,
                       CsvProblem::header_empty_name, CsvProblem::blank_line,
                       CsvProblem::compression, CsvProblem::decompressed_size})
  {
    std::string const rule{loader::io::rule_of(p)};
    INFO(rule);
    REQUIRE(rules.count(rule) == 1);
    CHECK(rules.at(rule) == "file");
  }
}
