/// `invoice-loader source check NAME --input FILE [--business-date D]`.
#include "flows/source_check.hpp"
#include "cli/commands.hpp"
#include "cli/help.hpp"
#include "cli/values.hpp"

namespace po = boost::program_options;

namespace loader::cli
{
namespace
{
std::string description()
{
  return "Read a sample FILE as the source NAME's file format declares "
         "and write nothing:\nprint how its columns map onto the "
         "contract's, its first records as the\nloader reads them, and "
         "every record that fails a field rule, with the rule and\nthe "
         "values as delivered and as read. Exit 0 when every record "
         "passes, 65 when\nthe file or a record would be rejected. Rules "
         "that need the database's history\n(duplicates, revisions, "
         "closed periods) and the manifest are not judged: a\nload "
         "--dry-run judges them too.\n";
}

po::options_description options()
{
  po::options_description d{"Options for source check", help_line_length};
  d.add_options()("input", po::value<std::string>()->value_name("FILE"),
                  "the sample file, a local path (required)")(
    "business-date", po::value<std::string>()->value_name("D"),
    "judge invoice_date.after_business_date against this date, YYYY-MM-DD "
    "(default: not judged)")(
    "records", po::value<std::string>()->value_name("N"),
    "how many of the first records to print as read, 0-1000 (default 5)");
  return d;
}

Bound bind(po::variables_map const &vm)
{
  flows::SourceCheckRequest out;
  auto const name = get(vm, "name");
  if (not name) usage_error("'source check' needs a NAME", "source check");
  out.source = *name;
  check_not_empty("source", out.source);
  auto const input = get(vm, "input");
  if (not input) usage_error("'source check' needs --input", "source check");
  out.input = *input;
  check_not_empty("input", out.input);
  out.business_date = get(vm, "business-date");
  if (out.business_date) check_date("business-date", *out.business_date);
  if (auto const n = bounded(vm, "records", 0, 1000))
    out.records_shown = static_cast<std::size_t>(*n);
  return {out, [out](GlobalOptions const &g, Logger const &) {
            return flows::source_check(g.dsn, out);
          }};
}
} // namespace

CommandSpec source_check_command()
{
  return {"source check",
          "read a sample file with a source's format, writing nothing",
          "source check NAME --input FILE [options]",
          description,
          options,
          "name",
          bind,
          "invoice_operator or invoice_loader"};
}
} // namespace loader::cli
