#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "db/status.hpp"
#include "flows/outcome.hpp"

namespace loader::flows
{
enum class StatusFormat
{
  text,
  json,
  prometheus
};

struct StatusRequest
{
  std::optional<std::string> source;
  std::optional<std::int64_t> batch_id;
  std::optional<std::string> state; ///< only batches in this state
  std::optional<std::string> since; ///< business dates from, YYYY-MM-DD
  int limit = 50;
  StatusFormat format = StatusFormat::text;
  bool json = false; ///< format == json (kept for the option tests)
};

/// `status`: the status report as JSON (ingest.status_report), the text
/// and Prometheus forms being rendered from it by cli/.  A --batch or
/// --source that does not exist is LoaderError{config} (exit 78), not an
/// empty report.
std::string status_report(std::string const &dsn,
                          StatusRequest const &request);

/// `status --batch ID --rejections`: every rejection of the batch to each,
/// in record order, as it is fetched (cli/ renders CSV or JSON lines).
/// LoaderError{config} for an unknown batch.
void export_rejections(
  std::string const &dsn, std::int64_t batch_id,
  std::function<void(db::RejectionExport const &)> const &each);
} // namespace loader::flows
