// Command-line parsing (loader/src/cli/: the command table and parse.cpp):
// which command lines are usage errors (64), which are configuration
// errors (78), and catch-up's dates (test_cli_commands.cpp: the rest).
#include "cli_test_helpers.hpp"

TEST_CASE("cli: malformed command lines are usage errors", "[unit][cli]")
{
  SECTION("no command at all")
  {
    CHECK_THAT(outcome({}), StartsWith("usage: no command"));
  }
  SECTION("only global options")
  {
    CHECK_THAT(outcome({"-v", "--log-format", "json"}),
               StartsWith("usage: no command"));
  }
  SECTION("an unknown command, named in the message")
  {
    CHECK_THAT(outcome({"frobnicate"}), StartsWith("usage: "));
    CHECK_THAT(outcome({"frobnicate"}), Contains("frobnicate"));
  }
  SECTION("a command written in another case")
  {
    CHECK_THAT(outcome({"LOAD"}), StartsWith("usage: "));
  }
  SECTION("an unknown global option before the command")
  {
    CHECK_THAT(outcome({"--bogus", "migrate"}), StartsWith("usage: "));
    CHECK_THAT(outcome({"--bogus", "migrate"}), Contains("--bogus"));
  }
  SECTION("the parser's internal names are not options")
  {
    CHECK_THAT(outcome({"--command", "migrate"}), StartsWith("usage: "));
    CHECK_THAT(outcome({"migrate", "--subargs", "x"}), StartsWith("usage: "));
  }
  SECTION("a command option before the command")
  {
    CHECK_THAT(outcome({"--source", "a", "status"}), StartsWith("usage: "));
  }
  SECTION("an unknown option after the command")
  {
    CHECK_THAT(outcome(load_with({"--bogus"})), StartsWith("usage: "));
    CHECK_THAT(outcome(load_with({"--bogus"})), Contains("--bogus"));
    CHECK_THAT(outcome({"status", "--policy", "partial"}),
               StartsWith("usage: "));
    CHECK_THAT(outcome({"migrate", "--input", "x"}), StartsWith("usage: "));
  }
  SECTION("an abbreviated option is not guessed")
  {
    CHECK_THAT(outcome({"--verb", "migrate"}), StartsWith("usage: "));
    CHECK_THAT(outcome({"status", "--form", "json"}), StartsWith("usage: "));
  }
  SECTION("an unknown option's value is not echoed")
  {
    auto const o = outcome({"migrate", "--password=hunter2"});
    CHECK_THAT(o, StartsWith("usage: "));
    CHECK_THAT(o, !Contains("hunter2"));
    auto const g = outcome({"--password=hunter2", "migrate"});
    CHECK_THAT(g, StartsWith("usage: "));
    CHECK_THAT(g, !Contains("hunter2"));
  }
  SECTION("a missing option value")
  {
    CHECK_THAT(outcome({"migrate", "--dsn"}), StartsWith("usage: "));
    CHECK_THAT(outcome({"--log-format"}), StartsWith("usage: "));
    CHECK_THAT(outcome({"load", "--input", "x", "--business-date",
                        "2026-11-28", "--source"}),
               StartsWith("usage: "));
    CHECK_THAT(outcome({"status", "--batch"}), StartsWith("usage: "));
    CHECK_THAT(outcome({"source", "add", "a", "--policy"}),
               StartsWith("usage: "));
  }
  SECTION("an option given twice")
  {
    CHECK_THAT(outcome(load_with({"--source", "other"})),
               StartsWith("usage: "));
    CHECK_THAT(outcome({"-v", "-v", "migrate"}), StartsWith("usage: "));
  }
  SECTION("a switch given a value")
  {
    CHECK_THAT(outcome({"--verbose=yes", "migrate"}), StartsWith("usage: "));
  }
  SECTION("-v together with -q")
  {
    CHECK_THAT(outcome({"-v", "-q", "migrate"}), StartsWith("usage: "));
  }
  SECTION("usage errors come before bad global values")
  {
    CHECK_THAT(outcome({"--log-format", "xml", "load"}),
               StartsWith("usage: "));
    CHECK_THAT(outcome({"--dsn", "password=x", "status", "--bogus"}),
               StartsWith("usage: "));
  }
  SECTION("migrate with an argument")
  {
    CHECK_THAT(outcome({"migrate", "now"}), StartsWith("usage: "));
  }
  SECTION("--version or --help with an unknown option or command")
  {
    CHECK_THAT(outcome({"--version", "--frob"}), StartsWith("usage: "));
    CHECK_THAT(outcome({"--version", "--frob"}), Contains("--frob"));
    CHECK_THAT(outcome({"--frob", "--version"}), StartsWith("usage: "));
    CHECK_THAT(outcome({"--version", "frobnicate"}), StartsWith("usage: "));
    CHECK(outcome({"--version"}) == "ok");
    CHECK(outcome({"--version", "load"}) == "ok");
  }
}

