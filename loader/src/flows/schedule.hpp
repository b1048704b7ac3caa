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
};

/// `schedule install` / `schedule remove`: the pg_cron job named
/// "invoice-loader sweep <database>" that runs CALL ingest.sweep() in the
/// --dsn database, kept in the cron database (pg_cron runs SQL, not
/// programs: the load itself stays with cron/systemd, catch-up).
Result schedule(std::string const &dsn, ScheduleRequest const &request);
} // namespace loader::flows
