#include "db/database.hpp"

#include <pqxx/connection>

#include "db/session.hpp"

namespace loader::db
{
struct Database::Session
{
  std::unique_ptr<pqxx::connection> cx;
};

Database::Database(std::string dsn) : m_dsn{std::move(dsn)} {}
Database::~Database() = default;

void Database::connect()
{
  if (m_session) return;
  auto session = std::make_unique<Session>();
  session->cx = db::connect(m_dsn);
  m_session = std::move(session);
}

void Database::disconnect() noexcept
{
  m_session.reset();
}

pqxx::connection_base &Database::cx()
{
  connect();
  return *m_session->cx;
}
} // namespace loader::db
