#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/log.hpp"
#include "core/retry.hpp"

using namespace std::chrono_literals;
using loader::ErrorKind;
using loader::LoaderError;
using loader::Retrier;
using loader::RetryPolicy;
using ms = std::chrono::milliseconds;

namespace
{
/// A clock that moves only when the retrier sleeps.
struct FakeTime
{
  ms now{0};
  std::vector<ms> sleeps;
  Retrier::Sleeper sleeper()
  {
    return [this](ms d) {
      sleeps.push_back(d);
      now += d;
    };
  }
  Retrier::Now clock()
  {
    return [this] { return now; };
  }
};

loader::Logger const quiet{"test-run", loader::LogFormat::text,
                           loader::LogLevel::error};
} // namespace

TEST_CASE("backoff_ceiling: doubles from base and stops at the cap",
          "[unit][retry]")
{
  RetryPolicy p;
  p.base = 100ms;
  p.cap = 1000ms;
  CHECK(loader::backoff_ceiling(p, 1) == 100ms);
  CHECK(loader::backoff_ceiling(p, 2) == 200ms);
  CHECK(loader::backoff_ceiling(p, 4) == 800ms);
  CHECK(loader::backoff_ceiling(p, 5) == 1000ms);
  CHECK(loader::backoff_ceiling(p, 60) == 1000ms);
}

TEST_CASE("Retrier: transient failures are retried with jittered delays "
          "within the ceiling",
          "[unit][retry]")
{
  FakeTime t;
  RetryPolicy p;
  p.max_attempts = 5;
  p.base = 100ms;
  p.cap = 400ms;
  p.budget = 60s;
  Retrier r{p, quiet, t.sleeper(), t.clock(), 42};
  int calls = 0, resets = 0;
  int const got = r.run(
    "stage",
    [&] {
      if (++calls < 4)
        throw LoaderError{ErrorKind::transient, "lost", "08006"};
      return 7;
    },
    [&] { ++resets; });
  CHECK(got == 7);
  CHECK(calls == 4);
  CHECK(resets == 3);
  REQUIRE(t.sleeps.size() == 3);
  CHECK(t.sleeps[0] <= 100ms);
  CHECK(t.sleeps[1] <= 200ms);
  CHECK(t.sleeps[2] <= 400ms);
}

TEST_CASE("Retrier: full jitter spreads delays over the whole range",
          "[unit][retry]")
{
  FakeTime t;
  RetryPolicy p;
  p.max_attempts = 1000;
  p.base = 1000ms;
  p.cap = 1000ms;
  p.budget = 1000000s;
  Retrier r{p, quiet, t.sleeper(), t.clock(), 7};
  int calls = 0;
  r.run("x", [&] {
    if (++calls < 200) throw LoaderError{ErrorKind::transient, "lost"};
    return 0;
  });
  ms lo = 1000ms, hi = 0ms;
  for (ms d : t.sleeps)
  {
    lo = std::min(lo, d);
    hi = std::max(hi, d);
  }
  CHECK(lo < 100ms);
  CHECK(hi > 900ms);
}

TEST_CASE("Retrier: failures that are not transient are never retried",
          "[unit][retry]")
{
  for (ErrorKind kind :
       {ErrorKind::data, ErrorKind::permission, ErrorKind::config,
        ErrorKind::internal, ErrorKind::usage, ErrorKind::no_input})
  {
    FakeTime t;
    Retrier r{RetryPolicy{}, quiet, t.sleeper(), t.clock(), 1};
    int calls = 0;
    try
    {
      r.run("validate", [&]() -> int {
        ++calls;
        throw LoaderError{kind, "no", "IV999"};
      });
      FAIL("no exception");
    }
    catch (LoaderError const &e)
    {
      CHECK(e.kind == kind);
    }
    CHECK(calls == 1);
    CHECK(t.sleeps.empty());
  }
}

TEST_CASE("Retrier: a commit in doubt is retried (resolved by the caller "
          "from the checkpoint)",
          "[unit][retry]")
{
  FakeTime t;
  Retrier r{RetryPolicy{}, quiet, t.sleeper(), t.clock(), 3};
  int calls = 0;
  CHECK(r.run("publish", [&] {
    if (++calls == 1) throw LoaderError{ErrorKind::in_doubt, "?"};
    return 1;
  }) == 1);
  CHECK(calls == 2);
}

