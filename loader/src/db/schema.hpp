#pragma once
#include <string>

namespace pqxx
{
class connection_base;
} // namespace pqxx

namespace loader::db
{
/// The newest migration compiled into the binary: {13, "0013_slug"}.
struct SchemaVersion
{
  int number = 0;
  std::string name;
};
SchemaVersion binary_schema();

/// The schema check every command but `migrate` makes on connecting:
/// LoaderError{config} "run `invoice-loader migrate`" when the database is
/// unmigrated or older than the binary, and one naming both versions when
/// it is newer (a newer binary migrated it; this one would misread it).
void check_schema(pqxx::connection_base &cx);
} // namespace loader::db
