// invoice-loader: parse the command line, run the command's flow, map its
// outcome or its error to an exit code (CONTRACT.md section 7).  Nothing
// else lives here.
#include <exception>
#include <iostream>

#include "cli/command.hpp"
#include "core/errors.hpp"
#include "core/log.hpp"

namespace
{
using namespace loader;

int exit_code_of(flows::Outcome o) noexcept
{
  switch (o)
  {
  case flows::Outcome::done: return exit_ok;
  case flows::Outcome::quarantined: return exit_data;
  case flows::Outcome::no_input: return exit_no_input;
  case flows::Outcome::waiting:
  case flows::Outcome::busy:
  case flows::Outcome::not_delivered: return exit_temp_fail;
  case flows::Outcome::refused: return exit_config;
  }
  return exit_internal;
}
} // namespace

int main(int argc, char *argv[])
{
  cli::ParsedCommandLine cl;
  try
  {
    cl = cli::parse_command_line(argc, argv);
  }
  catch (LoaderError const &e)
  {
    std::cerr << "invoice-loader: " << e.what()
              << "\nRun 'invoice-loader --help' for usage.\n";
    return exit_code_of(e.kind);
  }
  if (cl.global.help)
  {
    std::cout << cl.help_text;
    return exit_ok;
  }
  if (cl.global.version)
  {
    std::cout << cli::version_text();
    return exit_ok;
  }

  Logger const log{new_run_id(), cl.global.log_format, cl.global.log_level};
  try
  {
    flows::Result const r{cl.run(cl.global, log)};
    std::cout << r.output << std::flush;
    return exit_code_of(r.outcome);
  }
  catch (LoaderError const &e)
  {
    if (e.sqlstate.empty())
      log.error(e.what(), {{"class", name_of(e.kind)}});
    else
      log.error(e.what(),
                {{"class", name_of(e.kind)}, {"sqlstate", e.sqlstate}});
    return exit_code_of(e.kind);
  }
  catch (std::exception const &e)
  {
    log.error(std::string{"internal error: "} + e.what(),
              {{"class", "internal"}});
    return exit_internal;
  }
  catch (...)
  {
    log.error("internal error: unknown exception", {{"class", "internal"}});
    return exit_internal;
  }
}
