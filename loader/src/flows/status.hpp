#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "flows/outcome.hpp"

namespace loader::flows
{
struct StatusRequest
{
  std::optional<std::string> source;
  std::optional<std::int64_t> batch_id;
  bool json = false;
};

/// `status`: the status report as JSON (ingest.status_report); the text
/// form is rendered from it by cli/.
std::string status_report(std::string const &dsn,
                          StatusRequest const &request);
} // namespace loader::flows
