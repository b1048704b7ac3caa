#include <libpq-fe.h>

#include "cli/command.hpp"
#include "core/version.hpp"
#include "db/schema.hpp"

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

} // namespace

std::string version_text()
{
  return std::string{"invoice-loader "} + version + "\n" + "commit " +
         git_commit + "\n" + "libpq " + libpq_version() + "\n" + "schema " +
         db::binary_schema().name + "\n";
}
} // namespace loader::cli
