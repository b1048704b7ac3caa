#include "flows/status.hpp"

#include "db/status.hpp"

namespace loader::flows
{
std::string status_report(std::string const &dsn,
                          StatusRequest const &request)
{
  db::Database database{dsn};
  return db::status_report(database, request.source, request.batch_id);
}
} // namespace loader::flows
