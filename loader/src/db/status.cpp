#include "db/status.hpp"

#include <pqxx/pqxx>

#include "core/errors.hpp"
#include "db/session.hpp"

namespace loader::db
{
std::string status_report(Database &db, StatusFilter const &f)
{
  auto const opt = [](std::optional<std::string> const &v) {
    return v ? v->c_str() : nullptr;
  };
  try
  {
    pqxx::read_transaction tx{db.cx()};
    std::optional<std::string> batch;
    if (f.batch_id) batch = std::to_string(*f.batch_id);
    return tx
      .exec_params1("select ingest.status_report($1, $2::bigint, $3, $4, "
                    "$5::date)::text",
                    opt(f.source), opt(batch), f.limit, opt(f.state),
                    opt(f.since))[0]
      .as<std::string>();
  }
  catch (...)
  {
    rethrow_classified("status");
  }
}

void export_rejections(
  Database &db, std::int64_t batch_id,
  std::function<void(RejectionExport const &)> const &each)
{
  try
  {
    pqxx::read_transaction tx{db.cx()};
    if (tx.exec_params(
            "select 1 from ingest.batch_overview where batch_id = $1",
            batch_id)
          .empty())
      throw LoaderError{ErrorKind::config,
                        "no batch " + std::to_string(batch_id)};
    tx.exec_params("declare rejections no scroll cursor for "
                   "select record_no, invoice_number, rule, detail, fields "
                   "from ingest.rejection_export($1)",
                   batch_id);
    for (;;)
    {
      pqxx::result const rows{tx.exec("fetch 10000 from rejections")};
      if (rows.empty()) break;
      for (pqxx::row const &r : rows)
      {
        RejectionExport out;
        out.record_no = r[0].as<std::int64_t>();
        if (not r[1].is_null()) out.invoice_number = r[1].as<std::string>();
        out.rule = r[2].as<std::string>();
        out.detail = r[3].as<std::string>();
        if (not r[4].is_null())
        {
          std::array<std::optional<std::string>, 12> fields;
          auto parser = r[4].as_array();
          std::size_t i = 0;
          for (auto next = parser.get_next();
               next.first != pqxx::array_parser::juncture::done;
               next = parser.get_next())
          {
            if (next.first == pqxx::array_parser::juncture::string_value and
                i < fields.size())
              fields[i++] = next.second;
            else if (next.first == pqxx::array_parser::juncture::null_value and
                     i < fields.size())
              ++i;
          }
          out.fields = fields;
        }
        each(out);
      }
    }
  }
  catch (...)
  {
    rethrow_classified("exporting the rejections of batch " +
                       std::to_string(batch_id));
  }
}
} // namespace loader::db
