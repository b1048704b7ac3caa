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
#include "core/process.hpp"
#include "core/json_exact.hpp"
#include "db/outbox.hpp"
#include "flows/notify_message.hpp"
#include "net/transport.hpp"

namespace loader::flows
{
namespace
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

class Dispatcher
{
public:
  Dispatcher(std::string const &dsn, NotifyRequest const &rq,
             Logger const &log) :
          m_db{dsn}, m_rq{rq}, m_log{log}
  {
    m_claimer = host_name() + ":" + std::to_string(::getpid()) + ":" +
                sink_name() + ":" + log.run_id();
    m_transfer.ca_file = rq.ca_file;
    m_transfer.netrc_file = rq.netrc_file;
    m_mail.transfer = m_transfer;
    m_mail.require_tls = rq.require_tls;
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
        claimed = retry.run(
          "claim",
          [&] {
            throw_if_interrupted("claiming notifications");
            m_db.connect();
            if (m_rq.follow) db::listen_outbox(m_db);
            return db::claim_notifications(m_db, m_rq.batch_size, m_claimer);
          },
          [&] { m_db.disconnect(); });
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

private:
  std::string sink_name() const
  {
    if (not m_rq.webhook_url.empty() and not m_rq.smtp_url.empty())
      return "webhook+smtp";
    return m_rq.webhook_url.empty() ? "smtp" : "webhook";
  }

  /// Ending the session releases the claims on rows not yet tried: they
  /// stay pending, and the next dispatcher takes them at once.
  Turn release(Turn t)
  {
    m_db.disconnect();
    return t;
  }

  /// Mark under the retry layer.  A lost connection is retried from a new
  /// session: a mark whose COMMIT landed is repeated harmlessly; one that
  /// did not is refused (the claim ended with the old session: db/ says
  /// so with no state) and the row stays as the database says.  Returns false when the claim is
  /// gone.
  bool mark(Retrier &retry, db::Notification const &n, db::Mark const &m)
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
                 {{"notification", n.id}, {"outcome", m.outcome}});
      m_lost = true;
      return false;
    }
    m_log.debug("notification marked",
                {{"notification", n.id}, {"state", state}});
    return true;
  }

  Turn left_pending(Retrier &retry, db::Notification const &n,
                    db::Mark m, Turn t)
  {
    m.outcome = "pending";
    ++m_totals.left_pending;
    if (not mark(retry, n, m)) return Turn::session_lost;
    return t;
  }

  struct WebhookTry
  {
    long status = 0;
    std::string body;
    std::optional<std::chrono::seconds> retry_after;
  };

  /// The webhook's POST under the retry layer: 2xx returns; 408, 429,
  /// 5xx and transfers without an answer are retried; a 4xx otherwise
  /// (404 and 410 included: the URL takes no such notification) is
  /// thrown as config with the answer in `last`; 401/403/407 as
  /// permission; a 3xx (not followed for a POST) as config.
  void post(Retrier &retry, db::Notification const &n, WebhookTry &last)
  {
    std::vector<std::string> const headers{
      "Content-Type: application/json",
      "Idempotency-Key: " + notify_detail::one_header_line(n.dedupe_key)};
    retry.run("webhook " + std::to_string(n.id), [&] {
      throw_if_interrupted("sending notification " + std::to_string(n.id));
      last = {};
      net::PostResult const r{
        net::post(m_rq.webhook_url, n.payload, headers, m_transfer)};
      last = {r.http_status, r.body_head, r.retry_after};
      if (r.http_status >= 200 and r.http_status < 300) return;
      ErrorKind kind{classify_http_status(static_cast<int>(r.http_status))};
      if (is_not_delivered_http(static_cast<int>(r.http_status)))
        kind = ErrorKind::config;
      throw LoaderError{kind, "webhook " + net::redact_url(m_rq.webhook_url) +
                                " answered HTTP " +
                                std::to_string(r.http_status)};
    });
  }

  Turn dispatch(Retrier &retry, db::Notification const &n)
  {
    Logger const log{m_log.with({{"notification", n.id},
                                 {"kind", n.kind},
                                 {"dedupe_key", n.dedupe_key},
                                 {"try", n.tries}})};
    db::Mark m;
    m.sink = sink_name();
    if (not m_rq.webhook_url.empty())
    {
      WebhookTry last;
      try
      {
        post(retry, n, last);
      }
      catch (LoaderError const &e)
      {
        m.status = last.status == 0 ? std::nullopt
                                    : std::optional<long>{last.status};
        m.detail = e.what();
        m.response = last.body;
        bool const refused_for_good =
          e.kind == ErrorKind::config and last.status >= 400 and
          last.status < 500;
        if (refused_for_good)
        {
          m.outcome = "failed";
          log.error("webhook refused the notification for good; marked "
                    "failed",
                    {{"status", last.status}});
          ++m_totals.failed;
          return mark(retry, n, m) ? Turn::next : Turn::session_lost;
        }
        if (e.kind == ErrorKind::interrupted)
          return left_pending(retry, n, m, Turn::interrupted);
        if (retryable(e.kind))
        {
          m.retry_after = last.retry_after;
          log.warn("webhook unreachable past the retry budget; the "
                   "notification stays pending",
                   {{"error", e.what()}});
          return left_pending(retry, n, m, Turn::unreachable);
        }
        // Our side is wrong (credentials, CA, URL): a human must act; the
        // notification itself is fine and stays pending.
        left_pending(retry, n, m, Turn::next);
        throw;
      }
      log.info("webhook accepted the notification",
               {{"status", last.status}});
      m.status = last.status;
      m.response = last.body;
    }
    if (not m_rq.smtp_url.empty()) return send_mail(retry, n, m, log);
    failpoint("after_notify_send");
    m.outcome = "dispatched";
    if (not mark(retry, n, m)) return Turn::session_lost;
    ++m_totals.dispatched;
    return Turn::next;
  }

  /// E-mail, at most once: in_doubt BEFORE the message goes out, so a
  /// crash or a lost connection from then on leaves it in_doubt.
  Turn send_mail(Retrier &retry, db::Notification const &n, db::Mark m,
                 Logger const &log)
  {
    m.outcome = "in_doubt";
    if (not mark(retry, n, m)) return Turn::session_lost;
    std::string const message{
      mail_message(n.payload, n.dedupe_key, m_rq.mail_from, m_rq.mail_to)};
    net::MailResult result;
    try
    {
      // Only a mail that surely did not go out is tried again: not sent
      // (before DATA) or refused with a 4xx.
      result = retry.run("e-mail " + std::to_string(n.id), [&] {
        throw_if_interrupted("sending notification " + std::to_string(n.id));
        result = net::send_mail(m_rq.smtp_url, m_rq.mail_from, m_rq.mail_to,
                                message, m_mail);
        bool const surely_not_sent =
          result.outcome == net::MailOutcome::not_sent or
          result.outcome == net::MailOutcome::rejected;
        if (surely_not_sent and retryable(result.kind))
          throw LoaderError{result.kind, result.detail};
        return result;
      });
    }
    catch (LoaderError const &e)
    {
      m.status = result.smtp_code == 0 ? std::nullopt
                                       : std::optional<long>{result.smtp_code};
      m.detail = e.what();
      if (e.kind == ErrorKind::interrupted)
        return left_pending(retry, n, m, Turn::interrupted);
      log.warn("mail server unreachable past the retry budget; the "
               "notification stays pending (nothing was sent)",
               {{"error", e.what()}});
      return left_pending(retry, n, m, Turn::unreachable);
    }
    m.status = result.smtp_code == 0 ? std::nullopt
                                     : std::optional<long>{result.smtp_code};
    m.detail = result.outcome == net::MailOutcome::accepted ? ""
                                                            : result.detail;
    switch (result.outcome)
    {
    case net::MailOutcome::accepted:
      log.info("mail server accepted the notification",
               {{"smtp_code", result.smtp_code}});
      failpoint("after_notify_send");
      m.outcome = "dispatched";
      if (not mark(retry, n, m)) return Turn::session_lost;
      ++m_totals.dispatched;
      return Turn::next;
    case net::MailOutcome::in_doubt:
      // Never resent automatically: the row stays in_doubt until an
      // operator runs notify resolve.  The in_doubt mark keeps the claim
      // (ingest.mark_notification), and resolve refuses a row a live
      // session holds, so the session ends here: a --follow
      // dispatcher would otherwise hold it for days.  That releases the
      // claims on the rest of the rows too; they are claimed again.
      m_db.disconnect();
      m_lost = true;
      log.error("the mail went out and no final reply came: the "
                "notification is in doubt and will not be resent; check "
                "the mailbox, then run: invoice-loader notify resolve "
                "--notification " + std::to_string(n.id) +
                  " --as dispatched|pending --reason TEXT",
                {{"detail", result.detail}});
      ++m_totals.in_doubt;
      return Turn::session_lost;
    case net::MailOutcome::rejected:
    case net::MailOutcome::not_sent: break;
    }
    if (result.kind == ErrorKind::config and
        result.outcome == net::MailOutcome::rejected)
    {
      m.outcome = "failed";
      log.error("mail server refused the notification for good; marked "
                "failed",
                {{"smtp_code", result.smtp_code}, {"detail", result.detail}});
      ++m_totals.failed;
      return mark(retry, n, m) ? Turn::next : Turn::session_lost;
    }
    // Credentials, TLS or a malformed URL: ours to fix; nothing was sent.
    left_pending(retry, n, m, Turn::next);
    throw LoaderError{result.kind, "e-mail to " +
                                     net::redact_url(m_rq.smtp_url) +
                                     " not sent: " + result.detail};
  }

  db::Database m_db;
  NotifyRequest const &m_rq;
  Logger const &m_log;
  std::string m_claimer;
  net::TransferOptions m_transfer;
  net::MailOptions m_mail;
  Totals m_totals;
  bool m_lost = false;
};

