// net::feed_template_problem: a feed URL template holds {date} at least once
// and no other brace, plain or percent-encoded.
#include <catch2/catch.hpp>

#include "net/transport.hpp"

using loader::net::feed_template_problem;

TEST_CASE("feed_template_problem: {date} once or more and nothing else",
          "[unit][feed_template]")
{
  CHECK(feed_template_problem("https://x.example/acme/{date}.csv").empty());
  CHECK(
    feed_template_problem("https://x.example/{date}/inv-{date}.csv").empty());
  CHECK(feed_template_problem("/srv/in/acme_{date}.csv").empty());
  CHECK(feed_template_problem("sftp://h/in/{date}.csv?x=%41").empty());
}

TEST_CASE("feed_template_problem: each malformed template names its problem",
          "[unit][feed_template]")
{
  auto const has = [](std::string const &t, std::string const &part) {
    std::string const p = feed_template_problem(t);
    INFO(t << " -> " << p);
    return p.find(part) != std::string::npos;
  };
  CHECK(has("https://x.example/acme/fixed.csv", "no {date}"));
  CHECK(has("https://x.example/acme/{date.csv", "unclosed"));
  CHECK(has("https://x.example/acme/{DATE}.csv", "'{DATE}' is not {date}"));
  CHECK(has("https://x.example/{date}/{day}.csv", "'{day}' is not {date}"));
  CHECK(has("https://x.example/acme/%7Bdate%7D.csv", "encoded brace '%7B'"));
  CHECK(has("https://x.example/{date}%7d.csv", "encoded brace '%7d'"));
  CHECK(has("https://x.example/}{date}.csv", "without its '{'"));
  CHECK(has("https://x.example/{date}{", "unclosed"));
  CHECK(has("", "no {date}"));
}
