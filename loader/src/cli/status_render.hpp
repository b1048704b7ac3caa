#pragma once
#include <string>

namespace loader::cli
{
/// The text form of `status`: aligned tables rendered from the JSON
/// document ingest.status_report returns (one source of truth for both
/// formats).  Throws LoaderError{internal} when the document is not one.
std::string render_status_text(std::string const &report_json);
} // namespace loader::cli
