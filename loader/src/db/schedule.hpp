#pragma once
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "db/database.hpp"

namespace loader::db
{
/// The database the sweeps run in, and the one pg_cron keeps its jobs in.
struct CronTarget
{
  std::string database;      ///< current_database() of --dsn
  std::string cron_database; ///< --cron-database, cron.database_name, postgres
};

/// Reads the target's name and, unless given, the server's
/// cron.database_name (pg_cron's own setting; postgres when unset).
CronTarget cron_target(Database &target,
                       std::optional<std::string> const &cron_database);

/// The same conninfo (key=value or URI) for another database of the server:
/// libpq's PQconninfoParse reads it, dbname is replaced, and it is written
/// back as key='value' pairs.  LoaderError{config} when it does not parse.
std::string dsn_for_database(std::string const &dsn,
                             std::string const &database);

struct ScheduledJob
{
  std::int64_t job_id = 0;
  bool existed = false; ///< a job of that name and user was updated
};

/// In the cron database: CREATE EXTENSION pg_cron if it is missing and we
/// may, then cron.schedule_in_database(name, schedule, command, database,
/// run_as) (pg_cron 1.4: the same name for the same user updates the
/// job).  LoaderError{config} for a bad schedule or a missing pg_cron.
ScheduledJob schedule_job(Database &cron, std::string const &name,
                          std::string const &schedule,
                          std::string const &command,
                          std::string const &database,
                          std::string const &run_as);

/// What a probe job run by pg_cron showed (probe_job).
struct ProbeResult
{
  enum class Outcome
  {
    succeeded,  ///< pg_cron connected as the role and ran the probe
    failed,     ///< its run failed: detail is pg_cron's return_message
    no_run,     ///< no run started within the wait
    not_logged, ///< cron.log_run is off: runs leave no row to read
  };
  Outcome outcome = Outcome::no_run;
  std::string detail;
  std::string cron_host;   ///< pg_cron's cron.host setting
  bool background_workers; ///< cron.use_background_workers
};

/// Schedules a job named name that runs `select 1` in database as run_as
/// every minute, waits (at most wait) for its first run's row in
/// cron.job_run_details to end, then unschedules the job and deletes its
/// rows, whatever happened.  pg_cron runs a job the way it will run the
/// sweep (its connection to cron.host as the role, or a background
/// worker), so a run that succeeds proves the sweep's job can run.
ProbeResult probe_job(Database &cron, std::string const &name,
                      std::string const &database, std::string const &run_as,
                      std::chrono::seconds wait);

/// cron.unschedule of every job of that name (by id: unschedule by name
/// finds only the caller's own); returns how many went.
int unschedule_jobs(Database &cron, std::string const &name);
} // namespace loader::db
