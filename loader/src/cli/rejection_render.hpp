#pragma once
// The reject file of `status --batch ID --rejections`: every rejection of
// a batch with the record's fields, as CSV or JSON lines, one row at a time
// as the rows are fetched (flows::export_rejections).
#include <string>

#include "db/status.hpp"

namespace loader::cli
{
/// `status --batch ID --rejections --format csv`: the header line, then one
/// RFC 4180 line per rejection (record_no, rule, detail and the contract's
/// twelve columns as the record was read; empty for the whole file); lines
/// end with LF.
std::string rejection_csv_header();
std::string rejection_csv_line(db::RejectionExport const &r);
/// --format json: one JSON object per line (JSON Lines), with fields an
/// object of the twelve columns (null for the whole file).
std::string rejection_json_line(db::RejectionExport const &r);
} // namespace loader::cli
