// status --rejections: the reject file's CSV and JSON lines.  A field with
// the delimiter, a quote, a line break or outer blanks is quoted as RFC
// 4180 reads it; an empty field stays empty; the whole file's rejection has
// no fields; JSON lines keep every field, null for an empty one.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "cli/rejection_render.hpp"

using loader::cli::rejection_csv_header;
using loader::cli::rejection_csv_line;
using loader::cli::rejection_json_line;
using loader::db::RejectionExport;

namespace
{
RejectionExport record()
{
  RejectionExport r;
  r.record_no = 7;
  r.invoice_number = "INV-7";
  r.rule = "status.value";
  r.detail = "status 'PAID' is not ISSUED or VOID";
  r.fields = std::array<std::optional<std::string>, 12>{
    "INV-7",      "0",   "PAID", "INVOICE", "C-1",  "2026-11-27",
    std::nullopt, "EUR", "1,5",  "0.25",    "1.75", " say \"hi\"\nbye"};
  return r;
}
} // namespace

TEST_CASE("rejection export: CSV header and lines", "[unit][status]")
{
  CHECK(rejection_csv_header() ==
        "record_no,rule,detail,invoice_number,revision,status,document_type,"
        "customer_id,invoice_date,due_date,currency,net_amount,tax_amount,"
        "gross_amount,description\n");
  CHECK(rejection_csv_line(record()) ==
        "7,status.value,status 'PAID' is not ISSUED or VOID,INV-7,0,PAID,"
        "INVOICE,C-1,2026-11-27,,EUR,\"1,5\",0.25,1.75,\" say "
        "\"\"hi\"\"\nbye\"\n");
  RejectionExport file;
  file.rule = "reconcile.control_total";
  file.detail = "sum 4200.00, manifest says 4200.01";
  CHECK(rejection_csv_line(file) ==
        "0,reconcile.control_total,\"sum 4200.00, manifest says 4200.01\""
        ",,,,,,,,,,,,\n");
}

TEST_CASE("rejection export: one JSON object per line", "[unit][status]")
{
  std::string const line{rejection_json_line(record())};
  REQUIRE(line.back() == '\n');
  CHECK(line.find('\n') == line.size() - 1);
  auto const j = nlohmann::json::parse(line);
  CHECK(j["record_no"] == 7);
  CHECK(j["rule"] == "status.value");
  CHECK(j["fields"]["net_amount"] == "1,5");
  CHECK(j["fields"]["due_date"].is_null());
  CHECK(j["fields"]["description"] == " say \"hi\"\nbye");
  RejectionExport file;
  file.rule = "csv.quoting";
  auto const f = nlohmann::json::parse(rejection_json_line(file));
  CHECK(f["fields"].is_null());
  CHECK(f["invoice_number"].is_null());
}
