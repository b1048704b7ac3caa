#pragma once
#include <chrono>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/errors.hpp"

#include <libpq-fe.h>
#include <pqxx/connection_base>
#include <pqxx/transaction>

namespace loader::db
{
namespace detail
{
class Watchdog;
class AdoptPolicy;
/// What a Connection holds besides libpqxx's state; a base of Connection
/// so that it exists before pqxx::connection_base, which keeps a
/// reference to the policy.
struct ConnectionParts
{
  explicit ConnectionParts(PGconn *adopted);
  ~ConnectionParts();
  ConnectionParts(ConnectionParts const &) = delete;
  ConnectionParts &operator=(ConnectionParts const &) = delete;
  std::unique_ptr<Watchdog> watchdog;
  std::unique_ptr<AdoptPolicy> policy;
};
} // namespace detail

/// A libpqxx connection over the PGconn that connect() opened itself.
/// libpqxx's own reconnection is refused: reconnecting is the retry
/// layer's, through connect().
class Connection final : private detail::ConnectionParts,
                         public pqxx::connection_base
{
public:
  /// Takes ownership of an open PGconn; initial_timeout: the session's
  /// statement_timeout as the server set it (0: none).
  Connection(PGconn *adopted, std::chrono::milliseconds initial_timeout);
  ~Connection() noexcept;

  /// See db::set_statement_timeout.
  void set_statement_timeout(std::chrono::milliseconds timeout);
  /// The statement_timeout the server gave the session when it connected
  /// (role, database, DSN options or PGOPTIONS); 0 when none.
  std::chrono::milliseconds initial_statement_timeout() const noexcept
  {
    return m_initial_timeout;
  }

private:
  void bound_replies(std::chrono::milliseconds statement_timeout);
  std::chrono::milliseconds m_initial_timeout;
};

/// Open a connection: exactly one connection attempt per call (libpq's own
/// multi-host walk included), so a wrong password is tried once, never
/// again: retrying a rejected password could lock the role out
/// (docs/guide/operate.md, connection failures).  dsn is a libpq
/// conninfo or URI (empty: the PG* environment, service file and .pgpass
/// decide).
///
/// Adds, unless the DSN or the environment sets them (connection_defaults):
/// fallback_application_name=invoice-loader, connect_timeout, TCP
/// keepalives and tcp_user_timeout, so that a dead peer on the network is
/// noticed; and client_encoding=UTF8 whatever the DSN or the environment
/// say (the loader's texts are the file's UTF-8 bytes).  The session then
/// bounds every wait for the server's reply by its statement_timeout
/// (role, database or DSN setting, or
/// set_statement_timeout) plus reply_grace: a peer that stops answering
/// (a stalled middlebox) costs at most that, then the connection is closed
/// and the call fails as a lost connection (transient, or in doubt during
/// COMMIT).  Never retries: the orchestrator does.  Throws LoaderError:
/// config (78) for a DSN libpq cannot parse or options it cannot resolve
/// (an unknown service) -- before any connection is attempted; permission
/// (77) for credentials; config for an unknown database; transient (75)
/// for a server that is down, starting, full or unreachable.
std::unique_ptr<Connection> connect(std::string const &dsn);

/// The extra time a session waits beyond its statement_timeout for the
/// server's reply (the cancel's error must still travel back).
inline constexpr std::chrono::milliseconds reply_grace{5'000};

/// Set statement_timeout for the session (server side) and the client-side
/// bound on waiting for a reply to timeout + reply_grace.  0 clears both
/// (no bound; a server default configured for the role comes back only
/// with a new session).  Call it between transactions, at the start of a
/// step: e.g. set_statement_timeout(cx, statement_timeout_for(
/// retry.remaining(), cx.initial_statement_timeout())).
void set_statement_timeout(Connection &cx, std::chrono::milliseconds timeout);

/// A step's statement_timeout: what is left of the retry budget, or the
/// server's own setting when that is shorter (0: none configured), at
/// least one second.
std::chrono::milliseconds statement_timeout_for(
  std::chrono::milliseconds remaining_budget,
  std::chrono::milliseconds configured) noexcept;

// --- The pure parts, for tests ----------------------------------------

/// What a failed connection attempt showed, read from libpq's structure.
struct ConnectFailure
{
  /// libpq could not resolve the options (unknown service, unreadable
  /// service file) or does not accept them (a value it does not know, such
  /// as sslmode=bogus; hosts and ports that do not pair up): no server was
  /// contacted.
  bool options_unusable = false;
  /// The server asked for a password and none was available.
  bool needs_password = false;
  /// The server asked for a password (and libpq sent one if it had one).
  bool used_password = false;
  /// SQLSTATEs of the servers' ErrorResponses, one per host tried.
  std::vector<std::string> sqlstates;
  /// gssencmode=require, and libpq gave up on a host right after its
  /// socket connected, before sending anything (the poll that failed
  /// started at CONNECTION_MADE): where libpq 15 checks that GSS
  /// encryption is possible at all, i.e. a Kerberos ticket in the
  /// credential cache and a TCP connection.
  bool gss_encryption_impossible = false;
};

/// Credentials (a 28xxx SQLSTATE, or a password asked for and missing)
/// -> permission; options libpq cannot resolve or does not accept, an
/// unknown database (3D000) or GSS encryption required where it is
/// impossible -> config; other server SQLSTATEs as classify_sqlstate
/// (57P03 starting up, 53300 too many connections: transient; 42501 no
/// CONNECT privilege: permission); no SQLSTATE (refused, no socket, DNS,
/// timeout, a standby where read-write was asked for) -> transient.
ErrorKind kind_of_connect_failure(ConnectFailure const &f) noexcept;

/// A libpq message without its trailing newline and spaces.
std::string tidy(std::string message);

/// The SQLSTATEs in a libpq error message built at PQERRORS_VERBOSE:
/// every "<severity>:  <SQLSTATE>: " (libpq's own, untranslated layout;
/// the severity word may be translated).
std::vector<std::string> sqlstates_in(std::string_view message);

/// libpq's message without its LOCATION lines (server source positions).
std::string without_location_lines(std::string_view message);

/// The keyword=value pairs the loader puts before the user's DSN (so the
/// DSN overrides each): keepalives, tcp_user_timeout, connect_timeout
/// (unless PGCONNECT_TIMEOUT is set: the environment then decides) and
/// fallback_application_name.  getenv is for tests.
std::vector<std::pair<std::string, std::string>> connection_defaults(
  std::function<char const *(char const *)> const &getenv =
    [](char const *name) { return std::getenv(name); });

/// Rethrow the exception being handled as a LoaderError, classified
/// (core/errors.hpp).  Call only inside catch (...).  context says what
/// was being done ("staging batch 7").
[[noreturn]] void rethrow_classified(std::string const &context);
} // namespace loader::db
