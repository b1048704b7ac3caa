#pragma once
#include <string>

namespace loader::cli
{
/// True when a conninfo string or URI carries a password, as libpq itself
/// parses it (PQconninfoParse), including a dbname value that is itself a
/// connection string.  A string libpq cannot parse counts as carrying one
/// when it names a password keyword or a URI user:password.
bool dsn_has_password(std::string const &dsn);
} // namespace loader::cli
