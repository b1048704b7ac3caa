#pragma once
// The insides of db/staging_session.hpp: the staging transaction's COPY
// and the dry run's transaction, and the per-transaction SQL LoadSteps'
// steps share.  Internal to db/, hence libpqxx in the header.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <pqxx/transaction>

#include "db/cancel.hpp"
#include "db/copy_in.hpp"
#include "db/database.hpp"
#include "db/load_steps.hpp"
#include "db/staging_session.hpp"

namespace loader::db
{
/// ingest.typed_staging, inside tx: the qualified name of the table the
/// batch's typed rows go into (its own partition of staging.invoice_valid
/// or the shared one).  attach false: make no partition (a transaction
/// that will not commit, whose locks would be held to its end).
std::string typed_staging_in(pqxx::dbtransaction &tx, std::int64_t batch_id,
                             bool attach);

/// ingest.begin_attempt inside tx.
Attempt begin_in(pqxx::dbtransaction &tx, BeginArgs const &a);
/// ingest.validate_batch inside tx.
Validated validate_in(pqxx::dbtransaction &tx, std::int64_t batch_id,
                      std::int64_t attempt_id);
std::vector<Rejection> rejections_in(pqxx::transaction_base &tx,
                                     std::int64_t batch_id, int limit);
/// The transaction's id, recorded before COMMIT so that an outcome lost
/// with the connection can be looked up (pg_xact_status) afterwards.
std::string xid_of(pqxx::dbtransaction &tx);

struct StagingSession::Impl
{
  /// A transaction of its own (the staging step) ...
  Impl(Database &db, std::string const &table, std::int64_t batch_id,
       std::int64_t attempt_id);
  /// ... or inside the dry run's.
  Impl(pqxx::dbtransaction &tx, std::string const &table,
       std::int64_t batch_id, std::int64_t attempt_id);

  /// COPY's end, then ingest.mark_staged with the records sent.
  void mark_staged(std::uint64_t sent);

  // Declared in this order so that they end in the reverse: the COPY,
  // the cancel handler, then the transaction it ran in (rolled back
  // unless committed).
  std::unique_ptr<pqxx::work> own;
  pqxx::dbtransaction &tx;
  std::optional<CancelOnSignal> cancel;
  std::int64_t attempt_id;
  StagingContext ctx;
  std::optional<CopyIn> copy;
};

struct DryRunSession::Impl
{
  explicit Impl(Database &db, BeginArgs const &args);

  Database &db;
  pqxx::work tx;
  CancelOnSignal cancel;
  Attempt at;
  std::optional<StagingSession> staging; ///< when at.state is received
  bool finished = false;
};
} // namespace loader::db
