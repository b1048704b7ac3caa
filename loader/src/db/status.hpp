#pragma once
#include <array>
#include <cstdint>
#include <functional>
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

/// One row of ingest.rejection_export: a rejection and the record's twelve
/// fields in the contract's order (absent for the whole file, or once the
/// staging rows are gone; a field is absent when it was an empty field).
struct RejectionExport
{
  std::int64_t record_no = 0;
  std::optional<std::string> invoice_number;
  std::string rule;
  std::string detail;
  std::optional<std::array<std::optional<std::string>, 12>> fields;
};

/// Every rejection of the batch, in record order, to each: fetched through
/// a cursor, 10000 rows at a time, so memory stays flat for any number.
/// LoaderError{config} when there is no such batch.
void export_rejections(
  Database &db, std::int64_t batch_id,
  std::function<void(RejectionExport const &)> const &each);
} // namespace loader::db
