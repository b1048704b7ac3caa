#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <regex>
#include <set>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

#include "core/log.hpp"

using loader::json_quote;
using loader::LogFormat;
using loader::Logger;
using loader::LogLevel;
using loader::new_run_id;

namespace
{
std::string const ts = R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)";

bool matches(std::string const &s, std::string const &re)
{
  return std::regex_match(s, std::regex{re});
}

/// Seconds since the epoch of a "2026-11-29T08:21:16.123Z" stamp.
std::time_t parse_utc(std::string const &stamp)
{
  std::tm tm{};
  REQUIRE(std::sscanf(stamp.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d", &tm.tm_year,
                      &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
                      &tm.tm_sec) == 6);
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return timegm(&tm);
}

/// Everything written to stderr while fn runs.
template<typename Fn> std::string capture_stderr(Fn &&fn)
{
  std::fflush(stderr);
  std::FILE *tmp = std::tmpfile();
  REQUIRE(tmp != nullptr);
  int const saved = ::dup(2);
  REQUIRE(saved >= 0);
  ::dup2(::fileno(tmp), 2);
  fn();
  std::fflush(stderr);
  ::dup2(saved, 2);
  ::close(saved);
  std::string out;
  std::rewind(tmp);
  char buf[512];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, tmp)) > 0) out.append(buf, n);
  std::fclose(tmp);
  return out;
}

/// Sets TZ for one scope, so a local-time stamp would show.
class ScopedTz
{
public:
  explicit ScopedTz(char const *tz)
  {
    if (char const *old = std::getenv("TZ")) m_old = old;
    ::setenv("TZ", tz, 1);
    ::tzset();
  }
  ~ScopedTz()
  {
    if (m_old)
      ::setenv("TZ", m_old->c_str(), 1);
    else
      ::unsetenv("TZ");
    ::tzset();
  }
  ScopedTz(ScopedTz const &) = delete;
  ScopedTz &operator=(ScopedTz const &) = delete;

private:
  std::optional<std::string> m_old;
};
} // namespace

TEST_CASE("log: text lines carry time, level, run id, fields and message",
          "[unit][log]")
{
  Logger const log{"run-1", LogFormat::text, LogLevel::debug};

  SECTION("plain values stay bare, the message comes last")
  {
    auto const line = log.format_line(LogLevel::info, "batch staged",
                                      {{"batch", "7"}, {"rows", "20"}});
    INFO(line);
    CHECK(matches(line, ts + " INFO run=run-1 batch=7 rows=20 batch staged"));
  }
  SECTION("each level has its name")
  {
    CHECK(matches(log.format_line(LogLevel::debug, "m", {}),
                  ts + " DEBUG run=run-1 m"));
    CHECK(matches(log.format_line(LogLevel::warn, "m", {}),
                  ts + " WARN run=run-1 m"));
    CHECK(matches(log.format_line(LogLevel::error, "m", {}),
                  ts + " ERROR run=run-1 m"));
  }
  SECTION("values with blanks, quotes or nothing are quoted")
  {
    auto const line = log.format_line(
      LogLevel::info, "m",
      {{"file", "a b.csv"}, {"say", "x\"y"}, {"empty", ""}, {"eq", "a=b"}});
    INFO(line);
    CHECK(line.find(R"( file="a b.csv" say="x\"y" empty="" eq="a=b" m)") !=
          std::string::npos);
  }
  SECTION("one event stays one line")
  {
    auto const line = log.format_line(
      LogLevel::error, "first\nsecond\r\x1b]0;t\x07 \xe2\x80\xae",
      {{"detail", "a\nb\tc"}});
    INFO(line);
    CHECK(line.find('\n') == std::string::npos);
    CHECK(line.find('\r') == std::string::npos);
    CHECK(line.find(R"(detail="a\nb\tc")") != std::string::npos);
    CHECK(line.find(R"(first\x0asecond\x0d\x1b]0;t\x07 \u202e)") !=
          std::string::npos);
  }
}

TEST_CASE("log: the time stamp is UTC with milliseconds", "[unit][log]")
{
  ScopedTz const tz{"America/New_York"};
  Logger const log{"r", LogFormat::text, LogLevel::debug};
  std::time_t const before = std::time(nullptr);
  auto const line = log.format_line(LogLevel::info, "m", {});
  std::time_t const after = std::time(nullptr);
  INFO(line);
  REQUIRE(matches(line.substr(0, 24), ts));
  std::time_t const stamped = parse_utc(line.substr(0, 24));
  CHECK(stamped >= before);
  CHECK(stamped <= after);
}

