#include "flows/schedule.hpp"

#include "db/schedule.hpp"

namespace loader::flows
{
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
  db::ScheduledJob const job{db::schedule_job(cron, name, rq.schedule,
                                              "CALL ingest.sweep()",
                                              where.database, rq.run_as)};
  return {Outcome::done, std::string{job.existed ? "updated" : "scheduled"} +
                           " job " + std::to_string(job.job_id) + " '" + name +
                           "' in database " + where.cron_database +
                           ": CALL ingest.sweep() in " + where.database +
                           " as " + rq.run_as + ", schedule '" + rq.schedule +
                           "' (pg_cron 1.4 reads it in GMT)\n"};
}
} // namespace loader::flows
