#pragma once
// The staging step's transaction body: what the loader's pass needs from the
// database (the batch's business date, the field rules' bits, the
// currencies), the binary COPY into the batch's table of staging.invoice_valid, and
// ingest.mark_staged.  Internal to db/ (LoadSteps::stage and dry_run use it),
// hence libpqxx in the header.
#include <cstdint>
#include <string>

#include <pqxx/transaction>

#include "db/load_steps.hpp"

namespace loader::db
{
/// ingest.typed_staging, inside tx: the qualified name of the table the
/// batch's typed rows go into (its own partition of staging.invoice_valid
/// or the shared one).  attach false: make no partition (a transaction
/// that will not commit, whose locks would be held to its end).
std::string typed_staging_in(pqxx::dbtransaction &tx, std::int64_t batch_id,
                             bool attach);

/// COPY what produce() writes into table (typed_staging_in's), then
/// ingest.mark_staged, inside tx.
void stage_in(pqxx::dbtransaction &tx, std::string const &table,
              std::int64_t batch_id, std::int64_t attempt_id,
              Producer const &produce);
} // namespace loader::db
