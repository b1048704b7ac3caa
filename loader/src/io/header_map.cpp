#include "io/header_map.hpp"

#include <algorithm>

#include "io/file_format.hpp"

namespace loader::io
{
namespace
{
/// Longest rendering of one file-supplied name in a message.
constexpr std::size_t max_shown_chars = 64;
/// Names listed per problem in detail(); the rest are counted.
constexpr std::size_t max_listed_names = 10;

bool contains(std::vector<std::string> const &v, std::string_view s)
{
  return std::find(v.begin(), v.end(), s) != v.end();
}

/// A name from the file, made safe to show: printable ASCII stays, any
/// other byte becomes \xNN, a backslash \\; at most max_shown_chars
/// characters ("..." marks a cut).  Empty names and names with blanks or
/// separators are shown in double quotes.
std::string shown(std::string_view name)
{
  static char const digits[] = "0123456789abcdef";
  bool const quote = name.empty() or
                     name.find_first_of(" ,;\"") != std::string_view::npos;

  std::string out;
  for (char const ch : name)
  {
    auto const c = static_cast<unsigned char>(ch);
    std::string piece;
    if (c == '\\')
      piece = "\\\\";
    else if (quote and c == '"')
      piece = "\\\"";
    else if (c >= 0x20 and c < 0x7f)
      piece.assign(1, ch);
    else
      piece = {'\\', 'x', digits[c >> 4], digits[c & 0x0f]};
    if (out.size() + piece.size() > max_shown_chars)
    {
      out += "...";
      break;
    }
    out += piece;
  }
  return quote ? '"' + out + '"' : out;
}

/// "unknown column colour" or "unknown columns a, b and 3 more".
std::string phrase(std::string_view singular, std::string_view plural,
                   std::vector<std::string> const &names, bool from_file)
{
  std::string out{names.size() == 1 ? singular : plural};
  std::size_t const listed = std::min(names.size(), max_listed_names);
  for (std::size_t k = 0; k < listed; ++k)
  {
    out += (k == 0) ? " " : ", ";
    out += from_file ? shown(names[k]) : names[k];
  }
  if (names.size() > listed)
    out += " and " + std::to_string(names.size() - listed) + " more";
  return out;
}
} // namespace

std::vector<ColumnSpec> const &invoice_columns()
{
  static std::vector<ColumnSpec> const columns{
    {"invoice_number", true}, {"revision", true},     {"status", true},
    {"document_type", true},  {"customer_id", true},  {"invoice_date", true},
    {"due_date", false},      {"currency", true},     {"net_amount", true},
    {"tax_amount", true},     {"gross_amount", true}, {"description", false},
  };
  return columns;
}

HeaderMapping map_header(std::vector<std::string> const &names,
                         bool allow_unknown_columns)
{
  HeaderMapping m;
  m.position.fill(absent_column);
  auto const &contract = invoice_columns();
  for (std::size_t pos = 0; pos < names.size(); ++pos)
  {
    std::string const &name = names[pos];
    auto const first = names.begin() + static_cast<std::ptrdiff_t>(pos);
    bool const repeated = std::find(names.begin(), first, name) != first;
    if (repeated and not contains(m.duplicated, name))
      m.duplicated.push_back(name);

    auto const known = std::find_if(
      contract.begin(), contract.end(),
      [&name](ColumnSpec const &c) { return c.name == name; });
    if (known != contract.end())
    {
      // A repeated column is a problem of its own; the first one maps.
      auto const k = static_cast<std::size_t>(known - contract.begin());
      if (m.position[k] == absent_column)
      {
        m.position[k] = pos;
        m.columns.push_back(name);
      }
      continue;
    }
    if (repeated) continue;
    if (allow_unknown_columns)
      m.extra.emplace_back(pos, name);
    else
      m.unknown.push_back(name);
  }
  for (auto const &c : contract)
    if (c.required and not contains(names, c.name))
      m.missing_required.emplace_back(c.name);
  return m;
}

HeaderMapping map_header(std::vector<std::string> const &names,
                         bool allow_unknown_columns, FileFormat const &format)
{
  std::vector<std::string> read{names};
  if (format.header)
  {
    for (std::string &name : read)
      if (auto const it = format.renames.find(name);
          it != format.renames.end())
        name = it->second;
  }
  else
  {
    // Positions past the format's list are unknown columns, named by
    // their number; a position the list skips (null) is read past.
    for (std::size_t k = 0; k < read.size(); ++k)
    {
      if (k >= format.positions.size()) continue;
      read[k] = format.positions[k].empty() ? std::string{}
                                            : format.positions[k];
    }
  }
  HeaderMapping m{map_header(read, allow_unknown_columns)};
  // Skipped positions: neither unknown nor duplicated.
  auto const skipped = [](std::string const &n) { return n.empty(); };
  m.extra.erase(std::remove_if(m.extra.begin(), m.extra.end(),
                               [](auto const &e) { return e.second.empty(); }),
                m.extra.end());
  m.unknown.erase(std::remove_if(m.unknown.begin(), m.unknown.end(), skipped),
                  m.unknown.end());
  m.duplicated.erase(
    std::remove_if(m.duplicated.begin(), m.duplicated.end(), skipped),
    m.duplicated.end());
  if (not format.header)
  {
    for (std::string &u : m.unknown) u = "at position " + u;
    for (auto &e : m.extra) e.second = "column " + e.second;
  }
  m.missing_required.erase(
    std::remove_if(m.missing_required.begin(), m.missing_required.end(),
                   [&format](std::string const &c) {
                     return format.defaults.count(c) != 0;
                   }),
    m.missing_required.end());
  return m;
}

bool HeaderMapping::ok() const noexcept
{
  return missing_required.empty() and unknown.empty() and duplicated.empty();
}

std::string HeaderMapping::rule() const
{
  if (not missing_required.empty()) return "header.missing_column";
  if (not unknown.empty()) return "header.unknown_column";
  if (not duplicated.empty()) return "header.duplicate_column";
  return {};
}

std::string HeaderMapping::detail() const
{
  std::vector<std::string> parts;
  if (not missing_required.empty())
    parts.push_back(phrase("missing required column",
                           "missing required columns", missing_required,
                           false));
  if (not unknown.empty())
    parts.push_back(
      phrase("unknown column", "unknown columns", unknown, true));
  if (not duplicated.empty())
    parts.push_back(
      phrase("duplicate column", "duplicate columns", duplicated, true));
  std::string out;
  for (auto const &p : parts)
  {
    if (not out.empty()) out += "; ";
    out += p;
  }
  return out;
}
} // namespace loader::io
