#include "db/staging_copy.hpp"

#include <string>

#include <pqxx/pqxx>

#include "core/interrupt.hpp"
#include "db/copy_in.hpp"
#include "io/typed_copy.hpp"

namespace loader::db
{
namespace
{
/// What produce() needs from the database, inside tx: the batch's
/// business date, the field rules' bits, the currencies.
StagingContext staging_context(pqxx::dbtransaction &tx, std::int64_t batch_id)
{
  StagingContext ctx;
  ctx.batch_id = batch_id;
  ctx.business_date =
    tx.exec_params1("select to_char(business_date, 'YYYY-MM-DD') "
                    "from ingest.batch_overview where batch_id = $1",
                    batch_id)[0]
      .as<std::string>();
  for (auto const &r : tx.exec("select rule, bit from ingest.field_rule"))
    ctx.rule_bits.emplace_back(r[0].as<std::string>(), r[1].as<int>());
  for (auto const &r : tx.exec("select code, minor_unit from ingest.currency"))
    ctx.minor_units.emplace_back(r[0].as<std::string>(), r[1].as<int>());
  return ctx;
}
} // namespace

std::string typed_staging_in(pqxx::dbtransaction &tx, std::int64_t batch_id,
                             bool attach)
{
  return tx
    .exec_params1("select ingest.typed_staging($1, $2)", batch_id, attach)[0]
    .as<std::string>();
}

void stage_in(pqxx::dbtransaction &tx, std::string const &table,
              std::int64_t batch_id, std::int64_t attempt_id,
              Producer const &produce)
{
  StagingContext const ctx{staging_context(tx, batch_id)};
  std::uint64_t sent = 0, stored = 0;
  {
    CopyIn copy{tx, io::typed_copy_statement(table)};
    sent = produce(ctx, [&copy](char const *data, std::size_t size) {
      throw_if_interrupted("staging (COPY)");
      copy.write(data, size);
    });
    stored = copy.finish();
  }
  tx.exec_params("select ingest.mark_staged($1, $2, $3, $4)", batch_id,
                 attempt_id, static_cast<long long>(sent),
                 static_cast<long long>(stored));
}
} // namespace loader::db
