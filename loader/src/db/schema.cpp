#include "db/schema.hpp"

#include <pqxx/pqxx>

#include "core/errors.hpp"
#include "db/embedded_sql.hpp"
#include "db/session.hpp"

namespace loader::db
{
namespace
{
/// "migrations/0013_slug.sql" -> {13, "0013_slug"}.
SchemaVersion version_of(std::string path)
{
  path = path.substr(path.rfind('/') + 1);
  path = path.substr(0, path.rfind(".sql"));
  return {std::stoi(path.substr(0, 4)), path};
}

[[noreturn]] void run_migrate(std::string const &why)
{
  SchemaVersion const want{binary_schema()};
  throw LoaderError{ErrorKind::config,
                    why + "; this binary expects schema " + want.name +
                      ": run `invoice-loader migrate` (as the database's "
                      "owner) first"};
}
/// The role could not read loader_meta.schema_migration.  When the table
/// is there and the role is in neither group granted it, the role lacks
/// the privilege (77; main names the role the command needs); otherwise
/// the database predates the grant and is not migrated (78).
[[noreturn]] void refuse_unreadable_version(pqxx::connection_base &cx)
{
  bool exists = false, granted = false;
  std::string role;
  try
  {
    // The catalogs are readable by every role.
    pqxx::read_transaction tx{cx, "schema check privilege"};
    pqxx::row const r{tx.exec1(
      "select exists (select from pg_catalog.pg_class as c"
      "  join pg_catalog.pg_namespace as n on n.oid = c.relnamespace"
      "  where n.nspname = 'loader_meta' and c.relname = 'schema_migration'),"
      " exists (select from pg_catalog.pg_roles as g"
      "  where g.rolname in ('invoice_loader', 'invoice_operator')"
      "  and pg_catalog.pg_has_role(current_user, g.oid, 'USAGE')),"
      " current_user")};
    exists = r[0].as<bool>();
    granted = r[1].as<bool>();
    role = r[2].as<std::string>();
  }
  catch (...)
  {
    rethrow_classified("checking the schema version");
  }
  if (exists and not granted)
    throw LoaderError{ErrorKind::permission,
                      "permission denied: role " + role +
                        " may not read the database's schema version "
                        "(loader_meta.schema_migration)",
                      "42501"};
  run_migrate("the database is not migrated for this binary");
}
} // namespace

SchemaVersion binary_schema()
{
  auto const &files = embedded_migrations();
  if (files.empty()) return {};
  return version_of(files.back().path);
}

void check_schema(pqxx::connection_base &cx)
{
  SchemaVersion applied;
  try
  {
    pqxx::read_transaction tx{cx, "schema check"};
    pqxx::result const r{
      tx.exec("select version, name from loader_meta.schema_migration "
              "order by version desc limit 1")};
    if (r.empty()) run_migrate("the database has no migration applied");
    applied = {r[0][0].as<int>(), r[0][1].as<std::string>()};
  }
  catch (pqxx::insufficient_privilege const &)
  {
    // (libpqxx 6.4 builds this one without its SQLSTATE.)
    refuse_unreadable_version(cx);
  }
  catch (pqxx::sql_error const &e)
  {
    std::string const state{e.sqlstate()};
    if (state == "42501") refuse_unreadable_version(cx);
    // No loader_meta at all: never migrated.
    if (state == "3F000" or state == "42P01")
      run_migrate("the database is not migrated for this binary");
    rethrow_classified("checking the schema version");
  }
  catch (LoaderError const &)
  {
    throw;
  }
  catch (...)
  {
    rethrow_classified("checking the schema version");
  }
  SchemaVersion const want{binary_schema()};
  auto const stem = [](std::string const &name) {
    return name.substr(0, name.rfind(".sql"));
  };
  if (applied.number < want.number)
    run_migrate("the database's schema " + stem(applied.name) +
                " is older than this binary's");
  if (applied.number > want.number)
    throw LoaderError{ErrorKind::config,
                      "the database's schema " + stem(applied.name) +
                        " is newer than this binary's " + want.name +
                        ": use the invoice-loader that migrated it (or a "
                        "newer one)"};
}
} // namespace loader::db
