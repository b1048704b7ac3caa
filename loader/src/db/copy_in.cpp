#include "db/copy_in.hpp"

#include <cstdlib>

#include "core/errors.hpp"
#include "core/failpoint.hpp"
#include "db/raw_connection.hpp"

namespace loader::db
{
namespace
{
constexpr std::size_t chunk_bytes = 256 * 1024;

PGconn *pg(void *p)
{
  return static_cast<PGconn *>(p);
}

std::string error_of(PGconn *conn)
{
  std::string message{PQerrorMessage(conn)};
  while (not message.empty() and message.back() == '\n') message.pop_back();
  return message;
}
} // namespace

CopyIn::CopyIn(pqxx::dbtransaction &tx, std::string const &copy_sql) :
        m_conn{RawConnection::of(tx)}
{
  tx.exec0(copy_sql);
  if (PQisBusy(pg(m_conn)) != 0 or
      PQtransactionStatus(pg(m_conn)) == PQTRANS_UNKNOWN)
    throw LoaderError{ErrorKind::transient,
                      "COPY did not start: " + error_of(pg(m_conn))};
  m_buffer.reserve(chunk_bytes + 64 * 1024);
}

CopyIn::~CopyIn() noexcept
{
  if (m_open) abort("the loader stopped the COPY");
}

void CopyIn::write(char const *data, std::size_t size)
{
  if (m_buffer.empty() and size >= chunk_bytes)
    send(data, size); // a caller's whole chunk: no copy into the buffer
  else
    m_buffer.append(data, size);
  if (m_buffer.size() >= chunk_bytes) flush();
  if (failpoint_armed("mid_copy") and m_sent + m_buffer.size() > 0)
  {
    // Part of the data reaches the server, then the loader dies.
    flush();
    PQflush(pg(m_conn));
    failpoint("mid_copy");
  }
}

void CopyIn::send(char const *data, std::size_t size)
{
  if (PQputCopyData(pg(m_conn), data, static_cast<int>(size)) != 1)
    throw LoaderError{ErrorKind::transient,
                      "COPY data could not be sent: " + error_of(pg(m_conn))};
  m_sent += size;
}

void CopyIn::flush()
{
  if (m_buffer.empty()) return;
  send(m_buffer.data(), m_buffer.size());
  m_buffer.clear();
}

std::uint64_t CopyIn::finish()
{
  flush();
  m_open = false;
  if (PQputCopyEnd(pg(m_conn), nullptr) != 1)
    throw LoaderError{ErrorKind::transient,
                      "COPY could not be ended: " + error_of(pg(m_conn))};
  std::string state, message;
  bool failed = false;
  std::uint64_t stored = 0;
  while (PGresult *res = PQgetResult(pg(m_conn)))
  {
    if (PQresultStatus(res) == PGRES_COMMAND_OK)
      stored = std::strtoull(PQcmdTuples(res), nullptr, 10);
    else if (not failed)
    {
      failed = true;
      char const *s = PQresultErrorField(res, PG_DIAG_SQLSTATE);
      state = s ? s : "";
      message = PQresultErrorMessage(res);
    }
    PQclear(res);
  }
  if (failed)
  {
    while (not message.empty() and message.back() == '\n') message.pop_back();
    ErrorKind kind = state.empty() ? ErrorKind::transient
                                   : classify_sqlstate(state);
    throw LoaderError{kind, "COPY failed: " + message, state};
  }
  return stored;
}

void CopyIn::abort(std::string const &why) noexcept
{
  if (not m_open) return;
  m_open = false;
  if (PQputCopyEnd(pg(m_conn), why.c_str()) == 1)
    while (PGresult *res = PQgetResult(pg(m_conn))) PQclear(res);
}
} // namespace loader::db
