#include "flows/load_report.hpp"

#include <cstddef>
#include <map>
#include <sstream>

#include "core/json_exact.hpp"

namespace loader::flows::load_detail
{
using db::BatchState;

namespace
{
/// "EUR 4200.00, JPY 33000" from a jsonb object of amounts per currency
/// (codes in order), or "" when the text is no such object.
std::string per_currency(std::string const &object_json)
{
  auto const doc = parse_exact(object_json);
  if (not doc.is_object()) return {};
  std::map<std::string, std::string> sorted;
  for (auto const &[code, amount] : doc.items())
    sorted[code] = amount.is_string() ? amount.get<std::string>()
                                      : amount.dump();
  std::string out;
  for (auto const &[code, amount] : sorted)
    out += (out.empty() ? "" : ", ") + code + ' ' + amount;
  return out;
}
} // namespace

/// "20 records: 20 inserted, 0 amended, ...; gross 4200.00, control total
/// 4200.00" (a file reconciled per currency: "gross EUR 4200.00, JPY
/// 33000; control totals EUR 4200.00, JPY 33000": a sum across
/// currencies means nothing), or the counts as the database gave them
/// when they are not a merge's (a waiting batch's reason).
std::string merge_sentence(db::Published const &p)
{
  auto const &c = p.counts;
  if (c.count("records") == 0)
    return p.counts_json == "{}" ? "" : p.counts_json;
  auto const at = [&c](char const *key, char const *none = "0") {
    auto const it = c.find(key);
    return it == c.end() or it->second == "null" ? std::string{none}
                                                 : it->second;
  };
  std::string counts{
    at("records") + " records: " + at("inserted") + " inserted, " +
    at("amended") + " amended, " + at("voided") + " voided, " +
    at("unchanged") + " unchanged, " + at("late") + " late, " +
    at("duplicates") + " duplicate, " + at("rejected") + " rejected; "};
  // A full extract: the current invoices it did not list, closed in the
  // same publication (no record of the file, so apart from the counts).
  if (c.count("closed_by_absence") != 0)
    counts += at("closed_by_absence") + " closed by absence; ";
  std::string const totals{per_currency(at("control_totals", ""))};
  if (not totals.empty())
    return counts + "gross " + per_currency(at("accepted_by_currency", "")) +
           "; control totals " + totals;
  return counts + "gross " + at("accepted_gross") + ", control total " +
         at("control_total", "none");
}

std::string describe_rejections(std::vector<db::Rejection> const &rows,
                                std::string const &all_hint, std::size_t most)
{
  std::ostringstream out;
  std::size_t shown = 0;
  for (db::Rejection const &r : rows)
  {
    if (shown++ == most)
    {
      out << "\n  ... (" << all_hint << ")";
      break;
    }
    out << "\n  ";
    if (r.record_no == 0)
      out << "file";
    else
      out << "record " << r.record_no;
    if (not r.invoice_number.empty()) out << " (" << r.invoice_number << ')';
    out << ": " << r.rule << ": " << r.detail;
  }
  return out.str();
}

std::string describe_rejections(db::LoadSteps &steps, std::int64_t batch_id)
{
  return describe_rejections(steps.rejections(batch_id, rejections_shown + 1),
                             "status --batch " + std::to_string(batch_id) +
                               " lists all");
}

/// What --dry-run prints: the same rejection lines as a real load.
Result dry_run_result(db::DryRun const &d, Input const &in)
{
  std::string const head{"dry run of " + in.shown + ": "};
  std::string const kept{"; nothing was registered"};
  std::string const reasons{
    describe_rejections(d.rejections, "", d.rejections.size())};
  switch (d.state)
  {
  case BatchState::quarantined:
    return {Outcome::quarantined,
            head +
              (d.created
                 ? "it would be quarantined"
                 : "batch " + std::to_string(d.batch_id) + " is quarantined") +
              kept + ":" + reasons + "\n"};
  case BatchState::validated:
    return {Outcome::done,
            head + "it would publish: " + std::to_string(d.accepted) +
              " accepted, " + std::to_string(d.rejected) + " rejected" + kept +
              (d.rejected > 0 ? ":" + reasons : "") + "\n"};
  case BatchState::published:
    return {Outcome::done, head + "these bytes are batch " +
                             std::to_string(d.batch_id) +
                             ", already published" + kept + "\n"};
  default:
    return {Outcome::refused, head + "batch " + std::to_string(d.batch_id) +
                                " is " + std::string{db::name_of(d.state)} +
                                kept + "\n"};
  }
}

} // namespace loader::flows::load_detail
