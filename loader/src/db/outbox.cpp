#include "db/outbox.hpp"

#include <pqxx/pqxx>

#include "db/session.hpp"

namespace loader::db
{
std::string_view name_of(DeliveryOutcome o) noexcept
{
  switch (o)
  {
  case DeliveryOutcome::dispatched: return "dispatched";
  case DeliveryOutcome::pending: return "pending";
  case DeliveryOutcome::failed: return "failed";
  case DeliveryOutcome::in_doubt: return "in_doubt";
  }
  return "unknown";
}

std::vector<Notification> claim_notifications(Database &db, int limit,
                                              std::string const &claimer)
{
  try
  {
    pqxx::work tx{db.cx()};
    pqxx::result const rows{tx.exec_params(
      "select notification_id, kind, dedupe_key, tries, payload::text "
      "from ingest.claim_notifications($1, $2)",
      limit, claimer)};
    tx.commit();
    std::vector<Notification> out;
    out.reserve(rows.size());
    for (pqxx::row const &r : rows)
      out.push_back({r[0].as<std::int64_t>(), r[1].as<std::string>(),
                     r[2].as<std::string>(), r[3].as<int>(),
                     r[4].as<std::string>()});
    return out;
  }
  catch (...)
  {
    rethrow_classified("claiming notifications");
  }
}

std::optional<std::string> mark_notification(Database &db, std::int64_t id,
                                             Mark const &m)
{
  try
  {
    pqxx::work tx{db.cx()};
    // NULL for what is not given (libpqxx 6.4: a null char pointer).
    std::string const after{
      m.retry_after ? std::to_string(m.retry_after->count()) + " seconds"
                    : ""};
    std::string const status{m.status ? std::to_string(*m.status) : ""};
    auto const text = [](std::string const &s) -> char const * {
      return s.empty() ? nullptr : s.c_str();
    };
    pqxx::row const r{tx.exec_params1(
      "select ingest.mark_notification($1, $2, $3::integer, $4, $5, $6, "
      "$7::interval)",
      id, std::string{name_of(m.outcome)}, text(status), text(m.detail),
      text(m.sink), text(m.response), text(after))};
    tx.commit();
    return r[0].as<std::string>();
  }
  catch (pqxx::sql_error const &e)
  {
    if (std::string{e.sqlstate()} == "IV216") return std::nullopt;
    rethrow_classified("marking notification " + std::to_string(id) + " " +
                       std::string{name_of(m.outcome)});
  }
  catch (...)
  {
    rethrow_classified("marking notification " + std::to_string(id) + " " +
                       std::string{name_of(m.outcome)});
  }
}

Resolved resolve_notification(Database &db, std::int64_t id,
                              std::string const &as, std::string const &reason)
{
  try
  {
    pqxx::work tx{db.cx()};
    pqxx::row const r{tx.exec_params1(
      "select state, action_id from ingest.resolve_notification($1, $2, $3)",
      id, as, reason)};
    tx.commit();
    return {r[0].as<std::string>(), r[1].as<std::int64_t>()};
  }
  catch (...)
  {
    rethrow_classified("resolving notification " + std::to_string(id));
  }
}

void listen_outbox(Database &db)
{
  try
  {
    pqxx::nontransaction tx{db.cx()};
    tx.exec0("listen invoice_loader_outbox");
  }
  catch (...)
  {
    rethrow_classified("listening on invoice_loader_outbox");
  }
}

std::int64_t pending_notifications(Database &db)
{
  try
  {
    pqxx::read_transaction tx{db.cx()};
    return tx
      .exec1(
        "select count(*) from ingest.notification where state = 'pending'")[0]
      .as<std::int64_t>();
  }
  catch (...)
  {
    rethrow_classified("counting pending notifications");
  }
}

int wait_outbox(Database &db, std::chrono::milliseconds limit)
{
  try
  {
    auto const us = limit.count() * 1000;
    return db.cx().await_notification(static_cast<long>(us / 1'000'000),
                                      static_cast<long>(us % 1'000'000));
  }
  catch (...)
  {
    rethrow_classified("waiting for outbox notifications");
  }
}
} // namespace loader::db
