#include "db/session.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>

#include <unistd.h>

#include <libpq-events.h>
#include <libpq-fe.h>
#include <poll.h>
#include <sys/socket.h>

#include <pqxx/connectionpolicy>
#include <pqxx/except>

#include "core/errors.hpp"
#include "core/secret_file.hpp"

namespace loader::db
{
using ms = std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

namespace
{
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

enum class Wait
{
  done,
  failed,
  timed_out
};

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
    throw LoaderError{ErrorKind::transient, "cannot read statement_timeout: " +
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

std::vector<std::pair<std::string, std::string>> connection_defaults(
  std::function<char const *(char const *)> const &getenv)
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
  if (env == nullptr or *env == '\0')
    out.emplace_back("connect_timeout", "10");
  return out;
}

namespace
{
/// The user's service file libpq reads for a named service (the DSN's
/// service= or PGSERVICE), when it exists: PGSERVICEFILE, else
/// ~/.pg_service.conf.  One that holds a password keeps the rule of every
/// file that holds secrets (core/secret_file.hpp), like --config; one of
/// hosts, ports and database names only may stay readable to others.
bool holds_password(std::string const &path)
{
  std::ifstream in{path};
  std::string line;
  while (std::getline(in, line))
  {
    auto const key = line.find_first_not_of(" \t");
    if (key != std::string::npos and line.compare(key, 8, "password") == 0)
    {
      auto const eq = line.find_first_not_of(" \t", key + 8);
      if (eq != std::string::npos and line[eq] == '=') return true;
    }
  }
  return false;
}

void check_service_file(bool names_service)
{
  char const *env_service{getenv("PGSERVICE")};
  if (not names_service and (env_service == nullptr or *env_service == '\0'))
    return;
  std::string path;
  if (char const *f{getenv("PGSERVICEFILE")}; f != nullptr and *f != '\0')
    path = f;
  else if (char const *home{getenv("HOME")}; home != nullptr and *home)
    path = std::string{home} + "/.pg_service.conf";
  if (path.empty() or ::access(path.c_str(), F_OK) != 0 or
      not holds_password(path))
    return;
  if (auto const refusal = secret_file_refusal("service file", path))
    throw LoaderError{ErrorKind::config, *refusal};
}

/// A DSN libpq cannot parse is configuration; say so before any attempt.
/// (Options from a service file are checked by libpq later, still before
/// it contacts a server.)
void check_conninfo(std::string const &dsn)
{
  char *err = nullptr;
  PQconninfoOption *parsed{PQconninfoParse(dsn.c_str(), &err)};
  if (parsed == nullptr)
  {
    std::string const message{err ? tidy(err) : "out of memory"};
    PQfreemem(err);
    throw LoaderError{ErrorKind::config,
                      "the connection string is not valid: " + message};
  }
  bool names_service = false;
  for (PQconninfoOption const *o = parsed; o->keyword != nullptr; ++o)
    if (std::string_view{o->keyword} == "service" and o->val != nullptr and
        *o->val != '\0')
      names_service = true;
  PQconninfoFree(parsed);
  check_service_file(names_service);
}

/// PQconnectStartParams' keywords and values: our defaults, the DSN,
/// client_encoding; null-terminated.
struct ConnectParams
{
  explicit ConnectParams(std::string const &dsn) :
          defaults{connection_defaults()}
  {
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
    // After the DSN, so that it wins over the DSN, PGCLIENTENCODING and
    // the role's or database's setting: the loader sends the file's bytes
    // as they are (UTF-8, checked by the scanner), in COPY's texts
    // included.
    keys.push_back("client_encoding");
    values.push_back("UTF8");
    keys.push_back(nullptr);
    values.push_back(nullptr);
  }
  std::vector<std::pair<std::string, std::string>> const defaults;
  std::vector<char const *> keys, values;
};

/// PQconnectStartParams, verbose errors from the start; a connection BAD
/// at once is thrown classified.
PGconn *start_connection(ConnectParams const &p)
{
  PGconn *conn{PQconnectStartParams(p.keys.data(), p.values.data(), 1)};
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
    bool const usable{PQpingParams(p.keys.data(), p.values.data(), 1) !=
                      PQPING_NO_ATTEMPT};
    throw_connect_failure(conn, usable, false);
  }
  return conn;
}

/// Now plus connect_timeout, if there is one.
std::optional<Clock::time_point> deadline_after(std::optional<ms> per_host)
{
  if (not per_host) return std::nullopt;
  return Clock::now() + *per_host;
}

/// The PQconnectPoll loop of PQconnectdb, with connect_timeout applied
/// per host as libpq does (the clock restarts when libpq moves on).  Not
/// PQconnectdb itself: the verbosity must be set before it reads.
void poll_until_connected(PGconn *conn, std::optional<ms> per_host)
{
  auto deadline_from_now = [&] { return deadline_after(per_host); };
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
      throw_connect_failure(conn, true, false, polled_from == CONNECTION_MADE);
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
}
} // namespace

std::unique_ptr<Connection> connect(std::string const &dsn)
{
  check_conninfo(dsn);
  ConnectParams const params{dsn};
  PGconn *conn{start_connection(params)};
  std::optional<ms> const per_host{connect_timeout_of(conn)};
  poll_until_connected(conn, per_host);
  PQsetErrorVerbosity(conn, PQERRORS_DEFAULT);

  ms timeout{0};
  try
  {
    timeout = read_statement_timeout(conn, deadline_after(per_host));
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

} // namespace loader::db
