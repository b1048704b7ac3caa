// The e-mail sink: at most once.  The row is marked in_doubt BEFORE the
// message goes out, so a crash or a lost connection from then on leaves
// it in_doubt for `notify resolve`, never resent automatically.
#include <optional>
#include <string>

#include "core/errors.hpp"
#include "core/interrupt.hpp"
#include "flows/notify_sink.hpp"

namespace loader::flows::notify_detail
{
namespace
{
std::optional<long> reply_code(net::MailResult const &r)
{
  return r.smtp_code == 0 ? std::nullopt : std::optional<long>{r.smtp_code};
}

class SmtpSink : public Sink
{
public:
  SmtpSink(NotifyRequest const &rq, net::TransferOptions const &transfer) :
          m_url{rq.smtp_url}, m_from{rq.mail_from}, m_to{rq.mail_to}
  {
    m_mail.transfer = transfer;
    m_mail.require_tls = rq.require_tls;
  }

  std::optional<Turn> deliver(Delivery &d) override
  {
    d.m.outcome = db::DeliveryOutcome::in_doubt;
    if (not d.mark()) return Turn::session_lost;
    net::MailResult result;
    try
    {
      send(d, result);
    }
    catch (LoaderError const &e)
    {
      d.m.status = reply_code(result);
      d.m.detail = e.what();
      if (e.kind == ErrorKind::interrupted)
        return d.left_pending(Turn::interrupted);
      d.log.warn("mail server unreachable past the retry budget; the "
                 "notification stays pending (nothing was sent)",
                 {{"error", e.what()}});
      return d.left_pending(Turn::unreachable);
    }
    d.m.status = reply_code(result);
    d.m.detail = result.outcome == net::MailOutcome::accepted ? ""
                                                              : result.detail;
    switch (result.outcome)
    {
    case net::MailOutcome::accepted:
      d.log.info("mail server accepted the notification",
                 {{"smtp_code", result.smtp_code}});
      return std::nullopt; // the dispatcher marks it dispatched
    case net::MailOutcome::in_doubt: return in_doubt(d, result);
    case net::MailOutcome::rejected:
    case net::MailOutcome::not_sent: break;
    }
    return not_sent(d, result);
  }

private:
  /// Under the retry layer; only a mail that surely did not go out is
  /// tried again: not sent (before DATA) or refused with a 4xx.  result
  /// holds the last try's, also when the retries run out.
  void send(Delivery &d, net::MailResult &result)
  {
    std::string const message{
      mail_message(d.n.payload, d.n.dedupe_key, m_from, m_to)};
    d.retry.run("e-mail " + std::to_string(d.n.id), [&] {
      throw_if_interrupted("sending notification " + std::to_string(d.n.id));
      result = net::send_mail(m_url, m_from, m_to, message, m_mail);
      bool const surely_not_sent =
        result.outcome == net::MailOutcome::not_sent or
        result.outcome == net::MailOutcome::rejected;
      if (surely_not_sent and retryable(result.kind))
        throw LoaderError{result.kind, result.detail};
    });
  }

  /// The mail went out and no final reply came.
  Turn in_doubt(Delivery &d, net::MailResult const &result)
  {
    // Never resent automatically: the row stays in_doubt until an
    // operator runs notify resolve.  The in_doubt mark keeps the claim
    // (ingest.mark_notification), and resolve refuses a row a live
    // session holds, so the session ends here: a --follow dispatcher
    // would otherwise hold it for days.  That releases the claims on the
    // rest of the rows too; they are claimed again.
    d.outbox.end_session();
    d.log.error("the mail went out and no final reply came: the "
                "notification is in doubt and will not be resent; check "
                "the mailbox, then run: invoice-loader notify resolve "
                "--notification " +
                  std::to_string(d.n.id) +
                  " --as dispatched|pending --reason TEXT",
                {{"detail", result.detail}});
    ++d.totals.in_doubt;
    return Turn::session_lost;
  }

  /// Refused or not handed over, and not worth another try.
  Turn not_sent(Delivery &d, net::MailResult const &result)
  {
    if (result.kind == ErrorKind::config and
        result.outcome == net::MailOutcome::rejected)
    {
      d.m.outcome = db::DeliveryOutcome::failed;
      d.log.error(
        "mail server refused the notification for good; marked "
        "failed",
        {{"smtp_code", result.smtp_code}, {"detail", result.detail}});
      ++d.totals.failed;
      return d.mark() ? Turn::next : Turn::session_lost;
    }
    // Credentials, TLS or a malformed URL: ours to fix; nothing was sent.
    d.left_pending(Turn::next);
    throw LoaderError{result.kind, "e-mail to " + net::redact_url(m_url) +
                                     " not sent: " + result.detail};
  }

  std::string m_url;
  std::string m_from;
  std::vector<std::string> m_to;
  net::MailOptions m_mail;
};
} // namespace

std::unique_ptr<Sink> make_smtp_sink(NotifyRequest const &rq,
                                     net::TransferOptions const &transfer)
{
  return std::make_unique<SmtpSink>(rq, transfer);
}
} // namespace loader::flows::notify_detail
