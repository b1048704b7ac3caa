#include "cli/status_render.hpp"

#include <algorithm>
#include <regex>
#include <sstream>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"

namespace loader::cli
{
namespace
{
using nlohmann::json;

/// How a column is shown: the JSON key, the header, and whether long
/// free text is folded onto one line and cut.
struct Column
{
  char const *key;
  char const *header;
  bool free_text = false;
};

constexpr std::size_t free_text_width = 70;

/// "2026-12-01T08:13:55.123456+00:00" -> "2026-12-01 08:13:55+00:00".
std::string display_time(std::string s)
{
  static std::regex const stamp{
    R"(^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)(\.\d+)?(.*)$)"};
  std::smatch m;
  if (std::regex_match(s, m, stamp))
    return m[1].str() + " " + m[2].str() + m[4].str();
  return s;
}

/// Whitespace runs (newlines, tabs) become one blank; then cut.
std::string fold(std::string const &s)
{
  static std::regex const blanks{R"(\s+)"};
  std::string out{std::regex_replace(s, blanks, " ")};
  if (out.size() > free_text_width) out.resize(free_text_width);
  return out;
}

std::string cell(json const &row, Column const &c)
{
  auto const it = row.find(c.key);
  if (it == row.end() or it->is_null()) return "-";
  std::string v = it->is_string() ? it->get<std::string>() : it->dump();
  if (it->is_string()) v = display_time(std::move(v));
  return c.free_text ? fold(v) : v;
}

/// A title, a header row and one row per element; NULL shows as "-".
std::string table(char const *title, json const &rows,
                  std::vector<Column> const &columns)
{
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> head;
  for (Column const &c : columns) head.emplace_back(c.header);
  cells.push_back(head);
  if (rows.is_array())
    for (json const &row : rows)
    {
      std::vector<std::string> line;
      for (Column const &c : columns) line.push_back(cell(row, c));
      cells.push_back(line);
    }
  std::vector<std::size_t> width(columns.size(), 0);
  for (auto const &line : cells)
    for (std::size_t c = 0; c < line.size(); ++c)
      width[c] = std::max(width[c], line[c].size());
  std::ostringstream out;
  out << title << '\n';
  for (auto const &line : cells)
  {
    for (std::size_t c = 0; c < line.size(); ++c)
    {
      out << line[c];
      if (c + 1 < line.size())
        out << std::string(width[c] - line[c].size() + 2, ' ');
    }
    out << '\n';
  }
  return out.str();
}
} // namespace

std::string render_status_text(std::string const &report_json)
{
  json const r = json::parse(report_json, nullptr, false);
  if (not r.is_object())
    throw LoaderError{ErrorKind::internal,
                      "ingest.status_report did not return a JSON object"};
  std::string out =
    table("Watermarks", r.value("watermarks", json::array()),
          {{"source", "source"},
           {"business_date", "business_date"},
           {"batch_id", "batch_id"},
           {"advanced_at", "advanced_at"}}) +
    "\n" +
    table("Batches", r.value("batches", json::array()),
          {{"batch_id", "batch"},
           {"source", "source"},
           {"business_date", "business_date"},
           {"state", "state"},
           {"record_count", "records"},
           {"control_total", "control_total"},
           {"accepted_count", "accepted"},
           {"rejected_count", "rejected"},
           {"attempts", "attempts"},
           {"last_error", "last_error", true}});
  if (r.contains("events") and not r["events"].is_null())
  {
    out += "\n" + table("Checkpoints", r["events"],
                        {{"to_state", "state"},
                         {"at", "at"},
                         {"ms_since_previous", "ms_since_previous"},
                         {"db_user", "db_user"}});
    out += "\n" + table("Attempts", r.value("attempts", json::array()),
                        {{"attempt_no", "attempt"},
                         {"run_id", "run_id"},
                         {"host", "host"},
                         {"pid", "pid"},
                         {"outcome", "outcome"},
                         {"error_class", "error_class"},
                         {"sqlstate", "sqlstate"},
                         {"ms", "ms"},
                         {"message", "message", true}});
    json rejections = r.value("rejections", json::array());
    if (rejections.size() > 50) rejections.erase(rejections.begin() + 50,
                                                 rejections.end());
    out += "\n" + table("Rejections (first 50)", rejections,
                        {{"record_no", "record_no"},
                         {"invoice_number", "invoice_number"},
                         {"rule", "rule"},
                         {"detail", "detail"}});
  }
  return out;
}
} // namespace loader::cli
