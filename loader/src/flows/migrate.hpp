#pragma once
#include <string>

#include "core/log.hpp"
#include "flows/outcome.hpp"

namespace loader::flows
{
/// `migrate`: apply the migrations and SQL functions (db/migrate.hpp).
Result migrate(std::string const &dsn, Logger const &log);
} // namespace loader::flows
