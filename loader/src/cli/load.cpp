/// `invoice-loader load --source S --business-date D --input PATH ...`.
#include "cli/commands.hpp"
#include "cli/help.hpp"
#include "cli/values.hpp"
#include "flows/load.hpp"

namespace po = boost::program_options;

namespace loader::cli
{
namespace
{
std::string description()
{
  return "Run one batch to published, resuming from its last checkpoint. "
         "Control\ntotals come from the manifest or from --expect-count "
         "and --expect-total.\nThe input and the manifest are local files; "
         "URLs are not supported yet.\nA missing manifest exits 66 and "
         "registers nothing (the delivery is not\ncomplete); one that is "
         "malformed or disagrees with the file quarantines the\nbatch "
         "(exit 65).\n";
}

po::options_description options()
{
  po::options_description d{"Options for load", help_line_length};
  d.add_options()
    ("source", po::value<std::string>()->value_name("S"),
     "source name (required)")
    ("business-date", po::value<std::string>()->value_name("D"),
     "business date of the file, YYYY-MM-DD (required)")
    ("input", po::value<std::string>()->value_name("PATH"),
     "the CSV file, a local path (required); URLs are not supported yet")
    ("manifest", po::value<std::string>()->value_name("PATH"),
     "the manifest (control totals), a local path; default: "
     "PATH.manifest.json next to the input")
    ("wait-for-manifest", po::value<std::string>()->value_name("SECONDS"),
     "when the manifest is not there yet, poll for it once a second for up "
     "to SECONDS (0-86400; default 0) before giving up with exit 66; a "
     "missing manifest means the delivery is not complete, so nothing is "
     "registered")
    ("expect-count", po::value<std::string>()->value_name("N"),
     "instead of a manifest: the number of records, an integer >= 0 "
     "(needs --expect-total)")
    ("expect-total", po::value<std::string>()->value_name("X"),
     "instead of a manifest: the sum of gross_amount, a plain decimal "
     "such as 4200.00 or -12.5 (needs --expect-count)")
    ("dry-run", po::bool_switch(),
     "read, checksum, stage, validate and reconcile in one transaction "
     "that is rolled back: print the same rejections and summary, register "
     "nothing; exit 0 if the file would publish, 65 if it would be "
     "quarantined")
    ("retry-attempts", po::value<std::string>()->value_name("N"),
     "tries of a step that fails for a transient reason (lost connection, "
     "server restarting, another run holding the batch), 1-100; default 5")
    ("retry-budget", po::value<std::string>()->value_name("SECONDS"),
     "total time the run may spend retrying, 1-86400; default 300. Retries "
     "wait with capped exponential backoff and full jitter; when tries or "
     "budget run out the run exits 75 and the batch stays at its last "
     "checkpoint");
  return d;
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
  if (looks_like_url(out.input))
    config_error("--input " + quoted(out.input) +
                 ": URLs are not supported yet; give a local path");
  out.manifest = get(vm, "manifest");
  if (out.manifest) check_not_empty("manifest", *out.manifest);
  if (out.manifest and looks_like_url(*out.manifest))
    config_error("--manifest " + quoted(*out.manifest) +
                 ": URLs are not supported yet; give a local path");
  out.dry_run = flag(vm, "dry-run");
  if (auto const v = bounded(vm, "wait-for-manifest", 0, 86400))
    out.wait_for_manifest = std::chrono::seconds{*v};
  if (auto const v = bounded(vm, "retry-attempts", 1, 100))
    out.retry.max_attempts = static_cast<int>(*v);
  if (auto const v = bounded(vm, "retry-budget", 1, 86400))
    out.retry.budget = std::chrono::seconds{*v};
  if (count)
  {
    auto const n = *get(vm, "expect-count");
    auto const v = all_digits(n) ? to_int64(n) : std::nullopt;
    if (not v)
      config_error("--expect-count " + quoted(n) +
                   " is not an integer >= 0");
    out.expect_count = *v;
    out.expect_total = get(vm, "expect-total");
    if (not is_plain_decimal(*out.expect_total))
      config_error("--expect-total " + quoted(*out.expect_total) +
                   " is not a plain decimal (-?digits[.digits])");
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
          "         --input PATH [--manifest PATH | --expect-count N "
          "--expect-total X]",
          description,
          options,
          nullptr,
          bind,
          "invoice_loader"};
}
} // namespace loader::cli
