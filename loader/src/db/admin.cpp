#include "db/admin.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

#include <pqxx/pqxx>

#include "core/errors.hpp"
#include "db/session.hpp"

namespace loader::db
{
namespace
{
char const *opt(std::optional<std::string> const &v)
{
  return v ? v->c_str() : nullptr;
}

/// Render a result as a table with a header row; NULL shows as "-".
std::string table(pqxx::result const &r)
{
  std::vector<std::size_t> width(static_cast<std::size_t>(r.columns()));
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> head;
  for (pqxx::row::size_type c = 0; c < r.columns(); ++c)
    head.emplace_back(r.column_name(c));
  cells.push_back(head);
  for (auto const &row : r)
  {
    std::vector<std::string> line;
    for (auto const &field : row)
      line.emplace_back(field.is_null() ? "-" : field.c_str());
    cells.push_back(line);
  }
  for (auto const &line : cells)
    for (std::size_t c = 0; c < line.size(); ++c)
      width[c] = std::max(width[c], line[c].size());
  std::ostringstream out;
  for (auto const &line : cells)
  {
    for (std::size_t c = 0; c < line.size(); ++c)
    {
      out << line[c];
      if (c + 1 < line.size())
        out << std::string(width[c] - line[c].size() + 2, ' ');
    }
    out << '\n';
  }
  return out.str();
}
} // namespace

std::string add_source(pqxx::connection_base &cx, SourceSettings const &s)
{
  try
  {
    pqxx::work tx{cx};
    char const *allow =
      s.allow_unknown_columns ? (*s.allow_unknown_columns ? "true" : "false")
                              : nullptr;
    pqxx::row const r{tx.exec_params1(
      "select source, policy, coalesce(max_rejected_share::text, '-'), "
      "coalesce(start_date::text, '-'), coalesce(feed_url, '-'), "
      "allow_unknown_columns "
      "from ingest.add_source($1, $2, $3::numeric, $4::date, $5, $6::boolean)",
      s.name, opt(s.policy), opt(s.max_rejected_share), opt(s.start_date),
      opt(s.feed_url), allow)};
    tx.commit();
    return "source " + r[0].as<std::string>() + ": policy " +
           r[1].as<std::string>() + ", max rejected share " +
           r[2].as<std::string>() + ", start date " + r[3].as<std::string>() +
           ", feed url " + r[4].as<std::string>() +
           ", unknown columns " +
           (r[5].as<bool>() ? "allowed" : "rejected");
  }
  catch (...)
  {
    rethrow_classified("source add " + s.name);
  }
}

std::string status_json(pqxx::connection_base &cx,
                        std::optional<std::string> const &source,
                        std::optional<std::int64_t> const &batch_id)
{
  try
  {
    pqxx::read_transaction tx{cx};
    std::optional<std::string> batch;
    if (batch_id) batch = std::to_string(*batch_id);
    return tx
      .exec_params1("select ingest.status_report($1, $2::bigint)::text",
                    opt(source), opt(batch))[0]
      .as<std::string>();
  }
  catch (...)
  {
    rethrow_classified("status");
  }
}

std::string status_text(pqxx::connection_base &cx,
                        std::optional<std::string> const &source,
                        std::optional<std::int64_t> const &batch_id)
{
  try
  {
    pqxx::read_transaction tx{cx};
    std::optional<std::string> batch;
    if (batch_id) batch = std::to_string(*batch_id);
    std::ostringstream out;
    out << "Watermarks\n"
        << table(tx.exec_params(
             "select w.source, w.business_date, w.batch_id, "
             "to_char(w.advanced_at, 'YYYY-MM-DD HH24:MI:SSOF') as advanced_at "
             "from ingest.watermark as w "
             "where ($1::text is null or w.source = $1) "
             "and ($2::bigint is null or w.source in (select b.source "
             "from ingest.batch_overview as b where b.batch_id = $2)) "
             "order by w.source",
             opt(source), opt(batch)))
        << "\nBatches\n"
        << table(tx.exec_params(
             "select b.batch_id as batch, b.source, b.business_date, b.state, "
             "b.record_count as records, b.control_total, "
             "b.accepted_count as accepted, b.rejected_count as rejected, "
             "b.attempts, "
             "left(regexp_replace(b.last_error, '\\s+', ' ', 'g'), 70) "
             "as last_error "
             "from ingest.batch_overview as b "
             "where ($1::text is null or b.source = $1) "
             "and ($2::bigint is null or b.batch_id = $2) "
             "order by b.batch_id desc limit 50",
             opt(source), opt(batch)));
    if (batch_id)
    {
      out << "\nCheckpoints\n"
          << table(tx.exec_params(
               "select e.to_state as state, "
               "to_char(e.at, 'YYYY-MM-DD HH24:MI:SS.MS') as at, "
               "round(extract(epoch from e.at - lag(e.at) over "
               "(order by e.event_id)) * 1000) as ms_since_previous, "
               "e.db_user from ingest.batch_event_overview as e "
               "where e.batch_id = $1 order by e.event_id",
               *batch_id))
          << "\nAttempts\n"
          << table(tx.exec_params(
               "select a.attempt_no as attempt, a.run_id, a.host, a.pid, "
               "a.outcome, a.error_class, a.sqlstate, "
               "round(extract(epoch from a.finished_at - a.started_at) "
               "* 1000) as ms, "
               "left(regexp_replace(a.message, '\\s+', ' ', 'g'), 70) "
               "as message "
               "from ingest.attempt_overview as a where a.batch_id = $1 "
               "order by a.attempt_no",
               *batch_id))
          << "\nRejections (first 50)\n"
          << table(tx.exec_params(
               "select r.record_no, r.invoice_number, r.rule, r.detail "
               "from ingest.rejection as r where r.batch_id = $1 "
               "order by r.record_no, r.rule limit 50",
               *batch_id));
    }
    return out.str();
  }
  catch (...)
  {
    rethrow_classified("status");
  }
}
} // namespace loader::db
