#pragma once
// The staging step's transaction body: what the loader's pass needs from the
// database (the batch's business date, the field rules' bits, the
// currencies), the binary COPY into staging.invoice_valid, and
// ingest.mark_staged.  Internal to db/ (LoadSteps::stage and dry_run use it),
// hence libpqxx in the header.
#include <cstdint>

#include <pqxx/transaction>

#include "db/load_steps.hpp"

namespace loader::db
{
/// COPY what produce() writes into staging.invoice_valid, then
/// ingest.mark_staged, inside tx.
void stage_in(pqxx::dbtransaction &tx, std::int64_t batch_id,
              std::int64_t attempt_id, Producer const &produce);
} // namespace loader::db
