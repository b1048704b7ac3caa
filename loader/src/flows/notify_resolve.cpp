#include "flows/notify.hpp"

#include "db/outbox.hpp"

namespace loader::flows
{
Result notify_resolve(std::string const &dsn, ResolveRequest const &rq,
                      Logger const &log)
{
  db::Database database{dsn};
  db::Resolved const r{
    db::resolve_notification(database, rq.notification_id, rq.as, rq.reason)};
  log.info("notification resolved", {{"notification", rq.notification_id},
                                     {"state", r.state},
                                     {"action", r.action_id}});
  return {Outcome::done,
          "notification " + std::to_string(rq.notification_id) +
            " resolved as " + r.state + " (operator action " +
            std::to_string(r.action_id) + ")" +
            (r.state == "pending" ? "; the next notify sends it" : "") + "\n"};
}
} // namespace loader::flows
