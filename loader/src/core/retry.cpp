#include "core/retry.hpp"

#include <algorithm>
#include <string_view>
#include <thread>

namespace loader
{
namespace
{
using ms = std::chrono::milliseconds;

std::string seconds_text(ms d)
{
  // One decimal: "2.5 s"; budgets and waits are read by people.
  auto const tenths = (d.count() + 50) / 100;
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) +
         " s";
}
} // namespace

std::chrono::milliseconds backoff_ceiling(RetryPolicy const &p,
                                          int failures) noexcept
{
  ms ceiling = p.base;
  for (int i = 1; i < failures and ceiling < p.cap; ++i) ceiling *= 2;
  return std::min(ceiling, p.cap);
}

bool retryable(ErrorKind kind) noexcept
{
  return kind == ErrorKind::transient or kind == ErrorKind::in_doubt;
}

RetryDecision decide_retry(RetryPolicy const &p, int failures, ms elapsed,
                           ms jittered, std::optional<ms> retry_after)
{
  RetryDecision d;
  if (p.max_attempts > 0 and failures >= p.max_attempts)
  {
    d.stop_reason = "after " + std::to_string(failures) + " tries (" +
                    "--retry-attempts " + std::to_string(p.max_attempts) + ")";
    return d;
  }
  ms const left{p.budget - elapsed};
  std::string const budget_text{"within the retry budget of " +
                                seconds_text(p.budget)};
  if (left <= ms{0})
  {
    d.stop_reason = budget_text;
    return d;
  }
  if (retry_after and *retry_after > left)
  {
    d.stop_reason = budget_text + " (the server asked to wait " +
                    seconds_text(*retry_after) + ", " + seconds_text(left) +
                    " of it were left)";
    return d;
  }
  ms delay{std::max(jittered, ms{0})};
  if (retry_after) delay = std::max(delay, *retry_after);
  d.retry = true;
  d.delay = std::min(delay, left);
  return d;
}

Retrier::Retrier(RetryPolicy policy, Logger const &log, Sleeper sleeper,
                 Now now, std::uint64_t seed) :
        m_policy{policy},
        m_log{log},
        m_sleep{sleeper ? std::move(sleeper)
                        : Sleeper{[](std::chrono::milliseconds d) {
                            std::this_thread::sleep_for(d);
                          }}},
        m_now{now ? std::move(now) : Now{[] {
          return std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::steady_clock::now().time_since_epoch());
        }}},
        m_rng{seed},
        m_start{m_now()}
{}

std::chrono::milliseconds Retrier::elapsed() const
{
  return m_now() - m_start;
}

std::chrono::milliseconds Retrier::remaining() const
{
  return std::max(m_policy.budget - elapsed(), ms{0});
}

void Retrier::after_failure(std::string const &step, LoaderError const &e,
                            int failures)
{
  if (not retryable(e.kind)) throw;
  ms const ceiling{backoff_ceiling(m_policy, failures)};
  std::uniform_int_distribution<ms::rep> full_jitter{0, ceiling.count()};
  ms const drawn{full_jitter(m_rng)};
  std::optional<ms> const hint{e.retry_after};
  // The clock is read here, after the failed try: its own duration (a
  // connect timeout, a long COPY) counts against the budget too.
  ms const spent{elapsed()};
  RetryDecision const d{decide_retry(m_policy, failures, spent, drawn, hint)};
  if (not d.retry)
    throw LoaderError{ErrorKind::transient,
                      "retry budget exhausted: step " + step +
                        " did not succeed " + d.stop_reason +
                        "; last error: " + e.what(),
                      e.sqlstate};
  std::string const tries{m_policy.max_attempts > 0
                            ? std::to_string(failures) + "/" +
                                std::to_string(m_policy.max_attempts)
                            : std::to_string(failures)};
  std::string_view const message{
    e.kind == ErrorKind::in_doubt
      ? "commit outcome unknown; resolving from the checkpoint; retrying"
      : "step failed; retrying"};
  auto const delay_ms = static_cast<std::int64_t>(d.delay.count());
  auto const left_ms = static_cast<std::int64_t>(
    std::max(m_policy.budget - spent, ms{0}).count());
  if (hint)
    m_log.warn(message,
               {{"step", step},
                {"try", tries},
                {"delay_ms", delay_ms},
                {"budget_left_ms", left_ms},
                {"retry_after_ms", static_cast<std::int64_t>(hint->count())},
                {"class", std::string{name_of(e.kind)}},
                {"sqlstate", e.sqlstate},
                {"reason", e.what()}});
  else
    m_log.warn(message, {{"step", step},
                         {"try", tries},
                         {"delay_ms", delay_ms},
                         {"budget_left_ms", left_ms},
                         {"class", std::string{name_of(e.kind)}},
                         {"sqlstate", e.sqlstate},
                         {"reason", e.what()}});
  m_sleep(d.delay);
}
} // namespace loader
