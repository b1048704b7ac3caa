/// `invoice-loader source add NAME [options]` (operator).
#include "flows/source_add.hpp"
#include "cli/commands.hpp"
#include "cli/feed_options.hpp"
#include "cli/help.hpp"
#include "cli/values.hpp"
#include "io/file_format.hpp"
#include "io/file_scan.hpp"
#include "net/transport.hpp"

namespace po = boost::program_options;

namespace loader::cli
{
namespace
{
std::vector<std::string_view> const &policies()
{
  static std::vector<std::string_view> const values{"all-or-nothing",
                                                    "partial"};
  return values;
}

std::vector<std::string_view> const &extracts()
{
  static std::vector<std::string_view> const values{"delta", "full"};
  return values;
}

std::string description()
{
  return "Register the source NAME, or update it when it exists "
         "(operator).\n";
}

po::options_description options()
{
  po::options_description d{"Options for source add", help_line_length};
  d.add_options()(
    "policy", po::value<std::string>()->value_name("POLICY"),
    "all-or-nothing (default for a new source): any rejected row "
    "quarantines the batch; partial: publish the accepted rows and "
    "quarantine the rejected ones")(
    "max-rejected-share", po::value<std::string>()->value_name("F"),
    "with partial: the largest share of rejected rows, a plain decimal "
    "from 0 to 1 (e.g. 0.05)")(
    "start-date", po::value<std::string>()->value_name("D"),
    "first business date of the source, YYYY-MM-DD")(
    "feed-url", po::value<std::string>()->value_name("TEMPLATE"),
    "where catch-up fetches the source's daily files: a URL (http, https, "
    "file, sftp) or path in which {date} is the business date, "
    "YYYY-MM-DD; it must hold {date} at least once and no other brace, "
    "plain or encoded (%7B, %7D), else exit 78; the manifest is next to each "
    "file (.manifest.json). No "
    "password in it: credentials come from a netrc file")(
    "deadline", po::value<std::string>()->value_name("HH:MM"),
    "the UTC time of day on D+1 by which business date D should be "
    "published; the sweep writes one deadline_missed notification per "
    "date past it")(
    "retention-days", po::value<std::string>()->value_name("N"),
    "days the staging rows of a published, reverted or quarantined batch "
    "are kept before the sweep deletes them, 1-3650 (default 30)")(
    "max-input-bytes", po::value<std::string>()->value_name("BYTES"),
    "the largest input a load of this source accepts, downloaded or local "
    "(1 to 2^50; default: the loader's --max-input-bytes); a larger one is "
    "stopped at the limit and nothing is registered. A --max-input-bytes "
    "given to load or catch-up wins")(
    "max-decompressed-bytes", po::value<std::string>()->value_name("BYTES"),
    "the largest size a gzip or zstd input of this source may decompress "
    "to (1 to 2^50; default: 20 times the delivered size or 10 GiB, "
    "whichever is smaller); a larger one is stopped at the limit and "
    "quarantined (file.decompressed_size)")(
    "format-file", po::value<std::string>()->value_name("FILE"),
    "the source's file format, a JSON file (delimiter, quote, header, "
    "encoding, decimal_separator, group_separator, date_format, columns, "
    "defaults, values, max_expansion; docs/reference/file-format.md): new "
    "files are read with it, files already registered keep the format "
    "they were read with. An unknown key or a value outside its set: exit "
    "78, nothing stored")(
    "extract", po::value<std::string>()->value_name("KIND"),
    "delta (default for a new source): a file carries changes only; full: "
    "a file lists every open invoice of the source as of its business date, "
    "and a current invoice it does not list is closed by absence when it "
    "publishes")(
    "max-absent-share", po::value<std::string>()->value_name("F"),
    "with full: the largest share of the source's current invoices one file "
    "may close by absence, a plain decimal from 0 to 1 (default 0.10); more "
    "quarantines the file (extract.absent_share)")(
    "allow-unknown-columns", po::bool_switch(),
    "keep columns the contract does not know with each version "
    "(reporting.invoice_version.extra) instead of quarantining the batch")(
    "require-approval", po::bool_switch(),
    "four eyes: every batch stops written and unseen until an operator "
    "approves it (approve) or rejects it (reject); load exits 75 awaiting "
    "approval; replay, revert and period reopen of the source take effect "
    "only when a second operator login confirms them (confirm)")(
    "no-require-approval", po::bool_switch(),
    "turn --require-approval off (batches already awaiting approval, and "
    "requests awaiting confirmation, still wait)");
  return d;
}

Bound bind(po::variables_map const &vm)
{
  flows::SourceAddRequest out;
  auto const name = get(vm, "name");
  if (not name) usage_error("'source add' needs a NAME", "source add");
  if (name->empty())
    usage_error("source add: NAME must not be empty", "source add");
  out.name = *name;

  out.policy = get(vm, "policy");
  if (out.policy) check_one_of("policy", *out.policy, policies());
  out.max_rejected_share = get(vm, "max-rejected-share");
  if (out.max_rejected_share and not is_share(*out.max_rejected_share))
    bad_value("max-rejected-share",
              "--max-rejected-share " + quoted(*out.max_rejected_share) +
                " is not a plain decimal between 0 and 1");
  out.start_date = get(vm, "start-date");
  if (out.start_date) check_date("start-date", *out.start_date);
  out.feed_url = get(vm, "feed-url");
  if (out.feed_url) check_not_empty("feed-url", *out.feed_url);
  if (out.feed_url)
    if (auto const problem = net::feed_template_problem(*out.feed_url);
        not problem.empty())
      config_error("--feed-url " + quoted(net::redact_url(*out.feed_url)) +
                   ": " + problem +
                   "; write it with {date} where the "
                   "business date (YYYY-MM-DD) goes, e.g. "
                   "'https://host/acme/{date}.csv'");
  if (out.feed_url and looks_like_url(*out.feed_url))
    check_input_url("feed-url",
                    net::expand_feed_template(*out.feed_url, "2026-01-01"));
  out.deadline = get(vm, "deadline");
  if (out.deadline)
  {
    auto const &d = *out.deadline;
    bool const ok = d.size() == 5 and d[2] == ':' and
                    all_digits(d.substr(0, 2)) and all_digits(d.substr(3)) and
                    std::stoi(d.substr(0, 2)) < 24 and
                    std::stoi(d.substr(3)) < 60;
    if (not ok)
      bad_value("deadline", "--deadline " + quoted(d) +
                              " is not a UTC time of day written as HH:MM");
  }
  if (auto const n = bounded(vm, "retention-days", 1, 3650))
    out.retention_days = static_cast<int>(*n);
  if (auto const n = bounded(vm, "max-input-bytes", 1, std::int64_t{1} << 50))
    out.max_input_bytes = *n;
  if (auto const n = bounded(vm, "max-decompressed-bytes", 1,
                             std::int64_t{1} << 50))
    out.max_decompressed_bytes = *n;
  if (auto const file = get(vm, "format-file"))
  {
    // Checked key by key here, stored in its canonical form: a format the
    // loader could not read never reaches the database.
    out.format_json = io::format_json(
      io::parse_format(io::read_small_file(*file, 1 << 20)));
  }
  out.extract = get(vm, "extract");
  if (out.extract) check_one_of("extract", *out.extract, extracts());
  out.max_absent_share = get(vm, "max-absent-share");
  if (out.max_absent_share and not is_share(*out.max_absent_share))
    bad_value("max-absent-share", "--max-absent-share " +
                                    quoted(*out.max_absent_share) +
                                    " is not a plain decimal between 0 and 1");
  // Left out: the stored value stays (a new source does not allow them).
  if (flag(vm, "allow-unknown-columns")) out.allow_unknown_columns = true;
  // Left out: the stored value stays (a new source requires no approval).
  if (flag(vm, "require-approval") and flag(vm, "no-require-approval"))
    usage_error("--require-approval and --no-require-approval cannot be "
                "combined",
                "source add");
  if (flag(vm, "require-approval")) out.require_approval = true;
  if (flag(vm, "no-require-approval")) out.require_approval = false;
  return {out, [out](GlobalOptions const &g, Logger const &) {
            return flows::source_add(g.dsn, out);
          }};
}
} // namespace

CommandSpec source_add_command()
{
  return {"source add",
          "register or update a source (operator)",
          "source add NAME [options]",
          description,
          options,
          "name",
          bind,
          "invoice_operator",
          {{"policy", policies()}, {"extract", extracts()}}};
}
} // namespace loader::cli
