#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>

#include <unistd.h>

#include <curl/curl.h>

#include "core/errors.hpp"
#include "net/transport.hpp"

using loader::classify_curl;
using loader::classify_http_status;
using loader::classify_smtp_reply;
using loader::ErrorKind;
using loader::exit_code_of;
using loader::is_not_delivered_curl;
using loader::is_not_delivered_http;

TEST_CASE("classify_curl: network and server trouble is transient",
          "[unit][net]")
{
  auto const code = GENERATE(
    CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_RESOLVE_HOST,
    CURLE_COULDNT_CONNECT, CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP2,
    CURLE_PARTIAL_FILE, CURLE_OUT_OF_MEMORY, CURLE_OPERATION_TIMEDOUT,
    CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR,
    CURLE_SSL_SHUTDOWN_FAILED, CURLE_AGAIN, CURLE_SSH, CURLE_HTTP2_STREAM,
    CURLE_HTTP3, CURLE_QUIC_CONNECT_ERROR, CURLE_PROXY,
    CURLE_UNRECOVERABLE_POLL);
  CAPTURE(code, curl_easy_strerror(code));
  CHECK(classify_curl(code) == ErrorKind::transient);
  CHECK(exit_code_of(classify_curl(code)) == 75);
  CHECK_FALSE(is_not_delivered_curl(code));
}

TEST_CASE("classify_curl: a missing remote file is not delivered yet",
          "[unit][net]")
{
  auto const code = GENERATE(CURLE_REMOTE_FILE_NOT_FOUND,
                             CURLE_FILE_COULDNT_READ_FILE);
  CAPTURE(code);
  CHECK(classify_curl(code) == ErrorKind::transient);
  CHECK(is_not_delivered_curl(code));
}

TEST_CASE("classify_curl: refused logins are permission failures",
          "[unit][net]")
{
  auto const code = GENERATE(CURLE_REMOTE_ACCESS_DENIED, CURLE_LOGIN_DENIED,
                             CURLE_AUTH_ERROR);
  CAPTURE(code);
  CHECK(classify_curl(code) == ErrorKind::permission);
  CHECK(exit_code_of(classify_curl(code)) == 77);
}

TEST_CASE("classify_curl: TLS trust, URL and protocol problems are config",
          "[unit][net]")
{
  auto const code = GENERATE(
    CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT, CURLE_NOT_BUILT_IN,
    CURLE_SSL_CONNECT_ERROR, CURLE_TOO_MANY_REDIRECTS, CURLE_INTERFACE_FAILED,
    CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
    CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_PEER_FAILED_VERIFICATION,
    CURLE_BAD_CONTENT_ENCODING, CURLE_FILESIZE_EXCEEDED, CURLE_USE_SSL_FAILED,
    CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_CACERT_BADFILE,
    CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR,
    CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS,
    CURLE_SSL_CLIENTCERT, CURLE_QUOTE_ERROR);
  CAPTURE(code, curl_easy_strerror(code));
  CHECK(classify_curl(code) == ErrorKind::config);
  CHECK(exit_code_of(classify_curl(code)) == 78);
}

TEST_CASE("classify_curl: our own misuse and success are internal",
          "[unit][net]")
{
  auto const code = GENERATE(CURLE_OK, CURLE_FAILED_INIT,
                             CURLE_BAD_FUNCTION_ARGUMENT, CURLE_WRITE_ERROR,
                             CURLE_READ_ERROR, CURLE_ABORTED_BY_CALLBACK);
  CAPTURE(code);
  CHECK(classify_curl(code) == ErrorKind::internal);
}

TEST_CASE("classify_http_status: the contract's table", "[unit][net]")
{
  SECTION("408, 429 and every 5xx are transient")
  {
    auto const s = GENERATE(408, 429, 500, 502, 503, 504, 507, 599);
    CAPTURE(s);
    CHECK(classify_http_status(s) == ErrorKind::transient);
    CHECK_FALSE(is_not_delivered_http(s));
  }
  SECTION("401, 403 and 407 are credential failures (77)")
  {
    auto const s = GENERATE(401, 403, 407);
    CAPTURE(s);
    CHECK(classify_http_status(s) == ErrorKind::permission);
    CHECK(exit_code_of(classify_http_status(s)) == 77);
  }
  SECTION("404 and 410 are not delivered yet: transient, marked")
  {
    auto const s = GENERATE(404, 410);
    CAPTURE(s);
    CHECK(classify_http_status(s) == ErrorKind::transient);
    CHECK(exit_code_of(classify_http_status(s)) == 75);
    CHECK(is_not_delivered_http(s));
  }
  SECTION("other 4xx and unfollowed 3xx are configuration errors")
  {
    auto const s = GENERATE(400, 405, 406, 409, 411, 413, 414, 415, 418, 422,
                            451, 300, 301, 302, 304, 307, 308);
    CAPTURE(s);
    CHECK(classify_http_status(s) == ErrorKind::config);
    CHECK_FALSE(is_not_delivered_http(s));
  }
  SECTION("success statuses are not failures: internal if asked")
  {
    auto const s = GENERATE(100, 200, 201, 204, 206);
    CAPTURE(s);
    CHECK(classify_http_status(s) == ErrorKind::internal);
  }
  SECTION("a number that is no HTTP status is a broken server: transient")
  {
    auto const s = GENERATE(0, 99, 600, 999);
    CAPTURE(s);
    CHECK(classify_http_status(s) == ErrorKind::transient);
  }
}

