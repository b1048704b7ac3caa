#include "flows/notify.hpp"

#include <unistd.h>

#include <algorithm>
#include <climits>
#include <ctime>
#include <optional>
#include <thread>

#include "core/errors.hpp"
#include "core/failpoint.hpp"
#include "core/interrupt.hpp"
#include "core/json_exact.hpp"
#include "core/process.hpp"
#include "db/outbox.hpp"
#include "flows/notify_message.hpp"
#include "flows/notify_sink.hpp"
#include "net/transport.hpp"

namespace loader::flows
{
namespace
{
using namespace notify_detail;

/// The sink label marked with each try: the configured sinks' names in
/// delivery order, joined by '+' ("webhook+smtp").
std::string label_of(NotifyRequest const &rq)
{
  std::string label;
  for (SinkKind const &k : sink_table())
    if (k.configured(rq))
      label += (label.empty() ? "" : "+") + std::string{k.name};
  return label;
}

class Dispatcher : public Outbox
{
public:
  Dispatcher(std::string const &dsn, NotifyRequest const &rq,
             Logger const &log) :
          m_db{dsn}, m_rq{rq}, m_log{log}, m_label{label_of(rq)}
  {
    m_claimer = host_name() + ":" + std::to_string(::getpid()) + ":" +
                m_label + ":" + log.run_id();
    net::TransferOptions transfer;
    transfer.ca_file = rq.ca_file;
    transfer.netrc_file = rq.netrc_file;
    for (SinkKind const &k : sink_table())
      if (k.configured(rq)) m_sinks.push_back(k.make(rq, transfer));
  }

  /// One pass: claim and dispatch until nothing claimable is left, a sink
  /// is unreachable, or a signal came.
  Turn pass()
  {
    Retrier retry{m_rq.retry, m_log, sleep_unless_interrupted};
    for (;;)
    {
      if (interrupted() != 0) return Turn::interrupted;
      m_lost = false;
      std::vector<db::Notification> claimed;
      try
      {
        claimed = claim(retry);
      }
      catch (LoaderError const &e)
      {
        if (e.kind != ErrorKind::interrupted) throw;
        return release(Turn::interrupted);
      }
      if (claimed.empty()) return Turn::next;
      m_log.debug("notifications claimed",
                  {{"count", static_cast<std::int64_t>(claimed.size())}});
      for (db::Notification const &n : claimed)
      {
        if (interrupted() != 0) return release(Turn::interrupted);
        Turn const t{dispatch(retry, n)};
        if (t == Turn::unreachable or t == Turn::interrupted)
          return release(t);
        // A lost session took the claims on the rest with it: they are
        // pending and claimable again, by us or by another dispatcher.
        if (t == Turn::session_lost or m_lost) break;
      }
    }
  }

  /// --follow: wait for a LISTEN wake-up or the polling interval.
  void wait()
  {
    auto const until = std::chrono::steady_clock::now() + m_rq.poll_interval;
    while (interrupted() == 0 and std::chrono::steady_clock::now() < until)
    {
      try
      {
        if (not m_db.connected())
        {
          sleep_unless_interrupted(std::chrono::milliseconds{1000});
          continue;
        }
        if (db::wait_outbox(m_db, std::chrono::milliseconds{500}) > 0)
        {
          m_log.debug("outbox notification received");
          return;
        }
      }
      catch (LoaderError const &e)
      {
        // The next pass reconnects under the retry layer.
        m_log.warn("lost the database session while waiting",
                   {{"error", e.what()}});
        m_db.disconnect();
      }
    }
  }

  Totals const &totals() const noexcept { return m_totals; }

  /// What the summary calls left pending: the outbox's pending rows now,
  /// every dispatcher's (a run that stops at an unreachable sink leaves
  /// the rest it never tried pending too), or, when the database cannot
  /// say, at least the rows this run left pending.
  std::string left_pending()
  {
    try
    {
      if (not m_db.connected()) m_db.connect();
      return std::to_string(db::pending_notifications(m_db));
    }
    catch (LoaderError const &e)
    {
      m_log.warn("could not count the pending notifications",
                 {{"error", e.what()}});
      return "at least " + std::to_string(m_totals.left_pending);
    }
  }

