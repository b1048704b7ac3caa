#include "flows/period.hpp"

#include "core/printable.hpp"
#include "db/operator.hpp"
#include "flows/operator_actions.hpp"

namespace loader::flows
{
Result set_period(std::string const &dsn, PeriodRequest const &rq)
{
  db::Database database{dsn};
  db::PeriodLock const p{
    db::set_period_lock(database, rq.source, rq.close, rq.through, rq.reason)};
  std::string const source{printable(rq.source)};
  if (p.pending)
    return {Outcome::done,
            awaiting_confirmation(*p.action_id,
                                  "period reopen of source " + source)};
  if (not p.action_id)
    return {Outcome::done, "source " + source + " is closed through " +
                             p.now.value_or("-") +
                             " already; nothing changed\n"};
  return {Outcome::done,
          "source " + source +
            (p.now ? " closed through " + *p.now : std::string{" reopened"}) +
            " (operator action " + std::to_string(*p.action_id) +
            "; before: " +
            (p.before ? "closed through " + *p.before : std::string{"open"}) +
            "). Records dated on or before the closed date are refused "
            "(period.closed), and so is a revert that would change them.\n"};
}
} // namespace loader::flows