TEST_CASE("classify_smtp_reply: 4xx later, 5xx never, auth is permission",
          "[unit][net]")
{
  CHECK(classify_smtp_reply(421) == ErrorKind::transient);
  CHECK(classify_smtp_reply(450) == ErrorKind::transient);
  CHECK(classify_smtp_reply(452) == ErrorKind::transient);
  CHECK(classify_smtp_reply(530) == ErrorKind::permission);
  CHECK(classify_smtp_reply(535) == ErrorKind::permission);
  CHECK(classify_smtp_reply(550) == ErrorKind::config);
  CHECK(classify_smtp_reply(554) == ErrorKind::config);
  CHECK(classify_smtp_reply(250) == ErrorKind::internal);
  CHECK(classify_smtp_reply(354) == ErrorKind::internal);
}

TEST_CASE("redact_url: userinfo never survives", "[unit][net]")
{
  using loader::net::redact_url;
  SECTION("user and password")
  {
    auto const r = redact_url("https://alice:s3cr%40t@feeds.example.com:8443"
                              "/acme/2026-11-30.csv?x=1");
    CHECK(r == "https://feeds.example.com:8443/acme/2026-11-30.csv?x=1");
  }
  SECTION("user only, and login options")
  {
    CHECK(redact_url("sftp://bob@host.example/in/day.csv") ==
          "sftp://host.example/in/day.csv");
    CHECK(redact_url("smtp://mailer:pw;AUTH=PLAIN@mx.example:587") ==
          "smtp://mx.example:587/");
  }
  SECTION("a URL without userinfo is unchanged but for libcurl's form")
  {
    CHECK(redact_url("http://127.0.0.1:8080/a%20b.csv") ==
          "http://127.0.0.1:8080/a%20b.csv");
    CHECK(redact_url("file:///var/spool/in/day.csv") ==
          "file:///var/spool/in/day.csv");
  }
  SECTION("what libcurl cannot parse")
  {
    CHECK(redact_url("/var/tmp/day.csv") == "/var/tmp/day.csv");
    CHECK(redact_url("http://user:pa ss@host/x") == "(unparseable URL)");
  }
}

TEST_CASE("scheme_of and supported_protocols", "[unit][net]")
{
  using namespace loader::net;
  CHECK(scheme_of("HTTPS://x.example/a") == "https");
  CHECK(scheme_of("file:///tmp/a") == "file");
  CHECK(scheme_of("/tmp/a").empty());
  auto const p = supported_protocols();
  // Debian's libcurl4-openssl-dev has all four; the list is never more.
  CHECK(std::find(p.begin(), p.end(), "http") != p.end());
  CHECK(std::find(p.begin(), p.end(), "https") != p.end());
  CHECK(std::find(p.begin(), p.end(), "file") != p.end());
  CHECK(p.size() <= 4);
  auto const m = supported_mail_protocols();
  CHECK(std::find(m.begin(), m.end(), "smtp") != m.end());
  CHECK(curl_version_line().rfind("libcurl/", 0) == 0);
}

