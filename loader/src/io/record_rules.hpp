#pragma once
// The per-record field rules of docs/reference/input-file.md, decided in the
// loader's staging pass, and the typed canonical values and content hash
// of a record that passes them.  Pure functions: fields in, verdict out.
//
// Written by hand because no library decides these rules: they are the
// contract's own (its patterns, its date and decimal forms, its minor
// units and sign rules), and they must agree, value for value, with the
// SQL that is their reference and authority: sql/ingest/failing_records.sql
// (with ingest.is_iso_date and ingest.is_plain_decimal), which still
// validates staging loaded without the loader.  The agreement is tested
// on a shared corpus (tests/corpus/field_rules.csv).  Rule codes are
// sql/ERRCODES.md's; their bit numbers are the database's
// (ingest.field_rule), injected through RuleBits.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "io/csv_fields.hpp"

namespace loader::io
{
/// The 27 field rules, in the order of failing_records.sql's columns.
enum class Rule : std::uint8_t
{
  invoice_number_missing,
  invoice_number_format,
  revision_missing,
  revision_format,
  status_missing,
  status_value,
  document_type_missing,
  document_type_value,
  customer_id_missing,
  invoice_date_missing,
  invoice_date_format,
  invoice_date_after_business_date,
  due_date_format,
  due_date_before_invoice_date,
  currency_missing,
  currency_unknown,
  net_amount_missing,
  net_amount_format,
  net_amount_precision,
  tax_amount_missing,
  tax_amount_format,
  tax_amount_precision,
  gross_amount_missing,
  gross_amount_format,
  gross_amount_precision,
  amounts_sum,
  gross_amount_sign,
};
inline constexpr std::size_t rule_count = 27;

/// "invoice_number.missing", ... (sql/ERRCODES.md).
std::string_view code_of(Rule r) noexcept;
Rule rule_at(std::size_t index) noexcept; ///< index < rule_count

/// Failed rules, bit k = the loader's Rule k (not the database's bits).
using RuleSet = std::uint32_t;
constexpr RuleSet bit_of(Rule r) noexcept
{
  return RuleSet{1} << static_cast<unsigned>(r);
}

/// The database's bit for each rule (ingest.field_rule), by rule code.
class RuleBits
{
public:
  /// Throws LoaderError{config} naming the first rule the table lacks, a
  /// bit outside 0-31, or a bit two rules share.  Rules the loader does
  /// not decide are ignored.
  explicit RuleBits(std::vector<std::pair<std::string, int>> const &table);
  /// The database's mask (the value of staging.invoice_valid.rules).
  std::int32_t mask_of(RuleSet failed) const noexcept;

private:
  std::array<std::uint32_t, rule_count> m_bit{};
};

/// ingest.currency: code -> minor unit (decimals an amount may carry).
class Currencies
{
public:
  explicit Currencies(std::vector<std::pair<std::string, int>> const &table);
  /// The minor unit of code, or -1 when the code is not known.
  int minor_unit(std::string_view code) const;

private:
  std::unordered_map<std::string, int> m_units;
};

/// The contract's twelve columns (header_map's invoice_columns() order).
namespace col
{
enum : std::size_t
{
  invoice_number,
  revision,
  status,
  document_type,
  customer_id,
  invoice_date,
  due_date,
  currency,
  net_amount,
  tax_amount,
  gross_amount,
  description,
  count
};
} // namespace col
using RecordFields = std::array<Field, col::count>;

// The values the rules read (record_values.cpp).

/// A plain decimal as the contract writes amounts (ingest.is_plain_decimal):
/// -?digits[.digits], at most 18 integer digits.
struct Decimal
{
  bool readable = false;
  bool negative = false;     ///< a minus was written (-0.00 included)
  std::string_view whole;    ///< the integer digits, as written
  std::string_view fraction; ///< the digits after '.', as written
};
Decimal parse_decimal(std::string_view text) noexcept;
/// Every digit 0 (-0.00 included).
bool is_zero(Decimal const &d) noexcept;
/// a + b == c, exactly (any scales); all three readable.
bool sum_holds(Decimal const &a, Decimal const &b, Decimal const &c) noexcept;
/// round(x::numeric, minor_unit)::text for a readable x with at most
/// minor_unit decimals: no leading zeros, exactly minor_unit decimals, no
/// minus on zero.
void canonical_amount(Decimal const &d, int minor_unit, std::string &out);
/// ingest.is_iso_date: a real calendar date written YYYY-MM-DD, year
/// 0001-9999.
bool is_iso_date(std::string_view text) noexcept;

/// What the rules decided about one record.
struct Verdict
{
  RuleSet failed = 0;
  // Readable values (set whether or not other rules failed):
  bool revision_ok = false;     ///< passes revision's rules
  bool invoice_date_ok = false; ///< a real date
  bool due_date_ok = false;     ///< a real date
  Decimal net, tax, gross;
  std::string revision; ///< canonical (no leading zeros) when revision_ok
  int minor_unit = -1;  ///< the currency's, -1 when missing or not known
  // Only when failed == 0: the canonical amounts and the content hash v2.
  std::string net_text, tax_text, gross_text;
  std::array<unsigned char, 32> content_hash{};
};

/// The content hash v2 (ingest.content_hash computes the same): SHA-256 of
/// "<byte length>:<bytes>" per non-NULL value and "-" per NULL, for status,
/// document_type, customer_id, invoice_date, due_date, currency,
/// net_amount, tax_amount, gross_amount, description in that order.
/// values holds those ten, nullptr meaning NULL; scratch is reused.
std::array<unsigned char, 32> content_hash(
  std::array<std::string_view const *, 10> const &values,
  std::string &scratch);

/// Decides every field rule of one record.  Holds the business date and
/// the currencies; reuses its buffers from record to record.
class RecordChecker
{
public:
  /// business_date: YYYY-MM-DD.
  RecordChecker(Currencies const &currencies, std::string business_date);
  /// Fills out (its strings keep their capacity from call to call).
  /// unreadable: the format rules of values a source's format could not
  /// read (io/format_read.hpp); they fail, whatever their text.
  void check(RecordFields const &f, Verdict &out, RuleSet unreadable = 0);

private:
  int check_currency(RecordFields const &f, RuleSet &failed);
  void canonicalize(RecordFields const &f, Verdict &out);

  Currencies const &m_currencies;
  std::string m_business_date;
  std::string m_scratch;
  std::string m_last_code; ///< one-entry cache: most files have one currency
  int m_last_unit = -1;
};
} // namespace loader::io
