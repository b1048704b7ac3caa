#pragma once
// Notification sinks (internal to flows/notify*.cpp): where the
// dispatcher (notify.cpp) delivers a claimed outbox row.  Each sink is
// one class in its own file (notify_webhook.cpp, notify_smtp.cpp) and one
// row of the table in notify_sinks.cpp; the dispatcher knows none of them
// by name (docs/reference/notifications.md).
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "core/log.hpp"
#include "core/retry.hpp"
#include "db/outbox.hpp"
#include "flows/notify.hpp"
#include "net/transport.hpp"

namespace loader::flows::notify_detail
{
/// What a try of one notification came to.
enum class Turn
{
  next,         ///< marked (or in doubt); go on with the next row
  session_lost, ///< the session (and every claim of it) is gone: re-claim
  unreachable,  ///< a sink stayed away past the retry budget: stop the pass
  interrupted,  ///< SIGTERM/SIGINT: stop
};

struct Totals
{
  int dispatched = 0;
  int failed = 0;
  int in_doubt = 0;
  int left_pending = 0;
};

/// The dispatcher's side of a delivery: marks on its one session (claim,
/// send and mark share it: db/outbox.hpp).
class Outbox
{
public:
  virtual ~Outbox() = default;
  /// Mark under the retry layer; false when the claim is gone (it ended
  /// with a lost session: the row stays as the database holds it).
  virtual bool mark(Retrier &retry, db::Notification const &n,
                    db::Mark const &m) = 0;
  /// Mark the row pending again (counted as left pending); t, or
  /// session_lost when the claim is gone.
  virtual Turn left_pending(Retrier &retry, db::Notification const &n,
                            db::Mark m, Turn t) = 0;
  /// End the session now: every claim of it goes with it, and the rows
  /// not yet tried are claimable again.
  virtual void end_session() = 0;
};

/// One claimed row on its way through the sinks: the row, the account
/// the dispatcher marks, the run's retry layer, log and totals.
struct Delivery
{
  Retrier &retry;
  db::Notification const &n;
  db::Mark &m;
  Logger const &log;
  Totals &totals;
  Outbox &outbox;

  bool mark() { return outbox.mark(retry, n, m); }
  Turn left_pending(Turn t) { return outbox.left_pending(retry, n, m, t); }
};

class Sink
{
public:
  virtual ~Sink() = default;
  /// Deliver d.n.  Nothing: delivered, on to the next sink (after the
  /// last, the dispatcher marks the row dispatched).  A Turn: this row's
  /// dispatch ends here, marked by the sink.  Throws LoaderError when our
  /// side is wrong (credentials, TLS, URL), after leaving the row pending.
  virtual std::optional<Turn> deliver(Delivery &d) = 0;
};

/// A row of the sink table.
struct SinkKind
{
  /// In the sink label ("webhook+smtp") marked with each try, and in the
  /// claimer's name.
  std::string_view name;
  /// Whether the request configures it (e.g. a --webhook-url is given).
  bool (*configured)(NotifyRequest const &rq);
  std::unique_ptr<Sink> (*make)(NotifyRequest const &rq,
                                net::TransferOptions const &transfer);
};

/// Every sink, in delivery order (notify_sinks.cpp).
std::vector<SinkKind> const &sink_table();
} // namespace loader::flows::notify_detail
