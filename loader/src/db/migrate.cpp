#include "db/migrate.hpp"

#include <cstring>
#include <string_view>

#include <pqxx/transaction>

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

MigrateResult migrate(pqxx::connection_base &cx, Logger const &log)
{
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
    for (SqlFile const &file : embedded_functions())
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
