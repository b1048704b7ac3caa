#pragma once
#include <optional>
#include <string>

#include "flows/outcome.hpp"

namespace loader::flows
{
struct ScheduleRequest
{
  bool install = true; ///< false: schedule remove
  std::optional<std::string> cron_database;
  std::string schedule{"* * * * *"};
  std::string run_as{"invoice_loader"};
  /// Before installing, have pg_cron run a probe job as run_as and refuse
  /// (78) when it cannot; false: --no-check.
  bool check = true;
};

/// `schedule install` / `schedule remove`: the pg_cron job named
/// "invoice-loader sweep <database>" that runs CALL ingest.sweep() in the
/// --dsn database, kept in the cron database (pg_cron runs SQL, not
/// programs: the load itself stays with cron/systemd, catch-up).  Unless
/// told not to, install first runs a probe job through pg_cron (at most
/// 75 s: pg_cron starts jobs at the minute's tick) and schedules nothing
/// when the probe's run fails or never starts.
Result schedule(std::string const &dsn, ScheduleRequest const &request);
} // namespace loader::flows
