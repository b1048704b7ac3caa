#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace pqxx
{
class connection_base;
}

namespace loader::db
{
struct SourceSettings
{
  std::string name;
  std::optional<std::string> policy;
  std::optional<std::string> max_rejected_share;
  std::optional<std::string> start_date;
  std::optional<std::string> feed_url;
  std::optional<bool> allow_unknown_columns;
};

/// ingest.add_source; returns one line describing the source as stored.
std::string add_source(pqxx::connection_base &cx, SourceSettings const &s);

/// ingest.status_report as JSON text (one document).
std::string status_json(pqxx::connection_base &cx,
                        std::optional<std::string> const &source,
                        std::optional<std::int64_t> const &batch_id);

/// The same, as aligned text tables for a terminal.
std::string status_text(pqxx::connection_base &cx,
                        std::optional<std::string> const &source,
                        std::optional<std::int64_t> const &batch_id);
} // namespace loader::db
