#include "flows/migrate.hpp"

#include <cstdlib>
#include <limits>

#include "core/errors.hpp"
#include "db/database.hpp"
#include "db/migrate.hpp"

namespace loader::flows
{
namespace
{
int test_hook_up_to()
{
  char const *v = std::getenv("INVOICE_LOADER_TEST_MIGRATE_TO");
  if (v == nullptr or *v == '\0') return std::numeric_limits<int>::max();
  try
  {
    return std::stoi(v);
  }
  catch (std::exception const &)
  {
    throw LoaderError{ErrorKind::config,
                      "INVOICE_LOADER_TEST_MIGRATE_TO is not a number"};
  }
}

std::string status_table(std::vector<db::MigrationState> const &rows)
{
  std::string out;
  int pending = 0;
  for (auto const &m : rows)
  {
    std::string name{m.name.substr(0, m.name.rfind(".sql"))};
    name.resize(std::max<std::size_t>(name.size() + 2, 50), ' ');
    out += name + m.state;
    if (not m.applied_at.empty())
      out += " at " + m.applied_at + " by " + m.applied_by;
    out += "\n";
    if (m.state == "pending") ++pending;
  }
  out += std::to_string(pending) + " pending\n";
  return out;
}
} // namespace

Result migrate(std::string const &dsn, MigrateRequest const &request,
               Logger const &log)
{
  db::Database database{dsn, false};
  if (request.status)
    return {Outcome::done, status_table(db::migration_status(database))};
  db::MigrateResult const r{db::migrate(database, log, test_hook_up_to())};
  return {Outcome::done,
          "migrated: " + std::to_string(r.applied) +
            " migration(s) applied, " + std::to_string(r.already) +
            " already applied, " + std::to_string(r.functions) +
            " function file(s) installed; schema at " + r.version + "\n"};
}
} // namespace loader::flows