TEST_CASE("Retrier: the maximum number of tries ends with a transient "
          "error that keeps the last SQLSTATE",
          "[unit][retry]")
{
  FakeTime t;
  RetryPolicy p;
  p.max_attempts = 3;
  p.budget = 3600s;
  Retrier r{p, quiet, t.sleeper(), t.clock(), 5};
  int calls = 0;
  try
  {
    r.run("stage", [&]() -> int {
      ++calls;
      throw LoaderError{ErrorKind::transient, "gone", "57P01"};
    });
    FAIL("no exception");
  }
  catch (LoaderError const &e)
  {
    CHECK(e.kind == ErrorKind::transient);
    CHECK(e.sqlstate == "57P01");
    CHECK(std::string{e.what()}.find("retry budget exhausted") == 0);
  }
  CHECK(calls == 3);
  CHECK(t.sleeps.size() == 2);
}

TEST_CASE("Retrier: the time budget stops retries before it is overrun",
          "[unit][retry]")
{
  FakeTime t;
  RetryPolicy p;
  p.max_attempts = 1000;
  p.base = 1000ms;
  p.cap = 1000ms;
  p.budget = 5s;
  Retrier r{p, quiet, t.sleeper(), t.clock(), 11};
  int calls = 0;
  CHECK_THROWS_AS(r.run("connect",
                        [&]() -> int {
                          ++calls;
                          t.now += 500ms; // each try takes time too
                          throw LoaderError{ErrorKind::transient, "down"};
                        }),
                  LoaderError);
  CHECK(t.now <= 5s + 500ms);
  CHECK(calls > 2);
  CHECK(calls < 1000);
}

TEST_CASE("RetryPolicy: the defaults bound by time only, with a 5 s cap",
          "[unit][retry]")
{
  RetryPolicy const p;
  CHECK(p.max_attempts == 0);
  CHECK(p.budget == 300s);
  CHECK(p.base == 250ms);
  CHECK(p.cap == 5s);
}

TEST_CASE("Retrier: the default policy rides out a 60 s outage and tries "
          "again within the cap of the server's return",
          "[unit][retry]")
{
  FakeTime t;
  Retrier r{RetryPolicy{}, quiet, t.sleeper(), t.clock(), 2024};
  int calls = 0;
  int const got = r.run("connect", [&] {
    ++calls;
    t.now += 5ms; // a refused connection takes a little time
    if (t.now < 60s) throw LoaderError{ErrorKind::transient, "refused"};
    return 1;
  });
  CHECK(got == 1);
  CHECK(calls > 5); // more than the old fixed count of five tries
  CHECK(t.now >= 60s);
  CHECK(t.now <= 60s + RetryPolicy{}.cap + 5ms);
}

TEST_CASE("Retrier: the budget ends an outage that outlasts it, without "
          "waiting past it",
          "[unit][retry]")
{
  FakeTime t;
  RetryPolicy p;
  p.budget = 30s;
  Retrier r{p, quiet, t.sleeper(), t.clock(), 99};
  int calls = 0;
  try
  {
    r.run("connect", [&]() -> int {
      ++calls;
      t.now += 5ms;
      throw LoaderError{ErrorKind::transient, "refused", "57P03"};
    });
    FAIL("no exception");
  }
  catch (LoaderError const &e)
  {
    CHECK(e.kind == ErrorKind::transient);
    CHECK(e.sqlstate == "57P03");
    std::string const what{e.what()};
    CHECK(what.find("retry budget exhausted") == 0);
    CHECK(what.find("within the retry budget of 30.0 s") != std::string::npos);
  }
  CHECK(calls > 5);
  ms slept{0};
  for (ms d : t.sleeps) slept += d;
  CHECK(slept <= 30s);
  // The last try happens at the end of the budget, not a cap earlier.
  CHECK(t.now >= 30s);
  CHECK(t.now <= 30s + 5ms);
}

