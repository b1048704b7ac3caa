#include "core/process.hpp"

#include <unistd.h>

#include <climits>

namespace loader
{
std::string host_name()
{
  char buffer[HOST_NAME_MAX + 1] = {};
  if (::gethostname(buffer, sizeof buffer - 1) != 0) return "unknown";
  return buffer;
}
} // namespace loader
