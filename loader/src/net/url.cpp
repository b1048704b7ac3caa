// URL helpers, protocol lists and Retry-After: the parts of the transport
// that need no transfer.
#include <cctype>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <utility>

#include <unistd.h>

#include "net/curl_easy.hpp"

namespace loader::net
{
namespace
{
std::string lower(std::string s)
{
  for (auto &c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::vector<std::string> offered(std::vector<std::string> const &wanted)
{
  std::vector<std::string> out;
  auto const *info = curl_version_info(CURLVERSION_NOW);
  for (auto const &w : wanted)
    for (char const *const *p = info->protocols; *p != nullptr; ++p)
      if (w == *p) out.push_back(w);
  return out;
}
} // namespace

std::string redact_url(std::string const &url)
{
  detail::UrlHandle u{curl_url()};
  if (u and curl_url_set(u.get(), CURLUPART_URL, url.c_str(),
                         CURLU_NON_SUPPORT_SCHEME) == CURLUE_OK)
  {
    curl_url_set(u.get(), CURLUPART_USER, nullptr, 0);
    curl_url_set(u.get(), CURLUPART_PASSWORD, nullptr, 0);
    curl_url_set(u.get(), CURLUPART_OPTIONS, nullptr, 0);
    char *out = nullptr;
    if (curl_url_get(u.get(), CURLUPART_URL, &out, 0) == CURLUE_OK and
        out != nullptr)
    {
      std::string s{out};
      curl_free(out);
      return s;
    }
  }
  // Not a URL libcurl understands: a local path (nothing to hide), or
  // something that may still carry a "user:password@".
  return url.find('@') == std::string::npos ? url : "(unparseable URL)";
}

std::string scheme_of(std::string const &url)
{
  detail::UrlHandle u{curl_url()};
  if (not u or curl_url_set(u.get(), CURLUPART_URL, url.c_str(),
                            CURLU_NON_SUPPORT_SCHEME) != CURLUE_OK)
    return {};
  char *out = nullptr;
  if (curl_url_get(u.get(), CURLUPART_SCHEME, &out, 0) != CURLUE_OK or
      out == nullptr)
    return {};
  std::string s{out};
  curl_free(out);
  return lower(s);
}

std::string expand_feed_template(std::string const &url_template,
                                 std::string const &business_date)
{
  static std::string const marker = "{date}";
  std::string out = url_template;
  for (auto pos = out.find(marker); pos != std::string::npos;
       pos = out.find(marker, pos + business_date.size()))
    out.replace(pos, marker.size(), business_date);
  return out;
}

std::string feed_template_problem(std::string const &t)
{
  static std::string const marker = "{date}";
  std::size_t found = 0;
  for (std::size_t i = 0; i < t.size(); ++i)
  {
    if (t.compare(i, marker.size(), marker) == 0)
    {
      ++found;
      i += marker.size() - 1;
      continue;
    }
    if (t[i] == '{')
    {
      auto const close = t.find('}', i);
      if (close == std::string::npos)
        return "an unclosed '{' at character " + std::to_string(i + 1) +
               " (the only placeholder is {date})";
      return "the placeholder '" + t.substr(i, close - i + 1) +
             "' is not {date} (the only placeholder, in lower case)";
    }
    if (t[i] == '}')
      return "a '}' without its '{' at character " + std::to_string(i + 1);
    if (t[i] == '%' and i + 2 < t.size() and t[i + 1] == '7')
    {
      char const c = static_cast<char>(
        std::tolower(static_cast<unsigned char>(t[i + 2])));
      if (c == 'b' or c == 'd')
        return "an encoded brace '" + t.substr(i, 3) +
               "' (write the placeholder as {date}, not encoded)";
    }
  }
  if (found == 0)
    return "no {date} placeholder, so every business date would fetch the "
           "same file";
  return {};
}

namespace
{
struct Origin
{
  std::string scheme, host, port;
};

std::optional<Origin> origin_of(std::string const &url)
{
  detail::UrlHandle u{curl_url()};
  if (not u or curl_url_set(u.get(), CURLUPART_URL, url.c_str(),
                            CURLU_NON_SUPPORT_SCHEME) != CURLUE_OK)
    return std::nullopt;
  Origin o;
  for (auto [part, out] : {std::pair{CURLUPART_SCHEME, &o.scheme},
                           std::pair{CURLUPART_HOST, &o.host},
                           std::pair{CURLUPART_PORT, &o.port}})
  {
    char *v = nullptr;
    // file:// has no host and no port: left empty.
    if (curl_url_get(u.get(), part, &v,
                     part == CURLUPART_PORT ? CURLU_DEFAULT_PORT : 0) ==
          CURLUE_OK and
        v != nullptr)
      *out = lower(v);
    curl_free(v);
  }
  return o;
}
} // namespace

std::string redirect_problem(std::string const &from, std::string const &to,
                             std::vector<std::string> const &allowed_hosts)
{
  auto const a = origin_of(from);
  auto const b = origin_of(to);
  if (not a or not b) return "not a URL";
  if (a->scheme == b->scheme and a->host == b->host and a->port == b->port)
    return {};
  bool const web = b->scheme == "https" or
                   (b->scheme == "http" and a->scheme == "http");
  if (not web)
    return "the scheme changes from " + a->scheme + " to " + b->scheme +
           " (only http to https, or the same scheme, may be followed)";
  for (auto const &h : allowed_hosts)
    if (lower(h) == b->host) return {};
  return "another scheme, host or port (" + b->scheme + "://" + b->host + ":" +
         b->port + "); allow the host with --allow-redirect-host " + b->host;
}

std::string manifest_url_for(std::string const &input)
{
  static char const suffix[] = ".manifest.json";
  detail::UrlHandle u{curl_url()};
  char *path = nullptr;
  if (input.find("://") == std::string::npos or not u or
      curl_url_set(u.get(), CURLUPART_URL, input.c_str(),
                   CURLU_NON_SUPPORT_SCHEME) != CURLUE_OK or
      curl_url_get(u.get(), CURLUPART_PATH, &path, 0) != CURLUE_OK or
      path == nullptr)
    return input + suffix;
  std::string const p = std::string{path} + suffix;
  curl_free(path);
  char *out = nullptr;
  if (curl_url_set(u.get(), CURLUPART_PATH, p.c_str(), 0) != CURLUE_OK or
      curl_url_get(u.get(), CURLUPART_URL, &out, 0) != CURLUE_OK or
      out == nullptr)
    return input + suffix;
  std::string s{out};
  curl_free(out);
  return s;
}

std::string default_spool_dir()
{
  if (char const *xdg = std::getenv("XDG_CACHE_HOME");
      xdg != nullptr and xdg[0] == '/')
    return std::string{xdg} + "/invoice-loader/spool";
  return "/var/tmp/invoice-loader-" + std::to_string(::getuid());
}

std::vector<std::string> supported_protocols()
{
  return offered({"http", "https", "file", "sftp"});
}

std::vector<std::string> supported_mail_protocols()
{
  return offered({"smtp", "smtps"});
}

std::string curl_version_line()
{
  return curl_version();
}

std::string_view name_of(MailOutcome outcome) noexcept
{
  switch (outcome)
  {
  case MailOutcome::accepted: return "accepted";
  case MailOutcome::rejected: return "rejected";
  case MailOutcome::not_sent: return "not_sent";
  case MailOutcome::in_doubt: return "in_doubt";
  }
  return "in_doubt";
}

std::optional<std::chrono::seconds> parse_retry_after(
  std::string_view value, std::chrono::system_clock::time_point now)
{
  while (not value.empty() and (value.front() == ' ' or value.front() == '\t'))
    value.remove_prefix(1);
  while (not value.empty() and (value.back() == ' ' or value.back() == '\t' or
                                value.back() == '\r' or value.back() == '\n'))
    value.remove_suffix(1);
  if (value.empty()) return std::nullopt;

  // delta-seconds = 1*DIGIT (RFC 9110 10.2.3); saturate instead of
  // overflowing, the caller caps it anyway.
  bool digits = true;
  for (char c : value) digits = digits and c >= '0' and c <= '9';
  if (digits)
  {
    constexpr std::int64_t most = std::int64_t{1} << 40;
    std::int64_t n = 0;
    for (char c : value)
    {
      n = n * 10 + (c - '0');
      if (n > most)
      {
        n = most;
        break;
      }
    }
    return std::chrono::seconds{n};
  }

  // HTTP-date.  curl_getdate also takes looser forms; demand a weekday
  // name and a GMT zone, as all three RFC 9110 forms have, so "soon" or
  // "10 minutes" are not misread.
  std::string const text{value};
  std::string const low = lower(text);
  bool const has_day = low.find("mon") != std::string::npos or
                       low.find("tue") != std::string::npos or
                       low.find("wed") != std::string::npos or
                       low.find("thu") != std::string::npos or
                       low.find("fri") != std::string::npos or
                       low.find("sat") != std::string::npos or
                       low.find("sun") != std::string::npos;
  bool const asctime_form = text.find(':') != std::string::npos and
                            low.find("gmt") == std::string::npos;
  if (not has_day or
      (low.find("gmt") == std::string::npos and not asctime_form))
    return std::nullopt;
  time_t const at = curl_getdate(text.c_str(), nullptr);
  if (at == -1) return std::nullopt;
  auto const when = std::chrono::system_clock::from_time_t(at);
  if (when <= now) return std::chrono::seconds{0};
  // Round up: waiting a fraction too long is harmless, too short is not.
  auto const d = when - now;
  auto s = std::chrono::duration_cast<std::chrono::seconds>(d);
  if (s < d) ++s;
  return s;
}
} // namespace loader::net
