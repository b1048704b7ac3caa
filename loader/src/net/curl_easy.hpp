#pragma once
/// RAII around libcurl's handles, and the settings every transfer of the
/// loader shares.  Internal to net/: callers use net/transport.hpp.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <curl/curl.h>

#include "net/transport.hpp"

namespace loader::net::detail
{
/// curl_global_init once per process (thread-safe since 7.84).
void global_init();

struct EasyDeleter
{
  void operator()(CURL *h) const noexcept { curl_easy_cleanup(h); }
};
struct SlistDeleter
{
  void operator()(curl_slist *l) const noexcept { curl_slist_free_all(l); }
};
struct UrlDeleter
{
  void operator()(CURLU *u) const noexcept { curl_url_cleanup(u); }
};
using UrlHandle = std::unique_ptr<CURLU, UrlDeleter>;

/// What the debug callback needs; points into the Easy that owns it.
struct DebugContext
{
  std::function<void(std::string_view)> const *sink = nullptr;
  std::vector<std::string> const *secrets = nullptr;
};

/// A list of strings for CURLOPT_HTTPHEADER / CURLOPT_MAIL_RCPT.
class Slist
{
public:
  void append(std::string const &line);
  curl_slist *get() const noexcept { return m_list.get(); }

private:
  std::unique_ptr<curl_slist, SlistDeleter> m_list;
};

/// One easy handle with the shared settings applied: timeouts, CA, netrc,
/// protocol allow-list, no signals, no progress meter, no VERBOSE unless a
/// redacting debug callback is set, an error buffer.
class Easy
{
public:
  /// protocols: libcurl's comma list ("http,https") allowed for url.
  Easy(std::string const &url, TransferOptions const &options,
       std::string const &protocols);
  Easy(Easy const &) = delete;
  Easy &operator=(Easy const &) = delete;

  CURL *get() const noexcept { return m_h.get(); }
  /// Set an option; a refusal is a bug or a libcurl without the feature.
  template<typename T> void set(CURLoption opt, T value)
  {
    check_setopt(opt, curl_easy_setopt(m_h.get(), opt, value));
  }

  /// curl_easy_perform; returns its code (never throws).
  CURLcode perform();

  long response_code() const;
  /// A response header of the last request, "" when absent.
  std::string header(char const *name) const;

  std::string const &redacted_url() const noexcept { return m_redacted; }
  /// Point the handle at another URL (a redirect followed by hand).
  void retarget(std::string const &url);
  /// libcurl's message for the last failure (its error buffer, else
  /// curl_easy_strerror), with the URL's userinfo scrubbed.
  std::string error_text(CURLcode code) const;

private:
  void check_setopt(CURLoption opt, CURLcode rc) const;

  std::unique_ptr<CURL, EasyDeleter> m_h;
  std::string m_url;
  std::string m_redacted;
  std::vector<std::string> m_secrets; ///< userinfo parts to scrub
  TransferOptions m_options;          ///< outlives the callbacks
  DebugContext m_debug_ctx;
  char m_errbuf[CURL_ERROR_SIZE];
};

/// The userinfo of url (user, password, options), decoded and raw, for
/// scrubbing messages; empty when there is none or url does not parse.
std::vector<std::string> secrets_of(std::string const &url);

/// Remove every secret from text.
std::string scrub(std::string text, std::vector<std::string> const &secrets);

/// The protocols of `wanted` that the linked libcurl offers, comma-joined.
std::string allowed(std::vector<std::string> const &wanted);

/// Throw the TransportError for a failed transfer (code != CURLE_OK).
[[noreturn]] void throw_curl(Easy const &easy, std::string const &verb,
                             CURLcode code);
} // namespace loader::net::detail
