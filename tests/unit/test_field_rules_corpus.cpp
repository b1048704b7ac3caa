// The shared corpus (tests/corpus/field_rules.csv, README there) through
// the loader's field rules: each record fails exactly the rules its case
// in make-field-rules.py says, every one of the 27 rules fails somewhere,
// and the passing records' canonical values are as written there.  The
// SQL side (ingest.failing_records) is held to the same file by the lead's
// end-to-end agreement test.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "io/csv_fields.hpp"
#include "io/file_scan.hpp"
#include "io/header_map.hpp"
#include "io/record_rules.hpp"

using namespace loader::io;

namespace
{
char const corpus[] = REPO_DIR "/tests/corpus/field_rules.csv";
char const expectations[] = REPO_DIR "/tests/corpus/field_rules.expected";

struct Expected
{
  std::set<std::string> rules;
  std::string canonical; ///< "revision net tax gross", passing records
};

std::map<std::uint64_t, Expected> read_expected()
{
  std::ifstream in{expectations};
  REQUIRE(in);
  std::map<std::uint64_t, Expected> out;
  std::string line;
  while (std::getline(in, line))
  {
    if (line.empty() or line[0] == '#') continue;
    auto const bar1 = line.find('|');
    auto const bar2 = line.find('|', bar1 + 1);
    REQUIRE(bar2 != std::string::npos);
    Expected e;
    std::istringstream rules{line.substr(bar1 + 1, bar2 - bar1 - 1)};
    for (std::string r; rules >> r;) e.rules.insert(r);
    e.canonical = line.substr(bar2 + 1);
    out[std::stoull(line.substr(0, bar1))] = e;
  }
  return out;
}

/// What the loader decided for each record.
struct Decided
{
  std::set<std::string> rules;
  std::string canonical;
};

class CheckingSink final : public CsvSink
{
public:
  CheckingSink(Currencies const &c, std::map<std::uint64_t, Decided> &out) :
          m_checker{c, "2026-11-28"}, m_out{out}
  {}
  void on_header(std::vector<std::string> const &names) override
  {
    m_mapping = map_header(names, false);
    REQUIRE(m_mapping.ok());
  }
  void on_record(std::uint64_t record_no, std::string_view raw) override
  {
    auto const &fields = m_splitter.split(raw);
    RecordFields f{};
    for (std::size_t c = 0; c < col::count; ++c)
      f[c] = fields.at(m_mapping.position[c]);
    Verdict v;
    m_checker.check(f, v);
    Decided d;
    for (std::size_t k = 0; k < rule_count; ++k)
      if ((v.failed & bit_of(rule_at(k))) != 0)
        d.rules.emplace(code_of(rule_at(k)));
    if (v.failed == 0)
      d.canonical = v.revision + " " + v.net_text + " " + v.tax_text + " " +
                    v.gross_text;
    m_out[record_no] = d;
  }

private:
  HeaderMapping m_mapping;
  FieldSplitter m_splitter;
  RecordChecker m_checker;
  std::map<std::uint64_t, Decided> &m_out;
};
} // namespace

TEST_CASE("field_rules corpus: the loader decides every record as expected",
          "[unit][record_rules][corpus]")
{
  // ingest.currency's minor units for the corpus's codes (migration 0006).
  Currencies const currencies{
    {{"EUR", 2}, {"JPY", 0}, {"KWD", 3}, {"CLF", 4}}};
  std::map<std::uint64_t, Decided> decided;
  CheckingSink sink{currencies, decided};
  StreamResult const r{stream_file(corpus, sink)};
  REQUIRE_FALSE(r.issue);
  auto const expected = read_expected();
  REQUIRE(r.records >= 120);
  REQUIRE(decided.size() == r.records);
  REQUIRE(expected.size() == r.records);

  std::set<std::string> seen;
  std::size_t passing = 0, several = 0;
  for (auto const &[record_no, d] : decided)
  {
    CAPTURE(record_no);
    Expected const &e = expected.at(record_no);
    CHECK(d.rules == e.rules);
    CHECK(d.canonical == e.canonical);
    seen.insert(d.rules.begin(), d.rules.end());
    if (d.rules.empty()) ++passing;
    if (d.rules.size() > 1) ++several;
  }
  for (std::size_t k = 0; k < rule_count; ++k)
  {
    std::string const code{code_of(rule_at(k))};
    CAPTURE(code);
    CHECK(seen.count(code) == 1);
  }
  CHECK(passing >= 40);
  CHECK(several >= 10);
}
