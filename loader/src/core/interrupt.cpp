#include "core/interrupt.hpp"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstring>
#include <thread>

#include "core/errors.hpp"

namespace loader
{
namespace
{
volatile std::sig_atomic_t g_signal = 0;
std::atomic<Canceller> g_canceller{nullptr};
std::atomic<void *> g_cancel_arg{nullptr};

extern "C" void on_signal(int sig)
{
  g_signal = sig;
  if (Canceller const fn = g_canceller.load()) fn(g_cancel_arg.load());
}
} // namespace

void install_interrupt_handlers() noexcept
{
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  // SA_RESETHAND: a second signal takes the default action (ends us).
  sa.sa_flags = static_cast<int>(SA_RESETHAND);
  ::sigaction(SIGTERM, &sa, nullptr);
  ::sigaction(SIGINT, &sa, nullptr);
}

int interrupted() noexcept
{
  return g_signal;
}

void throw_if_interrupted(std::string const &during)
{
  int const sig = g_signal;
  if (sig == 0) return;
  throw LoaderError{ErrorKind::interrupted,
                    std::string{"interrupted by "} +
                      (sig == SIGINT ? "SIGINT" : "SIGTERM") + " during " +
                      during};
}

void sleep_unless_interrupted(std::chrono::milliseconds d)
{
  auto const until = std::chrono::steady_clock::now() + d;
  while (g_signal == 0 and std::chrono::steady_clock::now() < until)
  {
    auto const left = until - std::chrono::steady_clock::now();
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(
      left, std::chrono::milliseconds{50}));
  }
}

void set_canceller(Canceller fn, void *arg) noexcept
{
  // The argument first: a handler that sees the function sees its data.
  g_canceller.store(nullptr);
  g_cancel_arg.store(arg);
  g_canceller.store(fn);
}
} // namespace loader
