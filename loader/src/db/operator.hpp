#pragma once
#include <optional>
#include <string>

#include "db/database.hpp"

namespace loader::db
{
/// What `source add` asks for; an option left out keeps the stored value
/// (or the default for a new source).
struct SourceSettings
{
  std::string name;
  std::optional<std::string> policy;             ///< all-or-nothing|partial
  std::optional<std::string> max_rejected_share; ///< decimal in [0,1]
  std::optional<std::string> start_date;         ///< YYYY-MM-DD
  std::optional<std::string> feed_url;
  std::optional<bool> allow_unknown_columns;
};

/// The source as stored after `source add`; absent values are nullopt.
struct StoredSource
{
  std::string name;
  std::string policy;
  std::optional<std::string> max_rejected_share;
  std::optional<std::string> start_date;
  std::optional<std::string> feed_url;
  bool allow_unknown_columns = false;
};

/// ingest.add_source (operator): register or update a source.
StoredSource add_source(Database &db, SourceSettings const &s);
} // namespace loader::db
