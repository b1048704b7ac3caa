#pragma once
// One COPY row per record for staging.invoice_valid, text format (tab
// between values, \N for NULL, LF at the end): the typed canonical values
// of a record that passes every field rule, or the failed rules with the
// readable values and the twelve raw fields of one that does not.
#include <cstdint>
#include <string>
#include <string_view>

#include "io/record_rules.hpp"

namespace loader::io
{
/// The COPY statement the rows are written for (the column order of
/// append_typed_row).
inline constexpr std::string_view typed_copy_statement{
  "copy staging.invoice_valid (batch_id, record_no, rules, invoice_number, "
  "revision, status, document_type, customer_id, invoice_date, due_date, "
  "currency, net_amount, tax_amount, gross_amount, description, "
  "content_hash, raw_invoice_number, raw_revision, raw_status, "
  "raw_document_type, raw_customer_id, raw_invoice_date, raw_due_date, "
  "raw_currency, raw_net_amount, raw_tax_amount, raw_gross_amount, "
  "raw_description) from stdin"};

/// value, escaped for COPY text: backslash, tab, LF and CR as \\ \t \n \r.
void append_copy_text(std::string &out, std::string_view value);

/// Appends the row of one record, LF included.  batch_id is written as
/// given (decimal digits).
///  - passed (v.failed == 0): rules 0, the canonical values (revision
///    without leading zeros, amounts at the currency's minor unit, empty
///    due_date and description NULL), the content hash as \\x + hex, raw_*
///    NULL;
///  - failed: the database's mask of the failed rules, the fields as COPY
///    CSV stores them (NULL for unquoted empty), revision, dates and
///    amounts only where readable (else NULL), no hash, and raw_* = the
///    twelve fields as COPY CSV stores them.
void append_typed_row(std::string &out, std::string_view batch_id,
                      std::uint64_t record_no, RecordFields const &f,
                      Verdict const &v, RuleBits const &bits);
} // namespace loader::io
