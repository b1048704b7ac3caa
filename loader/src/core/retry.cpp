#include "core/retry.hpp"

#include <algorithm>
#include <thread>

namespace loader
{
std::chrono::milliseconds backoff_ceiling(RetryPolicy const &p,
                                          int failures) noexcept
{
  using ms = std::chrono::milliseconds;
  ms ceiling = p.base;
  for (int i = 1; i < failures and ceiling < p.cap; ++i) ceiling *= 2;
  return std::min(ceiling, p.cap);
}

bool retryable(ErrorKind kind) noexcept
{
  return kind == ErrorKind::transient or kind == ErrorKind::in_doubt;
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

void Retrier::after_failure(std::string const &step, LoaderError const &e,
                            int failures)
{
  if (not retryable(e.kind)) throw;
  using ms = std::chrono::milliseconds;
  ms const ceiling{backoff_ceiling(m_policy, failures)};
  std::uniform_int_distribution<ms::rep> full_jitter{0, ceiling.count()};
  ms const delay{full_jitter(m_rng)};
  std::string const tries{std::to_string(failures) + "/" +
                          std::to_string(m_policy.max_attempts)};
  if (failures >= m_policy.max_attempts or
      elapsed() + delay > m_policy.budget)
  {
    std::string const why{failures >= m_policy.max_attempts
                            ? "after " + tries + " tries"
                            : "within the retry budget of " +
                                std::to_string(m_policy.budget.count() /
                                               1000) + " s"};
    throw LoaderError{ErrorKind::transient,
                      "retry budget exhausted: step " + step +
                        " did not succeed " + why + "; last error: " +
                        e.what(),
                      e.sqlstate};
  }
  m_log.warn(e.kind == ErrorKind::in_doubt
               ? "commit outcome unknown; resolving from the checkpoint"
               : "step failed; retrying",
             {{"step", step},
              {"try", tries},
              {"delay_ms", std::to_string(delay.count())},
              {"class", std::string{name_of(e.kind)}},
              {"sqlstate", e.sqlstate},
              {"error", e.what()}});
  m_sleep(delay);
}
} // namespace loader
