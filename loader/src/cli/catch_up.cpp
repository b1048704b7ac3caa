/// `invoice-loader catch-up --source S [--until D]`.
#include <iostream>

#include "cli/commands.hpp"
#include "cli/feed_options.hpp"
#include "cli/help.hpp"
#include "cli/values.hpp"
#include "flows/catch_up.hpp"

namespace po = boost::program_options;

namespace loader::cli
{
namespace
{
std::string description()
{
  return "Load every business date after the source's watermark (or from "
         "its start date\nwhen nothing is published yet) up to --until, in "
         "date order, each exactly\nas 'load' would, from the source's feed "
         "URL template (source add --feed-url;\n{date} is YYYY-MM-DD) and "
         "the manifest next to it. Stops at the first date\nthat does not "
         "publish. One line per date on stdout: published, already\n"
         "published, not delivered, quarantined (with the first reasons), "
         "waiting, or\nfailed. Exit 0 only if every date up to --until is "
         "published; otherwise the\nfirst failing date's code (75 not "
         "delivered yet or retry budget spent, 65\nquarantined, 77 "
         "credentials, 78 configuration, e.g. a source without a feed\n"
         "URL). Rerunning is always safe: run it from cron.\n" +
         url_support_sentence() + ".\n";
}

po::options_description options()
{
  po::options_description d{"Options for catch-up", help_line_length};
  d.add_options()("source", po::value<std::string>()->value_name("S"),
                  "source name (required)")(
    "until", po::value<std::string>()->value_name("D"),
    "the last business date to load, YYYY-MM-DD; default yesterday (UTC)")(
    "dry-run", po::bool_switch(),
    "load nothing: write one line per due date with the URL it resolves "
    "to (\"D would fetch URL\", credentials removed), to check the "
    "source's feed URL template");
  add_feed_options(d);
  add_retry_options(d);
  return d;
}

Bound bind(po::variables_map const &vm)
{
  if (vm.count("source") == 0)
    usage_error("'catch-up' needs --source", "catch-up");
  flows::CatchUpRequest out;
  out.source = *get(vm, "source");
  check_not_empty("source", out.source);
  out.until = get(vm, "until");
  if (out.until) check_date("until", *out.until);
  out.dry_run = flag(vm, "dry-run");
  bind_retry_options(vm, out.retry);
  bind_feed_options(vm, out.feed);
  return {out, [out](GlobalOptions const &g, Logger const &log) {
            return flows::catch_up(g.dsn, out, log, std::cout);
          }};
}
} // namespace

CommandSpec catch_up_command()
{
  return {"catch-up",
          "load every business date due from the source's feed, in order",
          "catch-up --source S [--until D]",
          description,
          options,
          nullptr,
          bind,
          "invoice_loader"};
}
} // namespace loader::cli