TEST_CASE("cli: an argument that is not UTF-8 is a usage error naming it",
          "[unit][cli]")
{
  // \xff never occurs in UTF-8; \xc3\x28 is a cut sequence; \xed\xa0\x80
  // a surrogate; \xc0\xaf an overlong "/".
  auto const bad = GENERATE(as<std::string>{}, "why \xff", "\xc3\x28",
                            "\xed\xa0\x80", "\xc0\xaf", "ok\xe2\x82");
  SECTION("--reason VALUE")
  {
    auto const o = outcome(
      {"replay", "--batch", "1", "--reason", bad.c_str()});
    CHECK(o == "usage: --reason is not valid UTF-8; see 'invoice-loader "
               "--help'");
  }
  SECTION("--reason=VALUE")
  {
    std::string const arg{"--reason=" + bad};
    auto const o = outcome({"revert", "--batch", "1", arg.c_str()});
    CHECK(o == "usage: --reason is not valid UTF-8; see 'invoice-loader "
               "--help'");
  }
  SECTION("a positional argument")
  {
    auto const o = outcome({"source", "add", bad.c_str()});
    CHECK_THAT(o, StartsWith("usage: argument 3 is not valid UTF-8"));
  }
  SECTION("valid UTF-8 beyond ASCII is accepted")
  {
    CHECK(outcome({"replay", "--batch", "1", "--reason",
                   "Gr\xc3\xbc\xc3\x9f \xe2\x82\xac \xf0\x9f\x98\x80"}) ==
          "ok");
  }
}

TEST_CASE("cli: load needs its required options", "[unit][cli]")
{
  SECTION("--source")
  {
    auto const o = outcome(
      {"load", "--business-date", "2026-11-28", "--input", "in.csv"});
    CHECK_THAT(o, StartsWith("usage: "));
    CHECK_THAT(o, Contains("--source"));
  }
  SECTION("--business-date")
  {
    auto const o = outcome({"load", "--source", "a", "--input", "in.csv"});
    CHECK_THAT(o, StartsWith("usage: "));
    CHECK_THAT(o, Contains("--business-date"));
  }
  SECTION("--input")
  {
    auto const o = outcome(
      {"load", "--source", "a", "--business-date", "2026-11-28"});
    CHECK_THAT(o, StartsWith("usage: "));
    CHECK_THAT(o, Contains("--input"));
  }
  SECTION("a missing option is usage even when another value is bad")
  {
    CHECK_THAT(
      outcome({"load", "--source", "a", "--business-date", "2026-02-30"}),
      StartsWith("usage: "));
  }
}

TEST_CASE("cli: control totals come as a pair, never with a manifest",
          "[unit][cli]")
{
  SECTION("--expect-count without --expect-total")
  {
    CHECK_THAT(outcome(load_with({"--expect-count", "20"})),
               StartsWith("usage: "));
  }
  SECTION("--expect-total without --expect-count")
  {
    CHECK_THAT(outcome(load_with({"--expect-total", "4200.00"})),
               StartsWith("usage: "));
  }
  SECTION("--manifest together with --expect-*")
  {
    CHECK_THAT(outcome(load_with({"--manifest", "m.json", "--expect-count",
                                  "20", "--expect-total", "4200.00"})),
               StartsWith("usage: "));
  }
  SECTION("the pair is usage even when a value is bad")
  {
    CHECK_THAT(outcome(load_with({"--expect-count", "-1"})),
               StartsWith("usage: "));
  }
}

TEST_CASE("cli: source takes the subcommand add and one NAME", "[unit][cli]")
{
  SECTION("source without add")
  {
    CHECK_THAT(outcome({"source"}), StartsWith("usage: "));
    CHECK_THAT(outcome({"source", "acme-erp"}), StartsWith("usage: "));
    CHECK_THAT(outcome({"source", "--policy", "partial", "add", "a"}),
               StartsWith("usage: "));
  }
  SECTION("source add without NAME")
  {
    CHECK_THAT(outcome({"source", "add"}), StartsWith("usage: "));
    CHECK_THAT(outcome({"source", "add", "--policy", "partial"}),
               StartsWith("usage: "));
  }
  SECTION("two names")
  {
    CHECK_THAT(outcome({"source", "add", "a", "b"}), StartsWith("usage: "));
  }
  SECTION("NAME cannot be given as an option")
  {
    CHECK_THAT(outcome({"source", "add", "--name", "a"}),
               StartsWith("usage: "));
  }
}

