#include "db/operator.hpp"

#include <pqxx/pqxx>

#include "db/session.hpp"

namespace loader::db
{
namespace
{
char const *opt(std::optional<std::string> const &v)
{
  return v ? v->c_str() : nullptr;
}

std::optional<std::string> opt_of(pqxx::field const &f)
{
  if (f.is_null()) return std::nullopt;
  return f.as<std::string>();
}
} // namespace

StoredSource add_source(Database &db, SourceSettings const &s)
{
  try
  {
    pqxx::work tx{db.cx()};
    char const *allow =
      s.allow_unknown_columns ? (*s.allow_unknown_columns ? "true" : "false")
                              : nullptr;
    pqxx::row const r{tx.exec_params1(
      "select source, policy, max_rejected_share::text, start_date::text, "
      "feed_url, allow_unknown_columns "
      "from ingest.add_source($1, $2, $3::numeric, $4::date, $5, $6::boolean)",
      s.name, opt(s.policy), opt(s.max_rejected_share), opt(s.start_date),
      opt(s.feed_url), allow)};
    tx.commit();
    return {r[0].as<std::string>(), r[1].as<std::string>(), opt_of(r[2]),
            opt_of(r[3]),           opt_of(r[4]),           r[5].as<bool>()};
  }
  catch (...)
  {
    rethrow_classified("source add " + s.name);
  }
}
} // namespace loader::db
