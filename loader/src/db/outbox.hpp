#pragma once
/// The outbox's dispatcher calls (`notify`, `notify resolve`): one SQL
/// entry point per function, one short transaction each.  A claim is a
/// session advisory lock per row (sql/ingest/claim_notifications.sql), so
/// claim, send and mark must happen on ONE db::Database session: after a
/// disconnect every claim of that session is gone and its rows must not be
/// sent (a mark from the new session raises IV216).
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "db/database.hpp"

namespace loader::db
{
/// A claimed notification, as ingest.claim_notifications returns it.
struct Notification
{
  std::int64_t id = 0;
  std::string kind;
  std::string dedupe_key; ///< the Idempotency-Key, the Message-ID's seed
  int tries = 0;          ///< this claim included
  std::string payload;    ///< the body to send: jsonb as text, exact numbers
};

/// ingest.claim_notifications(limit, claimer): up to limit pending rows,
/// oldest first, now held by this session.
std::vector<Notification> claim_notifications(Database &db, int limit,
                                              std::string const &claimer);

/// What a try of a notification came to (ingest.mark_notification's
/// outcome; its stored word: name_of).
enum class DeliveryOutcome
{
  dispatched,
  pending,  ///< not delivered yet: claimable again
  failed,   ///< refused for good
  in_doubt, ///< an at-most-once send whose outcome is unknown
};
std::string_view name_of(DeliveryOutcome o) noexcept;

/// One try's account (ingest.mark_notification's arguments).
struct Mark
{
  DeliveryOutcome outcome = DeliveryOutcome::pending;
  std::optional<long> status; ///< HTTP status or SMTP reply code
  std::string detail;         ///< error text, "" for none
  std::string sink;           ///< "webhook", "smtp", "webhook+smtp"
  std::string response;       ///< the first bytes of the answer
  std::optional<std::chrono::seconds> retry_after; ///< pending only
};

/// ingest.mark_notification from this session; returns the row's state,
/// or nothing when this session does not hold the claim (IV216: it ended
/// with an earlier session, so the row stays as the database holds it and
/// must not be sent).  Throws LoaderError: IV215/IV217 (config), and the
/// rest classified.
std::optional<std::string> mark_notification(Database &db, std::int64_t id,
                                             Mark const &m);

struct Resolved
{
  std::string state;
  std::int64_t action_id = 0;
};

/// ingest.resolve_notification (operator): settle an in_doubt row.
Resolved resolve_notification(Database &db, std::int64_t id,
                              std::string const &as,
                              std::string const &reason);

/// LISTEN invoice_loader_outbox on this session (again after a reconnect;
/// listening twice is harmless).
void listen_outbox(Database &db);

/// Notifications pending in the outbox now, every dispatcher's (what a
/// summary may call "left pending").
std::int64_t pending_notifications(Database &db);

/// Wait up to `limit` for a notification on the session's channels;
/// returns how many arrived (0: the time is up).  The caller waits in
/// short slices so that a signal is seen promptly.
int wait_outbox(Database &db, std::chrono::milliseconds limit);
} // namespace loader::db
