#include <catch2/catch.hpp>

#include <chrono>
#include <vector>

#include "core/errors.hpp"
#include "core/log.hpp"
#include "core/retry.hpp"

using namespace std::chrono_literals;
using loader::ErrorKind;
using loader::LoaderError;
using loader::RetryPolicy;
using loader::Retrier;
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
          "within the ceiling", "[unit][retry]")
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
      if (++calls < 4) throw LoaderError{ErrorKind::transient, "lost", "08006"};
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
  for (ErrorKind kind : {ErrorKind::data, ErrorKind::permission,
                         ErrorKind::config, ErrorKind::internal,
                         ErrorKind::usage, ErrorKind::no_input})
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
          "from the checkpoint)", "[unit][retry]")
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
          "error that keeps the last SQLSTATE", "[unit][retry]")
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
