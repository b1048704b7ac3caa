#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "db/database.hpp"

namespace loader::db
{
/// ingest.status_report as JSON text (one document): the one source of
/// what `status` shows, in text (rendered by cli/) and in JSON.
std::string status_report(Database &db,
                          std::optional<std::string> const &source,
                          std::optional<std::int64_t> const &batch_id);
} // namespace loader::db
