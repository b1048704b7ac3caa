#pragma once
#include <string>

#include "core/log.hpp"
#include "flows/outcome.hpp"

namespace loader::flows
{
struct MigrateRequest
{
  bool status = false; ///< --status: list applied and pending, change nothing
};

/// `migrate`: apply the migrations and SQL functions (db/migrate.hpp), or
/// with --status list them.  The environment variable
/// INVOICE_LOADER_TEST_MIGRATE_TO=N (a test hook, for the schema-check
/// tests) stops after migration N.
Result migrate(std::string const &dsn, MigrateRequest const &request,
               Logger const &log);
} // namespace loader::flows
