/// `invoice-loader status [--source S] [--batch ID] [--format text|json]`.
#include "flows/status.hpp"

#include <iostream>

#include "cli/commands.hpp"
#include "cli/help.hpp"
#include "cli/rejection_render.hpp"
#include "cli/status_render.hpp"
#include "cli/values.hpp"
#include "core/errors.hpp"

namespace po = boost::program_options;

namespace loader::cli
{
namespace
{
std::vector<std::string_view> const &states()
{
  static std::vector<std::string_view> const values{
    "received", "staged", "validated", "published", "quarantined", "reverted"};
  return values;
}

std::vector<std::string_view> const &formats()
{
  static std::vector<std::string_view> const values{"text", "json",
                                                    "prometheus", "csv"};
  return values;
}

std::string description()
{
  return "Show batches, their states and attempts, the watermark and the "
         "rejections.\nWith --batch ID --rejections: every rejection of the "
         "batch, streamed, as CSV\n(default) or JSON lines: record number, "
         "invoice number, rule, detail and the\nrecord's twelve fields as "
         "read (a reject file).\n";
}

po::options_description options()
{
  po::options_description d{"Options for status", help_line_length};
  d.add_options()("source", po::value<std::string>()->value_name("S"),
                  "only this source")(
    "batch", po::value<std::string>()->value_name("ID"),
    "only this batch, a positive integer, with its checkpoints, attempts, "
    "rejections and operator actions (each replay and revert: who, when, "
    "why, the attempt and run id it supersedes and, for a replay, the "
    "attempt and run id that used it)")(
    "state", po::value<std::string>()->value_name("STATE"),
    "only batches in this state: received, staged, validated, published, "
    "quarantined, reverted")(
    "since", po::value<std::string>()->value_name("D"),
    "only batches of business dates from D on, YYYY-MM-DD")(
    "limit", po::value<std::string>()->value_name("N"),
    "at most N batches, newest first, 1-10000; default 50")(
    "rejections", po::bool_switch(),
    "with --batch: every rejection of the batch and the record's fields, "
    "as CSV (--format csv, the default) or JSON lines (--format json)")(
    "format", po::value<std::string>()->value_name("FORMAT"),
    "text (default: tables and, for blocked sources, the next action), "
    "json (the same report as one document), or prometheus "
    "(node_exporter textfile metrics: see docs/reference/metrics.md); "
    "with --rejections csv or json");
  return d;
}

Bound bind(po::variables_map const &vm)
{
  flows::StatusRequest out;
  out.source = get(vm, "source");
  if (out.source) check_not_empty("source", *out.source);
  out.batch_id = positive_id(vm, "batch");
  out.state = get(vm, "state");
  if (out.state) check_one_of("state", *out.state, states());
  out.since = get(vm, "since");
  if (out.since) check_date("since", *out.since);
  if (auto const n = bounded(vm, "limit", 1, 10000))
    out.limit = static_cast<int>(*n);
  if (auto const f = get(vm, "format"))
  {
    check_one_of("format", *f, formats());
    out.format = *f == "prometheus" ? flows::StatusFormat::prometheus
                 : *f == "json"     ? flows::StatusFormat::json
                                    : flows::StatusFormat::text;
  }
  out.json = out.format == flows::StatusFormat::json;
  bool const rejections{flag(vm, "rejections")};
  auto const format = get(vm, "format");
  if (rejections)
  {
    if (not out.batch_id)
      usage_error("--rejections needs --batch ID", "status");
    if (format and *format != "csv" and *format != "json")
      usage_error("--rejections writes csv or json, not " + *format, "status");
    bool const as_json{format and *format == "json"};
    std::int64_t const batch{*out.batch_id};
    return {out, [batch, as_json](GlobalOptions const &g, Logger const &) {
              // Streamed: each row is written as it is fetched.
              if (not as_json) std::cout << rejection_csv_header();
              flows::export_rejections(
                g.dsn, batch, [as_json](db::RejectionExport const &r) {
                  std::cout << (as_json ? rejection_json_line(r)
                                        : rejection_csv_line(r));
                });
              std::cout << std::flush;
              return flows::Result{flows::Outcome::done, ""};
            }};
  }
  if (format and *format == "csv")
    usage_error("--format csv is for --rejections", "status");
  return {
    out, [out](GlobalOptions const &g, Logger const &) {
      std::string report;
      try
      {
        report = flows::status_report(g.dsn, out);
      }
      catch (LoaderError const &e)
      {
        // A metrics file must say the database is out of reach rather
        // than keep the last good figures: the exposition goes to stdout
        // whole, and the error and its exit code (75 unreachable, 77 the
        // login refused) as for any command.
        if (out.format == flows::StatusFormat::prometheus and
            (e.kind == ErrorKind::transient or
             e.kind == ErrorKind::permission))
          std::cout << render_status_prometheus_down() << std::flush;
        throw;
      }
      switch (out.format)
      {
      case flows::StatusFormat::json:
        return flows::Result{flows::Outcome::done, report + "\n"};
      case flows::StatusFormat::prometheus:
        return flows::Result{flows::Outcome::done,
                             render_status_prometheus(report)};
      case flows::StatusFormat::text: break;
      }
      return flows::Result{flows::Outcome::done, render_status_text(report)};
    }};
}
} // namespace

CommandSpec status_command()
{
  return {"status",
          "show batches, states, attempts, watermark and rejections",
          "status [--source S] [--batch ID] [--state STATE] [--since D]\n"
          "         [--limit N] [--format text|json|prometheus]\n"
          "       status --batch ID --rejections [--format csv|json]",
          description,
          options,
          nullptr,
          bind,
          "invoice_loader or invoice_operator",
          {{"state", states()}, {"format", formats()}}};
}
} // namespace loader::cli
