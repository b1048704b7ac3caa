#include "db/session.hpp"

#include <cstdlib>
#include <exception>
#include <string_view>

#include <pqxx/except>

#include "core/errors.hpp"

namespace loader::db
{
namespace
{
bool contains(std::string_view haystack, std::string_view needle) noexcept
{
  return haystack.find(needle) != std::string_view::npos;
}

/// Strip a trailing newline from libpq messages.
std::string tidy(std::string message)
{
  while (not message.empty() and
         (message.back() == '\n' or message.back() == ' '))
    message.pop_back();
  return message;
}
} // namespace

// libpq reports a failed connection without a SQLSTATE (there is no
// result to carry one), so this is the one place that reads libpq's own
// English wording.  Anything not recognised counts as the server being
// unreachable for now.
ErrorKind kind_of_connect_failure(std::string_view message) noexcept
{
  if (contains(message, "authentication failed") or
      (contains(message, "role \"") and contains(message, "does not exist")) or
      contains(message, "no password supplied") or
      contains(message, "password authentication") or
      contains(message, "no pg_hba.conf entry") or
      contains(message, "permission denied"))
    return ErrorKind::permission;
  if (contains(message, "does not exist") or
      contains(message, "invalid connection option") or
      contains(message, "missing \"=\"") or
      contains(message, "invalid URI"))
    return ErrorKind::config;
  return ErrorKind::transient;
}

std::unique_ptr<pqxx::connection> connect(std::string const &dsn)
{
  // application_name via the environment keeps the DSN untouched; an
  // explicit application_name in the DSN wins over it.
  ::setenv("PGAPPNAME", "invoice-loader", 0);
  try
  {
    return std::make_unique<pqxx::connection>(dsn);
  }
  catch (pqxx::broken_connection const &e)
  {
    std::string const message{tidy(e.what())};
    throw LoaderError{kind_of_connect_failure(message),
                      "cannot connect to the database: " + message};
  }
  catch (...)
  {
    rethrow_classified("connecting to the database");
  }
}

void rethrow_classified(std::string const &context)
{
  std::string const prefix{context.empty() ? "" : context + ": "};
  try
  {
    throw;
  }
  catch (LoaderError const &)
  {
    throw;
  }
  catch (pqxx::in_doubt_error const &e)
  {
    throw LoaderError{ErrorKind::in_doubt, prefix + tidy(e.what()), "08007"};
  }
  catch (pqxx::statement_completion_unknown const &e)
  {
    throw LoaderError{ErrorKind::in_doubt, prefix + tidy(e.what()), "40003"};
  }
  catch (pqxx::serialization_failure const &e)
  {
    // libpqxx 6.4 drops the SQLSTATE of the 40xxx family; the type says it.
    throw LoaderError{ErrorKind::transient, prefix + tidy(e.what()), "40001"};
  }
  catch (pqxx::deadlock_detected const &e)
  {
    throw LoaderError{ErrorKind::transient, prefix + tidy(e.what()), "40P01"};
  }
  catch (pqxx::transaction_rollback const &e)
  {
    throw LoaderError{ErrorKind::transient, prefix + tidy(e.what()), "40000"};
  }
  catch (pqxx::too_many_connections const &e)
  {
    throw LoaderError{ErrorKind::transient, prefix + tidy(e.what()), "53300"};
  }
  catch (pqxx::broken_connection const &e)
  {
    throw LoaderError{ErrorKind::transient, prefix + tidy(e.what())};
  }
  catch (pqxx::insufficient_privilege const &e)
  {
    // libpqxx 6.4 constructs this one without its SQLSTATE.
    throw LoaderError{ErrorKind::permission, prefix + tidy(e.what()),
                      "42501"};
  }
  catch (pqxx::sql_error const &e)
  {
    std::string const state{e.sqlstate()};
    throw LoaderError{classify_sqlstate(state), prefix + tidy(e.what()),
                      state};
  }
  catch (pqxx::failure const &e)
  {
    throw LoaderError{ErrorKind::internal, prefix + tidy(e.what())};
  }
  catch (std::exception const &e)
  {
    throw LoaderError{ErrorKind::internal, prefix + e.what()};
  }
}
} // namespace loader::db
