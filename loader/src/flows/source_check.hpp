#pragma once
#include <cstddef>
#include <optional>
#include <string>

#include "flows/outcome.hpp"

namespace loader::flows
{
/// `source check NAME --input FILE`: read a sample file as the source's
/// format declares, writing nothing.
struct SourceCheckRequest
{
  std::string source;
  std::string input; ///< a local file
  /// For the rule invoice_date.after_business_date (nullopt: not judged).
  std::optional<std::string> business_date;
  std::size_t records_shown = 5; ///< the first records printed as read
};

/// Prints the header's mapping, the first records as the loader reads them
/// and every record rule a record fails (record number, rule, the values
/// as delivered and as read).  Outcome done when every record passes,
/// quarantined (65) when the file or a record would be rejected.  Rules
/// that need the database's history (duplicates, revisions, closed
/// periods) and the manifest's reconciliation are not judged.
Result source_check(std::string const &dsn, SourceCheckRequest const &rq);
} // namespace loader::flows
