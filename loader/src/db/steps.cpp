#include "db/steps.hpp"

#include <pqxx/pqxx>

#include "core/errors.hpp"
#include "core/log.hpp"
#include "core/failpoint.hpp"
#include "db/copy_in.hpp"
#include "db/raw_connection.hpp"
#include "db/session.hpp"

namespace loader::db
{
namespace
{
std::string problems_json(std::vector<Problem> const &problems)
{
  std::string out{"["};
  for (Problem const &p : problems)
  {
    if (out.size() > 1) out += ',';
    out += "{\"rule\":" + json_quote(p.rule) +
           ",\"record_no\":" + std::to_string(p.record_no) +
           ",\"detail\":" + json_quote(p.detail) + "}";
  }
  return out + "]";
}

/// "{a,b}" for a text[] parameter; names are already checked identifiers.
std::string text_array(std::vector<std::string> const &items)
{
  std::string out{"{"};
  for (std::string const &item : items)
  {
    if (out.size() > 1) out += ',';
    out += '"';
    for (char c : item)
    {
      if (c == '"' or c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  return out + "}";
}

} // namespace

struct Steps::Session
{
  std::unique_ptr<db::Connection> cx;
};

Steps::Steps(std::string dsn) : m_dsn{std::move(dsn)} {}
Steps::~Steps() = default;

bool Steps::connected() const noexcept
{
  return m_session != nullptr;
}

void Steps::connect()
{
  if (m_session) return;
  auto session = std::make_unique<Session>();
  session->cx = db::connect(m_dsn);
  m_session = std::move(session);
}

void Steps::disconnect() noexcept
{
  m_session.reset();
}

pqxx::connection_base &Steps::cx()
{
  if (not m_session)
    throw LoaderError{ErrorKind::internal, "no database session"};
  return *m_session->cx;
}

namespace
{
/// The after_publish_commit failpoint: COMMIT is sent (and so reaches the
/// server), then the process dies before it can read the reply.
[[noreturn]] void send_commit_and_die(pqxx::dbtransaction &tx)
{
  PGconn *conn = RawConnection::of(tx);
  PQsendQuery(conn, "COMMIT");
  while (PQflush(conn) == 1)
  {
  }
  failpoint("after_publish_commit");
  throw LoaderError{ErrorKind::internal, "failpoint did not fire"};
}

/// The transaction's id, recorded before COMMIT so that an outcome lost
/// with the connection can be looked up (pg_xact_status) afterwards.
std::string xid_of(pqxx::dbtransaction &tx)
{
  return tx.exec("select pg_current_xact_id()::text")[0][0].as<std::string>();
}
} // namespace

Resumed Steps::resume_attempt(std::int64_t attempt_id)
{
  try
  {
    pqxx::work tx{cx()};
    pqxx::row const r{tx.exec_params1(
      "select state, coalesce(xact_status, '') "
      "from ingest.resume_attempt($1, $2)",
      attempt_id, m_xid.empty() ? nullptr : m_xid.c_str())};
    tx.commit();
    m_xid.clear();
    return {r[0].as<std::string>(), r[1].as<std::string>()};
  }
  catch (...)
  {
    rethrow_classified("resuming attempt " + std::to_string(attempt_id));
  }
}

SourceConfig Steps::get_source(std::string const &source)
{
  try
  {
    pqxx::read_transaction tx{cx()};
    pqxx::row const r{tx.exec_params1(
      "select source, allow_unknown_columns from ingest.get_source($1)",
      source)};
    return {r[0].as<std::string>(), r[1].as<bool>()};
  }
  catch (...)
  {
    rethrow_classified("reading source " + source);
  }
}

Attempt Steps::begin_attempt(BeginArgs const &a)
{
  try
  {
    pqxx::work tx{cx()};
    // Optional values travel as NULL via the null-if-empty idiom below.
    pqxx::row const r{tx.exec_params1(
      "select batch_id, attempt_id, attempt_no, state, created "
      "from ingest.begin_attempt($1, $2::date, $3, $4, $5, $6, $7::text[], "
      "$8::jsonb, $9, $10, $11, $12::uuid, $13, $14, $15)",
      a.source, a.business_date, a.sha256, static_cast<long long>(a.size),
      a.file_name, a.had_bom, text_array(a.columns),
      problems_json(a.problems),
      a.manifest ? a.manifest->c_str() : nullptr,
      a.expect_count ? std::to_string(*a.expect_count).c_str() : nullptr,
      a.expect_total ? a.expect_total->c_str() : nullptr, a.run_id, a.host,
      a.pid, static_cast<long long>(a.records))};
    tx.commit();
    return {r[0].as<std::int64_t>(), r[1].as<std::int64_t>(), r[2].as<int>(),
            r[3].as<std::string>(), r[4].as<bool>()};
  }
  catch (...)
  {
    rethrow_classified("registering the batch");
  }
}

void Steps::stage(
  std::int64_t batch_id, std::int64_t attempt_id,
  std::vector<std::string> const &columns,
  std::function<std::uint64_t(CopyWriter const &)> const &produce)
{
  try
  {
    pqxx::work tx{cx()};
    std::string sql{"copy staging.invoice_line (batch_id, record_no"};
    for (std::string const &c : columns) sql += ", " + tx.quote_name(c);
    sql += ") from stdin (format csv)";
    std::uint64_t sent = 0, stored = 0;
    {
      CopyIn copy{tx, sql};
      sent = produce([&copy](char const *data, std::size_t size) {
        copy.write(data, size);
      });
      stored = copy.finish();
    }
    tx.exec_params("select ingest.mark_staged($1, $2, $3, $4)", batch_id,
                   attempt_id, static_cast<long long>(sent),
                   static_cast<long long>(stored));
    m_xid = xid_of(tx);
    tx.commit();
  }
  catch (...)
  {
    rethrow_classified("staging batch " + std::to_string(batch_id));
  }
}

void Steps::analyze_staging(char const *step)
{
  // Its own transaction: ANALYZE keeps its lock until the end of the
  // transaction, which inside a step would queue other batches' steps.
  pqxx::work tx{cx()};
  tx.exec_params("select ingest.analyze_staging($1)", step);
  tx.commit();
}

StepResult Steps::validate(std::int64_t batch_id, std::int64_t attempt_id)
{
  try
  {
    analyze_staging("validation");
    pqxx::work tx{cx()};
    pqxx::row const r{tx.exec_params1(
      "select state, coalesce(accepted, 0), coalesce(rejected, 0) "
      "from ingest.validate_batch($1, $2)",
      batch_id, attempt_id)};
    m_xid = xid_of(tx);
    tx.commit();
    StepResult out;
    out.state = r[0].as<std::string>();
    out.accepted = r[1].as<long>();
    out.rejected = r[2].as<long>();
    return out;
  }
  catch (...)
  {
    rethrow_classified("validating batch " + std::to_string(batch_id));
  }
}

StepResult Steps::publish(std::int64_t batch_id, std::int64_t attempt_id)
{
  try
  {
    analyze_staging("publication");
    pqxx::work tx{cx()};
    pqxx::row const r{tx.exec_params1(
      "select outcome, state, coalesce(counts::text, '{}'), "
      "case when counts ? 'records' then format("
      "'%s records: %s inserted, %s amended, %s voided, %s unchanged, "
      "%s late, %s duplicate, %s rejected; gross %s, control total %s', "
      "counts->>'records', counts->>'inserted', counts->>'amended', "
      "counts->>'voided', counts->>'unchanged', counts->>'late', "
      "counts->>'duplicates', counts->>'rejected', "
      "counts->>'accepted_gross', coalesce(counts->>'control_total', "
      "'none')) else coalesce(counts::text, '') end "
      "from ingest.publish_batch($1, $2)",
      batch_id, attempt_id)};
    m_xid = xid_of(tx);
    failpoint("before_publish_commit");
    if (failpoint_armed("after_publish_commit"))
      send_commit_and_die(tx);
    tx.commit();
    StepResult out;
    out.outcome = r[0].as<std::string>();
    out.state = r[1].as<std::string>();
    out.counts_json = r[2].as<std::string>();
    out.summary = r[3].as<std::string>();
    return out;
  }
  catch (...)
  {
    rethrow_classified("publishing batch " + std::to_string(batch_id));
  }
}

void Steps::finish_attempt(std::int64_t attempt_id, std::string const &outcome,
                           std::string const &error_class,
                           std::string const &sqlstate,
                           std::string const &message)
{
  try
  {
    pqxx::work tx{cx()};
    tx.exec_params(
      "select ingest.finish_attempt($1, $2, nullif($3, ''), nullif($4, ''), "
      "nullif($5, ''))",
      attempt_id, outcome, error_class, sqlstate, message);
    tx.commit();
  }
  catch (...)
  {
    rethrow_classified("closing attempt " + std::to_string(attempt_id));
  }
}

std::vector<Rejection> Steps::rejections(std::int64_t batch_id, int limit)
{
  try
  {
    pqxx::read_transaction tx{cx()};
    std::vector<Rejection> out;
    for (auto const &r : tx.exec_params(
           "select record_no, coalesce(invoice_number, ''), rule, detail "
           "from ingest.rejection where batch_id = $1 "
           "order by record_no, rule limit $2",
           batch_id, limit))
      out.push_back({r[0].as<std::int64_t>(), r[1].as<std::string>(),
                     r[2].as<std::string>(), r[3].as<std::string>()});
    return out;
  }
  catch (...)
  {
    rethrow_classified("reading the rejections of batch " +
                       std::to_string(batch_id));
  }
}

} // namespace loader::db
