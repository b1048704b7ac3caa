#pragma once
#include <string>
#include <vector>

namespace loader::db
{
/// One SQL file compiled into the binary (path relative to the repository).
struct SqlFile
{
  char const *path;
  char const *text;
};

/// migrations/*.sql in file-name order (append-only, checksummed).
std::vector<SqlFile> const &embedded_migrations();
/// sql/**/*.sql in path order (re-applied on every migrate).
std::vector<SqlFile> const &embedded_functions();
} // namespace loader::db
