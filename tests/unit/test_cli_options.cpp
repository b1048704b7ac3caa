// Command-line parsing (loader/src/cli/: the command table and parse.cpp): which command lines are
// usage errors (64), which are configuration errors (78), what --help shows
// and that every command's fields are filled, whatever the option order.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/conninfo.hpp"
#include "cli/values.hpp"
#include "flows/catch_up.hpp"
#include "flows/load.hpp"
#include "flows/source_add.hpp"
#include "flows/status.hpp"
#include "core/errors.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using loader::ErrorKind;
using loader::LoaderError;
using loader::LogFormat;
using loader::LogLevel;
using loader::cli::ParsedCommandLine;

namespace
{
using Args = std::vector<char const *>;

ParsedCommandLine parse(Args args)
{
  args.insert(args.begin(), "invoice-loader");
  return loader::cli::parse_command_line(static_cast<int>(args.size()),
                                         args.data());
}

/// "ok", or "usage: <message>" / "config: <message>" / "other: ...".
std::string outcome(Args const &args)
{
  try
  {
    parse(args);
    return "ok";
  }
  catch (LoaderError const &e)
  {
    switch (e.kind)
    {
    case ErrorKind::usage: return std::string{"usage: "} + e.what();
    case ErrorKind::config: return std::string{"config: "} + e.what();
    default: return std::string{"other: "} + e.what();
    }
  }
}

loader::flows::LoadRequest load_of(ParsedCommandLine const &r)
{
  return r.options_as<loader::flows::LoadRequest>();
}
loader::flows::SourceAddRequest source_add_of(ParsedCommandLine const &r)
{
  return r.options_as<loader::flows::SourceAddRequest>();
}
loader::flows::StatusRequest status_of(ParsedCommandLine const &r)
{
  return r.options_as<loader::flows::StatusRequest>();
}

Args load_with(std::vector<char const *> extra)
{
  Args a{"load", "--source", "acme-erp", "--business-date", "2026-11-28",
         "--input", "in.csv"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}
} // namespace

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
}