TEST_CASE("Retrier: the budget counts the time the tries themselves take",
          "[unit][retry]")
{
  FakeTime t;
  RetryPolicy p;
  p.budget = 300s;
  Retrier r{p, quiet, t.sleeper(), t.clock(), 4};
  int calls = 0;
  CHECK_THROWS_AS(r.run("stage",
                        [&]() -> int {
                          ++calls;
                          t.now += 200s; // e.g. a COPY cut off at the end
                          throw LoaderError{ErrorKind::transient, "lost"};
                        }),
                  LoaderError);
  CHECK(calls == 2);
  CHECK(r.remaining() == 0ms);
}

TEST_CASE("Retrier: --retry-attempts, when set, ends the run before the "
          "budget",
          "[unit][retry]")
{
  FakeTime t;
  RetryPolicy p;
  p.max_attempts = 4;
  Retrier r{p, quiet, t.sleeper(), t.clock(), 8};
  int calls = 0;
  try
  {
    r.run("connect", [&]() -> int {
      ++calls;
      throw LoaderError{ErrorKind::transient, "refused"};
    });
    FAIL("no exception");
  }
  catch (LoaderError const &e)
  {
    CHECK(std::string{e.what()}.find("after 4 tries (--retry-attempts 4)") !=
          std::string::npos);
  }
  CHECK(calls == 4);
  CHECK(t.now < p.budget);
}

TEST_CASE("Retrier: no wait exceeds the cap, however long the outage",
          "[unit][retry]")
{
  FakeTime t;
  RetryPolicy p;
  p.budget = 3600s;
  Retrier r{p, quiet, t.sleeper(), t.clock(), 13};
  int calls = 0;
  r.run("connect", [&] {
    if (++calls < 500) throw LoaderError{ErrorKind::transient, "refused"};
    return 0;
  });
  REQUIRE(t.sleeps.size() == 499);
  ms hi{0};
  for (ms d : t.sleeps) hi = std::max(hi, d);
  CHECK(hi <= p.cap);
  CHECK(hi > p.cap / 2); // the cap is reached, not a smaller ceiling
}

TEST_CASE("decide_retry: the wait is trimmed to what is left of the budget",
          "[unit][retry]")
{
  RetryPolicy p;
  p.budget = 300s;
  auto const d = loader::decide_retry(p, 9, 299'000ms, 4'000ms);
  CHECK(d.retry);
  CHECK(d.delay == 1'000ms);
  auto const spent = loader::decide_retry(p, 9, 300'000ms, 10ms);
  CHECK_FALSE(spent.retry);
  CHECK(spent.stop_reason.find("retry budget of 300.0 s") !=
        std::string::npos);
}

TEST_CASE("decide_retry: a Retry-After hint is a minimum wait, within the "
          "remaining budget",
          "[unit][retry]")
{
  RetryPolicy p;
  p.budget = 300s;
  SECTION("longer than the draw: waited in full")
  {
    auto const d = loader::decide_retry(p, 1, 10s, 100ms, ms{30s});
    CHECK(d.retry);
    CHECK(d.delay == 30s);
  }
  SECTION("shorter than the draw: the draw stands")
  {
    auto const d = loader::decide_retry(p, 5, 10s, 3s, ms{1s});
    CHECK(d.retry);
    CHECK(d.delay == 3s);
  }
  SECTION("beyond the budget: stop now rather than retry too early")
  {
    auto const d = loader::decide_retry(p, 1, 200s, 100ms, ms{120s});
    CHECK_FALSE(d.retry);
    CHECK(d.stop_reason.find("the server asked to wait 120.0 s") !=
          std::string::npos);
  }
}

TEST_CASE("Retrier: a failure's Retry-After reaches the wait", "[unit][retry]")
{
  FakeTime t;
  Retrier r{RetryPolicy{}, quiet, t.sleeper(), t.clock(), 21};
  int calls = 0;
  r.run("download", [&] {
    if (++calls == 1)
    {
      LoaderError e{ErrorKind::transient, "429"};
      e.retry_after = ms{42s};
      throw e;
    }
    return 0;
  });
  REQUIRE(t.sleeps.size() == 1);
  CHECK(t.sleeps[0] == 42s);
}