std::string counts(Totals const &t)
{
  return std::to_string(t.dispatched) + " dispatched, " +
         std::to_string(t.failed) + " failed, " +
         std::to_string(t.in_doubt) + " in doubt, " +
         std::to_string(t.left_pending) + " left pending";
}

std::string summary(Totals const &t, char const *tail)
{
  return "notify: " + counts(t) + tail + "\n";
}
} // namespace

Result notify(std::string const &dsn, NotifyRequest const &rq,
              Logger const &log)
{
  install_interrupt_handlers();
  Dispatcher d{dsn, rq, log};
  log.info(rq.follow ? "dispatcher following the outbox"
                     : "dispatching pending notifications",
           {{"webhook", rq.webhook_url.empty()
                          ? std::string{"-"}
                          : net::redact_url(rq.webhook_url)},
            {"smtp", rq.smtp_url.empty() ? std::string{"-"}
                                         : net::redact_url(rq.smtp_url)}});
  for (;;)
  {
    Turn const t{d.pass()};
    if (t == Turn::interrupted)
    {
      if (not rq.follow)
        throw_if_interrupted("dispatching notifications (" +
                             counts(d.totals()) + ")");
      log.info("dispatcher stopped by a signal");
      return {Outcome::done, summary(d.totals(), "; stopped by a signal")};
    }
    if (not rq.follow)
    {
      if (t == Turn::unreachable)
        return {Outcome::not_delivered,
                summary(d.totals(), "; a sink is unreachable, run again "
                                    "later")};
      return {Outcome::done, summary(d.totals(), "")};
    }
    d.wait();
  }
}

} // namespace loader::flows
