// The webhook sink: at least once.  A resend carries the same
// Idempotency-Key (the row's dedupe key), so the receiver can drop it.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/interrupt.hpp"
#include "flows/notify_message.hpp"
#include "flows/notify_sink.hpp"
#include "net/webhook_signature.hpp"

namespace loader::flows::notify_detail
{
namespace
{
struct WebhookTry
{
  long status = 0;
  std::string body;
  std::optional<std::chrono::seconds> retry_after;
};

class WebhookSink : public Sink
{
public:
  WebhookSink(std::string url, std::vector<std::string> keys,
              net::TransferOptions transfer) :
          m_url{std::move(url)},
          m_keys{std::move(keys)},
          m_transfer{std::move(transfer)}
  {}

  std::optional<Turn> deliver(Delivery &d) override
  {
    WebhookTry last;
    try
    {
      post(d.retry, d.n, last);
    }
    catch (LoaderError const &e)
    {
      if (std::optional<Turn> const t{refused(d, e, last)}) return t;
      throw; // our side is wrong; the row was left pending
    }
    d.log.info("webhook accepted the notification", {{"status", last.status}});
    d.m.status = last.status;
    d.m.response = last.body;
    return std::nullopt;
  }

private:
  /// The webhook's POST under the retry layer: 2xx returns; 408, 429,
  /// 5xx and transfers without an answer are retried; a 4xx otherwise
  /// (404 and 410 included: the URL takes no such notification) is
  /// thrown as config with the answer in `last`; 401/403/407 as
  /// permission; a 3xx (not followed for a POST) as config.
  void post(Retrier &retry, db::Notification const &n, WebhookTry &last)
  {
    retry.run("webhook " + std::to_string(n.id), [&] {
      throw_if_interrupted("sending notification " + std::to_string(n.id));
      last = {};
      std::vector<std::string> const headers{this->headers(n)};
      net::PostResult const r{
        net::post(m_url, n.payload, headers, m_transfer)};
      last = {r.http_status, r.body_head, r.retry_after};
      if (r.http_status >= 200 and r.http_status < 300) return;
      ErrorKind kind{classify_http_status(static_cast<int>(r.http_status))};
      if (is_not_delivered_http(static_cast<int>(r.http_status)))
        kind = ErrorKind::config;
      throw LoaderError{kind, "webhook " + net::redact_url(m_url) +
                                " answered HTTP " +
                                std::to_string(r.http_status)};
    });
  }

  /// The POST did not get a 2xx within the retry layer: the row marked;
  /// nothing when the caller must rethrow (a configuration of ours).
  std::optional<Turn> refused(Delivery &d, LoaderError const &e,
                              WebhookTry const &last)
  {
    d.m.status = last.status == 0 ? std::nullopt
                                  : std::optional<long>{last.status};
    d.m.detail = e.what();
    d.m.response = last.body;
    bool const refused_for_good = e.kind == ErrorKind::config and
                                  last.status >= 400 and last.status < 500;
    if (refused_for_good)
    {
      d.m.outcome = db::DeliveryOutcome::failed;
      d.log.error("webhook refused the notification for good; marked "
                  "failed",
                  {{"status", last.status}});
      ++d.totals.failed;
      return d.mark() ? Turn::next : Turn::session_lost;
    }
    if (e.kind == ErrorKind::interrupted)
      return d.left_pending(Turn::interrupted);
    if (retryable(e.kind))
    {
      d.m.retry_after = last.retry_after;
      d.log.warn("webhook unreachable past the retry budget; the "
                 "notification stays pending",
                 {{"error", e.what()}});
      return d.left_pending(Turn::unreachable);
    }
    // Our side is wrong (credentials, CA, URL): a human must act; the
    // notification itself is fine and stays pending.
    d.left_pending(Turn::next);
    return std::nullopt;
  }

  /// The headers of one try.  With secrets, the Standard Webhooks
  /// headers: webhook-id (the dedupe key, the same on every try, as the
  /// Idempotency-Key), webhook-timestamp (this try's Unix time) and
  /// webhook-signature (one "v1,..." per secret, space-separated).
  std::vector<std::string> headers(db::Notification const &n) const
  {
    std::string const id{one_header_line(n.dedupe_key)};
    std::vector<std::string> out{"Content-Type: application/json",
                                 "Idempotency-Key: " + id};
    if (m_keys.empty()) return out;
    std::int64_t const now{
      std::chrono::duration_cast<std::chrono::seconds>(
        std::chrono::system_clock::now().time_since_epoch())
        .count()};
    std::string signatures;
    for (std::string const &key : m_keys)
      signatures += (signatures.empty() ? "" : " ") +
                    net::webhook_signature(key, id, now, n.payload);
    out.push_back("webhook-id: " + id);
    out.push_back("webhook-timestamp: " + std::to_string(now));
    out.push_back("webhook-signature: " + signatures);
    return out;
  }

  std::string m_url;
  std::vector<std::string> m_keys;
  net::TransferOptions m_transfer;
};
} // namespace

std::unique_ptr<Sink> make_webhook_sink(NotifyRequest const &rq,
                                        net::TransferOptions const &transfer)
{
  return std::make_unique<WebhookSink>(rq.webhook_url, rq.webhook_keys,
                                       transfer);
}
} // namespace loader::flows::notify_detail