TEST_CASE("cli: load needs its required options", "[unit][cli]")
{
  SECTION("--source")
  {
    auto const o = outcome({"load", "--business-date", "2026-11-28",
                            "--input", "in.csv"});
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
    auto const o = outcome({"load", "--source", "a", "--business-date",
                            "2026-11-28"});
    CHECK_THAT(o, StartsWith("usage: "));
    CHECK_THAT(o, Contains("--input"));
  }
  SECTION("a missing option is usage even when another value is bad")
  {
    CHECK_THAT(outcome({"load", "--source", "a", "--business-date",
                        "2026-02-30"}),
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
                            "1900-02-29", "0000-01-01", "26-11-28",
                            "2026-1-5", "2026/11/28", "20261128", "today",
                            " 2026-11-28", "2026-11-28 ", "2026-11-28T00:00",
                            "");
  SECTION("--business-date")
  {
    auto const o = outcome(
      {"load", "--source", "a", "--business-date", bad, "--input", "x"});
    CHECK_THAT(o, StartsWith("config: "));
    CHECK_THAT(o, Contains("--business-date"));
    CHECK_THAT(o, Contains(std::string{"'"} + bad + "'"));
  }
  SECTION("--start-date")
  {
    auto const o = outcome({"source", "add", "a", "--start-date", bad});
    CHECK_THAT(o, StartsWith("config: "));
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
  for (auto const *bad : {"", "-", ".", "1e3", "1E3", "NaN", "nan", "inf",
                          "Infinity", " 12", "12 ", "+5", "1,000.00",
                          "12.", ".5", "-.5", "1.2.3", "--1", "0x10",
                          "1_000", "١٢"})
    CHECK_FALSE(is_plain_decimal(bad));
}

TEST_CASE("cli: bad source add values are configuration errors",
          "[unit][cli]")
{
  SECTION("--policy not one of the two names")
  {
    for (auto const *bad : {"strict", "All-Or-Nothing", "partial ", ""})
    {
      auto const o = outcome({"source", "add", "a", "--policy", bad});
      CHECK_THAT(o, StartsWith("config: "));
      CHECK_THAT(o, Contains("--policy"));
    }
  }
  SECTION("--max-rejected-share not a plain decimal within [0,1]")
  {
    for (auto const *bad : {"1.5", "1.01", "2", "-0.1", "-0", "abc", "1e-1",
                            "5%", ".5", " 0.1", "", "10"})
    {
      auto const o =
        outcome({"source", "add", "a", "--max-rejected-share", bad});
      CHECK_THAT(o, StartsWith("config: "));
      CHECK_THAT(o, Contains("--max-rejected-share"));
    }
  }
  SECTION("--max-rejected-share at and within the bounds")
  {
    for (auto const *good : {"0", "0.0", "0.05", "0.999", "1", "1.000",
                             "00.5"})
      CHECK(outcome({"source", "add", "a", "--max-rejected-share", good}) ==
            "ok");
  }
  SECTION("an empty NAME")
  {
    CHECK_THAT(outcome({"source", "add", ""}), StartsWith("config: "));
  }
}

TEST_CASE("cli: bad load values are configuration errors", "[unit][cli]")
{
  SECTION("--expect-count negative or not an integer")
  {
    for (auto const *bad : {"-1", "1.5", "abc", "1e3", "+3", " 3", "",
                            "99999999999999999999"})
    {
      auto const o = outcome(
        load_with({"--expect-count", bad, "--expect-total", "1.00"}));
      CHECK_THAT(o, StartsWith("config: "));
      CHECK_THAT(o, Contains("--expect-count"));
      CHECK_THAT(o, Contains(std::string{"'"} + bad + "'"));
    }
  }
  SECTION("--expect-total not a plain decimal")
  {
    for (auto const *bad : {"1e3", "NaN", " 12", "+5", "1,000.00", "12.",
                            ".5", "", "4200.00 EUR"})
    {
      auto const o =
        outcome(load_with({"--expect-count", "1", "--expect-total", bad}));
      CHECK_THAT(o, StartsWith("config: "));
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
                 StartsWith("config: "));
    for (auto const *bad : {"0", "3601", "1.5"})
      CHECK_THAT(outcome(load_with({"--low-speed-time", bad})),
                 StartsWith("config: "));
    CHECK_THAT(outcome(load_with({"--spool-dir", ""})),
               StartsWith("config: "));
  }
  SECTION("empty values")
  {
    CHECK_THAT(outcome({"load", "--source", "", "--business-date",
                        "2026-11-28", "--input", "x"}),
               StartsWith("config: "));
    CHECK_THAT(outcome({"load", "--source", "a", "--business-date",
                        "2026-11-28", "--input", ""}),
               StartsWith("config: "));
  }
}

TEST_CASE("cli: bad status and global values are configuration errors",
          "[unit][cli]")
{
  SECTION("--batch not a positive integer")
  {
    for (auto const *bad : {"0", "-1", "1.5", "abc", "+1", "1e3", "",
                            "99999999999999999999"})
    {
      auto const o = outcome({"status", "--batch", bad});
      CHECK_THAT(o, StartsWith("config: "));
      CHECK_THAT(o, Contains("--batch"));
    }
  }
  SECTION("--format not text|json")
  {
    auto const o = outcome({"status", "--format", "yaml"});
    CHECK_THAT(o, StartsWith("config: "));
    CHECK_THAT(o, Contains("--format 'yaml'"));
    CHECK_THAT(outcome({"status", "--format", "JSON"}),
               StartsWith("config: "));
  }
  SECTION("--log-format not text|json")
  {
    auto const o = outcome({"--log-format", "xml", "migrate"});
    CHECK_THAT(o, StartsWith("config: "));
    CHECK_THAT(o, Contains("--log-format 'xml'"));
  }
}

TEST_CASE("cli: a password in --dsn is refused without echoing it",
          "[unit][cli]")
{
  auto const dsn = GENERATE(as<char const *>{},
                            "host=db password=s3cr3tXY",
                            "host=db password = s3cr3tXY",
                            "host=db PASSWORD=s3cr3tXY",
                            "password='s3cr3tXY with space' dbname=x",
                            "\tpassword\t=\ts3cr3tXY",
                            "dbname='postgresql://u:s3cr3tXY@h/d'",
                            "postgres://user:s3cr3tXY@host/db",
                            "postgresql://user:s3cr3tXY@host:5432/db",
                            "POSTGRESQL://user:s3cr3tXY@host/db",
                            "postgresql://user:s3cr3tXY@@host/db",
                            "postgresql://host/db?password=s3cr3tXY",
                            "postgresql://host/db?sslmode=require&"
                            "Password=s3cr3tXY",
                            "postgresql://host/db?pass%77ord=s3cr3tXY",
                            "host=db password='unterminated s3cr3tXY");
  CAPTURE(dsn);
  CHECK(loader::cli::dsn_has_password(dsn));
  auto const o = outcome({"--dsn", dsn, "migrate"});
  CHECK_THAT(o, StartsWith("config: "));
  CHECK_THAT(o, Contains("PGPASSFILE"));
  CHECK_THAT(o, Contains(".pgpass"));
  CHECK_THAT(o, Contains("service file"));
  CHECK_THAT(o, !Contains("s3cr3tXY"));
  CHECK_THAT(o, !Contains("host"));
}

TEST_CASE("cli: a --dsn without a password is kept as given", "[unit][cli]")
{
  auto const dsn = GENERATE(as<char const *>{}, "",
                            "host=/tmp dbname=invoices",
                            "service=nightly",
                            "host=db user=password dbname=password_db",
                            "application_name='no password here'",
                            "passfile=/etc/loader/pgpass host=db",
                            "postgresql://loader@db.example:5432/invoices",
                            "postgresql://%2Fvar%2Frun%2Fpostgresql/db",
                            "postgresql://[::1]:5432/db?sslmode=verify-full",
                            "postgres://",
                            "dbname=postgresql://u@h/d");
  CAPTURE(dsn);
  CHECK_FALSE(loader::cli::dsn_has_password(dsn));
  CHECK(parse({"--dsn", dsn, "migrate"}).global.dsn == dsn);
}

TEST_CASE("cli: --help shows help before anything is required",
          "[unit][cli]")
{
  SECTION("global help lists every command, the exit codes, the DSN rules")
  {
    for (auto const *flag : {"--help", "-h"})
    {
      auto const r = parse({flag});
      CHECK(r.global.help);
      CHECK(r.command == nullptr);
      auto const &h = r.help_text;
      for (auto const *s : {"migrate", "source add", "load", "status",
                            "--dsn", "--log-format", "--verbose", "--quiet",
                            "--version", "PGPASSFILE", ".pgpass",
                            "service file", "never accepted"})
        CHECK_THAT(h, Contains(s));
      for (auto const *code : {"  0 ", "  64 ", "  65 ", "  66 ", "  70 ",
                               "  75 ", "  77 ", "  78 "})
        CHECK_THAT(h, Contains(code));
    }
  }
  SECTION("global help wins over an unknown global option")
  {
    CHECK_FALSE(parse({"--bogus", "--help"}).help_text.empty());
  }
  SECTION("load --help needs none of load's required options")
  {
    auto const r = parse({"load", "--help"});
    CHECK(r.global.help);
    CHECK(r.command_name() == "load");
    for (auto const *s : {"--source", "--business-date", "--input",
                          "--manifest", "--expect-count", "--expect-total",
                          "PATH|URL", "--spool-dir", "--netrc-file",
                          "--cacert", "--connect-timeout", "--low-speed-time",
                          "URLs: http, https, file", "libcurl/"})
      CHECK_THAT(r.help_text, Contains(s));
    CHECK_THAT(r.help_text, !Contains("not supported yet"));
  }
  SECTION("help after some options, even bad or unknown ones")
  {
    CHECK(parse({"load", "--source", "a", "-h"}).command_name() == "load");
    CHECK_FALSE(
      parse({"load", "--business-date", "2026-02-30", "--bogus", "--help"})
        .help_text.empty());
    CHECK_FALSE(parse({"--help", "load"}).help_text.empty());
  }
  SECTION("each command has its own help")
  {
    auto const s = parse({"source", "add", "--help"});
    CHECK(s.command_name() == "source add");
    for (auto const *o : {"NAME", "--policy", "--max-rejected-share",
                          "--start-date", "--feed-url",
                          "--allow-unknown-columns"})
      CHECK_THAT(s.help_text, Contains(o));
    CHECK(parse({"source", "--help"}).command_name() == "source add");

    auto const st = parse({"status", "--help"});
    for (auto const *o : {"--source", "--batch", "--format"})
      CHECK_THAT(st.help_text, Contains(o));
    CHECK_THAT(parse({"migrate", "--help"}).help_text,
               Contains("Usage: invoice-loader [global options] migrate"));
  }
  SECTION("help for an unknown command is a usage error")
  {
    CHECK_THAT(outcome({"frobnicate", "--help"}), StartsWith("usage: "));
  }
}

TEST_CASE("cli: --version is honoured before anything is required",
          "[unit][cli]")
{
  CHECK(parse({"--version"}).global.version);
  CHECK(parse({"load", "--version"}).global.version);
}

TEST_CASE("cli: -v and -q set the log level", "[unit][cli]")
{
  SECTION("default: info, text")
  {
    auto const r = parse({"migrate"});
    CHECK(r.global.log_level == LogLevel::info);
    CHECK(r.global.log_format == LogFormat::text);
    CHECK(r.global.dsn.empty());
    CHECK_FALSE(r.global.help);
    CHECK(r.help_text.empty());
  }
  SECTION("-v and --verbose: debug")
  {
    CHECK(parse({"-v", "migrate"}).global.log_level == LogLevel::debug);
    CHECK(parse({"--verbose", "migrate"}).global.log_level ==
          LogLevel::debug);
  }
  SECTION("-q and --quiet: warnings and errors only")
  {
    CHECK(parse({"-q", "migrate"}).global.log_level == LogLevel::warn);
    CHECK(parse({"--quiet", "migrate"}).global.log_level == LogLevel::warn);
  }
  SECTION("after the command too")
  {
    CHECK(parse({"migrate", "-v"}).global.log_level == LogLevel::debug);
  }
  SECTION("--log-format json")
  {
    CHECK(parse({"--log-format", "json", "migrate"}).global.log_format ==
          LogFormat::json);
    CHECK(parse({"--log-format=text", "migrate"}).global.log_format ==
          LogFormat::text);
  }
}

TEST_CASE("cli: each command's fields are filled", "[unit][cli]")
{
  SECTION("migrate")
  {
    auto const r = parse({"--dsn", "service=nightly", "migrate"});
    CHECK(r.command_name() == "migrate");
    CHECK(r.global.dsn == "service=nightly");
  }
  SECTION("source add with every option")
  {
    auto const r = parse({"source", "add", "acme-erp", "--policy", "partial",
                          "--max-rejected-share", "0.05", "--start-date",
                          "2026-01-01", "--feed-url",
                          "https://erp.example/{date}.csv",
                          "--allow-unknown-columns"});
    CHECK(r.command_name() == "source add");
    auto const &s = source_add_of(r);
    CHECK(s.name == "acme-erp");
    CHECK(s.policy == "partial");
    CHECK(s.max_rejected_share == "0.05");
    CHECK(s.start_date == "2026-01-01");
    CHECK(s.feed_url == "https://erp.example/{date}.csv");
    CHECK(s.allow_unknown_columns);
  }
  SECTION("source add with defaults")
  {
    auto const s = source_add_of(parse({"source", "add", "acme-erp"}));
    CHECK(s.name == "acme-erp");
    CHECK_FALSE(s.policy);
    CHECK_FALSE(s.max_rejected_share);
    CHECK_FALSE(s.start_date);
    CHECK_FALSE(s.feed_url);
    CHECK_FALSE(s.allow_unknown_columns);
    CHECK(source_add_of(parse({"source", "add", "x", "--policy", "all-or-nothing"})).policy == "all-or-nothing");
  }
  SECTION("load with a manifest")
  {
    auto const r = parse(load_with({"--manifest", "m.json"}));
    CHECK(r.command_name() == "load");
    CHECK(load_of(r).source == "acme-erp");
    CHECK(load_of(r).business_date == "2026-11-28");
    CHECK(load_of(r).input == "in.csv");
    CHECK(load_of(r).manifest == "m.json");
    CHECK_FALSE(load_of(r).expect_count);
    CHECK_FALSE(load_of(r).expect_total);
  }
  SECTION("load with control totals")
  {
    auto const l = load_of(parse(load_with({"--expect-count", "20", "--expect-total",
                                    "4200.00"})));
    CHECK_FALSE(l.manifest);
    CHECK(l.expect_count == 20);
    CHECK(l.expect_total == "4200.00");
  }
  SECTION("load with a negative total and an empty day")
  {
    auto const l = load_of(parse(load_with({"--expect-count", "0", "--expect-total",
                                    "-12.50"})));
    CHECK(l.expect_count == 0);
    CHECK(l.expect_total == "-12.50");
    CHECK(load_of(parse(load_with({"--expect-count=1", "--expect-total=-0.01"}))).expect_total == "-0.01");
  }
  SECTION("load of a leap day")
  {
    CHECK(load_of(parse({"load", "--source", "a", "--business-date", "2028-02-29",
                 "--input", "x"})).business_date == "2028-02-29");
  }
  SECTION("status with every option")
  {
    auto const r = parse({"status", "--source", "acme-erp", "--batch", "42",
                          "--format", "json"});
    CHECK(r.command_name() == "status");
    CHECK(status_of(r).source == "acme-erp");
    CHECK(status_of(r).batch_id == 42);
    CHECK(status_of(r).json);
  }
  SECTION("status with defaults")
  {
    auto const r = parse({"status"});
    CHECK(r.command_name() == "status");
    CHECK_FALSE(status_of(r).source);
    CHECK_FALSE(status_of(r).batch_id);
    CHECK_FALSE(status_of(r).json);
    CHECK_FALSE(status_of(parse({"status", "--format", "text"})).json);
  }
}

TEST_CASE("cli: options come in any order", "[unit][cli]")
{
  SECTION("load, options reversed and written with '='")
  {
    auto const l = load_of(parse({"load", "--expect-total=4200.00", "--input=in.csv",
                          "--expect-count=20", "--business-date=2026-11-28",
                          "--source=acme-erp"}));
    CHECK(l.source == "acme-erp");
    CHECK(l.business_date == "2026-11-28");
    CHECK(l.input == "in.csv");
    CHECK(l.expect_count == 20);
    CHECK(l.expect_total == "4200.00");
  }
  SECTION("global options before, after and among the command's")
  {
    auto const r = parse({"--log-format", "json", "load", "--input", "in.csv",
                          "-q", "--business-date", "2026-11-28", "--dsn",
                          "service=nightly", "--source", "acme-erp"});
    CHECK(r.command_name() == "load");
    CHECK(r.global.log_format == LogFormat::json);
    CHECK(r.global.log_level == LogLevel::warn);
    CHECK(r.global.dsn == "service=nightly");
    CHECK(load_of(r).source == "acme-erp");
    CHECK(load_of(r).input == "in.csv");
  }
  SECTION("source add: options before and after NAME")
  {
    auto const s = source_add_of(parse({"source", "add", "--policy", "partial", "acme-erp",
                          "--allow-unknown-columns", "--start-date",
                          "2026-01-01"}));
    CHECK(s.name == "acme-erp");
    CHECK(s.policy == "partial");
    CHECK(s.allow_unknown_columns);
    CHECK(s.start_date == "2026-01-01");
  }
  SECTION("status")
  {
    auto const st = status_of(parse({"status", "--format", "json", "--batch", "7",
                           "--source", "s"}));
    CHECK(st.batch_id == 7);
    CHECK(st.source == "s");
    CHECK(st.json);
  }
}

TEST_CASE("cli: load takes URLs, and the transfer options", "[unit][cli]")
{
  SECTION("http, https and file URLs as input and manifest, as given")
  {
    for (auto const *url : {"http://127.0.0.1:8080/a.csv",
                            "https://feeds.example/acme/2026-11-28.csv?x=1",
                            "file:///srv/feeds/a.csv",
                            "https://loader@feeds.example/a.csv"})
    {
      CAPTURE(url);
      auto const r = load_of(parse({"load", "--source", "a",
                                    "--business-date", "2026-11-28",
                                    "--input", url, "--manifest", url}));
      CHECK(r.input == url);
      CHECK(r.manifest == std::optional<std::string>{url});
    }
  }
  SECTION("defaults: the transport's")
  {
    auto const r = load_of(parse(load_with({})));
    CHECK(r.feed.spool_dir.empty());
    CHECK(r.feed.netrc_file.empty());
    CHECK(r.feed.ca_file.empty());
    CHECK(r.feed.connect_timeout == std::chrono::seconds{10});
    CHECK(r.feed.low_speed_time == std::chrono::seconds{30});
    CHECK(r.retry.max_attempts == 0);
  }
  SECTION("each option lands in its field")
  {
    auto const r = load_of(parse(load_with(
      {"--spool-dir", "/tmp/spool", "--netrc-file", "/etc/netrc",
       "--cacert", "/etc/ca.pem", "--connect-timeout", "3",
       "--low-speed-time", "7", "--retry-attempts", "4", "--retry-budget",
       "60"})));
    CHECK(r.feed.spool_dir == "/tmp/spool");
    CHECK(r.feed.netrc_file == "/etc/netrc");
    CHECK(r.feed.ca_file == "/etc/ca.pem");
    CHECK(r.feed.connect_timeout == std::chrono::seconds{3});
    CHECK(r.feed.low_speed_time == std::chrono::seconds{7});
    CHECK(r.retry.max_attempts == 4);
    CHECK(r.retry.budget == std::chrono::seconds{60});
  }
}

TEST_CASE("cli: source add --feed-url is checked like a load's URL",
          "[unit][cli]")
{
  auto const add = [](char const *url) {
    return outcome({"source", "add", "acme", "--feed-url", url});
  };
  CHECK(add("https://erp.example/acme/{date}.csv?tok=1") == "ok");
  CHECK(add("/srv/feeds/acme_{date}.csv") == "ok");
  CHECK_THAT(add("s3://bucket/{date}.csv"), StartsWith("config: "));
  auto const pw = add("https://u:s3cr3tXY@erp.example/{date}.csv");
  CHECK_THAT(pw, StartsWith("config: "));
  CHECK_THAT(pw, Contains("netrc"));
  CHECK_THAT(pw, !Contains("s3cr3tXY"));
}

TEST_CASE("cli: catch-up", "[unit][cli]")
{
  using loader::flows::CatchUpRequest;
  SECTION("--source is required")
  {
    CHECK_THAT(outcome({"catch-up"}), StartsWith("usage: "));
    CHECK_THAT(outcome({"catch-up"}), Contains("--source"));
  }
  SECTION("--until must be a date")
  {
    for (auto const *bad : {"2026-02-30", "yesterday", "2026-1-5", ""})
      CHECK_THAT(outcome({"catch-up", "--source", "a", "--until", bad}),
                 StartsWith("config: "));
  }
  SECTION("the fields")
  {
    auto const r = parse({"catch-up", "--until", "2026-12-02",
                          "--cacert", "/etc/ca.pem", "--source", "acme-erp",
                          "--retry-budget", "90"});
    CHECK(r.command_name() == "catch-up");
    auto const &c = r.options_as<CatchUpRequest>();
    CHECK(c.source == "acme-erp");
    CHECK(c.until == std::optional<std::string>{"2026-12-02"});
    CHECK(c.feed.ca_file == "/etc/ca.pem");
    CHECK(c.retry.budget == std::chrono::seconds{90});
    CHECK_FALSE(parse({"catch-up", "--source", "a"})
                  .options_as<CatchUpRequest>()
                  .until);
  }
  SECTION("help: the options, what libcurl offers, listed globally")
  {
    auto const h = parse({"catch-up", "--help"}).help_text;
    for (auto const *s : {"--source", "--until", "--spool-dir",
                          "--netrc-file", "--cacert", "--low-speed-time",
                          "--retry-budget", "yesterday", "URLs: "})
      CHECK_THAT(h, Contains(s));
    CHECK_THAT(parse({"--help"}).help_text, Contains("catch-up"));
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
