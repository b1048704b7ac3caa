#include "core/failpoint.hpp"

#include <csignal>
#include <cstdio>
#include <cstdlib>

#include <unistd.h>

namespace loader
{
bool failpoint_armed(std::string_view name) noexcept
{
  static char const *const armed = std::getenv("INVOICE_LOADER_FAILPOINT");
  return armed != nullptr and name == armed;
}

void failpoint(std::string_view name) noexcept
{
  if (not failpoint_armed(name)) return;
  std::fprintf(stderr, "invoice-loader: failpoint %.*s: killing myself\n",
               static_cast<int>(name.size()), name.data());
  std::fflush(stderr);
  ::kill(::getpid(), SIGKILL);
  ::_exit(137); // not reached
}
} // namespace loader
