#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "db/database.hpp"

namespace loader::db
{
/// ingest.status_report as JSON text (one document): the one source of
/// what `status` shows, in text (rendered by cli/) and in JSON.
struct StatusFilter
{
  std::optional<std::string> source;
  std::optional<std::int64_t> batch_id;
  std::optional<std::string> state;
  std::optional<std::string> since; ///< YYYY-MM-DD
  int limit = 50;
};

std::string status_report(Database &db, StatusFilter const &filter);
} // namespace loader::db
