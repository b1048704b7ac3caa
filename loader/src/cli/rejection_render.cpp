#include "cli/rejection_render.hpp"

#include <nlohmann/json.hpp>

#include "io/header_map.hpp"

namespace loader::cli
{
namespace
{
/// One CSV field: quoted (quotes doubled) when it holds the delimiter, a
/// quote, a line break or leading or trailing blanks, as RFC 4180 reads it.
std::string csv_field(std::string const &v)
{
  bool const quote{v.find_first_of(",\"\r\n") != std::string::npos or
                   (not v.empty() and (v.front() == ' ' or v.back() == ' '))};
  if (not quote) return v;
  std::string out{"\""};
  for (char const c : v)
  {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}
} // namespace

std::string rejection_csv_header()
{
  std::string out{"record_no,rule,detail"};
  for (io::ColumnSpec const &c : io::invoice_columns())
  {
    out += ',';
    out += c.name;
  }
  return out + "\n";
}

std::string rejection_csv_line(db::RejectionExport const &r)
{
  std::string out{std::to_string(r.record_no) + "," + csv_field(r.rule) + "," +
                  csv_field(r.detail)};
  for (std::size_t i = 0; i < io::invoice_columns().size(); ++i)
  {
    out += ',';
    if (r.fields and (*r.fields)[i]) out += csv_field(*(*r.fields)[i]);
  }
  return out + "\n";
}

std::string rejection_json_line(db::RejectionExport const &r)
{
  // Keys in the documented order, not sorted.
  using ordered = nlohmann::ordered_json;
  ordered line = ordered::object();
  line["record_no"] = r.record_no;
  line["invoice_number"] = r.invoice_number ? ordered(*r.invoice_number)
                                            : ordered(nullptr);
  line["rule"] = r.rule;
  line["detail"] = r.detail;
  if (r.fields)
  {
    ordered fields = ordered::object();
    auto const &columns = io::invoice_columns();
    for (std::size_t i = 0; i < columns.size(); ++i)
      fields[std::string{columns[i].name}] = (*r.fields)[i]
                                               ? ordered(*(*r.fields)[i])
                                               : ordered(nullptr);
    line["fields"] = fields;
  }
  else
    line["fields"] = nullptr;
  return line.dump(-1, ' ', false, ordered::error_handler_t::replace) + "\n";
}
} // namespace loader::cli
