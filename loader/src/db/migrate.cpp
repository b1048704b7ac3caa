#include "db/migrate.hpp"

#include <cstring>
#include <limits>
#include <string_view>

#include <pqxx/pqxx>

#include "core/errors.hpp"
#include "db/embedded_sql.hpp"
#include "db/session.hpp"
#include "io/sha256.hpp"

namespace loader::db
{
namespace
{
constexpr char const bootstrap_sql[] = R"(
select pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('invoice-loader:migrate'));
create schema if not exists loader_meta;
create table if not exists loader_meta.schema_migration (
  version    integer primary key,
  name       text not null,
  sha256     text not null,
  applied_at timestamptz not null default now(),
  applied_by text not null default session_user
);
)";

std::string sha256_of(char const *text)
{
  io::Sha256 sha;
  sha.update(text, std::strlen(text));
  return sha.hex();
}

/// "migrations/0007_add_x.sql" -> {7, "0007_add_x.sql"}
std::pair<int, std::string> version_of(std::string_view path)
{
  auto const slash = path.rfind('/');
  std::string name{path.substr(slash == std::string_view::npos ? 0
                                                               : slash + 1)};
  if (name.size() < 6 or name.find_first_not_of("0123456789") != 4 or
      name[4] != '_')
    throw LoaderError{ErrorKind::internal,
                      "migration file name is not NNNN_slug.sql: " + name};
  return {std::stoi(name.substr(0, 4)), name};
}
} // namespace

MigrateResult migrate(Database &db, Logger const &log, int up_to)
{
  pqxx::connection_base &cx = db.cx();
  MigrateResult out;
  std::string current_file;
  try
  {
    pqxx::work tx{cx, "migrate"};
    tx.exec(bootstrap_sql);
    for (SqlFile const &file : embedded_migrations())
    {
      current_file = file.path;
      auto const [version, name] = version_of(file.path);
      if (version > up_to) break;
      std::string const sum{sha256_of(file.text)};
      pqxx::result const seen{tx.exec_params(
        "select sha256 from loader_meta.schema_migration where version = $1",
        version)};
      if (not seen.empty())
      {
        std::string const recorded{seen[0][0].c_str()};
        if (recorded != sum)
          throw LoaderError{
            ErrorKind::config,
            "migration " + name + " was edited after it was applied "
            "(recorded sha256 " + recorded + ", file " + sum +
            "); migrations are append-only: revert the edit and add a new "
            "migration instead"};
        ++out.already;
        out.version = name;
        continue;
      }
      // Recorded first: a concurrent migrator that got past the lock
      // somehow fails here with 23505 instead of applying twice.
      tx.exec_params("insert into loader_meta.schema_migration "
                     "(version, name, sha256) values ($1, $2, $3)",
                     version, name, sum);
      tx.exec(file.text);
      tx.exec("reset role");
      log.info("migration applied", {{"migration", name}});
      ++out.applied;
      out.version = name;
    }
    tx.exec("set local role invoice_owner");
    // Stopped early (a test hook): the functions may need later tables.
    for (SqlFile const &file : up_to < std::numeric_limits<int>::max()
                                 ? std::vector<SqlFile>{}
                                 : embedded_functions())
    {
      current_file = file.path;
      tx.exec(file.text);
      ++out.functions;
    }
    tx.exec("reset role");
    current_file.clear();
    tx.commit();
  }
  catch (...)
  {
    rethrow_classified(current_file.empty()
                         ? std::string{"migrate"}
                         : "migrate, applying " + current_file);
  }
  return out;
}
} // namespace loader::db

namespace loader::db
{
std::vector<MigrationState> migration_status(Database &db)
{
  std::vector<MigrationState> out;
  try
  {
    pqxx::read_transaction tx{db.cx(), "migrate status"};
    pqxx::result const applied{tx.exec(
      "select version, name, sha256, "
      "to_char(applied_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS') "
      "|| 'Z', applied_by "
      "from loader_meta.schema_migration order by version")};
    std::size_t next = 0;
    auto const &files = embedded_migrations();
    for (SqlFile const &file : files)
    {
      auto const [version, name] = version_of(file.path);
      MigrationState m{version, name, "pending", "", ""};
      for (auto const &row : applied)
        if (row[0].as<int>() == version)
        {
          m.state = row[2].as<std::string>() == sha256_of(file.text)
                      ? "applied"
                      : "edited since applied";
          m.applied_at = row[3].as<std::string>();
          m.applied_by = row[4].as<std::string>();
        }
      out.push_back(m);
      next = static_cast<std::size_t>(version);
    }
    for (auto const &row : applied)
      if (row[0].as<std::size_t>() > next)
        out.push_back({row[0].as<int>(), row[1].as<std::string>(),
                       "applied, unknown to this binary",
                       row[3].as<std::string>(), row[4].as<std::string>()});
  }
  catch (pqxx::sql_error const &e)
  {
    // Never migrated: loader_meta does not exist yet.
    if (std::string{e.sqlstate()} != "3F000" and
        std::string{e.sqlstate()} != "42P01")
      rethrow_classified("reading the applied migrations");
    out.clear();
    for (SqlFile const &file : embedded_migrations())
    {
      auto const [version, name] = version_of(file.path);
      out.push_back({version, name, "pending", "", ""});
    }
  }
  catch (...)
  {
    rethrow_classified("reading the applied migrations");
  }
  return out;
}
} // namespace loader::db
