#include "db/staging_copy.hpp"

#include <string>

#include <pqxx/pqxx>

#include "core/interrupt.hpp"
#include "db/session.hpp"
#include "io/typed_copy.hpp"

namespace loader::db
{
namespace
{
/// What the flow's pass needs from the database, inside tx: the batch's
/// business date, the field rules' bits, the currencies.
StagingContext staging_context(pqxx::dbtransaction &tx, std::int64_t batch_id)
{
  StagingContext ctx;
  ctx.batch_id = batch_id;
  ctx.business_date = tx.exec_params1(
                          "select to_char(business_date, 'YYYY-MM-DD') "
                          "from ingest.batch_overview where batch_id = $1",
                          batch_id)[0]
                        .as<std::string>();
  for (auto const &r : tx.exec("select rule, bit from ingest.field_rule"))
    ctx.rule_bits.emplace_back(r[0].as<std::string>(), r[1].as<int>());
  for (auto const &r : tx.exec("select code, minor_unit from ingest.currency"))
    ctx.minor_units.emplace_back(r[0].as<std::string>(), r[1].as<int>());
  return ctx;
}

std::string staging_of(std::int64_t batch_id)
{
  return "staging batch " + std::to_string(batch_id);
}
} // namespace

std::string typed_staging_in(pqxx::dbtransaction &tx, std::int64_t batch_id,
                             bool attach)
{
  return tx
    .exec_params1("select ingest.typed_staging($1, $2)", batch_id, attach)[0]
    .as<std::string>();
}

StagingSession::Impl::Impl(Database &db, std::string const &table,
                           std::int64_t batch_id, std::int64_t attempt) :
        own{std::make_unique<pqxx::work>(db.cx())},
        tx{*own},
        cancel{std::in_place, tx},
        attempt_id{attempt},
        ctx{staging_context(tx, batch_id)}
{
  copy.emplace(tx, io::typed_copy_statement(table));
}

StagingSession::Impl::Impl(pqxx::dbtransaction &t, std::string const &table,
                           std::int64_t batch_id, std::int64_t attempt) :
        tx{t}, attempt_id{attempt}, ctx{staging_context(tx, batch_id)}
{
  copy.emplace(tx, io::typed_copy_statement(table));
}

void StagingSession::Impl::mark_staged(std::uint64_t sent)
{
  std::uint64_t const stored{copy->finish()};
  copy.reset();
  tx.exec_params("select ingest.mark_staged($1, $2, $3, $4)", ctx.batch_id,
                 attempt_id, static_cast<long long>(sent),
                 static_cast<long long>(stored));
}

StagingSession::StagingSession(std::unique_ptr<Impl> impl) :
        m_impl{std::move(impl)}
{}
StagingSession::StagingSession(StagingSession &&) noexcept = default;
StagingSession &StagingSession::operator=(StagingSession &&) noexcept =
  default;
StagingSession::~StagingSession() = default;

StagingContext const &StagingSession::context() const noexcept
{
  return m_impl->ctx;
}

void StagingSession::write(char const *data, std::size_t size)
{
  throw_if_interrupted("staging (COPY)");
  try
  {
    m_impl->copy->write(data, size);
  }
  catch (...)
  {
    rethrow_classified(staging_of(m_impl->ctx.batch_id));
  }
}

DryRunSession::Impl::Impl(Database &d, BeginArgs const &args) :
        db{d}, tx{d.cx(), "dry run"}, cancel{tx}, at{begin_in(tx, args)}
{
  if (at.state != BatchState::received) return;
  // No partition of its own: this transaction would hold the attach's
  // locks, which other batches' staging waits for, to its end.
  staging.emplace(std::make_unique<StagingSession::Impl>(
    tx, typed_staging_in(tx, at.batch_id, false), at.batch_id, at.attempt_id));
}

DryRunSession::DryRunSession(std::unique_ptr<Impl> impl) :
        m_impl{std::move(impl)}
{}
DryRunSession::DryRunSession(DryRunSession &&) noexcept = default;
DryRunSession &DryRunSession::operator=(DryRunSession &&) noexcept = default;
DryRunSession::~DryRunSession()
{
  if (not m_impl) return; // moved from
  // A dry run that did not finish (the flow's pass failed) ends its
  // session, and the runner lock with it, as a finished one does; after
  // its transaction is gone.
  bool const finished{m_impl->finished};
  Database &db{m_impl->db};
  m_impl.reset();
  if (not finished) db.disconnect();
}

StagingSession *DryRunSession::staging() noexcept
{
  return m_impl->staging ? &*m_impl->staging : nullptr;
}

StagingSession LoadSteps::open_staging(std::int64_t batch_id,
                                       std::int64_t attempt_id)
{
  try
  {
    std::string table;
    {
      // Committed before the COPY: attaching a partition locks what other
      // batches' steps read, for as short a time as possible.
      pqxx::work tx{m_db.cx()};
      CancelOnSignal const cancel{tx};
      table = typed_staging_in(tx, batch_id, true);
      tx.commit();
    }
    return StagingSession{std::make_unique<StagingSession::Impl>(
      m_db, table, batch_id, attempt_id)};
  }
  catch (...)
  {
    rethrow_classified(staging_of(batch_id));
  }
}

void LoadSteps::finish_staging(StagingSession &s, std::uint64_t sent)
{
  StagingSession::Impl &in{s.impl()};
  try
  {
    in.mark_staged(sent);
    m_xid = xid_of(in.tx);
    in.own->commit();
  }
  catch (...)
  {
    rethrow_classified(staging_of(in.ctx.batch_id));
  }
}

DryRunSession LoadSteps::open_dry_run(BeginArgs const &args)
{
  try
  {
    // One transaction, never committed: nothing of it stays.
    return DryRunSession{std::make_unique<DryRunSession::Impl>(m_db, args)};
  }
  catch (...)
  {
    m_db.disconnect();
    rethrow_classified("dry run");
  }
}

DryRun LoadSteps::finish_dry_run(DryRunSession &d, std::uint64_t sent,
                                 int rejection_limit)
{
  DryRunSession::Impl &in{d.impl()};
  try
  {
    DryRun out;
    out.created = in.at.created;
    if (not in.at.created) out.batch_id = in.at.batch_id;
    out.state = in.at.state;
    if (in.staging)
    {
      in.staging->impl().mark_staged(sent);
      in.staging.reset();
      out.state = BatchState::staged;
    }
    if (out.state == BatchState::staged)
    {
      Validated const v{validate_in(in.tx, in.at.batch_id, in.at.attempt_id)};
      out.state = v.state;
      out.accepted = v.accepted;
      out.rejected = v.rejected;
    }
    out.rejections = rejections_in(in.tx, in.at.batch_id, rejection_limit);
    in.tx.abort();
    in.finished = true;
    // The runner lock is a session lock: it goes with the session.
    m_db.disconnect();
    return out;
  }
  catch (...)
  {
    rethrow_classified("dry run");
  }
}
} // namespace loader::db
