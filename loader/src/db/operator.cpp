#include "db/operator.hpp"

#include <pqxx/pqxx>

#include "core/failpoint.hpp"
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

/// Whether the entry point recorded a request for a second operator's
/// confirm (four eyes: ingest.request_confirmation) instead of acting.
bool is_request(pqxx::work &tx, pqxx::field const &action_id)
{
  if (action_id.is_null()) return false;
  return tx
    .exec_params1("select exists (select from ingest.operator_action as o "
                  "where o.action_id = $1 and o.action = 'request')",
                  action_id.as<std::int64_t>())[0]
    .as<bool>();
}
} // namespace

StoredSource add_source(Database &db, SourceSettings const &s)
{
  try
  {
    pqxx::work tx{db.cx()};
    char const *allow = s.allow_unknown_columns
                          ? (*s.allow_unknown_columns ? "true" : "false")
                          : nullptr;
    std::optional<std::string> const retention{
      s.retention_days
        ? std::optional<std::string>{std::to_string(*s.retention_days)}
        : std::nullopt};
    auto const text = [](std::optional<std::int64_t> const &v) {
      return v ? std::optional<std::string>{std::to_string(*v)} : std::nullopt;
    };
    std::optional<std::string> const limit{text(s.max_input_bytes)};
    std::optional<std::string> const unpacked{text(s.max_decompressed_bytes)};
    pqxx::row const r{tx.exec_params1(
      "select source, policy, max_rejected_share::text, start_date::text, "
      "feed_url, allow_unknown_columns, to_char(deadline, 'HH24:MI'), "
      "retention_days, max_input_bytes, max_decompressed_bytes "
      "from ingest.add_source($1, $2, $3::numeric, $4::date, $5, $6::boolean, "
      "$7::time, $8::integer, $9::bigint, $10::bigint)",
      s.name, opt(s.policy), opt(s.max_rejected_share), opt(s.start_date),
      opt(s.feed_url), allow, opt(s.deadline), opt(retention), opt(limit),
      opt(unpacked))};
    auto const number = [&r](int i) {
      return r[i].is_null()
               ? std::nullopt
               : std::optional<std::int64_t>{r[i].as<std::int64_t>()};
    };
    // The format in the same transaction: a source never has the new
    // options with the old format, or the other way round.
    if (s.format_json)
      tx.exec_params("select ingest.set_source_format($1, $2::jsonb)", s.name,
                     *s.format_json);
    pqxx::row const f{tx.exec_params1(
      "select format_version, format::text from ingest.file_format_of($1)",
      s.name)};
    // Four eyes, through its own setter (ingest.add_source keeps its
    // arguments), in the same transaction.
    if (s.require_approval)
      tx.exec_params("select ingest.set_source_approval($1, $2)", s.name,
                     *s.require_approval);
    bool const approval{
      tx.exec_params1("select require_approval from ingest.source_overview "
                      "where source = $1",
                      s.name)[0]
        .as<bool>()};
    // The extract settings through their own entry point, in the same
    // transaction (ingest.add_source's signature stays as it is).
    if (s.extract or s.max_absent_share)
      tx.exec_params("select 1 from ingest.set_source_extract($1, $2, "
                     "$3::numeric)",
                     s.name, opt(s.extract), opt(s.max_absent_share));
    pqxx::row const e{
      tx.exec_params1("select extract_kind, max_absent_share::text "
                      "from ingest.source_overview where source = $1",
                      s.name)};
    tx.commit();
    return {r[0].as<std::string>(),
            r[1].as<std::string>(),
            opt_of(r[2]),
            opt_of(r[3]),
            opt_of(r[4]),
            r[5].as<bool>(),
            opt_of(r[6]),
            r[7].as<int>(),
            number(8),
            number(9),
            f[0].is_null() ? std::nullopt : std::optional<int>{f[0].as<int>()},
            opt_of(f[1]),
            approval,
            e[0].as<std::string>(),
            e[1].as<std::string>()};
  }
  catch (...)
  {
    rethrow_classified("source add " + s.name);
  }
}
Replayed replay_batch(Database &db, std::int64_t batch_id,
                      std::string const &reason, bool allow_absent_share)
{
  try
  {
    pqxx::work tx{db.cx()};
    pqxx::row const r{
      tx.exec_params1("select action_id, batch_id, superseded_attempt_no, "
                      "superseded_run_id::text, created "
                      "from ingest.replay_batch($1, $2, $3)",
                      batch_id, reason, allow_absent_share)};
    bool const pending{is_request(tx, r[0])};
    tx.commit();
    Replayed out;
    out.pending = pending;
    out.action_id = r[0].as<std::int64_t>();
    out.batch_id = r[1].as<std::int64_t>();
    if (not r[2].is_null()) out.superseded_attempt_no = r[2].as<int>();
    out.superseded_run_id = opt_of(r[3]);
    out.created = r[4].as<bool>();
    return out;
  }
  catch (...)
  {
    rethrow_classified("replay of batch " + std::to_string(batch_id));
  }
}

