#include "db/database.hpp"

#include <pqxx/connection>

#include "db/schema.hpp"
#include "db/session.hpp"

namespace loader::db
{
struct Database::Session
{
  std::unique_ptr<db::Connection> cx;
};

Database::Database(std::string dsn, bool check_schema) :
        m_dsn{std::move(dsn)}, m_check_schema{check_schema}
{}
Database::~Database() = default;

void Database::connect()
{
  if (m_session) return;
  auto session = std::make_unique<Session>();
  session->cx = db::connect(m_dsn);
  if (m_check_schema) check_schema(*session->cx);
  m_session = std::move(session);
}

void Database::disconnect() noexcept
{
  m_session.reset();
}

void Database::bound_statements(std::chrono::milliseconds remaining_budget)
{
  connect();
  Connection &c = *m_session->cx;
  set_statement_timeout(
    c, statement_timeout_for(remaining_budget, c.initial_statement_timeout()));
}

pqxx::connection_base &Database::cx()
{
  connect();
  return *m_session->cx;
}
} // namespace loader::db
