#pragma once
#include <optional>
#include <string>

#include "flows/outcome.hpp"

namespace loader::flows
{
/// `period close` and `period reopen` (operator): a source's closed period,
/// its last date and why.
struct PeriodRequest
{
  bool close = true;
  std::string source;
  std::optional<std::string> through; ///< YYYY-MM-DD; reopen: none = all
  std::string reason;
};

/// Move the source's closed period (ingest.set_period_lock); prints the
/// action and the lock date before and after.
Result set_period(std::string const &dsn, PeriodRequest const &request);
} // namespace loader::flows
