#pragma once
#include <chrono>
#include <memory>
#include <string>

namespace pqxx
{
class connection_base;
} // namespace pqxx

namespace loader::db
{
/// One database session, opened on first use and dropped on demand (the
/// retry layer drops it after a failure).  Keeps libpqxx inside db/: the
/// flows hold a Database and call db/ functions with it.  Connecting also
/// checks the schema version (all commands but migrate).
class Database
{
public:
  /// check_schema: on connecting, refuse a database whose schema is not
  /// the binary's (db/schema.hpp); only `migrate` connects without.
  explicit Database(std::string dsn, bool check_schema = true);
  ~Database();
  Database(Database const &) = delete;
  Database &operator=(Database const &) = delete;

  bool connected() const noexcept { return m_session != nullptr; }
  void connect();
  /// Drop the session (and with it every session lock it held).
  void disconnect() noexcept;
  /// The session, connecting first when there is none.
  pqxx::connection_base &cx();
  /// The next statements' statement_timeout: what is left of the retry
  /// budget, or the server's own setting when shorter (db/session.hpp).
  void bound_statements(std::chrono::milliseconds remaining_budget);

private:
  std::string m_dsn;
  bool m_check_schema;
  struct Session;
  std::unique_ptr<Session> m_session;
};
} // namespace loader::db
