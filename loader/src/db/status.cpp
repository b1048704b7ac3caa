#include "db/status.hpp"

#include <pqxx/pqxx>

#include "db/session.hpp"

namespace loader::db
{
std::string status_report(Database &db,
                          std::optional<std::string> const &source,
                          std::optional<std::int64_t> const &batch_id)
{
  try
  {
    pqxx::read_transaction tx{db.cx()};
    std::optional<std::string> batch;
    if (batch_id) batch = std::to_string(*batch_id);
    return tx
      .exec_params1("select ingest.status_report($1, $2::bigint)::text",
                    source ? source->c_str() : nullptr,
                    batch ? batch->c_str() : nullptr)[0]
      .as<std::string>();
  }
  catch (...)
  {
    rethrow_classified("status");
  }
}
} // namespace loader::db
