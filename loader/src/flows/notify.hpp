#pragma once
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "core/log.hpp"
#include "core/retry.hpp"
#include "flows/outcome.hpp"

namespace loader::flows
{
/// `notify`: the outbox dispatcher (docs/reference/notifications.md).
struct NotifyRequest
{
  bool follow = false;     ///< --follow: keep running (LISTEN + polling)
  std::string webhook_url; ///< "" = no webhook sink
  /// The keys of webhook-secret and webhook-secret-previous (decoded; the
  /// current one first): each delivery is signed with every one (the
  /// Standard Webhooks headers); none: no signature headers.
  std::vector<std::string> webhook_keys;
  std::string smtp_url; ///< "" = no e-mail sink
  std::string mail_from;
  std::vector<std::string> mail_to;
  bool require_tls = false;               ///< --smtp-require-tls
  int batch_size = 20;                    ///< rows claimed at a time, 1-1000
  std::chrono::seconds poll_interval{30}; ///< --follow's polling fallback
  std::string ca_file;                    ///< --cacert
  std::string netrc_file;                 ///< --netrc-file
  RetryPolicy retry;
};

/// Dispatch pending outbox notifications, each to every configured sink,
/// on ONE database session: claim (a short transaction), send outside any
/// transaction, mark.  Webhook first, at-least-once (a resend carries the
/// same Idempotency-Key); e-mail second, at-most-once (marked in_doubt
/// before the message goes out, dispatched after the 250 for DATA; a send
/// whose outcome is unknown stays in_doubt for `notify resolve`).
/// Outcomes: done (everything claimable was dispatched, failed for good
/// or is in doubt; with follow: stopped by SIGTERM/SIGINT), not_delivered
/// (a sink stayed unreachable past the retry budget: the rest stays
/// pending; exit 75).  Throws LoaderError for the rest: the database away
/// past the retry budget (75), a sink refusing our credentials (77) or
/// misconfigured (78), SIGTERM in a one-shot run (75).
Result notify(std::string const &dsn, NotifyRequest const &request,
              Logger const &log);

/// `notify resolve`: an operator settles an in_doubt notification.
struct ResolveRequest
{
  std::int64_t notification_id = 0;
  std::string as; ///< dispatched | pending
  std::string reason;
};

/// ingest.resolve_notification; prints what it did.  Refusals are the
/// database's (sql/ERRCODES.md): not an operator 77; no such notification,
/// not in doubt, a bad argument 78; a dispatcher still holding it 75.
Result notify_resolve(std::string const &dsn, ResolveRequest const &request,
                      Logger const &log);

/// The Message-ID of a notification's e-mail, from its dedupe key alone,
/// so a resend after `notify resolve --as pending` carries the same one:
/// "<KEY@invoice-loader>" with ':' written '.' and any character outside
/// [A-Za-z0-9_-] (and a '.' that would not be a dot-atom's) as =XX.
std::string message_id_of(std::string const &dedupe_key);

/// The e-mail (RFC 5322: headers, blank line, plain-text body, CRLF line
/// ends) for a notification's payload (claim_notifications' JSON).
std::string mail_message(std::string const &payload,
                         std::string const &dedupe_key,
                         std::string const &from,
                         std::vector<std::string> const &to);
} // namespace loader::flows
