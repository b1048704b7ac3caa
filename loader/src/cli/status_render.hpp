#pragma once
#include <string>

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
} // namespace loader::cli
