#include "io/file_format.hpp"

#include <algorithm>
#include <set>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "io/header_map.hpp"

namespace loader::io
{
namespace
{
using json = nlohmann::json;

[[noreturn]] void refuse(std::string const &what)
{
  throw LoaderError{ErrorKind::config, "format file: " + what};
}

struct Choice
{
  std::string_view text;
  char value;
};

/// A one-character key whose value must be one of choices.
char one_of(json const &doc, char const *key,
            std::vector<Choice> const &choices, std::string const &allowed)
{
  if (not doc.is_string())
    refuse(std::string{key} + " must be a string: " + allowed);
  auto const &s = doc.get_ref<std::string const &>();
  for (Choice const &c : choices)
    if (s == c.text) return c.value;
  refuse(std::string{key} + " may be " + allowed + ", not " + doc.dump());
}

bool is_contract_column(std::string_view name)
{
  for (ColumnSpec const &c : invoice_columns())
    if (c.name == name) return true;
  return false;
}

std::string contract_column(json const &v, std::string const &where)
{
  if (not v.is_string())
    refuse(where + " must name a contract column, not " + v.dump());
  auto const &s = v.get_ref<std::string const &>();
  if (not is_contract_column(s))
    refuse(where + " names " + v.dump() +
           ", which is not a contract column (invoice_number, revision, "
           "status, document_type, customer_id, invoice_date, due_date, "
           "currency, net_amount, tax_amount, gross_amount, description)");
  return s;
}

void read_columns(json const &v, FileFormat &f)
{
  std::set<std::string> seen;
  auto const once = [&seen](std::string const &column) {
    if (not seen.insert(column).second)
      refuse("columns maps two file columns to " + column);
  };
  if (f.header)
  {
    if (not v.is_object())
      refuse("columns must be an object from the delivered header name to "
             "the contract column (with \"header\": true)");
    for (auto const &[name, target] : v.items())
    {
      std::string column = contract_column(target, "columns[" +
                                                     json(name).dump() + "]");
      once(column);
      f.renames.emplace(name, std::move(column));
    }
    return;
  }
  if (not v.is_array())
    refuse("columns must be a list of contract column names by position "
           "(with \"header\": false; null skips a position)");
  for (std::size_t k = 0; k < v.size(); ++k)
  {
    if (v[k].is_null())
    {
      f.positions.emplace_back();
      continue;
    }
    std::string column = contract_column(v[k],
                                         "columns[" + std::to_string(k) + "]");
    once(column);
    f.positions.push_back(std::move(column));
  }
}

void read_defaults(json const &v, FileFormat &f)
{
  if (not v.is_object())
    refuse("defaults must be an object from contract column to its value");
  for (auto const &[column, value] : v.items())
  {
    contract_column(json(column), "defaults");
    if (not value.is_string() or value.get_ref<std::string const &>().empty())
      refuse("defaults[" + json(column).dump() +
             "] must be a non-empty string");
    f.defaults.emplace(column, value.get<std::string>());
  }
}

void read_values(json const &v, FileFormat &f)
{
  if (not v.is_object())
    refuse("values must be an object from column (status, document_type, "
           "currency) to a map of delivered value to the contract's value");
  for (auto const &[column, map] : v.items())
  {
    if (column != "status" and column != "document_type" and
        column != "currency")
      refuse("values may map status, document_type and currency, not " +
             json(column).dump());
    if (not map.is_object())
      refuse("values[" + json(column).dump() +
             "] must be an object from delivered value to the contract's");
    auto &out = f.values[column];
    for (auto const &[from, to] : map.items())
    {
      if (not to.is_string() or to.get_ref<std::string const &>().empty())
        refuse("values[" + json(column).dump() + "][" + json(from).dump() +
               "] must be a non-empty string");
      out.emplace(from, to.get<std::string>());
    }
  }
}

std::vector<Choice> const delimiters{
  {",", ','}, {";", ';'}, {"\t", '\t'}, {"|", '|'}};
std::vector<Choice> const quotes{{"\"", '"'}, {"'", '\''}};
std::vector<Choice> const decimals{{".", '.'}, {",", ','}};
std::vector<Choice> const groups{
  {"", '\0'}, {".", '.'}, {",", ','}, {" ", ' '}, {"'", '\''}};

std::string shown_char(char c)
{
  if (c == '\t') return "\"\\t\"";
  if (c == '\0') return "\"\"";
  return json(std::string(1, c)).dump();
}
} // namespace

std::string_view name_of(Encoding e) noexcept
{
  switch (e)
  {
  case Encoding::utf8: return "UTF-8";
  case Encoding::windows_1252: return "windows-1252";
  case Encoding::iso_8859_1: return "ISO-8859-1";
  case Encoding::iso_8859_15: return "ISO-8859-15";
  }
  return "UTF-8";
}

std::string_view name_of(DateForm f) noexcept
{
  switch (f)
  {
  case DateForm::iso: return "YYYY-MM-DD";
  case DateForm::dotted: return "DD.MM.YYYY";
  case DateForm::day_first: return "DD/MM/YYYY";
  case DateForm::month_first: return "MM/DD/YYYY";
  case DateForm::compact: return "YYYYMMDD";
  }
  return "YYYY-MM-DD";
}

bool FileFormat::is_default() const
{
  return delimiter == ',' and quote == '"' and header and
         encoding == Encoding::utf8 and not converts_values() and
         renames.empty() and max_expansion == 20;
}

bool FileFormat::converts_values() const
{
  return decimal_separator != '.' or group_separator != '\0' or
         date_format != DateForm::iso or not defaults.empty() or
         not values.empty();
}

FileFormat parse_format(std::string_view json_text)
{
  json doc;
  try
  {
    doc = json::parse(json_text.begin(), json_text.end());
  }
  catch (json::parse_error const &e)
  {
    refuse(std::string{"not valid JSON: "} + e.what());
  }
  if (not doc.is_object()) refuse("must be a JSON object");

  static std::set<std::string> const keys{
    "delimiter",         "quote",           "header",       "encoding",
    "decimal_separator", "group_separator", "date_format",  "columns",
    "defaults",          "values",          "max_expansion"};
  for (auto const &[key, value] : doc.items())
    if (keys.count(key) == 0)
      refuse("unknown key " + json(key).dump() +
             " (the keys: delimiter, quote, header, encoding, "
             "decimal_separator, group_separator, date_format, columns, "
             "defaults, values, max_expansion)");

  FileFormat f;
  if (doc.contains("delimiter"))
    f.delimiter = one_of(doc["delimiter"], "delimiter", delimiters,
                         "\",\", \";\", \"\\t\" or \"|\"");
  if (doc.contains("quote"))
    f.quote = one_of(doc["quote"], "quote", quotes, "\"\\\"\" or \"'\"");
  if (doc.contains("header"))
  {
    if (not doc["header"].is_boolean()) refuse("header must be true or false");
    f.header = doc["header"].get<bool>();
  }
  if (doc.contains("encoding"))
  {
    json const &e = doc["encoding"];
    std::string const allowed{
      "\"UTF-8\", \"windows-1252\", \"ISO-8859-1\" or \"ISO-8859-15\""};
    if (not e.is_string()) refuse("encoding must be a string: " + allowed);
    // Names as IANA registers them, compared without regard to case.
    std::string name = e.get<std::string>();
    std::transform(name.begin(), name.end(), name.begin(), [](char c) {
      return static_cast<char>(c >= 'a' and c <= 'z' ? c - 32 : c);
    });
    if (name == "UTF-8")
      f.encoding = Encoding::utf8;
    else if (name == "WINDOWS-1252" or name == "CP1252")
      f.encoding = Encoding::windows_1252;
    else if (name == "ISO-8859-1" or name == "LATIN1")
      f.encoding = Encoding::iso_8859_1;
    else if (name == "ISO-8859-15" or name == "LATIN9")
      f.encoding = Encoding::iso_8859_15;
    else
      refuse("encoding may be " + allowed + ", not " + e.dump());
  }
  if (doc.contains("decimal_separator"))
    f.decimal_separator = one_of(doc["decimal_separator"], "decimal_separator",
                                 decimals, "\".\" or \",\"");
  if (doc.contains("group_separator"))
    f.group_separator = one_of(doc["group_separator"], "group_separator",
                               groups,
                               "\"\" (none), \".\", \",\", \" \" or \"'\"");
  if (doc.contains("date_format"))
  {
    json const &d = doc["date_format"];
    std::vector<DateForm> const forms{
      DateForm::iso, DateForm::dotted, DateForm::day_first,
      DateForm::month_first, DateForm::compact};
    bool found = false;
    for (DateForm const form : forms)
      if (d.is_string() and d.get_ref<std::string const &>() == name_of(form))
      {
        f.date_format = form;
        found = true;
      }
    if (not found)
      refuse("date_format may be \"YYYY-MM-DD\", \"DD.MM.YYYY\", "
             "\"DD/MM/YYYY\", \"MM/DD/YYYY\" or \"YYYYMMDD\", not " +
             d.dump());
  }
  if (doc.contains("columns"))
    read_columns(doc["columns"], f);
  else if (not f.header)
    refuse("\"header\": false needs columns: the contract column at each "
           "position");
  if (doc.contains("defaults")) read_defaults(doc["defaults"], f);
  if (doc.contains("values")) read_values(doc["values"], f);
  if (doc.contains("max_expansion"))
  {
    json const &m = doc["max_expansion"];
    if (not m.is_number_unsigned() or m.get<std::uint64_t>() < 1 or
        m.get<std::uint64_t>() > 1000)
      refuse("max_expansion must be a whole number from 1 to 1000, not " +
             m.dump());
    f.max_expansion = m.get<std::uint32_t>();
  }

  // Characters that would make a value ambiguous (the quotes and the
  // delimiters are disjoint sets).
  if (f.decimal_separator == f.group_separator)
    refuse("decimal_separator and group_separator must differ (both " +
           shown_char(f.group_separator) + ")");
  // An amount with the delimiter as its decimal separator would always
  // need quotes; a group separator equal to the delimiter is the
  // delivering system's choice (its amounts come quoted).
  if (f.decimal_separator == f.delimiter)
    refuse("decimal_separator must differ from the delimiter (both " +
           shown_char(f.delimiter) + ")");
  for (auto const &[column, value] : f.defaults)
    if (not f.header and std::find(f.positions.begin(), f.positions.end(),
                                   column) != f.positions.end())
      refuse("defaults[" + json(column).dump() +
             "]: the file delivers that column (columns lists it)");
  return f;
}

std::string format_json(FileFormat const &f)
{
  json out = json::object();
  out["delimiter"] = std::string(1, f.delimiter);
  out["quote"] = std::string(1, f.quote);
  out["header"] = f.header;
  out["encoding"] = std::string{name_of(f.encoding)};
  out["decimal_separator"] = std::string(1, f.decimal_separator);
  out["group_separator"] = f.group_separator == '\0'
                             ? std::string{}
                             : std::string(1, f.group_separator);
  out["date_format"] = std::string{name_of(f.date_format)};
  if (f.header)
    out["columns"] = f.renames;
  else
  {
    json list = json::array();
    for (std::string const &p : f.positions)
      list.push_back(p.empty() ? json(nullptr) : json(p));
    out["columns"] = list;
  }
  out["defaults"] = f.defaults;
  out["values"] = f.values;
  out["max_expansion"] = f.max_expansion;
  // nlohmann's object keeps keys sorted: the text is canonical.
  return out.dump();
}

std::string describe(FileFormat const &f)
{
  if (f.is_default())
    return "the contract's (comma, UTF-8, 1234.56, YYYY-MM-DD)";
  std::string out{"delimiter "};
  out += f.delimiter == '\t' ? std::string{"tab"}
                             : std::string(1, f.delimiter);
  if (f.quote != '"') out += ", quote " + std::string(1, f.quote);
  out += f.header ? ", header"
                  : ", no header (" + std::to_string(f.positions.size()) +
                      " columns by position)";
  out += ", ";
  out += name_of(f.encoding);
  out += ", amounts 1";
  if (f.group_separator != '\0') out += f.group_separator;
  out += "234";
  out += f.decimal_separator;
  out += "56, dates ";
  out += name_of(f.date_format);
  if (not f.renames.empty())
    out += ", " + std::to_string(f.renames.size()) + " columns renamed";
  if (not f.defaults.empty())
    out += ", " + std::to_string(f.defaults.size()) +
           (f.defaults.size() == 1 ? " default" : " defaults");
  if (not f.values.empty())
    out += ", " + std::to_string(f.values.size()) +
           (f.values.size() == 1 ? " value map" : " value maps");
  if (f.max_expansion != 20)
    out += ", expansion up to " + std::to_string(f.max_expansion) + "x";
  return out;
}
} // namespace loader::io
