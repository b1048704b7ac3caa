// Command-line parsing, continued (test_cli_options.cpp has the errors):
// --dsn, what --help and --version show, the log level, that every command's
// fields are filled whatever the option order, URLs and catch-up.
#include "cli_test_helpers.hpp"

TEST_CASE("cli: a password in --dsn is refused without echoing it",
          "[unit][cli]")
{
  auto const dsn = GENERATE(
    as<char const *>{}, "host=db password=s3cr3tXY",
    "host=db password = s3cr3tXY", "host=db PASSWORD=s3cr3tXY",
    "password='s3cr3tXY with space' dbname=x", "\tpassword\t=\ts3cr3tXY",
    "dbname='postgresql://u:s3cr3tXY@h/d'", "postgres://user:s3cr3tXY@host/db",
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
                            "host=/tmp dbname=invoices", "service=nightly",
                            "host=db user=password dbname=password_db",
                            "application_name='no password here'",
                            "passfile=/etc/loader/pgpass host=db",
                            "postgresql://loader@db.example:5432/invoices",
                            "postgresql://%2Fvar%2Frun%2Fpostgresql/db",
                            "postgresql://[::1]:5432/db?sslmode=verify-full",
                            "postgres://", "dbname=postgresql://u@h/d");
  CAPTURE(dsn);
  CHECK_FALSE(loader::cli::dsn_has_password(dsn));
  CHECK(parse({"--dsn", dsn, "migrate"}).global.dsn == dsn);
}

TEST_CASE("cli: --help shows help before anything is required", "[unit][cli]")
{
  SECTION("global help lists every command, the exit codes, the DSN rules")
  {
    for (auto const *flag : {"--help", "-h"})
    {
      auto const r = parse({flag});
      CHECK(r.global.help);
      CHECK(r.command == nullptr);
      auto const &h = r.help_text;
      for (auto const *s :
           {"migrate", "source add", "load", "status", "--dsn", "--log-format",
            "--verbose", "--quiet", "--version", "PGPASSFILE", ".pgpass",
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
    for (auto const *s :
         {"--source", "--business-date", "--input", "--manifest",
          "--expect-count", "--expect-total", "PATH|URL", "--spool-dir",
          "--netrc-file", "--cacert", "--connect-timeout", "--low-speed-time",
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
    for (auto const *o :
         {"NAME", "--policy", "--max-rejected-share", "--start-date",
          "--feed-url", "--allow-unknown-columns"})
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
    CHECK(parse({"--verbose", "migrate"}).global.log_level == LogLevel::debug);
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
    CHECK(source_add_of(
            parse({"source", "add", "x", "--policy", "all-or-nothing"}))
            .policy == "all-or-nothing");
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
    auto const l = load_of(
      parse(load_with({"--expect-count", "20", "--expect-total", "4200.00"})));
    CHECK_FALSE(l.manifest);
    CHECK(l.expect_count == 20);
    CHECK(l.expect_total == "4200.00");
  }
  SECTION("load with a negative total and an empty day")
  {
    auto const l = load_of(
      parse(load_with({"--expect-count", "0", "--expect-total", "-12.50"})));
    CHECK(l.expect_count == 0);
    CHECK(l.expect_total == "-12.50");
    CHECK(
      load_of(parse(load_with({"--expect-count=1", "--expect-total=-0.01"})))
        .expect_total == "-0.01");
  }
  SECTION("load of a leap day")
  {
    CHECK(load_of(parse({"load", "--source", "a", "--business-date",
                         "2028-02-29", "--input", "x"}))
            .business_date == "2028-02-29");
  }
  SECTION("status with every option")
  {
    auto const r = parse(
      {"status", "--source", "acme-erp", "--batch", "42", "--format", "json"});
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
    auto const l = load_of(parse(
      {"load", "--expect-total=4200.00", "--input=in.csv", "--expect-count=20",
       "--business-date=2026-11-28", "--source=acme-erp"}));
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
    auto const s = source_add_of(
      parse({"source", "add", "--policy", "partial", "acme-erp",
             "--allow-unknown-columns", "--start-date", "2026-01-01"}));
    CHECK(s.name == "acme-erp");
    CHECK(s.policy == "partial");
    CHECK(s.allow_unknown_columns);
    CHECK(s.start_date == "2026-01-01");
  }
  SECTION("status")
  {
    auto const st = status_of(
      parse({"status", "--format", "json", "--batch", "7", "--source", "s"}));
    CHECK(st.batch_id == 7);
    CHECK(st.source == "s");
    CHECK(st.json);
  }
}

TEST_CASE("cli: load takes URLs, and the transfer options", "[unit][cli]")
{
  SECTION("http, https and file URLs as input and manifest, as given")
  {
    for (auto const *url :
         {"http://127.0.0.1:8080/a.csv",
          "https://feeds.example/acme/2026-11-28.csv?x=1",
          "file:///srv/feeds/a.csv", "https://loader@feeds.example/a.csv"})
    {
      CAPTURE(url);
      auto const r = load_of(
        parse({"load", "--source", "a", "--business-date", "2026-11-28",
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
      {"--spool-dir", "/tmp/spool", "--netrc-file", "/etc/netrc", "--cacert",
       "/etc/ca.pem", "--connect-timeout", "3", "--low-speed-time", "7",
       "--retry-attempts", "4", "--retry-budget", "60"})));
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
                 StartsWith("usage: "));
  }
  SECTION("the fields")
  {
    auto const r = parse({"catch-up", "--until", "2026-12-02", "--cacert",
                          "/etc/ca.pem", "--source", "acme-erp",
                          "--retry-budget", "90"});
    CHECK(r.command_name() == "catch-up");
    auto const &c = r.options_as<CatchUpRequest>();
    CHECK(c.source == "acme-erp");
    CHECK(c.until == std::optional<std::string>{"2026-12-02"});
    CHECK(c.feed.ca_file == "/etc/ca.pem");
    CHECK(c.retry.budget == std::chrono::seconds{90});
    CHECK_FALSE(
      parse({"catch-up", "--source", "a"}).options_as<CatchUpRequest>().until);
  }
  SECTION("help: the options, what libcurl offers, listed globally")
  {
    auto const h = parse({"catch-up", "--help"}).help_text;
    for (auto const *s :
         {"--source", "--until", "--spool-dir", "--netrc-file", "--cacert",
          "--low-speed-time", "--retry-budget", "yesterday", "URLs: "})
      CHECK_THAT(h, Contains(s));
    CHECK_THAT(parse({"--help"}).help_text, Contains("catch-up"));
  }
}
