#include "db/status.hpp"

#include <pqxx/pqxx>

#include "db/session.hpp"

namespace loader::db
{
std::string status_report(Database &db, StatusFilter const &f)
{
  auto const opt = [](std::optional<std::string> const &v) {
    return v ? v->c_str() : nullptr;
  };
  try
  {
    pqxx::read_transaction tx{db.cx()};
    std::optional<std::string> batch;
    if (f.batch_id) batch = std::to_string(*f.batch_id);
    return tx
      .exec_params1("select ingest.status_report($1, $2::bigint, $3, $4, "
                    "$5::date)::text",
                    opt(f.source), opt(batch), f.limit, opt(f.state),
                    opt(f.since))[0]
      .as<std::string>();
  }
  catch (...)
  {
    rethrow_classified("status");
  }
}
} // namespace loader::db
