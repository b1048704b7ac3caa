#include "net/curl_easy.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <stdexcept>

#include <unistd.h>

#include <curl/header.h>

#include "core/interrupt.hpp"
#include "core/secret_file.hpp"
#include "core/version.hpp"

namespace loader::net::detail
{
void global_init()
{
  static std::once_flag once;
  std::call_once(once, [] {
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
      throw LoaderError{ErrorKind::internal, "curl_global_init failed"};
  });
}

void Slist::append(std::string const &line)
{
  curl_slist *next = curl_slist_append(m_list.get(), line.c_str());
  if (next == nullptr)
    throw LoaderError{ErrorKind::transient, "out of memory (curl_slist)"};
  m_list.release();
  m_list.reset(next);
}

namespace
{
bool istarts_with(std::string_view s, std::string_view prefix) noexcept
{
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i)
  {
    char a = s[i], b = prefix[i];
    if (a >= 'A' and a <= 'Z') a = static_cast<char>(a - 'A' + 'a');
    if (b >= 'A' and b <= 'Z') b = static_cast<char>(b - 'A' + 'a');
    if (a != b) return false;
  }
  return true;
}

/// One line libcurl sent: keep what cannot hold a secret.  HTTP header
/// values of Authorization, Proxy-Authorization and Cookie go; of the SMTP
/// dialogue only the plain commands stay, because AUTH LOGIN sends the user
/// and the password as bare base64 lines.
std::string redact_sent_line(std::string_view line)
{
  static char const *const secret_headers[] = {
    "authorization:", "proxy-authorization:", "cookie:", "x-api-key:",
    "x-auth-token:"};
  for (char const *h : secret_headers)
    if (istarts_with(line, h))
      return std::string{line.substr(0, std::strlen(h))} + " [redacted]";
  if (istarts_with(line, "AUTH ")) return "AUTH [redacted]";
  static char const *const plain[] = {
    "EHLO", "HELO", "MAIL FROM", "RCPT TO", "DATA",  "QUIT", "STARTTLS",
    "RSET", "NOOP", "GET ",      "POST ",   "HEAD ", "PUT "};
  for (char const *p : plain)
    if (istarts_with(line, p)) return std::string{line};
  // An HTTP header line "Name: value" that is not a secret one.
  auto const colon = line.find(':');
  if (colon != std::string_view::npos and colon > 0 and
      line.substr(0, colon).find(' ') == std::string_view::npos)
    return std::string{line};
  return line.empty() ? std::string{} : "[redacted]";
}

std::size_t discard(char *, std::size_t, std::size_t n, void *)
{
  return n;
}

int on_progress(void *user, curl_off_t dltotal, curl_off_t dlnow, curl_off_t,
                curl_off_t)
{
  // SIGTERM/SIGINT (core/interrupt.hpp): abort the transfer
  // (CURLE_ABORTED_BY_CALLBACK); the caller reports the interruption.
  if (loader::interrupted() != 0) return 1;
  auto const &cb =
    *static_cast<std::function<void(std::int64_t, std::int64_t)> *>(user);
  try
  {
    cb(static_cast<std::int64_t>(dlnow),
       dltotal > 0 ? static_cast<std::int64_t>(dltotal) : -1);
  }
  catch (...)
  {
    // No exception may cross libcurl's C frames; a progress display that
    // fails is not worth failing the transfer for.
  }
  return 0;
}
} // namespace

std::vector<std::string> secrets_of(std::string const &url)
{
  std::vector<std::string> out;
  UrlHandle u{curl_url()};
  if (not u or curl_url_set(u.get(), CURLUPART_URL, url.c_str(),
                            CURLU_NON_SUPPORT_SCHEME) != CURLUE_OK)
    return out;
  for (CURLUPart part :
       {CURLUPART_USER, CURLUPART_PASSWORD, CURLUPART_OPTIONS})
    for (unsigned flags : {0u, unsigned{CURLU_URLDECODE}})
    {
      char *value = nullptr;
      if (curl_url_get(u.get(), part, &value, flags) == CURLUE_OK and
          value != nullptr)
      {
        if (*value != '\0') out.emplace_back(value);
        curl_free(value);
      }
    }
  return out;
}

std::string scrub(std::string text, std::vector<std::string> const &secrets)
{
  for (auto const &s : secrets)
  {
    if (s.empty()) continue;
    for (auto pos = text.find(s); pos != std::string::npos;
         pos = text.find(s, pos + 3))
      text.replace(pos, s.size(), "***");
  }
  return text;
}

