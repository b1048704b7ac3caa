// What users and log shippers read: error lines folded to one line without
// PL/pgSQL CONTEXT (kept at -v), and JSON log lines with typed values and
// the run's context fields.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/log.hpp"
#include "core/printable.hpp"

using loader::LogFormat;
using loader::Logger;
using loader::LogLevel;
using loader::LogValue;
using loader::one_line;
using loader::printable;

TEST_CASE("printable: controls, bidi overrides and bad bytes escaped",
          "[unit][messages]")
{
  using namespace std::string_literals;
  CHECK(printable("Z\xc3\xbcrich \xe2\x82\xac 1,5") ==
        "Z\xc3\xbcrich \xe2\x82\xac 1,5");
  CHECK(printable("a\x1b]0;t\x07"
                  "b"s) == "a\\x1b]0;t\\x07b");
  CHECK(printable("r\rn\nt\tz\0!"s) == "r\\x0dn\\x0at\\x09z\\x00!");
  CHECK(printable("x\xe2\x80\xaey\xe2\x81\xa6z") == "x\\u202ey\\u2066z");
  CHECK(printable("c1 \xc2\x85 del \x7f") == "c1 \\u0085 del \\x7f");
  CHECK(printable("bad \xff\xc3( end") == "bad \\xff\\xc3( end");
  CHECK(one_line("reason \xe2\x80\xae"
                 " evil",
                 false) == "reason \\u202e evil");
}

TEST_CASE("one_line: a server error becomes one line without CONTEXT",
          "[unit][messages]")
{
  std::string const raw =
    "validating batch 7: ERROR:  batch 7 is received, not staged\n"
    "DETAIL:  Another run moved the batch first.\n"
    "HINT:  Run status for the batch.\n"
    "CONTEXT:  PL/pgSQL function ingest.transition(bigint,text,text,bigint,"
    "jsonb) line 12 at RAISE\n"
    "SQL statement \"select ingest.transition(...)\"\n";
  SECTION("default: no newline, tab or CONTEXT")
  {
    auto const m = one_line(raw, false);
    CHECK(m == "validating batch 7: batch 7 is received, not staged; "
               "DETAIL:  Another run moved the batch first.; HINT:  Run "
               "status for the batch.");
    CHECK(m.find('\n') == std::string::npos);
    CHECK(m.find("CONTEXT") == std::string::npos);
  }
  SECTION("-v keeps CONTEXT, still on one line")
  {
    auto const m = one_line(raw, true);
    CHECK(m.find("CONTEXT:  PL/pgSQL function ingest.transition") !=
          std::string::npos);
    CHECK(m.find("SQL statement") != std::string::npos);
    CHECK(m.find('\n') == std::string::npos);
  }
  SECTION("control characters from a file are shown, not sent")
  {
    CHECK(one_line("bad value a\tb\x1b[31m", false) ==
          "bad value a\\x09b\\x1b[31m");
  }
}

TEST_CASE("log: JSON lines carry typed values and the run's context",
          "[unit][messages]")
{
  Logger const base{"run-1", LogFormat::json, LogLevel::debug};
  Logger const log = base.with(
    {{"source", "acme-erp"}, {"business_date", "2026-11-28"}});
  auto const line = log.format_line(
    LogLevel::info, "batch published",
    {{"batch", 7},
     {"duration_ms", 1234LL},
     {"ok", true},
     {"counts",
      LogValue::json(R"({"records": 20, "accepted_gross": 4200.00})")}});
  INFO(line);
  auto const j = nlohmann::json::parse(line);
  CHECK(j["batch"].is_number_integer());
  CHECK(j["batch"] == 7);
  CHECK(j["duration_ms"] == 1234);
  CHECK(j["ok"] == true);
  CHECK(j["counts"].is_object());
  CHECK(j["counts"]["records"] == 20);
  CHECK(j["counts"]["accepted_gross"] == "4200.00");
  CHECK(j["source"] == "acme-erp");
  CHECK(j["business_date"] == "2026-11-28");
  CHECK(j["run_id"] == "run-1");
  SECTION("the text form shows the same fields")
  {
    Logger const text = Logger{"run-1", LogFormat::text, LogLevel::debug}.with(
      {{"source", "acme-erp"}});
    auto const t = text.format_line(LogLevel::info, "m", {{"batch", 7}});
    CHECK(t.find("run=run-1 source=acme-erp batch=7 m") != std::string::npos);
  }
}
