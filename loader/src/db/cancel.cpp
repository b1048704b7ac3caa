#include "db/cancel.hpp"

#include <libpq-fe.h>

#include "core/interrupt.hpp"
#include "db/raw_connection.hpp"

namespace loader::db
{
namespace
{
void cancel(void *arg) noexcept
{
  char message[256];
  PQcancel(static_cast<PGcancel *>(arg), message, sizeof message);
}
} // namespace

CancelOnSignal::CancelOnSignal(pqxx::dbtransaction &tx) :
        m_cancel{PQgetCancel(RawConnection::of(tx))}
{
  if (m_cancel != nullptr) set_canceller(cancel, m_cancel);
}

CancelOnSignal::~CancelOnSignal()
{
  set_canceller(nullptr, nullptr);
  if (m_cancel != nullptr) PQfreeCancel(static_cast<PGcancel *>(m_cancel));
}
} // namespace loader::db
