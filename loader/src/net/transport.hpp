#pragma once
/// The transport room: every libcurl call of the loader goes through the
/// functions below (feed GET into the spool, webhook POST, SMTP send).
///
/// One retry layer (docs/design/architecture.md): nothing here retries,
/// sleeps or waits for Retry-After.  Each call makes exactly one transfer
/// (plus at most max_redirects redirects for a GET) and either returns or
/// throws one TransportError whose kind (core/errors.cpp) tells the
/// caller's retry layer what to do.  Every URL in a message or log line has
/// its userinfo removed (redact_url).
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/errors.hpp"

namespace loader::net
{
/// Limits and trust settings of one transfer.  libcurl never retries and
/// never prints: NOPROGRESS, no VERBOSE unless `debug` is set.
struct TransferOptions
{
  /// TCP + TLS connect, per attempt at an address.
  std::chrono::milliseconds connect_timeout{10'000};
  /// Stalled transfer: slower than low_speed_limit bytes/s for
  /// low_speed_time (whole seconds, at least 1) aborts with a transient
  /// error (curl 28).  Counts from the request, so a server that sends
  /// nothing at all after connecting is caught too.
  long low_speed_limit = 1;
  std::chrono::seconds low_speed_time{30};
  /// The whole transfer; 0 means no total limit (the low-speed limit
  /// still applies).
  std::chrono::milliseconds total_timeout{0};
  /// PEM bundle of the CAs to trust (--cacert); empty: the system's.
  std::string ca_file;
  /// netrc file for credentials (CURLOPT_NETRC_FILE, optional use); empty:
  /// no netrc at all.  It must exist and be readable, else config.
  std::string netrc_file;
  /// known_hosts for sftp://; empty: $HOME/.ssh/known_hosts.
  std::string ssh_known_hosts;
  /// GET only: redirects followed, each by hand and only by policy: to the
  /// same scheme, host and port, or to a host of redirect_hosts (http or
  /// https, never from https down to http).  POST and SMTP never follow
  /// redirects.
  long max_redirects = 5;
  /// Hosts a GET may also be redirected to (--allow-redirect-host).
  std::vector<std::string> redirect_hosts;
  /// GET only: the largest body accepted, in bytes; 0 means no limit.  A
  /// declared Content-Length above it is refused before any byte is
  /// written, and a body without (or with a false) length is cut as soon
  /// as it passes the limit.
  std::uint64_t max_bytes = 0;
  /// Optional: libcurl's informational text and the headers sent and
  /// received, one line per call, with Authorization, Cookie and SMTP AUTH
  /// values replaced by "[redacted]".  Bodies are never passed.
  std::function<void(std::string_view line)> debug;
  /// Optional: bytes received so far and the total (-1 when unknown).
  /// Called often; keep it cheap.
  std::function<void(std::int64_t done, std::int64_t total)> progress;
};

/// The one error the transport throws.  kind is decided by
/// classify_curl / classify_http_status (core/errors.cpp).
///
/// not_delivered: HTTP 404/410, or a missing file:// / sftp:// file.  The
/// kind is transient (exit 75), but the sender simply has not published
/// yet: the caller should stop at once (nothing registered) instead of
/// spending its retry budget on it.
struct TransportError : LoaderError
{
  TransportError(ErrorKind k, std::string const &what, int curl, long status,
                 bool missing, std::optional<std::chrono::seconds> after) :
          LoaderError{k, what},
          curl_code{curl},
          http_status{status},
          not_delivered{missing}
  {
    if (after) retry_after = *after;
  }
  int curl_code;      ///< CURLcode; 0 when the transfer worked but HTTP failed
  long http_status;   ///< the server's final status, 0 when none
  bool not_delivered; ///< see above
  bool too_large = false; ///< the body passed TransferOptions::max_bytes
  // The server's Retry-After (429, 503, ...) is LoaderError::retry_after.
};

/// A complete spooled body: the file is fsynced and named by its hash.
struct Downloaded
{
  std::string path;       ///< <spool_dir>/<sha256>
  std::string sha256;     ///< lower-case hex
  std::uint64_t size = 0; ///< bytes
  std::string etag;       ///< the server's validators, "" when none
  std::string last_modified;
  long http_status = 0;      ///< 200, 304, ...; 0 for file:// and sftp://
  bool not_modified = false; ///< 304: nothing transferred, earlier file
  std::string url;           ///< the effective URL, redacted
};

struct DownloadOptions
{
  TransferOptions transfer;
  /// Send If-None-Match / If-Modified-Since from the sidecar of an earlier
  /// download of this URL whose spooled file is still there.
  bool conditional = true;
  /// Optional: told of every redirect followed (status, from, to; both
  /// URLs without userinfo), for the run's log.
  std::function<void(long status, std::string const &from,
                     std::string const &to)>
    on_redirect;
};

/// Why a redirect from `from` to `to` is refused, or "" when the policy
/// follows it: the same scheme, host and port; or a host of allowed_hosts
/// (case-insensitive) over http or https, never from https down to http.
std::string redirect_problem(std::string const &from, std::string const &to,
                             std::vector<std::string> const &allowed_hosts);

/// GET url (http, https, file, sftp where libcurl has it) into spool_dir
/// (created if missing, mode 0700).  The body is written to a temporary
/// file in spool_dir while it is hashed, checked against Content-Length,
/// fsynced and renamed to its SHA-256; only that complete file is ever
/// returned.  Any failure leaves no file behind and throws TransportError:
/// a cut body (curl 18) or a Content-Length mismatch is transient; a body
/// larger than transfer.max_bytes is config (the same file would be as
/// large on every retry) with too_large set.
///
/// Conditional GET: validators of the last 200 are kept in
/// <spool_dir>/<sha256 of the redacted URL>.meta (key=value lines); a 304
/// returns that earlier file with not_modified set, without a body.
Downloaded download(std::string const &url, std::string const &spool_dir,
                    DownloadOptions const &options = {});

/// Remove the temporary files (".part-*") an interrupted download (a
/// killed process) left in spool_dir, if not modified for older_than.
/// Complete spooled files and sidecars are never touched.  Returns how
/// many were removed; a missing spool_dir is 0.
std::size_t remove_stale_temporaries(std::string const &spool_dir,
                                     std::chrono::seconds older_than);

/// The server's answer to a POST.  HTTP errors are not thrown: the caller
/// decides with classify_http_status(http_status).
struct PostResult
{
  long http_status = 0;
  std::string body_head; ///< the first bytes of the response body (<= 1 KiB)
  std::optional<std::chrono::seconds> retry_after;
};

/// POST body to url (http, https) with extra header lines
/// ("Idempotency-Key: k", "Content-Type: application/json").  One request,
/// no redirects followed.  Throws TransportError only when no HTTP answer
/// came (connect failure, reset, timeout): the request may or may not have
/// reached the server, so only an idempotent POST may be sent again.
PostResult post(std::string const &url, std::string_view body,
                std::vector<std::string> const &headers,
                TransferOptions const &options = {});

/// What became of a mail (at-most-once delivery needs to know).
enum class MailOutcome
{
  accepted, ///< the server answered 250 to the end of DATA
  rejected, ///< the server refused it with a reply code: not delivered
  not_sent, ///< failed before the whole message was handed over
  in_doubt, ///< the whole message went out, no final reply came
};
std::string_view name_of(MailOutcome outcome) noexcept;

struct MailResult
{
  MailOutcome outcome = MailOutcome::not_sent;
  long smtp_code = 0; ///< the last SMTP reply code seen, 0 when none
  int curl_code = 0;  ///< CURLcode of the transfer
  /// For anything but accepted: what to do next, as classify_smtp_reply /
  /// classify_curl decide.  in_doubt is ErrorKind::in_doubt.
  ErrorKind kind = ErrorKind::internal;
  std::string detail; ///< one line for the log, URL redacted
  bool data_accepted() const noexcept
  {
    return outcome == MailOutcome::accepted;
  }
};

struct MailOptions
{
  TransferOptions transfer;
  /// smtp:// uses STARTTLS when the server offers it (CURLUSESSL_TRY);
  /// true makes TLS mandatory (CURLUSESSL_ALL).  smtps:// is always TLS.
  bool require_tls = false;
};

/// Send one RFC 5322 message (headers, blank line, body; CRLF line ends;
/// libcurl does the dot-stuffing) from `from` to every address of `to`
/// over smtp:// or smtps:// (credentials in the URL's userinfo or the
/// netrc file).  Never throws for a transfer failure: the outcome says
/// whether the message may have been delivered.
MailResult send_mail(std::string const &url, std::string const &from,
                     std::vector<std::string> const &to,
                     std::string_view message,
                     MailOptions const &options = {});

/// The URL with its userinfo (user, password, login options) removed,
/// parsed by libcurl's URL API; for every log line and message.  A string
/// libcurl cannot parse comes back as "(unparseable URL)" if it holds an
/// '@', as itself otherwise (a local path has nothing to hide).
std::string redact_url(std::string const &url);

/// The URL's scheme in lower case ("https"), "" when it has none.
std::string scheme_of(std::string const &url);

/// A feed URL template with every "{date}" replaced by the business date
/// (YYYY-MM-DD, which needs no URL encoding).
std::string expand_feed_template(std::string const &url_template,
                                 std::string const &business_date);

/// What is wrong with a feed URL template, or "" when nothing is: it must
/// hold the placeholder "{date}" at least once and no other brace, written
/// ("{DATE}", "{day}", an unclosed "{date") or percent-encoded ("%7B",
/// "%7D"), since catch-up would otherwise fetch the same literal URL for
/// every business date.
std::string feed_template_problem(std::string const &url_template);

/// The manifest next to an input: "<url>.manifest.json"
/// (docs/reference/input-file.md), the suffix added to the URL's path so
/// that a query string ("?token=...") stays at the end.  A local path just
/// gets the suffix.
std::string manifest_url_for(std::string const &input);

/// The default --spool-dir: $XDG_CACHE_HOME/invoice-loader/spool when
/// XDG_CACHE_HOME is an absolute path, else /var/tmp/invoice-loader-<uid>.
std::string default_spool_dir();

/// Input schemes the linked libcurl offers, from http, https, file, sftp
/// (curl_version_info), for --help and for the checks in download().
std::vector<std::string> supported_protocols();
/// The same for smtp, smtps.
std::vector<std::string> supported_mail_protocols();
/// libcurl's version line, e.g. "libcurl/7.88.1 OpenSSL/3.0.11 ...".
std::string curl_version_line();

/// A Retry-After value: delta-seconds ("120") or an HTTP date (IMF-fixdate
/// and the two obsolete forms, parsed by curl_getdate) turned into seconds
/// after `now` (0 when already past).  nullopt when it is neither.
std::optional<std::chrono::seconds> parse_retry_after(
  std::string_view value, std::chrono::system_clock::time_point now =
                            std::chrono::system_clock::now());
} // namespace loader::net
