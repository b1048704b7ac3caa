#include "db/load_steps.hpp"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "core/errors.hpp"
#include "core/failpoint.hpp"
#include "core/json_exact.hpp"
#include "db/cancel.hpp"
#include "db/raw_connection.hpp"
#include "db/session.hpp"
#include "db/staging_copy.hpp"

namespace loader::db
{
namespace
{
/// The one jsonb argument of ingest.begin_attempt (its header lists the
/// keys); optional values travel as JSON null.
std::string begin_args_json(BeginArgs const &a)
{
  nlohmann::json problems = nlohmann::json::array();
  for (Problem const &p : a.problems)
    problems.push_back(
      {{"rule", p.rule}, {"record_no", p.record_no}, {"detail", p.detail}});
  auto const opt = [](auto const &v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
  };
  nlohmann::json const args{{"source", a.source},
                            {"business_date", a.business_date},
                            {"sha256", a.sha256},
                            {"size_bytes", a.size},
                            {"file_name", a.file_name},
                            {"had_bom", a.had_bom},
                            {"columns", a.columns},
                            {"problems", problems},
                            {"manifest", opt(a.manifest)},
                            {"expect_count", opt(a.expect_count)},
                            {"expect_total", opt(a.expect_total)},
                            {"run_id", a.run_id},
                            {"host", a.host},
                            {"pid", a.pid},
                            {"file_records", a.records},
                            {"format_version", opt(a.format_version)},
                            {"defaults", a.defaults}};
  // Bytes that are not UTF-8 (a detail quoting the file) become U+FFFD.
  return args.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace

LoadSteps::LoadSteps(std::string dsn) : m_db{std::move(dsn)} {}

namespace
{
/// The after_publish_commit failpoint: COMMIT is sent (and so reaches the
/// server), then the process dies before it can read the reply.
[[noreturn]] void send_commit_and_die(pqxx::dbtransaction &tx)
{
  PGconn *conn = RawConnection::of(tx);
  PQsendQuery(conn, "COMMIT");
  while (PQflush(conn) == 1) {}
  failpoint("after_publish_commit");
  throw LoaderError{ErrorKind::internal, "failpoint did not fire"};
}

} // namespace

std::string xid_of(pqxx::dbtransaction &tx)
{
  return tx.exec("select pg_current_xact_id()::text")[0][0].as<std::string>();
}

Resumed LoadSteps::resume_attempt(std::int64_t attempt_id)
{
  try
  {
    pqxx::work tx{m_db.cx()};
    pqxx::row const r{
      tx.exec_params1("select state, coalesce(xact_status, '') "
                      "from ingest.resume_attempt($1, $2)",
                      attempt_id, m_xid.empty() ? nullptr : m_xid.c_str())};
    tx.commit();
    m_xid.clear();
    return {parse_batch_state(r[0].as<std::string>()), r[1].as<std::string>(),
            false};
  }
  catch (pqxx::sql_error const &e)
  {
    // IV209: another run closed this attempt while we were away.
    if (std::string{e.sqlstate()} != "IV209")
      rethrow_classified("resuming attempt " + std::to_string(attempt_id));
    m_xid.clear();
    Resumed taken;
    taken.taken_over = true;
    return taken;
  }
  catch (...)
  {
    rethrow_classified("resuming attempt " + std::to_string(attempt_id));
  }
}

SourceConfig LoadSteps::get_source(std::string const &source)
{
  try
  {
    pqxx::read_transaction tx{m_db.cx()};
    pqxx::row const r{tx.exec_params1(
      "select s.source, s.allow_unknown_columns, s.require_control_totals, "
      "s.feed_url, s.start_date::text, "
      "(select w.business_date::text from ingest.watermark as w "
      " where w.source = s.source), s.retention_days, s.max_input_bytes, "
      "s.max_decompressed_bytes, s.format_version, "
      "(select f.format::text from ingest.file_format_of(s.source) as f) "
      "from ingest.get_source($1) as s",
      source)};
    auto const bytes = [&r](int i) {
      return r[i].is_null()
               ? std::nullopt
               : std::optional<std::uint64_t>{r[i].as<std::uint64_t>()};
    };
    auto const text = [&r](int i) {
      return r[i].is_null() ? std::nullopt
                            : std::optional<std::string>{r[i].c_str()};
    };
    return {
      r[0].as<std::string>(),
      r[1].as<bool>(),
      r[2].as<bool>(),
      text(3),
      text(4),
      text(5),
      r[6].as<int>(),
      bytes(7),
      bytes(8),
      {r[9].is_null() ? std::nullopt : std::optional<int>{r[9].as<int>()},
       text(10)}};
  }
  catch (...)
  {
    rethrow_classified("reading source " + source);
  }
}

FormatRef LoadSteps::file_format_of(std::string const &source,
                                    std::string const &sha256)
{
  try
  {
    pqxx::read_transaction tx{m_db.cx()};
    pqxx::row const r{tx.exec_params1("select format_version, format::text "
                                      "from ingest.file_format_of($1, $2)",
                                      source, sha256)};
    FormatRef out;
    if (not r[0].is_null()) out.version = r[0].as<int>();
    if (not r[1].is_null()) out.json = r[1].as<std::string>();
    return out;
  }
  catch (...)
  {
    rethrow_classified("reading the file format of source " + source);
  }
}

Attempt begin_in(pqxx::dbtransaction &tx, BeginArgs const &a)
{
  pqxx::row const r{
    tx.exec_params1("select batch_id, attempt_id, attempt_no, state, created "
                    "from ingest.begin_attempt($1::jsonb)",
                    begin_args_json(a))};
  return {r[0].as<std::int64_t>(), r[1].as<std::int64_t>(), r[2].as<int>(),
          parse_batch_state(r[3].as<std::string>()), r[4].as<bool>()};
}

Validated validate_in(pqxx::dbtransaction &tx, std::int64_t batch_id,
                      std::int64_t attempt_id)
{
  pqxx::row const r{tx.exec_params1(
    "select state, coalesce(accepted, 0), coalesce(rejected, 0) "
    "from ingest.validate_batch($1, $2)",
    batch_id, attempt_id)};
  return {parse_batch_state(r[0].as<std::string>()), r[1].as<long>(),
          r[2].as<long>()};
}

std::vector<Rejection> rejections_in(pqxx::transaction_base &tx,
                                     std::int64_t batch_id, int limit)
{
  std::vector<Rejection> out;
  for (auto const &r : tx.exec_params(
         "select record_no, coalesce(invoice_number, ''), rule, detail "
         "from ingest.rejection where batch_id = $1 "
         "order by record_no, rule limit nullif($2, 0)",
         batch_id, limit))
    out.push_back({r[0].as<std::int64_t>(), r[1].as<std::string>(),
                   r[2].as<std::string>(), r[3].as<std::string>()});
  return out;
}

std::optional<Attempt> LoadSteps::begin_attempt(BeginArgs const &a)
{
  try
  {
    pqxx::work tx{m_db.cx()};
    Attempt const at{begin_in(tx, a)};
    failpoint("before_register_commit");
    tx.commit();
    return at;
  }
  catch (pqxx::sql_error const &e)
  {
    if (std::string{e.sqlstate()} == "IV203") return std::nullopt;
    rethrow_classified("registering the batch");
  }
  catch (...)
  {
    rethrow_classified("registering the batch");
  }
}

void LoadSteps::record_busy(BeginArgs const &a)
{
  try
  {
    pqxx::work tx{m_db.cx()};
    tx.exec_params("select ingest.record_busy_attempt($1::jsonb)",
                   begin_args_json(a));
    tx.commit();
  }
  catch (...)
  {
    rethrow_classified("recording the busy run");
  }
}

void LoadSteps::analyze_staging(char const *step, std::int64_t batch_id)
{
  // Its own transaction: ANALYZE keeps its lock until the end of the
  // transaction, which inside a step would queue other batches' steps.
  pqxx::work tx{m_db.cx()};
  CancelOnSignal const cancel{tx};
  tx.exec_params("select ingest.analyze_staging($1, $2)", step, batch_id);
  tx.commit();
}

Validated LoadSteps::validate(std::int64_t batch_id, std::int64_t attempt_id)
{
  try
  {
    analyze_staging("validation", batch_id);
    pqxx::work tx{m_db.cx()};
    CancelOnSignal const cancel{tx};
    Validated const v{validate_in(tx, batch_id, attempt_id)};
    m_xid = xid_of(tx);
    tx.commit();
    return v;
  }
  catch (...)
  {
    rethrow_classified("validating batch " + std::to_string(batch_id));
  }
}

namespace
{
/// {"records": 20, "control_total": "4200.00"} -> records=20, ...
std::map<std::string, std::string> flat_counts(std::string const &json)
{
  std::map<std::string, std::string> out;
  auto const doc = parse_exact(json);
  if (not doc.is_object()) return out;
  for (auto const &[key, value] : doc.items())
    out[key] = value.is_string() ? value.get<std::string>() : value.dump();
  return out;
}
/// (outcome, state, counts) of ingest.write_batch or ingest.publish_batch.
Published published_of(pqxx::row const &r)
{
  Published out;
  out.outcome = parse_publish_outcome(r[0].as<std::string>());
  out.state = parse_batch_state(r[1].as<std::string>());
  out.counts_json = r[2].as<std::string>();
  out.counts = flat_counts(out.counts_json);
  return out;
}
} // namespace

Published LoadSteps::publish(std::int64_t batch_id, std::int64_t attempt_id)
{
  try
  {
    analyze_staging("publication", batch_id);
    // Write, audit, publish: the versions are written and reconciled in a
    // transaction of their own, unseen by consumers (ingest.write_batch),
    // so that the publishing transaction below is short.  Its outcome is
    // the publication's unless it is 'written'.
    {
      pqxx::work tx{m_db.cx()};
      CancelOnSignal const cancel{tx};
      pqxx::row const w{
        tx.exec_params1("select outcome, state, coalesce(counts::text, '{}') "
                        "from ingest.write_batch($1, $2)",
                        batch_id, attempt_id)};
      m_xid = xid_of(tx);
      tx.commit();
      if (w[0].as<std::string>() != "written") return published_of(w);
    }
    failpoint("after_write_commit");
    pqxx::work tx{m_db.cx()};
    CancelOnSignal const cancel{tx};
    pqxx::row const r{
      tx.exec_params1("select outcome, state, coalesce(counts::text, '{}') "
                      "from ingest.publish_batch($1, $2)",
                      batch_id, attempt_id)};
    m_xid = xid_of(tx);
    failpoint("before_publish_commit");
    if (failpoint_armed("after_publish_commit")) send_commit_and_die(tx);
    tx.commit();
    return published_of(r);
  }
  catch (...)
  {
    rethrow_classified("publishing batch " + std::to_string(batch_id));
  }
}

void LoadSteps::abandon(std::int64_t batch_id, std::int64_t attempt_id,
                        std::string const &reason)
{
  try
  {
    pqxx::work tx{m_db.cx()};
    tx.exec_params("select ingest.abandon_batch($1, $2, $3)", batch_id,
                   attempt_id, reason);
    tx.commit();
  }
  catch (...)
  {
    rethrow_classified("abandoning batch " + std::to_string(batch_id));
  }
}

void LoadSteps::finish_attempt(std::int64_t attempt_id, AttemptOutcome outcome,
                               std::optional<ErrorKind> error_class,
                               std::string const &sqlstate,
                               std::string const &message)
{
  try
  {
    pqxx::work tx{m_db.cx()};
    tx.exec_params(
      "select ingest.finish_attempt($1, $2, nullif($3, ''), nullif($4, ''), "
      "nullif($5, ''))",
      attempt_id, std::string{name_of(outcome)},
      error_class ? std::string{name_of(*error_class)} : std::string{},
      sqlstate, message);
    tx.commit();
  }
  catch (...)
  {
    rethrow_classified("closing attempt " + std::to_string(attempt_id));
  }
}

std::vector<Rejection> LoadSteps::rejections(std::int64_t batch_id, int limit)
{
  try
  {
    pqxx::read_transaction tx{m_db.cx()};
    return rejections_in(tx, batch_id, limit);
  }
  catch (...)
  {
    rethrow_classified("reading the rejections of batch " +
                       std::to_string(batch_id));
  }
}

} // namespace loader::db
