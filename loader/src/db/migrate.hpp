#pragma once
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "core/log.hpp"
#include "db/database.hpp"

namespace loader::db
{
struct MigrateResult
{
  int applied = 0;     ///< migrations applied by this run
  int already = 0;     ///< migrations found applied before
  int functions = 0;   ///< SQL function files re-applied
  std::string version; ///< newest migration version now in force
};

/// Apply every embedded migration not yet applied, in order, recording
/// (version, name, sha256) first so a concurrent migrator fails cleanly,
/// then re-apply every SQL function file as invoice_owner; all in one
/// transaction under an advisory lock.  An applied migration whose
/// statements changed since is refused (LoaderError config); nothing is
/// applied then.
/// up_to stops after that migration version (a test hook: see
/// flows/migrate.cpp); the functions are then not re-applied.
MigrateResult migrate(Database &db, Logger const &log,
                      int up_to = std::numeric_limits<int>::max());

/// The statements of a migration file, which its recorded checksum
/// covers: the text with every whole-line comment (a line whose first
/// characters other than space, tab and CR are "--") and every blank line
/// (nothing but those three) removed, each remaining line kept byte for
/// byte and ended by one "\n".  Editing a comment on a line of its own,
/// or blank lines, changes nothing; editing anything else does, including
/// a comment after a statement on its line.  (A line inside a string or a
/// dollar-quoted body that starts with "--" counts as a comment too.)
std::string migration_statements(std::string_view text);

/// sha256 (hex) of migration_statements(text): what migrate records in
/// loader_meta.schema_migration and compares.  Releases before this one
/// recorded the sha256 of the whole file; migrate accepts such a sum when
/// it is the whole file's as it is now, or one listed for a migration
/// whose comments were edited since with its statements' sum as they are
/// now (migrate.cpp, legacy_sums), and records the statements' sum
/// instead, in the same transaction.
std::string migration_sha256(std::string_view text);

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
