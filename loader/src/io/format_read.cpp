#include "io/format_read.hpp"

#include "core/digits.hpp"

namespace loader::io
{
namespace
{
constexpr std::size_t amount_columns[] = {col::net_amount, col::tax_amount,
                                          col::gross_amount};
constexpr std::size_t date_columns[] = {col::invoice_date, col::due_date};

std::size_t column_index(std::string_view name)
{
  auto const &columns = invoice_columns();
  for (std::size_t k = 0; k < columns.size(); ++k)
    if (columns[k].name == name) return k;
  return col::count;
}

Rule format_rule(std::size_t column)
{
  switch (column)
  {
  case col::net_amount: return Rule::net_amount_format;
  case col::tax_amount: return Rule::tax_amount_format;
  case col::gross_amount: return Rule::gross_amount_format;
  case col::invoice_date: return Rule::invoice_date_format;
  default: return Rule::due_date_format;
  }
}

/// A value shown in a note: quoted, at most 40 bytes.
std::string quoted(std::string_view s)
{
  std::string out{"\""};
  out.append(s.substr(0, 40));
  if (s.size() > 40) out += "...";
  return out + "\"";
}
} // namespace

std::uint32_t columns_of(Rule r)
{
  auto const bit = [](std::size_t c) { return std::uint32_t{1} << c; };
  switch (r)
  {
  case Rule::invoice_number_missing:
  case Rule::invoice_number_format: return bit(col::invoice_number);
  case Rule::revision_missing:
  case Rule::revision_format: return bit(col::revision);
  case Rule::status_missing:
  case Rule::status_value: return bit(col::status);
  case Rule::document_type_missing:
  case Rule::document_type_value: return bit(col::document_type);
  case Rule::customer_id_missing: return bit(col::customer_id);
  case Rule::invoice_date_missing:
  case Rule::invoice_date_format:
  case Rule::invoice_date_after_business_date: return bit(col::invoice_date);
  case Rule::due_date_format: return bit(col::due_date);
  case Rule::due_date_before_invoice_date:
    return bit(col::due_date) | bit(col::invoice_date);
  case Rule::currency_missing:
  case Rule::currency_unknown: return bit(col::currency);
  case Rule::net_amount_missing:
  case Rule::net_amount_format:
  case Rule::net_amount_precision: return bit(col::net_amount);
  case Rule::tax_amount_missing:
  case Rule::tax_amount_format:
  case Rule::tax_amount_precision: return bit(col::tax_amount);
  case Rule::gross_amount_missing:
  case Rule::gross_amount_format:
  case Rule::gross_amount_precision: return bit(col::gross_amount);
  case Rule::amounts_sum:
    return bit(col::net_amount) | bit(col::tax_amount) |
           bit(col::gross_amount);
  case Rule::gross_amount_sign:
    return bit(col::gross_amount) | bit(col::document_type);
  }
  return 0;
}

FormatReader::FormatReader(FileFormat const &format,
                           HeaderMapping const &mapping) :
        m_format{format}, m_mapping{mapping}
{
  for (auto const &[column, value] : format.defaults)
  {
    std::size_t const k = column_index(column);
    if (k < col::count and mapping.position[k] == absent_column)
    {
      m_default[k] = value;
      m_has_default[k] = true;
    }
  }
  for (auto const &[column, map] : format.values)
    if (std::size_t const k = column_index(column); k < col::count)
      m_values[k] = &map;
}

bool FormatReader::read_amount(std::string_view t, std::string &out) const
{
  // -?digits[<decimal>digits], the digits before the separator either
  // plain or grouped in threes by the group separator throughout.
  out.clear();
  std::size_t k = 0;
  if (k < t.size() and t[k] == '-')
  {
    out.push_back('-');
    ++k;
  }
  char const group = m_format.group_separator;
  std::size_t run = 0;  // digits since the last group separator
  bool grouped = false; // a group separator was seen
  std::size_t digits = 0;
  for (; k < t.size() and t[k] != m_format.decimal_separator; ++k)
  {
    char const c = t[k];
    if (is_digit(c))
    {
      out.push_back(c);
      ++run;
      ++digits;
    }
    else if (group != '\0' and c == group)
    {
      // The first group holds 1-3 digits, every later one exactly 3.
      if (run == 0 or run > 3 or (grouped and run != 3)) return false;
      grouped = true;
      run = 0;
    }
    else
      return false;
  }
  if (digits == 0 or (grouped and run != 3)) return false;
  if (k < t.size())
  {
    out.push_back('.');
    ++k;
    if (k == t.size()) return false;
    for (; k < t.size(); ++k)
    {
      if (not is_digit(t[k])) return false;
      out.push_back(t[k]);
    }
  }
  return true;
}

bool FormatReader::read_date(std::string_view t, std::string &out) const
{
  // Where year, month and day sit in each form, and its separators.
  struct Layout
  {
    std::size_t size, year, month, day;
    char sep;
    std::size_t sep1, sep2;
  };
  Layout l{};
  switch (m_format.date_format)
  {
  case DateForm::iso: l = {10, 0, 5, 8, '-', 4, 7}; break;
  case DateForm::dotted: l = {10, 6, 3, 0, '.', 2, 5}; break;
  case DateForm::day_first: l = {10, 6, 3, 0, '/', 2, 5}; break;
  case DateForm::month_first: l = {10, 6, 0, 3, '/', 2, 5}; break;
  case DateForm::compact: l = {8, 0, 4, 6, '\0', 0, 0}; break;
  }
  if (t.size() != l.size) return false;
  for (std::size_t k = 0; k < t.size(); ++k)
  {
    bool const sep = l.sep != '\0' and (k == l.sep1 or k == l.sep2);
    if (sep ? t[k] != l.sep : not is_digit(t[k])) return false;
  }
  out.assign(t.substr(l.year, 4));
  out.push_back('-');
  out.append(t.substr(l.month, 2));
  out.push_back('-');
  out.append(t.substr(l.day, 2));
  return true; // the calendar is the date rule's (is_iso_date)
}

void FormatReader::read(std::vector<Field> const &fields, RecordFields &out,
                        RecordRead &info)
{
  info.unreadable = 0;
  for (std::size_t c = 0; c < col::count; ++c)
  {
    std::size_t const at = m_mapping.position[c];
    if (at != absent_column)
      out[c] = fields[at];
    else if (m_has_default[c])
      out[c] = Field{m_default[c], false};
    else
      out[c] = Field{};
  }
  info.delivered = out;

  for (std::size_t c = 0; c < col::count; ++c)
  {
    if (m_values[c] == nullptr or out[c].empty()) continue;
    auto const it = m_values[c]->find(out[c].text);
    if (it == m_values[c]->end()) continue; // the contract's own word
    out[c].text = it->second;
  }
  bool const amounts = m_format.decimal_separator != '.' or
                       m_format.group_separator != '\0';
  if (amounts)
    for (std::size_t const c : amount_columns)
    {
      if (out[c].empty()) continue;
      if (read_amount(out[c].text, m_buffer[c]))
        out[c].text = m_buffer[c];
      else
        info.unreadable |= bit_of(format_rule(c));
    }
  if (m_format.date_format != DateForm::iso)
    for (std::size_t const c : date_columns)
    {
      if (out[c].empty()) continue;
      if (read_date(out[c].text, m_buffer[c]))
        out[c].text = m_buffer[c];
      else
        info.unreadable |= bit_of(format_rule(c));
    }
}

std::string FormatReader::note(RecordFields const &read,
                               RecordRead const &info, RuleSet failed) const
{
  std::uint32_t judged = 0;
  for (std::size_t k = 0; k < rule_count; ++k)
    if ((failed & bit_of(rule_at(k))) != 0) judged |= columns_of(rule_at(k));
  std::string out;
  auto const &columns = invoice_columns();
  for (std::size_t c = 0; c < col::count; ++c)
  {
    if ((judged & (std::uint32_t{1} << c)) == 0) continue;
    std::string_view const was = info.delivered[c].text;
    std::string part;
    bool const date = c == col::invoice_date or c == col::due_date;
    if ((info.unreadable & bit_of(format_rule(c))) != 0 and
        (date or c == col::net_amount or c == col::tax_amount or
         c == col::gross_amount))
    {
      std::string form;
      if (date)
        form = std::string{name_of(m_format.date_format)};
      else
      {
        form = "-1";
        if (m_format.group_separator != '\0') form += m_format.group_separator;
        form += "234";
        form += m_format.decimal_separator;
        form += "56";
      }
      part = std::string{columns[c].name} + " " + quoted(was) +
             " is not of the declared form " + form;
    }
    else if (read[c].text != was)
      part = std::string{columns[c].name} + " " + quoted(was) + " read as " +
             quoted(read[c].text);
    else if (m_values[c] != nullptr and not was.empty())
      part = std::string{columns[c].name} + " " + quoted(was) +
             " is not in the format's values map";
    if (part.empty()) continue;
    out += out.empty() ? "as delivered: " : "; ";
    out += part;
  }
  return out;
}

std::vector<std::string> defaults_used(FileFormat const &format,
                                       HeaderMapping const &mapping)
{
  std::vector<std::string> out;
  for (auto const &[column, value] : format.defaults)
  {
    std::size_t const k = column_index(column);
    if (k < col::count and mapping.position[k] == absent_column)
      out.push_back(column + "=" + value);
  }
  return out;
}
} // namespace loader::io
