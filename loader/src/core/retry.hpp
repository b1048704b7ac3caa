#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>

#include "core/errors.hpp"
#include "core/log.hpp"

namespace loader
{
/// The one retry layer (docs/design/architecture.md): around a whole
/// idempotent step, capped exponential backoff with full jitter, bounded
/// first by a total time budget (an outage shorter than the budget costs
/// time, never the outcome: docs/reference/faults.md) and only optionally
/// by a count of tries.
/// Nothing below it retries.
///
/// With the defaults an outage of any length up to `budget` is ridden out:
/// the waits grow 0.25, 0.5, 1, 2, 4 s and then stay at most 5 s, so the
/// run notices a server that is back within about 5 s (2.5 s on average).
struct RetryPolicy
{
  int max_attempts = 0;                      ///< tries per step; 0: no bound
  std::chrono::milliseconds budget{300'000}; ///< whole run
  std::chrono::milliseconds base{250};
  std::chrono::milliseconds cap{5'000};
};

/// Upper bound of the delay after `failures` failed tries (>= 1):
/// min(cap, base * 2^(failures-1)).
std::chrono::milliseconds backoff_ceiling(RetryPolicy const &p,
                                          int failures) noexcept;

/// Whether a failure of this kind is worth another try: transient, and in
/// doubt (the step then resolves from the database's checkpoint before
/// doing anything, never redoing blindly).
bool retryable(ErrorKind kind) noexcept;

/// What to do after a retryable failure; a pure function of its inputs.
struct RetryDecision
{
  bool retry = false;
  std::chrono::milliseconds delay{0}; ///< when retry: how long to wait
  std::string stop_reason;            ///< when not: why, for the message
};

/// failures: failed tries of this step so far (>= 1).  elapsed: the run's
/// real time so far.  jittered: the full-jitter draw in [0, ceiling].
/// retry_after: a minimum delay the failure asked for (HTTP Retry-After
/// of a 429/503), if any.
///
/// The wait is the draw, raised to retry_after when that is longer, and
/// never beyond the remaining budget: a run waits at most until its budget
/// ends and then makes one last try.  Stops when the budget is spent, when
/// retry_after is longer than what is left of it (waiting less would not
/// honour it, waiting more would overrun), or when max_attempts (if set)
/// tries have failed.
RetryDecision decide_retry(
  RetryPolicy const &p, int failures, std::chrono::milliseconds elapsed,
  std::chrono::milliseconds jittered,
  std::optional<std::chrono::milliseconds> retry_after = std::nullopt);

class Retrier
{
public:
  using Sleeper = std::function<void(std::chrono::milliseconds)>;
  /// Time since an arbitrary fixed point.
  using Now = std::function<std::chrono::milliseconds()>;

  /// sleeper, now and seed are for tests; the defaults use the real
  /// steady clock and really sleep.
  Retrier(RetryPolicy policy, Logger const &log, Sleeper sleeper = {},
          Now now = {}, std::uint64_t seed = std::random_device{}());

  /// Run attempt() until it returns, or fails with a kind that is not
  /// retryable (a failure's LoaderError::retry_after, when set, is the
  /// least the next try waits: decide_retry) (rethrown as is), or the budget
  /// (or the tries, if bounded) run out (LoaderError transient "retry budget
  /// exhausted ...", carrying the last error's SQLSTATE).  Before each retry,
  /// on_retry() runs (e.g. drop the connection so the next try reconnects and
  /// resumes).
  template<typename Attempt>
  auto run(std::string const &step, Attempt &&attempt,
           std::function<void()> const &on_retry = {}) -> decltype(attempt())
  {
    for (int failures = 0;;)
    {
      try
      {
        return attempt();
      }
      catch (LoaderError const &e)
      {
        ++failures;
        after_failure(step, e, failures);
        if (on_retry) on_retry();
      }
    }
  }

  /// Time since the Retrier was made (the run's start).
  std::chrono::milliseconds elapsed() const;

  /// What is left of the budget now (never negative).  The orchestrator
  /// derives per-step bounds from it, e.g. Session::set_statement_timeout.
  std::chrono::milliseconds remaining() const;

  RetryPolicy const &policy() const noexcept { return m_policy; }

private:
  /// Rethrows when no retry is allowed; otherwise logs and sleeps.
  void after_failure(std::string const &step, LoaderError const &e,
                     int failures);

  RetryPolicy m_policy;
  Logger const &m_log;
  Sleeper m_sleep;
  Now m_now;
  std::mt19937_64 m_rng;
  std::chrono::milliseconds m_start;
};
} // namespace loader
