// invoice-loader: parse the command line, run the command, map the outcome
// to an exit code (CONTRACT.md section 7).  Nothing else lives here.
#include <chrono>
#include <exception>
#include <iostream>

#include "cli/options.hpp"
#include "core/errors.hpp"
#include "core/log.hpp"
#include "core/version.hpp"
#include "db/admin.hpp"
#include "db/migrate.hpp"
#include "db/session.hpp"
#include "db/steps.hpp"
#include "import/run_import.hpp"

namespace
{
using namespace loader;

int run(cli::ParsedCommandLine const &cl, Logger const &log)
{
  if (cl.command == cli::Command::load)
  {
    // load owns its sessions: the retry layer may drop and reopen them.
    db::Steps steps{cl.global.dsn};
    import::LoadRequest rq;
    rq.source = cl.load.source;
    rq.business_date = cl.load.business_date;
    rq.input = cl.load.input;
    rq.manifest = cl.load.manifest;
    rq.expect_count = cl.load.expect_count;
    rq.expect_total = cl.load.expect_total;
    rq.retry.max_attempts = cl.load.retry_attempts;
    rq.retry.budget = std::chrono::seconds{cl.load.retry_budget_seconds};
    import::LoadOutcome const out{import::run_load(steps, rq, log)};
    (out.exit_code == exit_ok ? std::cout : std::cerr)
      << out.summary << '\n';
    return out.exit_code;
  }
  auto cx = db::connect(cl.global.dsn);
  switch (cl.command)
  {
  case cli::Command::migrate:
  {
    db::MigrateResult const r{db::migrate(*cx, log)};
    std::cout << "migrated: " << r.applied << " migration(s) applied, "
              << r.already << " already applied, " << r.functions
              << " function file(s) installed; schema at " << r.version
              << '\n';
    return exit_ok;
  }
  case cli::Command::source_add:
  {
    db::SourceSettings s;
    s.name = cl.source_add.name;
    s.policy = cl.source_add.policy;
    s.max_rejected_share = cl.source_add.max_rejected_share;
    s.start_date = cl.source_add.start_date;
    s.feed_url = cl.source_add.feed_url;
    if (cl.source_add.allow_unknown_columns) s.allow_unknown_columns = true;
    std::cout << db::add_source(*cx, s) << '\n';
    return exit_ok;
  }
  case cli::Command::status:
    std::cout << (cl.status.json
                    ? db::status_json(*cx, cl.status.source,
                                      cl.status.batch_id) + "\n"
                    : db::status_text(*cx, cl.status.source,
                                      cl.status.batch_id));
    return exit_ok;
  case cli::Command::load:
  case cli::Command::none:
    break;
  }
  throw LoaderError{ErrorKind::usage, "no command given"};
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
    std::cout << "invoice-loader " << loader::version << '\n';
    return exit_ok;
  }

  Logger const log{new_run_id(), cl.global.log_format, cl.global.log_level};
  try
  {
    return run(cl, log);
  }
  catch (LoaderError const &e)
  {
    if (e.sqlstate.empty())
      log.error(e.what(), {{"class", std::string{name_of(e.kind)}}});
    else
      log.error(e.what(), {{"class", std::string{name_of(e.kind)}},
                           {"sqlstate", e.sqlstate}});
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