TEST_CASE("cli: dates must be real YYYY-MM-DD dates", "[unit][cli]")
{
  auto const bad = GENERATE(as<char const *>{}, "2026-02-30", "2026-13-01",
                            "2026-00-10", "2026-04-31", "2025-02-29",
                            "1900-02-29", "0000-01-01", "26-11-28", "2026-1-5",
                            "2026/11/28", "20261128", "today", " 2026-11-28",
                            "2026-11-28 ", "2026-11-28T00:00", "");
  SECTION("--business-date")
  {
    auto const o = outcome(
      {"load", "--source", "a", "--business-date", bad, "--input", "x"});
    CHECK_THAT(o, StartsWith("usage: "));
    CHECK_THAT(o, Contains("--business-date"));
    CHECK_THAT(o, Contains(std::string{"'"} + bad + "'"));
  }
  SECTION("--start-date")
  {
    auto const o = outcome({"source", "add", "a", "--start-date", bad});
    CHECK_THAT(o, StartsWith("usage: "));
    CHECK_THAT(o, Contains("--start-date"));
  }
}

TEST_CASE("cli: is_iso_date accepts real dates only", "[unit][cli]")
{
  using loader::cli::is_iso_date;
  CHECK(is_iso_date("2026-11-28"));
  CHECK(is_iso_date("2024-02-29"));
  CHECK(is_iso_date("2000-02-29"));
  CHECK(is_iso_date("0001-01-01"));
  CHECK(is_iso_date("9999-12-31"));
  CHECK_FALSE(is_iso_date("2100-02-29"));
  CHECK_FALSE(is_iso_date("2026-02-30"));
  CHECK_FALSE(is_iso_date("2026-11-31"));
  CHECK_FALSE(is_iso_date("+026-11-28"));
  CHECK_FALSE(is_iso_date("2026-11-2a"));
}

TEST_CASE("cli: is_plain_decimal is -?digits[.digits]", "[unit][cli]")
{
  using loader::cli::is_plain_decimal;
  for (auto const *good : {"0", "12", "4200.00", "-12.5", "-0", "007.10"})
    CHECK(is_plain_decimal(good));
  for (auto const *bad :
       {"",    "-",        ".",     "1e3", "1E3",  "NaN",      "nan",
        "inf", "Infinity", " 12",   "12 ", "+5",   "1,000.00", "12.",
        ".5",  "-.5",      "1.2.3", "--1", "0x10", "1_000",    "١٢"})
    CHECK_FALSE(is_plain_decimal(bad));
}

TEST_CASE("cli: malformed source add values are usage errors", "[unit][cli]")
{
  SECTION("--policy not one of the two names")
  {
    for (auto const *bad : {"strict", "All-Or-Nothing", "partial ", ""})
    {
      auto const o = outcome({"source", "add", "a", "--policy", bad});
      CHECK_THAT(o, StartsWith("usage: "));
      CHECK_THAT(o, Contains("--policy"));
    }
  }
  SECTION("--max-rejected-share not a plain decimal within [0,1]")
  {
    for (auto const *bad : {"1.5", "1.01", "2", "-0.1", "-0", "abc", "1e-1",
                            "5%", ".5", " 0.1", "", "10"})
    {
      auto const o = outcome(
        {"source", "add", "a", "--max-rejected-share", bad});
      CHECK_THAT(o, StartsWith("usage: "));
      CHECK_THAT(o, Contains("--max-rejected-share"));
    }
  }
  SECTION("--max-rejected-share at and within the bounds")
  {
    for (auto const *good :
         {"0", "0.0", "0.05", "0.999", "1", "1.000", "00.5"})
      CHECK(outcome({"source", "add", "a", "--max-rejected-share", good}) ==
            "ok");
  }
  SECTION("an empty NAME")
  {
    CHECK_THAT(outcome({"source", "add", ""}), StartsWith("usage: "));
  }
}

