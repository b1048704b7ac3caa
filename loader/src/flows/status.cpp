#include "flows/status.hpp"

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "db/status.hpp"

namespace loader::flows
{
std::string status_report(std::string const &dsn, StatusRequest const &request)
{
  db::Database database{dsn};
  db::StatusFilter f;
  f.source = request.source;
  f.batch_id = request.batch_id;
  f.state = request.state;
  f.since = request.since;
  f.limit = request.limit;
  std::string report{db::status_report(database, f)};
  auto const doc = nlohmann::json::parse(report, nullptr, false);
  if (request.source and doc.value("sources", nlohmann::json::array()).empty())
    throw LoaderError{ErrorKind::config,
                      "unknown source " + *request.source +
                        "; an operator registers sources with: "
                        "invoice-loader source add NAME"};
  if (request.batch_id and
      doc.value("batches", nlohmann::json::array()).empty())
    throw LoaderError{
      ErrorKind::config,
      "no batch " + std::to_string(*request.batch_id) +
        (request.source ? " of source " + *request.source : std::string{})};
  return report;
}

void export_rejections(
  std::string const &dsn, std::int64_t batch_id,
  std::function<void(db::RejectionExport const &)> const &each)
{
  db::Database database{dsn};
  db::export_rejections(database, batch_id, each);
}
} // namespace loader::flows
