/// `invoice-loader status [--source S] [--batch ID] [--format text|json]`.
#include "flows/status.hpp"

#include <iostream>

#include "cli/commands.hpp"
#include "cli/help.hpp"
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
                                                    "prometheus"};
  return values;
}

std::string description()
{
  return "Show batches, their states and attempts, the watermark and the "
         "rejections.\n";
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
    "format", po::value<std::string>()->value_name("FORMAT"),
    "text (default: tables and, for blocked sources, the next action), "
    "json (the same report as one document), or prometheus "
    "(node_exporter textfile metrics: see docs/reference/metrics.md)");
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
          "         [--limit N] [--format text|json|prometheus]",
          description,
          options,
          nullptr,
          bind,
          "invoice_loader or invoice_operator",
          {{"state", states()}, {"format", formats()}}};
}
} // namespace loader::cli
