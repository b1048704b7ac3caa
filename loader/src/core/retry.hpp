#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <random>
#include <string>

#include "core/errors.hpp"
#include "core/log.hpp"

namespace loader
{
/// The one retry layer (DESIGN.md decision 4): around a whole idempotent
/// step, capped exponential backoff with full jitter, a maximum number of
/// tries and a total time budget.  Nothing below it retries.
struct RetryPolicy
{
  int max_attempts = 5;                       ///< tries per step, >= 1
  std::chrono::milliseconds budget{300'000};  ///< whole run
  std::chrono::milliseconds base{250};
  std::chrono::milliseconds cap{15'000};
};

/// Upper bound of the delay after `failures` failed tries (>= 1):
/// min(cap, base * 2^(failures-1)).
std::chrono::milliseconds backoff_ceiling(RetryPolicy const &p,
                                          int failures) noexcept;

/// Whether a failure of this kind is worth another try: transient, and in
/// doubt (the step then resolves from the database's checkpoint before
/// doing anything, never redoing blindly).
bool retryable(ErrorKind kind) noexcept;

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
  /// retryable (rethrown as is), or the tries or the budget run out
  /// (LoaderError transient "retry budget exhausted ...", carrying the last
  /// error's SQLSTATE).  Before each retry, on_retry() runs (e.g. drop the
  /// connection so the next try reconnects and resumes).
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