TEST_CASE("log: JSON lines are one object with fixed keys first",
          "[unit][log]")
{
  Logger const log{"run-1", LogFormat::json, LogLevel::debug};

  SECTION("keys, order and lower-case level")
  {
    auto const line = log.format_line(
      LogLevel::warn, "retrying", {{"attempt", "2"}, {"sqlstate", "40001"}});
    INFO(line);
    CHECK(matches(line, R"(\{"ts":")" + ts +
                          R"(","level":"warn","run_id":"run-1",)"
                          R"("msg":"retrying","attempt":"2",)"
                          R"("sqlstate":"40001"\})"));
  }
  SECTION("strings are escaped")
  {
    auto const line = log.format_line(LogLevel::info, "a \"b\"\n",
                                      {{"path", "C:\\x"}});
    INFO(line);
    CHECK(line.find(R"("msg":"a \"b\"\n")") != std::string::npos);
    CHECK(line.find(R"("path":"C:\\x")") != std::string::npos);
    CHECK(line.find('\n') == std::string::npos);
  }
}

TEST_CASE("log: writes lines at or above the threshold to stderr",
          "[unit][log]")
{
  Logger const log{"r", LogFormat::text, LogLevel::warn};
  auto const out = capture_stderr([&] {
    log.debug("d-message");
    log.info("i-message");
    log.warn("w-message", {{"k", "v"}});
    log.error("e-message");
  });
  INFO(out);
  CHECK(out.find("d-message") == std::string::npos);
  CHECK(out.find("i-message") == std::string::npos);
  REQUIRE(std::count(out.begin(), out.end(), '\n') == 2);
  auto const nl = out.find('\n');
  CHECK(matches(out.substr(0, nl), ts + " WARN run=r k=v w-message"));
  CHECK(matches(out.substr(nl + 1), ts + " ERROR run=r e-message\n"));
}

TEST_CASE("log: on the journal's stream, lines carry sd-daemon priority "
          "prefixes; elsewhere none",
          "[unit][log]")
{
  auto const stream_of = [](int fd) {
    struct stat st
    {};
    REQUIRE(::fstat(fd, &st) == 0);
    return std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
  };
  auto const lines = [&](bool same_stream) {
    return capture_stderr([&] {
      std::FILE *other = std::tmpfile();
      REQUIRE(other != nullptr);
      std::string const env{same_stream ? stream_of(2)
                                        : stream_of(::fileno(other))};
      ::setenv("JOURNAL_STREAM", env.c_str(), 1);
      Logger const log{"r", LogFormat::json, LogLevel::debug};
      ::unsetenv("JOURNAL_STREAM");
      std::fclose(other);
      log.debug("d");
      log.info("i");
      log.warn("w");
      log.error("e");
    });
  };
  std::string const journal{lines(true)};
  INFO(journal);
  CHECK(journal.rfind("<7>{", 0) == 0);
  CHECK(journal.find("\n<6>{") != std::string::npos);
  CHECK(journal.find("\n<4>{") != std::string::npos);
  CHECK(journal.find("\n<3>{") != std::string::npos);
  std::string const elsewhere{lines(false)};
  INFO(elsewhere);
  CHECK(elsewhere.find('<') == std::string::npos);
  CHECK(elsewhere.rfind("{\"ts\"", 0) == 0);
  CHECK_FALSE(loader::is_journal_stream(nullptr, 2));
  CHECK_FALSE(loader::is_journal_stream("not a stream", 2));
}

TEST_CASE("log: json_quote escapes what JSON requires", "[unit][log]")
{
  CHECK(json_quote("") == R"("")");
  CHECK(json_quote("plain") == R"("plain")");
  CHECK(json_quote("q\"b\\") == R"("q\"b\\")");
  CHECK(json_quote("\b\f\n\r\t") == R"("\b\f\n\r\t")");

  SECTION("other control characters as \\u00XX")
  {
    CHECK(json_quote(std::string{"\x01\x1f", 2}) == R"("\u0001\u001f")");
    CHECK(json_quote(std::string{"a\0b", 3}) == R"("a\u0000b")");
  }
  SECTION("valid UTF-8 passes unchanged")
  {
    std::string const s = "W\xC3\xA4hrung \xE2\x82\xAC \xF0\x9F\x98\x80";
    CHECK(json_quote(s) == '"' + s + '"');
    CHECK(json_quote("\x7f") == "\"\x7f\"");
  }
  SECTION("invalid UTF-8 becomes U+FFFD, so the line stays valid JSON")
  {
    CHECK(json_quote("a\xFF"
                     "b") == R"("a\ufffdb")");
    CHECK(json_quote("\xC3") == R"("\ufffd")");
    CHECK(json_quote("\xC0\xAF") == R"("\ufffd\ufffd")");
    CHECK(json_quote("\xED\xA0\x80") == R"("\ufffd\ufffd\ufffd")");
  }
}

TEST_CASE("log: new_run_id returns random version-4 UUIDs", "[unit][log]")
{
  std::set<std::string> seen;
  for (int k = 0; k < 200; ++k)
  {
    auto const id = new_run_id();
    INFO(id);
    REQUIRE(id.size() == 36);
    CHECK(matches(id, "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}"
                      "-[0-9a-f]{12}"));
    seen.insert(id);
  }
  CHECK(seen.size() == 200);

  Logger const log{new_run_id(), LogFormat::text, LogLevel::info};
  CHECK(log.format_line(LogLevel::info, "m", {})
          .find("run=" + log.run_id() + " ") != std::string::npos);
}
