#include "flows/source_check.hpp"

#include <pqxx/pqxx>

#include "core/errors.hpp"
#include "core/printable.hpp"
#include "db/database.hpp"
#include "db/session.hpp"
#include "flows/load_input.hpp"
#include "io/csv_fields.hpp"
#include "io/file_scan.hpp"
#include "io/format_read.hpp"
#include "io/header_map.hpp"
#include "io/record_rules.hpp"

namespace loader::flows
{
namespace
{
/// What the database holds that reading needs: the source's current
/// format, whether it allows unknown columns, the currencies.
struct SourceFacts
{
  load_detail::StoredFormat format;
  bool allow_unknown_columns = false;
  std::vector<std::pair<std::string, int>> minor_units;
};

SourceFacts read_facts(std::string const &dsn, std::string const &source)
{
  try
  {
    db::Database database{dsn};
    pqxx::read_transaction tx{database.cx()};
    pqxx::row const r{tx.exec_params1(
      "select f.format_version, f.format::text, s.allow_unknown_columns "
      "from ingest.get_source($1) as s, ingest.file_format_of($1) as f",
      source)};
    db::FormatRef ref;
    if (not r[0].is_null()) ref.version = r[0].as<int>();
    if (not r[1].is_null()) ref.json = r[1].as<std::string>();
    SourceFacts out{
      load_detail::parse_stored_format(ref), r[2].as<bool>(), {}};
    for (auto const &c :
         tx.exec("select code, minor_unit from ingest.currency"))
      out.minor_units.emplace_back(c[0].as<std::string>(), c[1].as<int>());
    return out;
  }
  catch (LoaderError const &)
  {
    throw;
  }
  catch (...)
  {
    db::rethrow_classified("reading source " + source);
  }
}

/// Each record through the format and the field rules, as the loader's
/// pass 2 reads it, into text.
class CheckSink final : public io::CsvSink
{
public:
  CheckSink(io::FileFormat const &format, io::HeaderMapping const &mapping,
            io::Currencies const &currencies, std::string business_date,
            std::size_t shown) :
          m_format{format},
          m_mapping{mapping},
          m_splitter{format.delimiter, format.quote},
          m_reader{format, mapping},
          m_checker{currencies, std::move(business_date)},
          m_shown{shown}
  {}

  void on_header(std::vector<std::string> const &) override {}

  void on_record(std::uint64_t record_no, std::string_view raw) override
  {
    std::vector<io::Field> const &fields = m_splitter.split(raw);
    m_reader.read(fields, m_record, m_read);
    m_checker.check(m_record, m_verdict, m_read.unreadable);
    auto const &columns = io::invoice_columns();
    if (record_no <= m_shown)
    {
      records += "  record " + std::to_string(record_no) + ":";
      for (std::size_t c = 0; c < io::col::count; ++c)
        if (not m_record[c].empty())
          records += " " + std::string{columns[c].name} + "=" +
                     printable(std::string{m_record[c].text});
      records += "\n";
    }
    if (m_verdict.failed == 0) return;
    ++rejected;
    std::string const note{m_reader.note(m_record, m_read, m_verdict.failed)};
    for (std::size_t k = 0; k < io::rule_count; ++k)
    {
      io::Rule const rule{io::rule_at(k)};
      if ((m_verdict.failed & io::bit_of(rule)) == 0) continue;
      std::string values;
      for (std::size_t c = 0; c < io::col::count; ++c)
        if ((io::columns_of(rule) & (std::uint32_t{1} << c)) != 0)
          values += (values.empty() ? "" : ", ") +
                    std::string{columns[c].name} + " \"" +
                    printable(std::string{m_read.delivered[c].text}) + "\"";
      rejections += "  record " + std::to_string(record_no) + " (" +
                    printable(
                      std::string{m_record[io::col::invoice_number].text}) +
                    "): " + std::string{io::code_of(rule)} + ": " + values +
                    (note.empty() ? "" : " (" + printable(note) + ")") + "\n";
    }
  }

  std::string records;
  std::string rejections;
  std::uint64_t rejected = 0;

private:
  io::FileFormat const &m_format;
  io::HeaderMapping const &m_mapping;
  io::FieldSplitter m_splitter;
  io::FormatReader m_reader;
  io::RecordChecker m_checker;
  std::size_t m_shown;
  io::RecordFields m_record{};
  io::RecordRead m_read;
  io::Verdict m_verdict;
};

/// "Rechnungsnummer -> invoice_number", one line per delivered column.
std::string header_lines(std::vector<std::string> const &header,
                         io::FileFormat const &format,
                         io::HeaderMapping const &mapping)
{
  auto const &columns = io::invoice_columns();
  std::string out;
  for (std::size_t pos = 0; pos < header.size(); ++pos)
  {
    std::string target{"(not read)"};
    for (std::size_t c = 0; c < io::col::count; ++c)
      if (mapping.position[c] == pos) target = std::string{columns[c].name};
    out += "  " +
           (format.header ? printable(header[pos])
                          : "position " + header[pos]) +
           " -> " + target + "\n";
  }
  for (std::string const &d : io::defaults_used(format, mapping))
    out += "  (default) -> " + printable(d) + "\n";
  return out;
}
} // namespace

Result source_check(std::string const &dsn, SourceCheckRequest const &rq)
{
  SourceFacts const facts{read_facts(dsn, rq.source)};
  io::FileFormat const &format = facts.format.format;
  io::ReadOptions read;
  read.format = format;
  io::FileScan const scan{io::scan_file(rq.input, read)};

  std::string out{"source " + printable(rq.source) + ", file format " +
                  (facts.format.version
                     ? "version " + std::to_string(*facts.format.version)
                     : std::string{"the contract's"}) +
                  ": " + io::describe(format) + "\n"};
  out += printable(rq.input) + ": " + std::to_string(scan.records) +
         " records, SHA-256 " + scan.sha256 + "\n";
  io::HeaderMapping const mapping{
    io::map_header(scan.header, facts.allow_unknown_columns, format)};
  if (not scan.header.empty())
    out += "\nColumns\n" + header_lines(scan.header, format, mapping);

  std::vector<std::string> problems;
  if (scan.issue)
    problems.push_back(
      std::string{io::rule_of(scan.issue->problem)} + " (" +
      (scan.issue->record_no == 0
         ? std::string{"file"}
         : "record " + std::to_string(scan.issue->record_no)) +
      "): " + printable(scan.issue->detail));
  if (not scan.header.empty() and not mapping.ok())
    problems.push_back(mapping.rule() + ": " + mapping.detail());
  if (not problems.empty())
  {
    out += "\nThe file would be quarantined\n";
    for (std::string const &p : problems) out += "  " + p + "\n";
    return {Outcome::quarantined, out};
  }

  io::Currencies const currencies{facts.minor_units};
  CheckSink sink{format, mapping, currencies,
                 rq.business_date.value_or("9999-12-31"), rq.records_shown};
  io::StreamResult const again{io::stream_file(rq.input, sink, read)};
  if (again.sha256 != scan.sha256)
    throw LoaderError{ErrorKind::transient,
                      rq.input + " changed while it was being checked"};
  out += "\nThe first records as read\n" + sink.records;
  if (sink.rejected == 0)
  {
    out += "\nEvery record passes the field rules.\n";
    return {Outcome::done, out};
  }
  out += "\n" + std::to_string(sink.rejected) + " of " +
         std::to_string(scan.records) + " records fail a field rule\n" +
         sink.rejections;
  return {Outcome::quarantined, out};
}
} // namespace loader::flows
