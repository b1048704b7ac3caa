#include "cli/status_render.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <optional>
#include <regex>
#include <sstream>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/json_exact.hpp"
#include "core/printable.hpp"
#include "io/file_format.hpp"

namespace loader::cli
{
namespace
{
using json = nlohmann::ordered_json;

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
  return printable(c.free_text ? fold(v) : v);
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

json parse_report(std::string const &report_json)
{
  json r = parse_exact(report_json);
  if (not r.is_object())
    throw LoaderError{ErrorKind::internal,
                      "ingest.status_report did not return a JSON object"};
  return r;
}

/// A Prometheus label value: backslash, quote and newline escaped.
std::string label(std::string const &v)
{
  std::string out;
  for (char const c : v)
  {
    if (c == '\\' or c == '"') out += '\\';
    if (c == '\n')
    {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

/// "2026-11-28" -> seconds since the epoch of its midnight, UTC.
std::optional<long long> epoch_of_date(std::string const &d)
{
  std::tm tm{};
  if (std::sscanf(d.c_str(), "%4d-%2d-%2d", &tm.tm_year, &tm.tm_mon,
                  &tm.tm_mday) != 3)
    return std::nullopt;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return static_cast<long long>(timegm(&tm));
}

/// A sample's value: an integer, or a decimal as the database wrote it
/// (parse_exact keeps those as text).
std::string number(json const &v)
{
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number()) return v.dump();
  if (v.is_string()) return v.get<std::string>();
  return "NaN";
}
} // namespace

namespace
{
/// The family every exposition starts with, up or down.
constexpr char const up_family[] =
  "# HELP invoice_loader_up Whether status could read the database (0: "
  "unreachable or the login refused).\n"
  "# TYPE invoice_loader_up gauge\n";
} // namespace

std::string render_status_prometheus_down()
{
  return std::string{up_family} + "invoice_loader_up 0\n";
}

std::string render_status_prometheus(std::string const &report_json)
{
  json const r = parse_report(report_json);
  json const sources = r.value("sources", json::array());
  struct Family
  {
    char const *name;
    char const *help;
    std::vector<std::string> samples;
  };
  Family watermark{"invoice_loader_watermark_timestamp_seconds",
                   "Start (UTC) of the last business date of the source "
                   "up to which every date is published.",
                   {}};
  Family success{"invoice_loader_last_success_timestamp_seconds",
                 "When the source's last publication committed (Unix "
                 "time); the age of a night is time() minus this.",
                 {}};
  Family deadline{"invoice_loader_next_deadline_timestamp_seconds",
                  "When the source's next business date (the watermark's "
                  "next) is due: the next day at the source's deadline "
                  "(UTC); only for a source with a deadline.",
                  {}};
  Family batches{"invoice_loader_batches",
                 "Batches of the source by their state now; a quarantined "
                 "or reverted batch whose business date has published "
                 "since is not counted.",
                 {}};
  Family gross{"invoice_loader_last_publication_gross",
               "Accepted gross amount of the source's last publication, per "
               "currency (never summed across currencies).",
               {}};
  Family outcome{"invoice_loader_last_attempt_outcome",
                 "1 for the outcome of the source's last finished attempt "
                 "(published, quarantined, waiting, failed, ...).",
                 {}};
  Family duration{"invoice_loader_last_load_duration_seconds",
                  "Duration of the source's last finished attempt.",
                  {}};
  Family records{"invoice_loader_last_load_records",
                 "Records of the batch of the source's last finished "
                 "attempt (from its manifest).",
                 {}};
  Family notifications{"invoice_loader_notifications",
                       "Notifications of the source by state (pending, "
                       "dispatched, in_doubt, failed).",
                       {}};
  Family awaiting{"invoice_loader_batches_awaiting_approval",
                  "Batches of the source written and awaiting an operator's "
                  "approve or reject (four eyes: source add "
                  "--require-approval); readers see nothing of them.",
                  {}};
  Family confirmations{"invoice_loader_actions_awaiting_confirmation",
                       "Recovery actions of the source (replay, revert, "
                       "period reopen) requested and awaiting a second "
                       "operator's confirm (four eyes).",
                       {}};
  for (json const &s : sources)
  {
    std::string const src{"source=\"" + label(s.value("source", "")) + "\""};
    awaiting.samples.push_back("{" + src + "} " +
                               number(s.value("awaiting_approval", json(0))));
    confirmations.samples.push_back(
      "{" + src + "} " + number(s.value("pending_confirmations", json(0))));
    if (s.contains("watermark_date") and s["watermark_date"].is_string())
      if (auto const t = epoch_of_date(s["watermark_date"].get<std::string>()))
        watermark.samples.push_back("{" + src + "} " + std::to_string(*t));
    json const at = s.value("last_success_at", json{});
    if (at.is_number())
      success.samples.push_back("{" + src + "} " + number(at));
    json const due = s.value("next_deadline_at", json{});
    if (due.is_number())
      deadline.samples.push_back("{" + src + "} " + number(due));
    json const by_state = s.value("batches_by_state", json::object());
    for (char const *state : {"received", "staged", "validated", "published",
                              "quarantined", "reverted"})
      batches.samples.push_back("{" + src + ",state=\"" + state + "\"} " +
                                number(by_state.value(state, json(0))));
    json const by_currency = s.value("last_published_by_currency", json{});
    if (by_currency.is_object())
      for (auto const &[code, amount] : by_currency.items())
        gross.samples.push_back("{" + src + ",currency=\"" + label(code) +
                                "\"} " + number(amount));
    json const last = s.value("last_load", json{});
    if (last.is_object())
    {
      if (last.contains("outcome") and last["outcome"].is_string())
        outcome.samples.push_back("{" + src + ",outcome=\"" +
                                  label(last["outcome"].get<std::string>()) +
                                  "\"} 1");
      json const ms = last.value("duration_ms", json{});
      if (ms.is_number_integer())
        duration.samples.push_back(
          "{" + src + "} " +
          std::to_string(static_cast<double>(ms.get<long long>()) / 1000.0));
      json const n = last.value("records", json{});
      if (n.is_number_integer())
        records.samples.push_back("{" + src + "} " + number(n));
    }
    json const notes = s.value("notifications", json::object());
    for (char const *state : {"pending", "dispatched", "in_doubt", "failed"})
      notifications.samples.push_back("{" + src + ",state=\"" + state +
                                      "\"} " +
                                      number(notes.value(state, json(0))));
  }
  // The server-side sweep (pg_cron): absent until a sweep first ran.
  Family sweep_run{"invoice_loader_sweep_last_run_timestamp_seconds",
                   "When the last CALL ingest.sweep() ended (Unix time).",
                   {}};
  Family sweep_success{
    "invoice_loader_sweep_last_success_timestamp_seconds",
    "When the last sweep in which every part succeeded ended (Unix time); "
    "a pg_cron job that cannot connect never moves it.",
    {}};
  Family sweep_failed{"invoice_loader_sweep_last_run_failed",
                      "1 when a part of the last sweep failed, else 0.",
                      {}};
  json const sweep = r.value("sweep", json{});
  if (sweep.is_object())
  {
    json const finished = sweep.value("last_finished_epoch", json{});
    if (finished.is_number())
      sweep_run.samples.push_back(" " + number(finished));
    json const succeeded = sweep.value("last_succeeded_epoch", json{});
    if (succeeded.is_number())
      sweep_success.samples.push_back(" " + number(succeeded));
    sweep_failed.samples.push_back(
      sweep.value("last_outcome", std::string{}) == "failed" ? " 1" : " 0");
  }
  std::string out{std::string{up_family} + "invoice_loader_up 1\n"};
  for (Family const *f :
       {&watermark, &success, &deadline, &batches, &gross, &outcome, &duration,
        &records, &notifications, &awaiting, &confirmations, &sweep_run,
        &sweep_success, &sweep_failed})
  {
    out += std::string{"# HELP "} + f->name + " " + f->help + "\n";
    out += std::string{"# TYPE "} + f->name + " gauge\n";
    for (std::string const &sample : f->samples)
      out += f->name + sample + "\n";
  }
  return out;
}

namespace
{
/// The batches with the manifest's totals per currency shown in the
/// control_total column ("EUR 4200.00, JPY 33000") when it gives them.
json with_control_totals(json batches)
{
  for (json &b : batches)
  {
    auto const t = b.find("control_totals");
    if (t == b.end() or not t->is_object()) continue;
    std::string shown;
    for (auto const &[code, amount] : t->items())
      shown += (shown.empty() ? "" : ", ") + code + ' ' +
               (amount.is_string() ? amount.get<std::string>()
                                   : amount.dump());
    b["control_total"] = shown;
  }
  return batches;
}
} // namespace

namespace
{
/// One line on the server-side sweep: its last run and last success.
std::string sweep_line(json const &sweep)
{
  if (not sweep.is_object())
    return "Sweep: never ran (invoice-loader schedule install runs it "
           "every minute through pg_cron)\n";
  auto const text = [&sweep](char const *key) {
    json const v = sweep.value(key, json{});
    return v.is_string() ? display_time(v.get<std::string>()) : "never";
  };
  std::string out{"Sweep: last run ended " + text("last_finished_at") + ", " +
                  printable(sweep.value("last_outcome", std::string{}))};
  json const part = sweep.value("last_failed_part", json{});
  if (part.is_string())
    out += " in " + printable(part.get<std::string>()) + ": " +
           printable(sweep.value("last_error", std::string{}));
  return out + "; last success " + text("last_succeeded_at") + "; " +
         number(sweep.value("runs", json(0))) + " runs, " +
         number(sweep.value("failed_runs", json(0))) + " failed\n";
}
} // namespace

std::string render_status_text(std::string const &report_json)
{
  json const r = parse_report(report_json);
  std::string out =
    table("Watermarks", r.value("watermarks", json::array()),
          {{"source", "source"},
           {"business_date", "business_date"},
           {"batch_id", "batch_id"},
           {"advanced_at", "advanced_at"}}) +
    "\n" +
    table("Batches", with_control_totals(r.value("batches", json::array())),
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
  // A full extract's publication: the invoices it closed by absence.
  std::string absent;
  for (json const &b : r.value("batches", json::array()))
    if (b.contains("closed_by_absence") and
        b["closed_by_absence"].is_number_integer() and
        b["closed_by_absence"].get<long long>() > 0)
      absent += "  batch " + number(b.value("batch_id", json(0))) + " (" +
                printable(b.value("source", std::string{})) + ", " +
                printable(b.value("business_date", std::string{})) +
                "): " + number(b["closed_by_absence"]) +
                " invoices closed by absence\n";
  if (not absent.empty()) out += "\nClosed by absence\n" + absent;
  if (not r.contains("events") or r["events"].is_null())
  {
    std::string closed;
    for (json const &src : r.value("sources", json::array()))
      if (src.contains("locked_through") and src["locked_through"].is_string())
        closed += "  " + printable(src.value("source", std::string{})) +
                  ": closed through " +
                  printable(src["locked_through"].get<std::string>()) + "\n";
    if (not closed.empty()) out += "\nClosed periods\n" + closed;
    std::string formats;
    for (json const &src : r.value("sources", json::array()))
      if (src.contains("file_format") and src["file_format"].is_object())
      {
        std::string described;
        try
        {
          described = io::describe(
            io::parse_format(src["file_format"].dump()));
        }
        catch (LoaderError const &)
        {
          described = "not readable by this loader";
        }
        formats += "  " + printable(src.value("source", std::string{})) +
                   ": version " +
                   std::to_string(src.value("format_version", 0)) + ", " +
                   printable(described) + "\n";
      }
    if (not formats.empty()) out += "\nFile formats\n" + formats;
    std::string four_eyes;
    for (json const &src : r.value("sources", json::array()))
    {
      json const n = src.value("awaiting_approval", json(0));
      json const m = src.value("pending_confirmations", json(0));
      if (src.value("require_approval", false) or
          (n.is_number() and n.get<long long>() > 0) or
          (m.is_number() and m.get<long long>() > 0))
        four_eyes += "  " + printable(src.value("source", std::string{})) +
                     ": " + number(n) + " batch(es) awaiting approval, " +
                     number(m) + " action(s) awaiting confirmation\n";
    }
    if (not four_eyes.empty()) out += "\nFour eyes\n" + four_eyes;
    out += "\n" + sweep_line(r.value("sweep", json{}));
  }
  json const requests = r.value("pending_confirmations", json::array());
  if (requests.is_array() and not requests.empty())
    out += "\n" + table("Awaiting confirmation (invoice-loader confirm "
                        "--action ID, by another operator)",
                        requests,
                        {{"action_id", "action"},
                         {"requested_action", "requested"},
                         {"source", "source"},
                         {"batch_id", "batch"},
                         {"date", "date"},
                         {"requested_by", "requested_by"},
                         {"at", "at"},
                         {"reason", "reason", true}});
  json const actions = r.value("next_actions", json::array());
  if (not actions.empty())
  {
    out += "\nNext actions\n";
    for (json const &a : actions)
      out += "  " + printable(a.value("source", std::string{})) + ": " +
             printable(a.value("action", std::string{})) + "\n";
  }
  if (r.contains("events") and not r["events"].is_null())
  {
    // How its bytes were read: the source's file format version, and the
    // columns the format gave a value.
    for (json const &b : r.value("batches", json::array()))
      if (b.contains("format_version") and b["format_version"].is_number())
      {
        out += "\nRead with file format version " +
               number(b["format_version"]);
        if (b.contains("defaults") and b["defaults"].is_array())
        {
          std::string list;
          for (json const &d : b["defaults"])
            if (d.is_string())
              list += (list.empty() ? "" : ", ") + d.get<std::string>();
          if (not list.empty()) out += "; defaults " + printable(list);
        }
        out += "\n";
      }
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
    if (rejections.size() > 50)
      rejections.erase(rejections.begin() + 50, rejections.end());
    json const actions_done = r.value("operator_actions", json::array());
    if (actions_done.is_array() and not actions_done.empty())
      out += "\n" + table("Operator actions", actions_done,
                          {{"action_id", "action"},
                           {"action", "kind"},
                           {"at", "at"},
                           {"db_user", "db_user"},
                           {"requested_by", "requested_by"},
                           {"superseded_attempt_no", "superseded_attempt"},
                           {"superseded_run_id", "superseded_run_id"},
                           {"used_by_attempt_no", "used_by_attempt"},
                           {"used_by_run_id", "used_by_run_id"},
                           {"reason", "reason", true}});
    out += "\n" + table("Rejections (first 50)", rejections,
                        {{"record_no", "record_no"},
                         {"invoice_number", "invoice_number"},
                         {"rule", "rule"},
                         {"detail", "detail"}});
  }
  return out;
}

} // namespace loader::cli