std::string allowed(std::vector<std::string> const &wanted)
{
  std::string out;
  auto const *info = curl_version_info(CURLVERSION_NOW);
  for (auto const &w : wanted)
    for (char const *const *p = info->protocols; *p != nullptr; ++p)
      if (w == *p)
      {
        if (not out.empty()) out += ',';
        out += w;
      }
  return out;
}

namespace
{
/// Debug lines: split libcurl's chunks into lines, redact, hand over.
int debug_trampoline(CURL *, curl_infotype type, char *data, std::size_t size,
                     void *user)
{
  if (type != CURLINFO_TEXT and type != CURLINFO_HEADER_IN and
      type != CURLINFO_HEADER_OUT)
    return 0;
  auto const &ctx = *static_cast<DebugContext const *>(user);
  std::string_view chunk{data, size};
  char const *prefix = type == CURLINFO_TEXT        ? "* "
                       : type == CURLINFO_HEADER_IN ? "< "
                                                    : "> ";
  while (not chunk.empty())
  {
    auto const nl = chunk.find('\n');
    std::string_view line = chunk.substr(0, nl);
    chunk = nl == std::string_view::npos ? std::string_view{}
                                         : chunk.substr(nl + 1);
    if (not line.empty() and line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    std::string shown = type == CURLINFO_HEADER_OUT ? redact_sent_line(line)
                                                    : std::string{line};
    if (type == CURLINFO_HEADER_IN and istarts_with(line, "set-cookie:"))
      shown = "Set-Cookie: [redacted]";
    try
    {
      (*ctx.sink)(prefix + scrub(std::move(shown), *ctx.secrets));
    }
    catch (...)
    {
      return 0; // never through libcurl's C frames; drop the line
    }
  }
  return 0;
}
} // namespace

Easy::Easy(std::string const &url, TransferOptions const &options,
           std::string const &protocols) :
        m_url{url},
        m_redacted{redact_url(url)},
        m_secrets{secrets_of(url)},
        m_options{options},
        m_errbuf{}
{
  global_init();
  m_h.reset(curl_easy_init());
  if (not m_h) throw LoaderError{ErrorKind::internal, "curl_easy_init failed"};

  set(CURLOPT_ERRORBUFFER, m_errbuf);
  set(CURLOPT_NOSIGNAL, 1L);
  set(CURLOPT_NOPROGRESS, 1L);
  set(CURLOPT_VERBOSE, 0L);
  // Unsupported schemes are refused by libcurl as CURLE_UNSUPPORTED_PROTOCOL
  // (config) before any connection.
  if (protocols.empty())
    throw TransportError{ErrorKind::config,
                         "no usable protocol for " + m_redacted +
                           " in the linked libcurl",
                         CURLE_UNSUPPORTED_PROTOCOL,
                         0,
                         false,
                         std::nullopt};
  set(CURLOPT_PROTOCOLS_STR, protocols.c_str());
  set(CURLOPT_FOLLOWLOCATION, 0L);
  set(CURLOPT_CONNECTTIMEOUT_MS,
      static_cast<long>(m_options.connect_timeout.count()));
  set(CURLOPT_LOW_SPEED_LIMIT, m_options.low_speed_limit);
  set(CURLOPT_LOW_SPEED_TIME,
      std::max(1L, static_cast<long>(m_options.low_speed_time.count())));
  set(CURLOPT_TIMEOUT_MS, static_cast<long>(m_options.total_timeout.count()));
  // SMTP's reply wait uses its own timer; bound it the same way.
  set(CURLOPT_SERVER_RESPONSE_TIMEOUT,
      std::max(1L, static_cast<long>(m_options.low_speed_time.count())));
  set(CURLOPT_USERAGENT,
      (std::string{"invoice-loader/"} + loader::version).c_str());

  if (not m_options.ca_file.empty())
    set(CURLOPT_CAINFO, m_options.ca_file.c_str());
  if (not m_options.netrc_file.empty())
  {
    // The same rule as the --config file's: it holds passwords.
    std::optional<std::string> refusal{
      secret_file_refusal("--netrc-file", m_options.netrc_file)};
    if (not refusal and ::access(m_options.netrc_file.c_str(), R_OK) != 0)
      refusal = "--netrc-file " + m_options.netrc_file +
                " cannot be read: " + std::strerror(errno);
    if (refusal)
      throw TransportError{ErrorKind::config, *refusal, 0, 0, false,
                           std::nullopt};
    set(CURLOPT_NETRC, static_cast<long>(CURL_NETRC_OPTIONAL));
    set(CURLOPT_NETRC_FILE, m_options.netrc_file.c_str());
  }
  if (scheme_of(url) == "sftp")
  {
    std::string known = m_options.ssh_known_hosts;
    if (known.empty())
      if (char const *home = std::getenv("HOME"))
        known = std::string{home} + "/.ssh/known_hosts";
    // Without a known_hosts file libcurl accepts any host key.
    if (known.empty() or ::access(known.c_str(), R_OK) != 0)
      throw TransportError{
        ErrorKind::config,
        "sftp needs a readable known_hosts file (" +
          (known.empty() ? std::string{"$HOME unset"} : known) +
          ") to verify " + m_redacted,
        0,
        0,
        false,
        std::nullopt};
    m_options.ssh_known_hosts = known;
    set(CURLOPT_SSH_KNOWNHOSTS, m_options.ssh_known_hosts.c_str());
  }
  if (m_options.debug)
  {
    m_debug_ctx = DebugContext{&m_options.debug, &m_secrets};
    set(CURLOPT_DEBUGFUNCTION, debug_trampoline);
    set(CURLOPT_DEBUGDATA, static_cast<void *>(&m_debug_ctx));
    set(CURLOPT_VERBOSE, 1L);
  }
  if (m_options.progress)
  {
    set(CURLOPT_XFERINFOFUNCTION, on_progress);
    set(CURLOPT_XFERINFODATA, static_cast<void *>(&m_options.progress));
    set(CURLOPT_NOPROGRESS, 0L);
  }
  // Whatever a transfer receives goes nowhere unless the caller says where
  // (libcurl's default writes it to stdout).
  set(CURLOPT_WRITEFUNCTION, discard);
  set(CURLOPT_URL, m_url.c_str());
}

void Easy::check_setopt(CURLoption opt, CURLcode rc) const
{
  if (rc == CURLE_OK) return;
  throw TransportError{classify_curl(rc) == ErrorKind::config
                         ? ErrorKind::config
                         : ErrorKind::internal,
                       "curl_easy_setopt(" + std::to_string(opt) + ") for " +
                         m_redacted + " failed: " + curl_easy_strerror(rc),
                       rc,
                       0,
                       false,
                       std::nullopt};
}

void Easy::retarget(std::string const &url)
{
  m_url = url;
  m_redacted = redact_url(url);
  m_secrets = secrets_of(url);
  set(CURLOPT_URL, m_url.c_str());
}

CURLcode Easy::perform()
{
  m_errbuf[0] = '\0';
  return curl_easy_perform(m_h.get());
}

long Easy::response_code() const
{
  long code = 0;
  curl_easy_getinfo(m_h.get(), CURLINFO_RESPONSE_CODE, &code);
  return code;
}

std::string Easy::header(char const *name) const
{
  curl_header *h = nullptr;
  if (curl_easy_header(m_h.get(), name, 0, CURLH_HEADER, -1, &h) !=
        CURLHE_OK or
      h == nullptr or h->value == nullptr)
    return {};
  return h->value;
}

std::string Easy::error_text(CURLcode code) const
{
  std::string text{m_errbuf[0] != '\0' ? m_errbuf : curl_easy_strerror(code)};
  while (not text.empty() and (text.back() == '\n' or text.back() == '\r'))
    text.pop_back();
  return scrub(std::move(text), m_secrets);
}

void throw_curl(Easy const &easy, std::string const &verb, CURLcode code)
{
  std::string after = easy.header("Retry-After");
  long const status = easy.response_code();
  ErrorKind kind = classify_curl(code);
  // A TLS handshake that failed because the socket did (a reset, errno
  // set) is a network failure like any other; one the TLS layer refused
  // (wrong version, an alert, errno 0) stays config.
  long os_errno = 0;
  curl_easy_getinfo(easy.get(), CURLINFO_OS_ERRNO, &os_errno);
  if (code == CURLE_SSL_CONNECT_ERROR and os_errno != 0)
    kind = ErrorKind::transient;
  throw TransportError{
    kind,
    verb + " " + easy.redacted_url() + ": " + easy.error_text(code) +
      " (curl " + std::to_string(static_cast<int>(code)) + ")",
    static_cast<int>(code),
    status,
    is_not_delivered_curl(code),
    after.empty() ? std::nullopt : parse_retry_after(after)};
}
} // namespace loader::net::detail
