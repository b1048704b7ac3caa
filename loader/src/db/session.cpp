#include "db/session.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>

#include <libpq-events.h>
#include <libpq-fe.h>
#include <poll.h>
#include <sys/socket.h>

#include <pqxx/connectionpolicy>
#include <pqxx/except>

#include "core/errors.hpp"

namespace loader::db
{
using ms = std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;


namespace
{

/// Strip a trailing newline from libpq messages.
std::string tidy(std::string message)
{
  while (not message.empty() and
         (message.back() == '\n' or message.back() == ' '))
    message.pop_back();
  return message;
}

bool is_sqlstate_char(char c) noexcept
{
  return (c >= '0' and c <= '9') or (c >= 'A' and c <= 'Z');
}


/// An integer option value ("10"); nullopt when it is not a plain
/// non-negative integer.
std::optional<long> plain_int(char const *v)
{
  if (v == nullptr or *v == '\0') return std::nullopt;
  char *end = nullptr;
  long const n{std::strtol(v, &end, 10)};
  if (*end != '\0' or n < 0) return std::nullopt;
  return n;
}

/// The value of the option `keyword` as the connection resolved it (DSN,
/// service file, environment, libpq's default); empty when it has none.
std::string option_value(PGconn *conn, std::string_view keyword)
{
  std::string out;
  PQconninfoOption *opts{PQconninfo(conn)};
  for (auto *o = opts; o and o->keyword; ++o)
    if (keyword == o->keyword and o->val != nullptr) out = o->val;
  PQconninfoFree(opts);
  return out;
}

/// connect_timeout as libpq applies it (seconds, at least 2; 0 or unset:
/// none), read from the options the connection resolved.
std::optional<ms> connect_timeout_of(PGconn *conn)
{
  if (auto const n = plain_int(option_value(conn, "connect_timeout").c_str());
      n and *n > 0)
    return ms{std::max(*n, 2L) * 1000};
  return std::nullopt;
}

enum class Wait { done, failed, timed_out };

/// Wait until the socket is ready for what libpq asked, or the deadline.
Wait wait_socket(PGconn *conn, bool for_reading,
                 std::optional<Clock::time_point> deadline)
{
  for (;;)
  {
    int timeout_ms = -1;
    if (deadline)
    {
      auto const left = std::chrono::duration_cast<ms>(*deadline -
                                                       Clock::now());
      if (left <= ms{0}) return Wait::timed_out;
      timeout_ms = static_cast<int>(std::min<ms::rep>(left.count(), 60'000));
    }
    pollfd p{PQsocket(conn),
             static_cast<short>(for_reading ? POLLIN : POLLOUT), 0};
    if (p.fd < 0) return Wait::failed;
    int const n{::poll(&p, 1, timeout_ms)};
    if (n > 0) return Wait::done;
    if (n < 0 and errno != EINTR) return Wait::failed;
  }
}

[[noreturn]] void throw_connect_failure(PGconn *conn, bool usable,
                                        bool timed_out,
                                        bool failed_once_connected = false)
{
  ConnectFailure f;
  f.options_unusable = not usable;
  f.gss_encryption_impossible = failed_once_connected and
                                option_value(conn, "gssencmode") == "require";
  f.needs_password = PQconnectionNeedsPassword(conn) != 0;
  f.used_password = PQconnectionUsedPassword(conn) != 0;
  std::string const raw{PQerrorMessage(conn)};
  f.sqlstates = sqlstates_in(raw);
  std::string message{tidy(without_location_lines(raw))};
  PQfinish(conn);
  if (timed_out)
    message += (message.empty() ? "" : "; ") +
               std::string{"no answer within connect_timeout"};
  ErrorKind const kind{kind_of_connect_failure(f)};
  std::string state;
  for (auto const &s : f.sqlstates)
    if (state.empty() or s.rfind("28", 0) == 0) state = s;
  throw LoaderError{kind,
                    (usable ? "cannot connect to the database: "
                            : "cannot use the connection options: ") +
                      message,
                    state};
}

/// The session's statement_timeout in ms, read once at connect with the
/// connect deadline (the proxy or server may stall here too).
ms read_statement_timeout(PGconn *conn,
                          std::optional<Clock::time_point> deadline)
{
  if (PQsendQuery(conn,
                  "select (extract(epoch from pg_catalog.current_setting("
                  "'statement_timeout')::interval) * 1000)::bigint") != 1)
    throw LoaderError{ErrorKind::transient,
                      "cannot read statement_timeout: " +
                        tidy(PQerrorMessage(conn))};
  ms out{0};
  for (;;)
  {
    while (PQisBusy(conn))
    {
      if (wait_socket(conn, true, deadline) != Wait::done or
          PQconsumeInput(conn) != 1)
        throw LoaderError{ErrorKind::transient,
                          "no answer from the database after connecting"};
    }
    PGresult *r{PQgetResult(conn)};
    if (r == nullptr) break;
    if (PQresultStatus(r) == PGRES_TUPLES_OK and PQntuples(r) == 1)
      out = ms{std::strtoll(PQgetvalue(r, 0, 0), nullptr, 10)};
    else if (PQresultStatus(r) != PGRES_TUPLES_OK)
    {
      std::string const m{tidy(PQresultErrorMessage(r))};
      char const *st{PQresultErrorField(r, PG_DIAG_SQLSTATE)};
      std::string const state{st ? st : ""};
      PQclear(r);
      throw LoaderError{classify_sqlstate(state),
                        "cannot read statement_timeout: " + m, state};
    }
    PQclear(r);
  }
  return out;
}
} // namespace

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

std::vector<std::pair<std::string, std::string>>
connection_defaults(std::function<char const *(char const *)> const &getenv)
{
  // The DSN comes after these in PQconnectStartParams' arrays, so anything
  // it names wins.  The keepalive options have no environment variables.
  // A dead peer: no traffic for 30 s, then 3 probes 10 s apart (60 s);
  // data unacknowledged for 30 s ends the connection (tcp_user_timeout,
  // which Linux also applies to the connect handshake).
  std::vector<std::pair<std::string, std::string>> out{
    {"fallback_application_name", "invoice-loader"},
    {"keepalives", "1"},
    {"keepalives_idle", "30"},
    {"keepalives_interval", "10"},
    {"keepalives_count", "3"},
    {"tcp_user_timeout", "30000"},
  };
  char const *env{getenv("PGCONNECT_TIMEOUT")};
  if (env == nullptr or *env == '\0') out.emplace_back("connect_timeout", "10");
  return out;
}

std::unique_ptr<Connection> connect(std::string const &dsn)
{
  {
    // A DSN libpq cannot parse is configuration; say so before any
    // attempt.  (Options from a service file are checked by libpq below,
    // still before it contacts a server.)
    char *err = nullptr;
    PQconninfoOption *parsed{PQconninfoParse(dsn.c_str(), &err)};
    if (parsed == nullptr)
    {
      std::string const message{err ? tidy(err) : "out of memory"};
      PQfreemem(err);
      throw LoaderError{ErrorKind::config,
                        "the connection string is not valid: " + message};
    }
    PQconninfoFree(parsed);
  }

  auto const defaults{connection_defaults()};
  std::vector<char const *> keys, values;
  for (auto const &[k, v] : defaults)
  {
    keys.push_back(k.c_str());
    values.push_back(v.c_str());
  }
  if (not dsn.empty())
  {
    keys.push_back("dbname"); // expanded: a conninfo or URI
    values.push_back(dsn.c_str());
  }
  // After the DSN, so that it wins over the DSN, PGCLIENTENCODING and the
  // role's or database's setting: the loader sends the file's bytes as
  // they are (UTF-8, checked by the scanner), in COPY's texts included.
  keys.push_back("client_encoding");
  values.push_back("UTF8");
  keys.push_back(nullptr);
  values.push_back(nullptr);

  PGconn *conn{PQconnectStartParams(keys.data(), values.data(), 1)};
  if (conn == nullptr)
    throw LoaderError{ErrorKind::internal, "libpq: out of memory"};
  // Before the first byte from the server is read: the SQLSTATE then
  // appears in the message (see kind_of_connect_failure).
  PQsetErrorVerbosity(conn, PQERRORS_VERBOSE);
  if (PQstatus(conn) == CONNECTION_BAD)
  {
    // Options libpq cannot resolve (an unknown service, an unreadable
    // service file) or refuses (sslmode=bogus, hosts and ports that do not
    // pair up) and a server that failed at once (no socket, refused, DNS)
    // all leave the connection BAD before the first poll; only the message
    // says which.  PQpingParams says it by structure: PQPING_NO_ATTEMPT for
    // options it could not use, and then it contacts nothing; with usable
    // ones it tries once more what just failed at once.
    bool const usable{PQpingParams(keys.data(), values.data(), 1) !=
                      PQPING_NO_ATTEMPT};
    throw_connect_failure(conn, usable, false);
  }

  // The PQconnectPoll loop of PQconnectdb, with connect_timeout applied
  // per host as libpq does (the clock restarts when libpq moves on).  Not
  // PQconnectdb itself: the verbosity must be set before it reads.
  std::optional<ms> const per_host{connect_timeout_of(conn)};
  auto deadline_from_now = [&]() -> std::optional<Clock::time_point> {
    if (not per_host) return std::nullopt;
    return Clock::now() + *per_host;
  };
  std::optional<Clock::time_point> deadline{deadline_from_now()};
  std::string host{PQhost(conn) ? PQhost(conn) : ""};
  std::string port{PQport(conn) ? PQport(conn) : ""};
  PostgresPollingStatusType st{PGRES_POLLING_WRITING};
  // The state a failed poll started from: CONNECTION_MADE is a socket
  // connected and nothing sent yet (kind_of_connect_failure).
  ConnStatusType polled_from{PQstatus(conn)};
  while (st != PGRES_POLLING_OK)
  {
    if (st == PGRES_POLLING_FAILED)
      throw_connect_failure(conn, true, false,
                            polled_from == CONNECTION_MADE);
    Wait const w{wait_socket(conn, st == PGRES_POLLING_READING, deadline)};
    if (w == Wait::timed_out) throw_connect_failure(conn, true, true);
    polled_from = PQstatus(conn);
    st = PQconnectPoll(conn);
    std::string const h{PQhost(conn) ? PQhost(conn) : ""};
    std::string const p{PQport(conn) ? PQport(conn) : ""};
    if (h != host or p != port)
    {
      host = h;
      port = p;
      deadline = deadline_from_now();
    }
  }
  PQsetErrorVerbosity(conn, PQERRORS_DEFAULT);

  ms timeout{0};
  try
  {
    timeout = read_statement_timeout(conn, deadline_from_now());
  }
  catch (...)
  {
    PQfinish(conn);
    throw;
  }
  try
  {
    return std::make_unique<Connection>(conn, timeout);
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