TEST_CASE("parse_retry_after: delta-seconds and HTTP dates", "[unit][net]")
{
  using loader::net::parse_retry_after;
  using std::chrono::seconds;
  // Sun, 06 Nov 1994 08:49:37 GMT
  auto const now = std::chrono::system_clock::from_time_t(784111777);
  SECTION("delta-seconds")
  {
    CHECK(parse_retry_after("1", now) == seconds{1});
    CHECK(parse_retry_after(" 120 ", now) == seconds{120});
    CHECK(parse_retry_after("0", now) == seconds{0});
    CHECK(parse_retry_after("99999999999999999999999", now) ==
          seconds{std::int64_t{1} << 40});
  }
  SECTION("the three HTTP-date forms, relative to now")
  {
    CHECK(parse_retry_after("Sun, 06 Nov 1994 08:50:37 GMT", now) ==
          seconds{60});
    CHECK(parse_retry_after("Sunday, 06-Nov-94 08:49:47 GMT", now) ==
          seconds{10});
    CHECK(parse_retry_after("Sun Nov  6 08:49:39 1994", now) == seconds{2});
  }
  SECTION("a date already past means now")
  {
    CHECK(parse_retry_after("Sat, 05 Nov 1994 08:49:37 GMT", now) ==
          seconds{0});
  }
  SECTION("anything else is no value")
  {
    CHECK_FALSE(parse_retry_after("", now));
    CHECK_FALSE(parse_retry_after("-5", now));
    CHECK_FALSE(parse_retry_after("1.5", now));
    CHECK_FALSE(parse_retry_after("soon", now));
    CHECK_FALSE(parse_retry_after("10 minutes", now));
    CHECK_FALSE(parse_retry_after("Sun, 99 Nov 1994 99:99:99 GMT", now));
  }
}

TEST_CASE("expand_feed_template: every {date} becomes the business date",
          "[unit][net]")
{
  using loader::net::expand_feed_template;
  CHECK(
    expand_feed_template("https://x.example/acme/{date}.csv", "2026-11-30") ==
    "https://x.example/acme/2026-11-30.csv");
  CHECK(expand_feed_template("https://x.example/{date}/inv-{date}.csv",
                             "2026-11-30") ==
        "https://x.example/2026-11-30/inv-2026-11-30.csv");
  CHECK(expand_feed_template("https://x.example/fixed.csv", "2026-11-30") ==
        "https://x.example/fixed.csv");
}

TEST_CASE("manifest_url_for: the suffix goes on the path, before a query",
          "[unit][net]")
{
  using loader::net::manifest_url_for;
  CHECK(manifest_url_for("https://x.example/acme/2026-11-30.csv") ==
        "https://x.example/acme/2026-11-30.csv.manifest.json");
  CHECK(manifest_url_for("https://x.example/d.csv?token=abc") ==
        "https://x.example/d.csv.manifest.json?token=abc");
  CHECK(manifest_url_for("file:///in/d.csv") ==
        "file:///in/d.csv.manifest.json");
  CHECK(manifest_url_for("/in/d.csv") == "/in/d.csv.manifest.json");
}

TEST_CASE("default_spool_dir: XDG_CACHE_HOME when absolute, else /var/tmp",
          "[unit][net]")
{
  char const *was = std::getenv("XDG_CACHE_HOME");
  std::string const saved = was ? was : "";
  ::setenv("XDG_CACHE_HOME", "/home/u/.cache", 1);
  CHECK(loader::net::default_spool_dir() ==
        "/home/u/.cache/invoice-loader/spool");
  ::setenv("XDG_CACHE_HOME", "relative/cache", 1);
  CHECK(loader::net::default_spool_dir().rfind("/var/tmp/invoice-loader-",
                                               0) == 0);
  ::unsetenv("XDG_CACHE_HOME");
  CHECK(loader::net::default_spool_dir() ==
        "/var/tmp/invoice-loader-" + std::to_string(::getuid()));
  if (was) ::setenv("XDG_CACHE_HOME", saved.c_str(), 1);
}

TEST_CASE("redirect_problem: same origin, or an allowed host over http(s)",
          "[unit][net]")
{
  using loader::net::redirect_problem;
  std::vector<std::string> const none;
  std::vector<std::string> const cdn{"CDN.example"};
  CHECK(
    redirect_problem("https://a.example/x", "https://a.example:443/y", none)
      .empty());
  CHECK(redirect_problem("http://a.example:8080/x", "http://A.example:8080/y",
                         none)
          .empty());
  CHECK_FALSE(
    redirect_problem("http://a.example/x", "http://a.example:8080/y", none)
      .empty());
  CHECK_FALSE(
    redirect_problem("https://a.example/x", "https://cdn.example/y", none)
      .empty());
  CHECK(
    redirect_problem("https://a.example/x", "https://cdn.example:8443/y", cdn)
      .empty());
  CHECK(redirect_problem("http://a.example/x", "https://cdn.example/y", cdn)
          .empty());
  CHECK(redirect_problem("https://a.example/x", "http://cdn.example/y", cdn)
          .find("the scheme changes") != std::string::npos);
  CHECK(redirect_problem("http://a.example/x", "file:///etc/passwd", cdn)
          .find("the scheme changes") != std::string::npos);
  CHECK(redirect_problem("http://a.example/x", "http://10.0.0.1/admin", cdn)
          .find("--allow-redirect-host 10.0.0.1") != std::string::npos);
}
