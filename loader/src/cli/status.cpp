/// `invoice-loader status [--source S] [--batch ID] [--format text|json]`.
#include "cli/commands.hpp"
#include "cli/help.hpp"
#include "cli/status_render.hpp"
#include "cli/values.hpp"
#include "flows/status.hpp"

namespace po = boost::program_options;

namespace loader::cli
{
namespace
{
std::string description()
{
  return "Show batches, their states and attempts, the watermark and the "
         "rejections.\n";
}

po::options_description options()
{
  po::options_description d{"Options for status", help_line_length};
  d.add_options()
    ("source", po::value<std::string>()->value_name("S"),
     "only this source")
    ("batch", po::value<std::string>()->value_name("ID"),
     "only this batch, a positive integer")
    ("format", po::value<std::string>()->value_name("text|json"),
     "output format on stdout (default: text)");
  return d;
}

Bound bind(po::variables_map const &vm)
{
  flows::StatusRequest out;
  out.source = get(vm, "source");
  if (out.source) check_not_empty("source", *out.source);
  out.batch_id = positive_id(vm, "batch");
  if (auto const f = get(vm, "format")) out.json = check_text_or_json("format", *f);
  return {out, [out](GlobalOptions const &g, Logger const &) {
            std::string const report{flows::status_report(g.dsn, out)};
            return flows::Result{flows::Outcome::done,
                                 out.json ? report + "\n"
                                          : render_status_text(report)};
          }};
}
} // namespace

CommandSpec status_command()
{
  return {"status",
          "show batches, states, attempts, watermark and rejections",
          "status [options]",
          description,
          options,
          nullptr,
          bind};
}
} // namespace loader::cli
