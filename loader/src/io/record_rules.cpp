#include "io/record_rules.hpp"

#include "core/digits.hpp"
#include "core/errors.hpp"

// The rule decisions; the values they read (decimals, dates, the content
// hash) are in record_values.cpp.
namespace loader::io
{
namespace
{
constexpr std::array<std::string_view, rule_count> codes{
  "invoice_number.missing", "invoice_number.format",
  "revision.missing",       "revision.format",
  "status.missing",         "status.value",
  "document_type.missing",  "document_type.value",
  "customer_id.missing",    "invoice_date.missing",
  "invoice_date.format",    "invoice_date.after_business_date",
  "due_date.format",        "due_date.before_invoice_date",
  "currency.missing",       "currency.unknown",
  "net_amount.missing",     "net_amount.format",
  "net_amount.precision",   "tax_amount.missing",
  "tax_amount.format",      "tax_amount.precision",
  "gross_amount.missing",   "gross_amount.format",
  "gross_amount.precision", "amounts.sum",
  "gross_amount.sign",
};

/// Longest invoice number and revision (failing_records.sql's lengths).
constexpr std::size_t max_invoice_number = 64;
constexpr std::size_t max_revision_digits = 9;

/// ^[A-Za-z0-9._/-]+$ (ASCII only).
bool invoice_number_chars(std::string_view s) noexcept
{
  for (char const c : s)
  {
    bool const ok = is_digit(c) or (c >= 'A' and c <= 'Z') or
                    (c >= 'a' and c <= 'z') or c == '.' or c == '_' or
                    c == '/' or c == '-';
    if (not ok) return false;
  }
  return true;
}

} // namespace

std::string_view code_of(Rule r) noexcept
{
  return codes[static_cast<std::size_t>(r)];
}

Rule rule_at(std::size_t index) noexcept
{
  return static_cast<Rule>(index);
}

RuleBits::RuleBits(std::vector<std::pair<std::string, int>> const &table)
{
  std::uint32_t used = 0;
  for (std::size_t k = 0; k < rule_count; ++k)
  {
    std::string const code{codes[k]};
    bool found = false;
    int bit = 0;
    for (auto const &[rule, b] : table)
      if (rule == code)
      {
        found = true;
        bit = b;
      }
    std::string const fix{"; this loader decides the field rules by their "
                          "codes in ingest.field_rule: run `invoice-loader "
                          "migrate` with a matching binary"};
    if (not found)
      throw LoaderError{ErrorKind::config,
                        "the database's ingest.field_rule has no rule " +
                          code + fix};
    if (bit < 0 or bit > 31)
      throw LoaderError{ErrorKind::config,
                        "the database's ingest.field_rule gives rule " + code +
                          " bit " + std::to_string(bit) + ", outside 0-31" +
                          fix};
    std::uint32_t const mask = std::uint32_t{1} << static_cast<unsigned>(bit);
    if ((used & mask) != 0)
      throw LoaderError{ErrorKind::config,
                        "the database's ingest.field_rule gives rule " + code +
                          " bit " + std::to_string(bit) +
                          ", which another rule has" + fix};
    used |= mask;
    m_bit[k] = mask;
  }
}

std::int32_t RuleBits::mask_of(RuleSet failed) const noexcept
{
  std::uint32_t mask = 0;
  while (failed != 0)
  {
    auto const k = static_cast<std::size_t>(__builtin_ctz(failed));
    mask |= m_bit[k];
    failed &= failed - 1;
  }
  return static_cast<std::int32_t>(mask);
}

Currencies::Currencies(std::vector<std::pair<std::string, int>> const &table)
{
  for (auto const &[code, unit] : table) m_units[code] = unit;
}

int Currencies::minor_unit(std::string_view code) const
{
  auto const it = m_units.find(std::string{code});
  return it == m_units.end() ? -1 : it->second;
}

RecordChecker::RecordChecker(Currencies const &currencies,
                             std::string business_date) :
        m_currencies{currencies}, m_business_date{std::move(business_date)}
{}

namespace
{
/// The rules a record failed so far, as RuleSet bits.
struct Failed
{
  RuleSet bits = 0;
  void operator()(Rule r) noexcept { bits |= bit_of(r); }
};

/// invoice_number and revision: the business key.
void check_key(RecordFields const &f, Verdict &out, Failed &fail)
{
  std::string_view const inv{f[col::invoice_number].text};
  if (inv.empty())
    fail(Rule::invoice_number_missing);
  else if (inv.size() > max_invoice_number or not invoice_number_chars(inv))
    fail(Rule::invoice_number_format);

  std::string_view const rev{f[col::revision].text};
  out.revision_ok = false;
  out.revision.clear();
  if (rev.empty())
    fail(Rule::revision_missing);
  else if (rev.size() > max_revision_digits or not all_digits(rev))
    fail(Rule::revision_format);
  else
  {
    out.revision_ok = true;
    std::size_t lead = 0;
    while (lead + 1 < rev.size() and rev[lead] == '0') ++lead;
    out.revision.assign(rev.substr(lead));
  }
}

/// status, document_type and customer_id; the document's kind, for the
/// sign rule.
struct Kind
{
  bool invoice, credit_note;
};
Kind check_codes(RecordFields const &f, Failed &fail)
{
  std::string_view const status{f[col::status].text};
  if (status.empty())
    fail(Rule::status_missing);
  else if (status != "ISSUED" and status != "VOID")
    fail(Rule::status_value);

  std::string_view const doc{f[col::document_type].text};
  Kind const kind{doc == "INVOICE", doc == "CREDIT_NOTE"};
  if (doc.empty())
    fail(Rule::document_type_missing);
  else if (not kind.invoice and not kind.credit_note)
    fail(Rule::document_type_value);

  if (f[col::customer_id].empty()) fail(Rule::customer_id_missing);
  return kind;
}

/// invoice_date (required, not after the business date) and due_date
/// (optional, not before the invoice date).
void check_dates(RecordFields const &f, std::string_view business_date,
                 RuleSet unreadable, Verdict &out, Failed &fail)
{
  std::string_view const idate{f[col::invoice_date].text};
  out.invoice_date_ok = false;
  if (idate.empty())
    fail(Rule::invoice_date_missing);
  else if ((unreadable & bit_of(Rule::invoice_date_format)) != 0 or
           not is_iso_date(idate))
    fail(Rule::invoice_date_format);
  else
  {
    out.invoice_date_ok = true;
    // Both YYYY-MM-DD: the text order is the date order.
    if (idate > business_date) fail(Rule::invoice_date_after_business_date);
  }

  std::string_view const ddate{f[col::due_date].text};
  out.due_date_ok = false;
  if (ddate.empty()) return;
  if ((unreadable & bit_of(Rule::due_date_format)) != 0 or
      not is_iso_date(ddate))
    fail(Rule::due_date_format);
  else
  {
    out.due_date_ok = true;
    if (out.invoice_date_ok and ddate < idate)
      fail(Rule::due_date_before_invoice_date);
  }
}

/// The three amounts: present, plain decimals, within the currency's minor
/// unit (unit < 0: unknown currency, precision not judged), net + tax =
/// gross, and the sign the document type asks for.
void check_amounts(RecordFields const &f, int unit, Kind kind,
                   RuleSet unreadable, Verdict &out, Failed &fail)
{
  struct Amount
  {
    std::size_t column;
    Decimal *value;
    Rule missing, format, precision;
  };
  for (Amount const &a :
       {Amount{col::net_amount, &out.net, Rule::net_amount_missing,
               Rule::net_amount_format, Rule::net_amount_precision},
        Amount{col::tax_amount, &out.tax, Rule::tax_amount_missing,
               Rule::tax_amount_format, Rule::tax_amount_precision},
        Amount{col::gross_amount, &out.gross, Rule::gross_amount_missing,
               Rule::gross_amount_format, Rule::gross_amount_precision}})
  {
    std::string_view const text{f[a.column].text};
    *a.value = (unreadable & bit_of(a.format)) != 0 ? Decimal{}
                                                    : parse_decimal(text);
    if (text.empty())
      fail(a.missing);
    else if (not a.value->readable)
      fail(a.format);
    else if (unit >= 0 and
             a.value->fraction.size() > static_cast<std::size_t>(unit))
      fail(a.precision);
  }
  if (out.net.readable and out.tax.readable and out.gross.readable and
      not sum_holds(out.net, out.tax, out.gross))
    fail(Rule::amounts_sum);
  if (out.gross.readable and not is_zero(out.gross) and
      ((kind.invoice and out.gross.negative) or
       (kind.credit_note and not out.gross.negative)))
    fail(Rule::gross_amount_sign);
}
} // namespace

/// The currency's minor unit (-1 when unknown or missing, each a failed
/// rule), through the one-entry cache.
int RecordChecker::check_currency(RecordFields const &f, RuleSet &failed)
{
  std::string_view const code{f[col::currency].text};
  if (code.empty())
  {
    failed |= bit_of(Rule::currency_missing);
    return -1;
  }
  if (code != m_last_code)
  {
    m_last_code.assign(code);
    m_last_unit = m_currencies.minor_unit(code);
  }
  if (m_last_unit < 0) failed |= bit_of(Rule::currency_unknown);
  return m_last_unit;
}

void RecordChecker::check(RecordFields const &f, Verdict &out,
                          RuleSet unreadable)
{
  Failed fail;
  check_key(f, out, fail);
  Kind const kind = check_codes(f, fail);
  check_dates(f, m_business_date, unreadable, out, fail);
  out.minor_unit = check_currency(f, fail.bits);
  check_amounts(f, out.minor_unit, kind, unreadable, out, fail);
  out.failed = fail.bits;
  if (fail.bits == 0) canonicalize(f, out);
}

/// A passing record's canonical amounts and its content hash.
void RecordChecker::canonicalize(RecordFields const &f, Verdict &out)
{
  int const unit = out.minor_unit;
  canonical_amount(out.net, unit, out.net_text);
  canonical_amount(out.tax, unit, out.tax_text);
  canonical_amount(out.gross, unit, out.gross_text);
  std::string_view const net{out.net_text}, tax{out.tax_text},
    gross{out.gross_text};
  std::string_view const &ddate = f[col::due_date].text;
  std::string_view const &desc = f[col::description].text;
  out.content_hash = content_hash(
    {&f[col::status].text, &f[col::document_type].text,
     &f[col::customer_id].text, &f[col::invoice_date].text,
     ddate.empty() ? nullptr : &ddate, &f[col::currency].text, &net, &tax,
     &gross, desc.empty() ? nullptr : &desc},
    m_scratch);
}
} // namespace loader::io
