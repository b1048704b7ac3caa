#pragma once
#include <limits>
#include <string>
#include <vector>

#include "core/log.hpp"
#include "db/database.hpp"

namespace loader::db
{
struct MigrateResult
{
  int applied = 0;          ///< migrations applied by this run
  int already = 0;          ///< migrations found applied before
  int functions = 0;        ///< SQL function files re-applied
  std::string version;      ///< newest migration version now in force
};

/// Apply every embedded migration not yet applied, in order, recording
/// (version, name, sha256) first so a concurrent migrator fails cleanly,
/// then re-apply every SQL function file as invoice_owner; all in one
/// transaction under an advisory lock.  An applied migration whose text
/// changed since is refused (LoaderError config); nothing is applied then.
/// up_to stops after that migration version (a test hook: see
/// flows/migrate.cpp); the functions are then not re-applied.
MigrateResult migrate(Database &db, Logger const &log,
                      int up_to = std::numeric_limits<int>::max());

/// One line of `migrate --status`.
struct MigrationState
{
  int version = 0;
  std::string name;
  std::string state; ///< applied, pending, edited since applied, ...
  std::string applied_at;
  std::string applied_by;
};

/// Every migration the binary carries, applied or pending, then any the
/// database has that the binary does not know (a newer binary's).
std::vector<MigrationState> migration_status(Database &db);
} // namespace loader::db
