#include "flows/migrate.hpp"

#include "db/database.hpp"
#include "db/migrate.hpp"

namespace loader::flows
{
Result migrate(std::string const &dsn, Logger const &log)
{
  db::Database database{dsn};
  db::MigrateResult const r{db::migrate(database, log)};
  return {Outcome::done,
          "migrated: " + std::to_string(r.applied) +
            " migration(s) applied, " + std::to_string(r.already) +
            " already applied, " + std::to_string(r.functions) +
            " function file(s) installed; schema at " + r.version + "\n"};
}
} // namespace loader::flows