Reverted revert_batch(Database &db, std::int64_t batch_id,
                      std::string const &reason)
{
  try
  {
    pqxx::work tx{db.cx()};
    pqxx::row const r{tx.exec_params1(
      "select action_id, batch_id, reverted_versions, restored_versions, "
      "watermark::text, superseded_attempt_no, superseded_run_id::text "
      "from ingest.revert_batch($1, $2)",
      batch_id, reason)};
    bool const pending{is_request(tx, r[0])};
    failpoint("before_revert_commit");
    tx.commit();
    Reverted out;
    out.pending = pending;
    out.action_id = r[0].as<std::int64_t>();
    out.batch_id = r[1].as<std::int64_t>();
    out.reverted_versions = r[2].as<long>();
    out.restored_versions = r[3].as<long>();
    out.watermark = opt_of(r[4]);
    if (not r[5].is_null()) out.superseded_attempt_no = r[5].as<int>();
    out.superseded_run_id = opt_of(r[6]);
    return out;
  }
  catch (...)
  {
    rethrow_classified("revert of batch " + std::to_string(batch_id));
  }
}

PeriodLock set_period_lock(Database &db, std::string const &source, bool close,
                           std::optional<std::string> const &through,
                           std::string const &reason)
{
  try
  {
    pqxx::work tx{db.cx()};
    pqxx::row const r{tx.exec_params1(
      "select action_id, locked_before::text, locked_now::text "
      "from ingest.set_period_lock($1, $2, $3::date, $4)",
      source, close, through ? through->c_str() : nullptr, reason)};
    bool const pending{is_request(tx, r[0])};
    failpoint("before_period_commit");
    tx.commit();
    PeriodLock out;
    out.pending = pending;
    if (not r[0].is_null()) out.action_id = r[0].as<std::int64_t>();
    out.before = opt_of(r[1]);
    out.now = opt_of(r[2]);
    return out;
  }
  catch (...)
  {
    rethrow_classified(std::string{close ? "period close" : "period reopen"} +
                       " of source " + source);
  }
}

std::vector<RevertedToDate> revert_to_date(Database &db,
                                           std::string const &source,
                                           std::string const &date,
                                           std::string const &reason)
{
  try
  {
    pqxx::work tx{db.cx()};
    pqxx::result const rows{tx.exec_params(
      "select action_id, batch_id, business_date::text, reverted_versions, "
      "restored_versions, watermark::text "
      "from ingest.revert_to_date($1, $2::date, $3)",
      source, date, reason)};
    bool const pending{rows.size() == 1 and is_request(tx, rows[0][0])};
    failpoint("before_revert_commit");
    tx.commit();
    std::vector<RevertedToDate> out;
    if (pending)
    {
      RevertedToDate one;
      one.pending = true;
      one.action_id = rows[0][0].as<std::int64_t>();
      one.watermark = opt_of(rows[0][5]);
      out.push_back(one);
      return out;
    }
    for (pqxx::row const &r : rows)
    {
      RevertedToDate one;
      one.action_id = r[0].as<std::int64_t>();
      one.batch_id = r[1].as<std::int64_t>();
      one.business_date = r[2].as<std::string>();
      one.reverted_versions = r[3].as<long>();
      one.restored_versions = r[4].as<long>();
      one.watermark = opt_of(r[5]);
      out.push_back(one);
    }
    return out;
  }
  catch (...)
  {
    rethrow_classified("revert of source " + source + " to " + date);
  }
}

Approved approve_batch(Database &db, std::int64_t batch_id,
                       std::string const &reason)
{
  try
  {
    pqxx::work tx{db.cx()};
    pqxx::row const r{tx.exec_params1(
      "select action_id, batch_id, watermark::text, "
      "coalesce(counts::text, '{}') from ingest.approve_batch($1, $2)",
      batch_id, reason)};
    failpoint("before_approval_commit");
    tx.commit();
    Approved out;
    out.action_id = r[0].as<std::int64_t>();
    out.batch_id = r[1].as<std::int64_t>();
    out.watermark = opt_of(r[2]);
    out.counts_json = r[3].as<std::string>();
    return out;
  }
  catch (...)
  {
    rethrow_classified("approval of batch " + std::to_string(batch_id));
  }
}

Rejected reject_batch(Database &db, std::int64_t batch_id,
                      std::string const &reason)
{
  try
  {
    pqxx::work tx{db.cx()};
    pqxx::row const r{tx.exec_params1(
      "select action_id, batch_id, withdrawn_versions, restored_versions "
      "from ingest.reject_batch($1, $2)",
      batch_id, reason)};
    failpoint("before_reject_commit");
    tx.commit();
    Rejected out;
    out.action_id = r[0].as<std::int64_t>();
    out.batch_id = r[1].as<std::int64_t>();
    out.withdrawn_versions = r[2].as<long>();
    out.restored_versions = r[3].as<long>();
    return out;
  }
  catch (...)
  {
    rethrow_classified("rejection of batch " + std::to_string(batch_id));
  }
}

Confirmed confirm_action(Database &db, std::int64_t action_id)
{
  try
  {
    pqxx::work tx{db.cx()};
    pqxx::row const r{
      tx.exec_params1("select action_id, requested_action, requested_by, "
                      "confirmed_by, result::text "
                      "from ingest.confirm_action($1)",
                      action_id)};
    failpoint("before_confirm_commit");
    tx.commit();
    Confirmed out;
    out.action_id = r[0].as<std::int64_t>();
    out.requested_action = r[1].as<std::string>();
    out.requested_by = r[2].as<std::string>();
    out.confirmed_by = r[3].as<std::string>();
    out.result_json = r[4].as<std::string>();
    return out;
  }
  catch (...)
  {
    rethrow_classified("confirmation of operator action " +
                       std::to_string(action_id));
  }
}
} // namespace loader::db
