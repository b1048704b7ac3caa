#include "db/schedule.hpp"

#include <memory>

#include <libpq-fe.h>
#include <pqxx/pqxx>

#include "core/errors.hpp"
#include "core/interrupt.hpp"
#include "db/session.hpp"

namespace loader::db
{
namespace
{
struct OptionsFree
{
  void operator()(PQconninfoOption *o) const noexcept { PQconninfoFree(o); }
};

/// A conninfo value, single-quoted with \ and ' escaped (libpq's syntax).
std::string quote_value(std::string const &v)
{
  std::string out{"'"};
  for (char const c : v)
  {
    if (c == '\\' or c == '\'') out += '\\';
    out += c;
  }
  return out + "'";
}

bool has_pg_cron(pqxx::connection_base &cx)
{
  pqxx::read_transaction tx{cx};
  return not tx.exec("select 1 from pg_catalog.pg_extension "
                     "where extname = 'pg_cron'")
               .empty();
}
/// CREATE EXTENSION pg_cron in the cron database when it is missing and
/// the session may; LoaderError{config} when it may not.
void ensure_pg_cron(pqxx::connection_base &cx)
{
  if (has_pg_cron(cx)) return;
  try
  {
    pqxx::work tx{cx};
    tx.exec("create extension if not exists pg_cron");
    tx.commit();
  }
  catch (pqxx::sql_error const &e)
  {
    throw LoaderError{
      ErrorKind::config,
      "pg_cron is not installed in the cron database and cannot be "
      "created here (" +
        std::string{e.sqlstate()} +
        "): it needs "
        "shared_preload_libraries = 'pg_cron', cron.database_name set to "
        "this database, and a superuser to CREATE EXTENSION pg_cron "
        "(docs/guide/run-nightly.md, pg_cron)"};
  }
}
} // namespace

std::string dsn_for_database(std::string const &dsn,
                             std::string const &database)
{
  char *err = nullptr;
  std::unique_ptr<PQconninfoOption, OptionsFree> const options{
    PQconninfoParse(dsn.c_str(), &err)};
  if (not options)
  {
    PQfreemem(err);
    throw LoaderError{ErrorKind::config,
                      "--dsn is not a connection string libpq can parse"};
  }
  std::string out;
  for (PQconninfoOption const *o = options.get(); o->keyword != nullptr; ++o)
  {
    if (o->val == nullptr or std::string_view{o->keyword} == "dbname")
      continue;
    out += std::string{o->keyword} + "=" + quote_value(o->val) + " ";
  }
  return out + "dbname=" + quote_value(database);
}

CronTarget cron_target(Database &target,
                       std::optional<std::string> const &cron_database)
{
  try
  {
    pqxx::read_transaction tx{target.cx()};
    pqxx::row const r{tx.exec1(
      "select current_database(), "
      "coalesce(nullif(current_setting('cron.database_name', true), ''), "
      "'postgres')")};
    return {r[0].as<std::string>(),
            cron_database ? *cron_database : r[1].as<std::string>()};
  }
  catch (...)
  {
    rethrow_classified("reading the cron database's name");
  }
}

ScheduledJob schedule_job(Database &cron, std::string const &name,
                          std::string const &schedule,
                          std::string const &command,
                          std::string const &database,
                          std::string const &run_as)
{
  try
  {
    pqxx::connection_base &cx = cron.cx();
    ensure_pg_cron(cx);
    pqxx::work tx{cx};
    bool const existed = not tx.exec_params(
                                 "select 1 from cron.job where jobname = $1 "
                                 "and username = $2",
                                 name, run_as)
                               .empty();
    pqxx::row const r{tx.exec_params1(
      "select cron.schedule_in_database($1, $2, $3, $4, $5, true)", name,
      schedule, command, database, run_as)};
    tx.commit();
    return {r[0].as<std::int64_t>(), existed};
  }
  catch (pqxx::sql_error const &e)
  {
    // pg_cron refuses a schedule it cannot read with a plain error.
    std::string const state{e.sqlstate()};
    if (state == "22023" or state == "P0001" or state == "XX000")
      throw LoaderError{
        ErrorKind::config,
        "pg_cron refused the job: " + one_line(e.what(), false), state};
    rethrow_classified("scheduling " + name);
  }
  catch (...)
  {
    rethrow_classified("scheduling " + name);
  }
}

ProbeResult probe_job(Database &cron, std::string const &name,
                      std::string const &database, std::string const &run_as,
                      std::chrono::seconds wait)
{
  ProbeResult out;
  std::int64_t job_id{0};
  try
  {
    pqxx::connection_base &cx = cron.cx();
    ensure_pg_cron(cx);
    {
      pqxx::work tx{cx};
      pqxx::row const r{tx.exec1(
        "select coalesce(current_setting('cron.log_run', true), 'on'), "
        "coalesce(current_setting('cron.host', true), 'localhost'), "
        "coalesce(current_setting('cron.use_background_workers', true), "
        "'off')")};
      out.cron_host = r[1].as<std::string>();
      out.background_workers = r[2].as<std::string>() == "on";
      if (r[0].as<std::string>() != "on")
      {
        out.outcome = ProbeResult::Outcome::not_logged;
        return out;
      }
      try
      {
        job_id = tx.exec_params1(
                     "select cron.schedule_in_database($1, '* * * * *', "
                     "'select 1', $2, $3, true)",
                     name, database, run_as)[0]
                   .as<std::int64_t>();
      }
      catch (pqxx::sql_error const &e)
      {
        // pg_cron refuses a role that may not log in, with a plain error.
        std::string const state{e.sqlstate()};
        if (state == "XX000" or state == "P0001")
          throw LoaderError{ErrorKind::config,
                            "pg_cron refused a job as " + run_as + ": " +
                              one_line(e.what(), false) +
                              "; nothing was scheduled",
                            state};
        throw;
      }
      tx.commit();
    }
    // pg_cron starts a job at the next minute's tick, then records the
    // run as starting, connecting, running, and ends it as succeeded or
    // failed.
    auto const until = std::chrono::steady_clock::now() + wait;
    while (std::chrono::steady_clock::now() < until)
    {
      throw_if_interrupted("the pg_cron probe");
      pqxx::read_transaction tx{cx};
      pqxx::result const r{tx.exec_params(
        "select status, coalesce(return_message, '') "
        "from cron.job_run_details where jobid = $1::bigint "
        "and status in ('succeeded', 'failed') order by runid limit 1",
        job_id)};
      tx.commit();
      if (not r.empty())
      {
        out.outcome = r[0][0].as<std::string>() == "succeeded"
                        ? ProbeResult::Outcome::succeeded
                        : ProbeResult::Outcome::failed;
        out.detail = one_line(r[0][1].as<std::string>(), false);
        break;
      }
      sleep_unless_interrupted(std::chrono::milliseconds{500});
    }
    pqxx::work tx{cx};
    tx.exec_params("delete from cron.job_run_details where jobid = $1::bigint",
                   job_id);
    tx.exec_params("select cron.unschedule($1::bigint)", job_id);
    tx.commit();
    return out;
  }
  catch (...)
  {
    // Leave no probe behind: a new session, since this one may be broken.
    if (job_id != 0)
    {
      try
      {
        cron.disconnect();
        pqxx::work tx{cron.cx()};
        tx.exec_params("select cron.unschedule(jobid) from cron.job "
                       "where jobid = $1::bigint",
                       job_id);
        tx.commit();
      }
      catch (...) // NOLINT(bugprone-empty-catch): the first error counts
      {}
    }
    rethrow_classified("running a pg_cron probe job");
  }
}

int unschedule_jobs(Database &cron, std::string const &name)
{
  try
  {
    pqxx::work tx{cron.cx()};
    if (tx.exec("select 1 from pg_catalog.pg_extension "
                "where extname = 'pg_cron'")
          .empty())
      return 0;
    pqxx::result const r{tx.exec_params(
      "select cron.unschedule(jobid) from cron.job where jobname = $1", name)};
    tx.commit();
    return static_cast<int>(r.size());
  }
  catch (...)
  {
    rethrow_classified("unscheduling " + name);
  }
}
} // namespace loader::db
