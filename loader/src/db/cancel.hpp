#pragma once

namespace pqxx
{
class dbtransaction;
} // namespace pqxx

namespace loader::db
{
/// While it lives, a SIGTERM/SIGINT cancels the query running on this
/// transaction's session (PQcancel from the signal handler; see
/// core/interrupt.hpp).
class CancelOnSignal
{
public:
  explicit CancelOnSignal(pqxx::dbtransaction &tx);
  ~CancelOnSignal();
  CancelOnSignal(CancelOnSignal const &) = delete;
  CancelOnSignal &operator=(CancelOnSignal const &) = delete;

private:
  void *m_cancel; ///< PGcancel
};
} // namespace loader::db