  /// Mark under the retry layer.  A lost connection is retried from a new
  /// session: a mark whose COMMIT landed is repeated harmlessly; one that
  /// did not is refused (the claim ended with the old session: db/ says
  /// so with no state) and the row stays as the database says.  Returns
  /// false when the claim is gone.
  bool mark(Retrier &retry, db::Notification const &n,
            db::Mark const &m) override
  {
    bool held = true;
    std::string const state{retry.run(
      "mark " + std::to_string(n.id),
      [&]() -> std::string {
        m_db.connect();
        std::optional<std::string> marked{
          db::mark_notification(m_db, n.id, m)};
        held = marked.has_value();
        return marked.value_or("");
      },
      [&] {
        m_db.disconnect();
        m_lost = true;
      })};
    if (not held)
    {
      m_log.warn("the claim on the notification ended with a lost session; "
                 "it stays as the database holds it (pending: sent again "
                 "later with the same key; in_doubt: for an operator)",
                 {{"notification", n.id},
                  {"outcome", std::string{db::name_of(m.outcome)}}});
      m_lost = true;
      return false;
    }
    m_log.debug("notification marked",
                {{"notification", n.id}, {"state", state}});
    return true;
  }

  Turn left_pending(Retrier &retry, db::Notification const &n, db::Mark m,
                    Turn t) override
  {
    m.outcome = db::DeliveryOutcome::pending;
    ++m_totals.left_pending;
    if (not mark(retry, n, m)) return Turn::session_lost;
    return t;
  }

  void end_session() override
  {
    m_db.disconnect();
    m_lost = true;
  }

private:
  std::vector<db::Notification> claim(Retrier &retry)
  {
    return retry.run(
      "claim",
      [&] {
        throw_if_interrupted("claiming notifications");
        m_db.connect();
        if (m_rq.follow) db::listen_outbox(m_db);
        return db::claim_notifications(m_db, m_rq.batch_size, m_claimer);
      },
      [&] { m_db.disconnect(); });
  }

  /// Ending the session releases the claims on rows not yet tried: they
  /// stay pending, and the next dispatcher takes them at once.
  Turn release(Turn t)
  {
    m_db.disconnect();
    return t;
  }

  /// Every configured sink in turn; when each delivered, the row is
  /// dispatched.
  Turn dispatch(Retrier &retry, db::Notification const &n)
  {
    Logger const log{m_log.with({{"notification", n.id},
                                 {"kind", n.kind},
                                 {"dedupe_key", n.dedupe_key},
                                 {"try", n.tries}})};
    db::Mark m;
    m.sink = m_label;
    Delivery d{retry, n, m, log, m_totals, *this};
    for (std::unique_ptr<Sink> const &sink : m_sinks)
      if (std::optional<Turn> const t{sink->deliver(d)}) return *t;
    failpoint("after_notify_send");
    m.outcome = db::DeliveryOutcome::dispatched;
    if (not mark(retry, n, m)) return Turn::session_lost;
    ++m_totals.dispatched;
    return Turn::next;
  }

  db::Database m_db;
  NotifyRequest const &m_rq;
  Logger const &m_log;
  std::string m_label;
  std::string m_claimer;
  std::vector<std::unique_ptr<Sink>> m_sinks;
  Totals m_totals;
  bool m_lost = false;
};

std::string counts(Totals const &t, std::string const &pending)
{
  return std::to_string(t.dispatched) + " dispatched, " +
         std::to_string(t.failed) + " failed, " + std::to_string(t.in_doubt) +
         " in doubt, " + pending + " left pending";
}

std::string counts(Totals const &t)
{
  return counts(t, std::to_string(t.left_pending));
}

std::string summary(Dispatcher &d, char const *tail)
{
  return "notify: " + counts(d.totals(), d.left_pending()) + tail + "\n";
}
} // namespace

Result notify(std::string const &dsn, NotifyRequest const &rq,
              Logger const &log)
{
  install_interrupt_handlers();
  Dispatcher d{dsn, rq, log};
  log.info(
    rq.follow ? "dispatcher following the outbox"
              : "dispatching pending notifications",
    {{"webhook", rq.webhook_url.empty() ? std::string{"-"}
                                        : net::redact_url(rq.webhook_url)},
     {"smtp",
      rq.smtp_url.empty() ? std::string{"-"} : net::redact_url(rq.smtp_url)}});
  for (;;)
  {
    Turn const t{d.pass()};
    if (t == Turn::interrupted)
    {
      if (not rq.follow)
        throw_if_interrupted("dispatching notifications (" +
                             counts(d.totals()) + ")");
      log.info("dispatcher stopped by a signal");
      return {Outcome::done, summary(d, "; stopped by a signal")};
    }
    if (not rq.follow)
    {
      if (t == Turn::unreachable)
        return {Outcome::not_delivered,
                summary(d, "; a sink is unreachable, run again later")};
      return {Outcome::done, summary(d, "")};
    }
    d.wait();
  }
}

} // namespace loader::flows
