#pragma once
#include <string>

#include <pqxx/connection>

#include "core/log.hpp"

namespace loader::db
{
struct MigrateResult
{
  int applied = 0;          ///< migrations applied by this run
  int already = 0;          ///< migrations found applied before
  int functions = 0;        ///< SQL function files re-applied
  std::string version;      ///< newest migration version now in force
};

/// Apply every embedded migration not yet applied, in order, recording
/// (version, name, sha256) first so a concurrent migrator fails cleanly,
/// then re-apply every SQL function file as invoice_owner; all in one
/// transaction under an advisory lock.  An applied migration whose text
/// changed since is refused (LoaderError config); nothing is applied then.
MigrateResult migrate(pqxx::connection_base &cx, Logger const &log);
} // namespace loader::db
