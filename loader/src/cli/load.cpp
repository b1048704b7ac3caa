/// `invoice-loader load --source S --business-date D --input PATH ...`.
#include "flows/load.hpp"
#include "cli/commands.hpp"
#include "cli/feed_options.hpp"
#include "cli/help.hpp"
#include "cli/values.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace po = boost::program_options;

namespace loader::cli
{
namespace
{
std::string description()
{
  return "Run one batch to published, resuming from its last checkpoint. "
         "Control\ntotals come from the manifest or from --expect-count "
         "and --expect-total.\n\n"
         "The input and the manifest are local paths or URLs.\n" +
         url_support_sentence() +
         ".\nA URL is downloaded whole into the spool (--spool-dir) before "
         "anything is\nregistered, under the same retry budget as every "
         "step: timeouts, resets,\ncut bodies, 5xx and 429 are retried "
         "(Retry-After honoured); 404/410 means\nnot delivered yet (exit "
         "75, nothing registered); 401/403 exit 77 after one\nrequest; "
         "other 4xx and a certificate that does not verify exit 78. The\n"
         "manifest of a URL is URL.manifest.json (on its path) unless "
         "--manifest.\nCredentials: a netrc file (--netrc-file), never the "
         "command line. A rerun\nsends If-None-Match/If-Modified-Since: an "
         "unchanged file is not downloaded\nagain.\n\n"
         "A missing local manifest exits 66 and registers nothing (the "
         "delivery is\nnot complete); one that is malformed or disagrees "
         "with the file quarantines\nthe batch (exit 65).\n\n"
         "For a source added with --require-approval the batch stops once "
         "written,\nunseen by readers, and load exits 75 saying it is "
         "awaiting approval (a\nrerun says the same): an operator runs "
         "approve or reject.\n";
}

po::options_description options()
{
  po::options_description d{"Options for load", help_line_length};
  d.add_options()("source", po::value<std::string>()->value_name("S"),
                  "source name (required)")(
    "business-date", po::value<std::string>()->value_name("D"),
    "business date of the file, YYYY-MM-DD (required)")(
    "input", po::value<std::string>()->value_name("PATH|URL"),
    "the CSV file, a local path or a URL (required)")(
    "manifest", po::value<std::string>()->value_name("PATH|URL"),
    "the manifest (control totals), a local path or a URL; default: "
    "PATH.manifest.json next to the input (for a URL: on its path, "
    "before any query string)")(
    "wait-for-manifest", po::value<std::string>()->value_name("SECONDS"),
    "when the manifest is not there yet, look for it once a second for "
    "up to SECONDS (0-86400; default 0) before giving up with exit 66 (a "
    "local path) or 75 (a URL answering 404); a missing manifest means "
    "the delivery is not complete, so nothing is registered")(
    "expect-count", po::value<std::string>()->value_name("N"),
    "instead of a manifest: the number of records, an integer >= 0 "
    "(needs --expect-total)")(
    "expect-total",
    po::value<std::vector<std::string>>()->value_name("X|CODE=X"),
    "instead of a manifest: the sum of gross_amount, a plain decimal "
    "such as 4200.00 or -12.5, for a file of one currency; or per "
    "currency, CODE=X with the currency's decimals, repeated once per "
    "currency of the file (--expect-total EUR=3780.00 --expect-total "
    "JPY=33000) (needs --expect-count)")(
    "dry-run", po::bool_switch(),
    "read, checksum, stage, validate and reconcile in one transaction "
    "that is rolled back: print every rejection (a load shows the first "
    "ten) and the summary, register "
    "nothing; exit 0 if the file would publish, 65 if it would be "
    "quarantined");
  add_feed_options(d);
  add_retry_options(d);
  return d;
}

/// --expect-total: one plain decimal, or CODE=X once per currency, joined
/// with commas for ingest.parse_manifest (which checks each code and its
/// decimals against ingest.currency).
std::string expect_total(std::vector<std::string> const &values)
{
  if (values.size() == 1 and is_plain_decimal(values[0])) return values[0];
  std::string joined;
  for (auto const &v : values)
  {
    auto const eq = v.find('=');
    bool const code_ok = eq == 3 and
                         std::all_of(v.begin(), v.begin() + 3, [](char c) {
                           return c >= 'A' and c <= 'Z';
                         });
    if (not code_ok or not is_plain_decimal(v.substr(eq + 1)))
      bad_value("expect-total",
                "--expect-total " + quoted(v) +
                  " is neither a plain decimal (-?digits[.digits]) nor "
                  "CODE=X with an ISO 4217 code (EUR=3780.00); a file "
                  "of several currencies repeats CODE=X");
    joined += (joined.empty() ? "" : ",") + v;
  }
  return joined;
}

Bound bind(po::variables_map const &vm)
{
  for (char const *required : {"source", "business-date", "input"})
    if (vm.count(required) == 0)
      usage_error(std::string{"'load' needs --"} + required, "load");
  bool const count = vm.count("expect-count") != 0;
  bool const total = vm.count("expect-total") != 0;
  if (count != total)
    usage_error("--expect-count and --expect-total go together", "load");
  if (count and vm.count("manifest") != 0)
    usage_error("--manifest cannot be combined with --expect-count and "
                "--expect-total",
                "load");

  flows::LoadRequest out;
  out.source = *get(vm, "source");
  check_not_empty("source", out.source);
  out.business_date = *get(vm, "business-date");
  check_date("business-date", out.business_date);
  out.input = *get(vm, "input");
  check_not_empty("input", out.input);
  if (looks_like_url(out.input)) check_input_url("input", out.input);
  out.manifest = get(vm, "manifest");
  if (out.manifest) check_not_empty("manifest", *out.manifest);
  if (out.manifest and looks_like_url(*out.manifest))
    check_input_url("manifest", *out.manifest);
  out.dry_run = flag(vm, "dry-run");
  if (auto const v = bounded(vm, "wait-for-manifest", 0, 86400))
    out.wait_for_manifest = std::chrono::seconds{*v};
  bind_retry_options(vm, out.retry);
  bind_feed_options(vm, out.feed);
  if (count)
  {
    auto const n = *get(vm, "expect-count");
    auto const v = all_digits(n) ? to_int64(n) : std::nullopt;
    if (not v)
      bad_value("expect-count",
                "--expect-count " + quoted(n) + " is not an integer >= 0");
    out.expect_count = *v;
    out.expect_total = expect_total(
      vm["expect-total"].as<std::vector<std::string>>());
  }
  return {out, [out](GlobalOptions const &g, Logger const &log) {
            return flows::load(g.dsn, out, log);
          }};
}
} // namespace

CommandSpec load_command()
{
  return {"load",
          "run one batch to published, resuming from its last checkpoint",
          "load --source S --business-date D\n"
          "         --input PATH|URL [--manifest PATH|URL | --expect-count N "
          "--expect-total X|CODE=X...]",
          description,
          options,
          nullptr,
          bind,
          "invoice_loader"};
}
} // namespace loader::cli
