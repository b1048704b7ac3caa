#include "flows/schedule.hpp"

#include <chrono>

#include "core/errors.hpp"
#include "core/printable.hpp"
#include "db/schedule.hpp"

namespace loader::flows
{
namespace
{
/// Runs the probe; throws LoaderError{config} with what to set when
/// pg_cron cannot run a job as the role.  Returns the line to print.
std::string check_cron_runs(db::Database &cron, db::CronTarget const &where,
                            std::string const &run_as)
{
  using Outcome = db::ProbeResult::Outcome;
  db::ProbeResult const p{
    db::probe_job(cron, "invoice-loader probe " + where.database,
                  where.database, run_as, std::chrono::seconds{75})};
  std::string const how{p.background_workers
                          ? "pg_cron runs jobs in background workers "
                            "(cron.use_background_workers = on)"
                          : "pg_cron connects to cron.host = '" +
                              printable(p.cron_host) + "' as " + run_as +
                              ", over TCP unless cron.host is a socket "
                              "directory, with no password"};
  switch (p.outcome)
  {
  case Outcome::succeeded:
    return "checked: pg_cron ran a probe job in " + where.database + " as " +
           run_as + "\n";
  case Outcome::not_logged:
    return "not checked: cron.log_run is off, so pg_cron records no run "
           "to read; watch the server log for the job's first run\n";
  case Outcome::failed:
    throw LoaderError{
      ErrorKind::config,
      "pg_cron could not run a job in " + where.database + " as " + run_as +
        " (" + printable(p.detail) + "); " + how +
        ": allow that login in pg_hba.conf (e.g. a 'local' or 'host "
        "127.0.0.1/32' line with trust or peer for " +
        run_as +
        "), give the server's OS user a ~/.pgpass entry, or set "
        "cron.use_background_workers = on; nothing was scheduled"};
  case Outcome::no_run: break;
  }
  throw LoaderError{
    ErrorKind::config,
    "pg_cron started no run of a probe job in 75 s: is its launcher running "
    "(shared_preload_libraries = 'pg_cron', cron.database_name = '" +
      printable(where.cron_database) +
      "')? nothing was scheduled (--no-check schedules without the probe)"};
}
} // namespace

Result schedule(std::string const &dsn, ScheduleRequest const &rq)
{
  // The target must be migrated (its sweep must exist): schema-checked.
  db::Database target{dsn};
  db::CronTarget const where{db::cron_target(target, rq.cron_database)};
  target.disconnect();
  std::string const name{"invoice-loader sweep " + where.database};
  db::Database cron{db::dsn_for_database(dsn, where.cron_database), false};
  if (not rq.install)
  {
    int const n{db::unschedule_jobs(cron, name)};
    return {Outcome::done,
            n == 0 ? "no job '" + name + "' in database " +
                       where.cron_database + "; nothing to remove\n"
                   : "removed " + std::to_string(n) + " job(s) '" + name +
                       "' from database " + where.cron_database + "\n"};
  }
  std::string const checked{rq.check ? check_cron_runs(cron, where, rq.run_as)
                                     : "not checked (--no-check)\n"};
  db::ScheduledJob const job{db::schedule_job(cron, name, rq.schedule,
                                              "CALL ingest.sweep()",
                                              where.database, rq.run_as)};
  return {Outcome::done, std::string{job.existed ? "updated" : "scheduled"} +
                           " job " + std::to_string(job.job_id) + " '" + name +
                           "' in database " + where.cron_database +
                           ": CALL ingest.sweep() in " + where.database +
                           " as " + rq.run_as + ", schedule '" + rq.schedule +
                           "' (pg_cron 1.4 reads it in GMT)\n" + checked};
}
} // namespace loader::flows
