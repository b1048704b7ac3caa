/// `invoice-loader schedule install [...]` and `schedule remove [...]`.
#include "flows/schedule.hpp"
#include "cli/commands.hpp"
#include "cli/help.hpp"
#include "cli/values.hpp"

namespace po = boost::program_options;

namespace loader::cli
{
namespace
{
std::string install_description()
{
  return "Install (or update, by its name) the pg_cron job that runs "
         "CALL ingest.sweep()\nin the --dsn database every minute: publish "
         "validated batches whose turn\ncame, mark abandoned attempts, "
         "write deadline_missed notifications, delete\nold staging rows "
         "(docs/guide/run-nightly.md). The job is named\n'invoice-loader "
         "sweep <database>' and kept in the cron database; installing\n"
         "twice leaves one job. Run it as a superuser (pg_cron schedules for "
         "another\nrole only then). pg_cron runs SQL, not programs: "
         "schedule the load itself\nwith cron or a systemd timer "
         "(invoice-loader catch-up). pg_cron 1.4 connects\nto cron.host "
         "(default localhost) unless cron.use_background_workers = on,\n"
         "and reads schedules in GMT.\nBefore installing, a probe job runs "
         "`select 1` through pg_cron as the job's\nrole (within 75 s: pg_cron "
         "starts jobs at the minute's tick); when its run\nfails or never "
         "starts, nothing is scheduled and the command exits 78 with\nwhat "
         "to set.\n";
}

std::string remove_description()
{
  return "Remove the pg_cron job 'invoice-loader sweep <database>' of the "
         "--dsn\ndatabase from the cron database. Nothing to remove is not "
         "an error.\n";
}

po::options_description common(char const *title)
{
  po::options_description d{title, help_line_length};
  d.add_options()(
    "cron-database", po::value<std::string>()->value_name("DB"),
    "the database pg_cron keeps its jobs in (default: the server's "
    "cron.database_name, else postgres)");
  return d;
}

po::options_description install_options()
{
  po::options_description d{common("Options for schedule install")};
  d.add_options()(
    "schedule", po::value<std::string>()->value_name("CRON"),
    "when, in cron syntax, GMT (default '* * * * *': every minute)")(
    "run-as", po::value<std::string>()->value_name("ROLE"),
    "the role the job runs as (default invoice_loader: the sweep needs no "
    "operator right); it must be able to connect as pg_cron does")(
    "no-check", po::bool_switch(),
    "install without first running a probe job through pg_cron");
  return d;
}

po::options_description remove_options()
{
  return common("Options for schedule remove");
}

flows::ScheduleRequest common_request(po::variables_map const &vm)
{
  flows::ScheduleRequest out;
  out.cron_database = get(vm, "cron-database");
  if (out.cron_database) check_not_empty("cron-database", *out.cron_database);
  return out;
}

Bound bind_install(po::variables_map const &vm)
{
  flows::ScheduleRequest out{common_request(vm)};
  if (auto const s = get(vm, "schedule"))
  {
    check_not_empty("schedule", *s);
    out.schedule = *s;
  }
  if (auto const r = get(vm, "run-as"))
  {
    check_not_empty("run-as", *r);
    out.run_as = *r;
  }
  out.check = not vm["no-check"].as<bool>();
  return {out, [out](GlobalOptions const &g, Logger const &) {
            return flows::schedule(g.dsn, out);
          }};
}

Bound bind_remove(po::variables_map const &vm)
{
  flows::ScheduleRequest out{common_request(vm)};
  out.install = false;
  return {out, [out](GlobalOptions const &g, Logger const &) {
            return flows::schedule(g.dsn, out);
          }};
}
} // namespace

CommandSpec schedule_install_command()
{
  return {"schedule install",
          "install the pg_cron job that runs CALL ingest.sweep()",
          "schedule install [--cron-database DB] [--schedule CRON] "
          "[--run-as ROLE] [--no-check]",
          install_description,
          install_options,
          nullptr,
          bind_install,
          "a superuser (pg_cron)"};
}

CommandSpec schedule_remove_command()
{
  return {"schedule remove",
          "remove that pg_cron job",
          "schedule remove [--cron-database DB]",
          remove_description,
          remove_options,
          nullptr,
          bind_remove,
          "a superuser (pg_cron)"};
}
} // namespace loader::cli
