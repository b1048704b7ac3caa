// Classifying the database's failures: a failed connection attempt by
// the SQLSTATEs libpq wrote into its message, and any libpqxx exception
// by its type and SQLSTATE (db/session.hpp declares them).
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include <pqxx/except>

#include "core/errors.hpp"
#include "db/session.hpp"

namespace loader::db
{
namespace
{
bool is_sqlstate_char(char c) noexcept
{
  return (c >= '0' and c <= '9') or (c >= 'A' and c <= 'Z');
}
} // namespace

/// Strip a trailing newline from libpq messages.
std::string tidy(std::string message)
{
  while (not message.empty() and
         (message.back() == '\n' or message.back() == ' '))
    message.pop_back();
  return message;
}

std::vector<std::string> sqlstates_in(std::string_view message)
{
  // PQERRORS_VERBOSE lays a server error out as "%s:  %s: %s" (severity,
  // SQLSTATE, text): fe-protocol3.c pqBuildErrorMessage3, not translated.
  std::vector<std::string> out;
  for (std::size_t at = message.find(":  "); at != std::string_view::npos;
       at = message.find(":  ", at + 1))
  {
    std::size_t const code{at + 3};
    if (code + 6 > message.size()) break;
    bool ok = message[code + 5] == ':';
    for (std::size_t i = 0; ok and i < 5; ++i)
      ok = is_sqlstate_char(message[code + i]);
    if (ok) out.emplace_back(message.substr(code, 5));
  }
  return out;
}

std::string without_location_lines(std::string_view message)
{
  std::string out;
  std::size_t from = 0;
  while (from < message.size())
  {
    std::size_t end{message.find('\n', from)};
    if (end == std::string_view::npos) end = message.size();
    std::string_view const line{message.substr(from, end - from)};
    if (line.rfind("LOCATION:  ", 0) != 0)
    {
      out.append(line);
      if (end < message.size()) out.push_back('\n');
    }
    from = end + 1;
  }
  return out;
}

ErrorKind kind_of_connect_failure(ConnectFailure const &f) noexcept
{
  // libpq 15 exposes no SQLSTATE for a failed startup (the error result
  // stays inside the PGconn; PQgetResult returns nothing), but at
  // PQERRORS_VERBOSE it writes each server's SQLSTATE into the message in
  // a fixed layout.  Credentials win over everything: a wrong password on
  // any host must end the run, never be tried again (lockout policies).
  if (f.options_unusable) return ErrorKind::config;
  for (auto const &s : f.sqlstates)
    if (s.rfind("28", 0) == 0) return ErrorKind::permission;
  if (f.needs_password) return ErrorKind::permission;
  for (auto const &s : f.sqlstates)
    if (s == "3D000") return ErrorKind::config;
  // GSS encryption required where libpq cannot have it (no Kerberos
  // ticket, or a Unix socket): it gives up before sending a byte, with no
  // SQLSTATE, and no wait makes a ticket appear.
  if (f.gss_encryption_impossible) return ErrorKind::config;
  if (not f.sqlstates.empty())
  {
    ErrorKind const k{classify_sqlstate(f.sqlstates.back())};
    // A server refusing a session for a reason we have no rule for is
    // the server's state (e.g. 55000, connections not allowed), not a bug
    // of ours: worth trying again later.
    return k == ErrorKind::internal ? ErrorKind::transient : k;
  }
  // No server answer with a SQLSTATE: refused, no socket, DNS, a timeout,
  // a standby where read-write was asked for, or a connection closed
  // during authentication.  The server or the network is not there now.
  return ErrorKind::transient;
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
    throw LoaderError{ErrorKind::permission, prefix + tidy(e.what()), "42501"};
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