TEST_CASE("cli: malformed load values are usage errors", "[unit][cli]")
{
  SECTION("--expect-count negative or not an integer")
  {
    for (auto const *bad :
         {"-1", "1.5", "abc", "1e3", "+3", " 3", "", "99999999999999999999"})
    {
      auto const o = outcome(
        load_with({"--expect-count", bad, "--expect-total", "1.00"}));
      CHECK_THAT(o, StartsWith("usage: "));
      CHECK_THAT(o, Contains("--expect-count"));
      CHECK_THAT(o, Contains(std::string{"'"} + bad + "'"));
    }
  }
  SECTION("--expect-total not a plain decimal")
  {
    for (auto const *bad : {"1e3", "NaN", " 12", "+5", "1,000.00", "12.", ".5",
                            "", "4200.00 EUR"})
    {
      auto const o = outcome(
        load_with({"--expect-count", "1", "--expect-total", bad}));
      CHECK_THAT(o, StartsWith("usage: "));
      CHECK_THAT(o, Contains("--expect-total"));
      CHECK_THAT(o, Contains(std::string{"'"} + bad + "'"));
    }
  }
  SECTION("a URL of a scheme the linked libcurl does not offer")
  {
    auto const a = outcome({"load", "--source", "a", "--business-date",
                            "2026-11-28", "--input", "s3://bucket/a.csv"});
    CHECK_THAT(a, StartsWith("config: "));
    CHECK_THAT(a, Contains("'s3' is not supported"));
    CHECK_THAT(a, Contains("http, https, file"));
    CHECK_THAT(outcome(load_with({"--manifest", "gopher://h/m.json"})),
               StartsWith("config: "));
  }
  SECTION("a password in a URL, never echoed")
  {
    for (auto const *url : {"https://user:s3cr3tXY@feeds.example/a.csv",
                            "http://u:s3cr3tXY@127.0.0.1:8080/a.csv",
                            "https://:s3cr3tXY@feeds.example/a.csv"})
    {
      auto const a = outcome({"load", "--source", "a", "--business-date",
                              "2026-11-28", "--input", url});
      CHECK_THAT(a, StartsWith("config: "));
      CHECK_THAT(a, Contains("netrc"));
      CHECK_THAT(a, !Contains("s3cr3tXY"));
      auto const m = outcome(load_with({"--manifest", url}));
      CHECK_THAT(m, StartsWith("config: "));
      CHECK_THAT(m, !Contains("s3cr3tXY"));
    }
  }
  SECTION("transfer limits out of range")
  {
    for (auto const *bad : {"0", "601", "-1", "ten", ""})
      CHECK_THAT(outcome(load_with({"--connect-timeout", bad})),
                 StartsWith("usage: "));
    for (auto const *bad : {"0", "3601", "1.5"})
      CHECK_THAT(outcome(load_with({"--low-speed-time", bad})),
                 StartsWith("usage: "));
    CHECK_THAT(outcome(load_with({"--spool-dir", ""})), StartsWith("usage: "));
  }
  SECTION("empty values")
  {
    CHECK_THAT(outcome({"load", "--source", "", "--business-date",
                        "2026-11-28", "--input", "x"}),
               StartsWith("usage: "));
    CHECK_THAT(outcome({"load", "--source", "a", "--business-date",
                        "2026-11-28", "--input", ""}),
               StartsWith("usage: "));
  }
}

TEST_CASE("cli: malformed status and global values are usage errors",
          "[unit][cli]")
{
  SECTION("--batch not a positive integer")
  {
    for (auto const *bad :
         {"0", "-1", "1.5", "abc", "+1", "1e3", "", "99999999999999999999"})
    {
      auto const o = outcome({"status", "--batch", bad});
      CHECK_THAT(o, StartsWith("usage: "));
      CHECK_THAT(o, Contains("--batch"));
    }
  }
  SECTION("--format not text|json")
  {
    auto const o = outcome({"status", "--format", "yaml"});
    CHECK_THAT(o, StartsWith("usage: "));
    CHECK_THAT(o, Contains("--format 'yaml'"));
    CHECK_THAT(outcome({"status", "--format", "JSON"}), StartsWith("usage: "));
  }
  SECTION("--log-format not text|json")
  {
    auto const o = outcome({"--log-format", "xml", "migrate"});
    CHECK_THAT(o, StartsWith("usage: "));
    CHECK_THAT(o, Contains("--log-format 'xml'"));
  }
}

TEST_CASE("catch-up dates: the calendar, UTC", "[unit][cli]")
{
  using loader::flows::date_of;
  using loader::flows::days_of;
  CHECK(days_of("1970-01-01") == 0);
  CHECK(date_of(0) == "1970-01-01");
  CHECK(date_of(days_of("2026-11-30") + 1) == "2026-12-01");
  CHECK(date_of(days_of("2026-12-31") + 1) == "2027-01-01");
  CHECK(date_of(days_of("2028-02-28") + 1) == "2028-02-29");
  CHECK(date_of(days_of("2100-02-28") + 1) == "2100-03-01");
  CHECK(date_of(days_of("2000-02-28") + 1) == "2000-02-29");
  CHECK(days_of("2026-03-01") - days_of("2026-02-01") == 28);
  for (std::int64_t d = days_of("1999-12-25"); d < days_of("2001-01-05"); ++d)
    CHECK(days_of(date_of(d)) == d);
  CHECK(loader::cli::is_iso_date(loader::flows::yesterday_utc()));
}
