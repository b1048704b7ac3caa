#pragma once
#include <string>

#include "db/status.hpp"

namespace loader::cli
{
/// The text form of `status`: aligned tables rendered from the JSON
/// document ingest.status_report returns (one source of truth for both
/// formats).  Throws LoaderError{internal} when the document is not one.
std::string render_status_text(std::string const &report_json);

/// The same report as node_exporter textfile metrics (Prometheus text
/// exposition format 0.0.4), per source: watermark date and age, batches
/// by state, the last load's duration and records, notifications by state.
std::string render_status_prometheus(std::string const &report_json);
/// The exposition when the database cannot be read: invoice_loader_up 0
/// alone, so that a scrape or a textfile collector sees the outage.
std::string render_status_prometheus_down();

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
