#include <libpq-fe.h>

#include "cli/command.hpp"
#include "core/version.hpp"
#include "db/embedded_sql.hpp"

namespace loader::cli
{
namespace
{
/// 150002 -> "15.2" (PQlibVersion's encoding since PostgreSQL 10).
std::string libpq_version()
{
  int const v = PQlibVersion();
  return std::to_string(v / 10000) + "." + std::to_string(v % 10000);
}

/// "migrations/0009_key_history.sql" -> "0009_key_history".
std::string newest_migration()
{
  auto const &files = db::embedded_migrations();
  if (files.empty()) return "none";
  std::string path{files.back().path};
  path = path.substr(path.rfind('/') + 1);
  return path.substr(0, path.rfind(".sql"));
}
} // namespace

std::string version_text()
{
  return std::string{"invoice-loader "} + version + "\n" +
         "commit " + git_commit + "\n" + "libpq " + libpq_version() + "\n" +
         "schema " + newest_migration() + "\n";
}
} // namespace loader::cli
