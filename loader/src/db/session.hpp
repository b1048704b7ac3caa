#pragma once
#include <memory>
#include <string>
#include <string_view>

#include "core/errors.hpp"

#include <pqxx/connection>
#include <pqxx/transaction>

namespace loader::db
{
/// Open a connection.  dsn is a libpq conninfo (empty: the PG* environment,
/// service file and .pgpass decide).  Sets application_name=invoice-loader
/// unless the DSN names one.  Never retries: the orchestrator does.
/// Throws LoaderError (transient, permission or config) when it fails.
std::unique_ptr<pqxx::connection> connect(std::string const &dsn);

/// Classify a failed connection from libpq's message: libpq gives no
/// SQLSTATE for it.  Credentials -> permission, a missing database or a
/// malformed DSN -> config, anything else (server down) -> transient.
ErrorKind kind_of_connect_failure(std::string_view message) noexcept;

/// Rethrow the exception being handled as a LoaderError, classified
/// (core/errors.hpp).  Call only inside catch (...).  context says what
/// was being done ("staging batch 7").
[[noreturn]] void rethrow_classified(std::string const &context);
} // namespace loader::db
