#pragma once
// One COPY row per record for staging.invoice_valid, in PostgreSQL's
// binary COPY format (io/copy_binary): the typed canonical values of a
// record that passes every field rule, or the failed rules with the
// readable values and the twelve fields as in the file of one that does
// not.  Binary rather than text: the server takes each value without
// parsing it (a million rows COPYed from a file: 1.0 s of server time
// instead of 1.5; a million-record load, received -> staged: 1.45 s
// instead of 1.78, medians of nine alternating runs).
#include <cstdint>
#include <string>
#include <string_view>

#include "io/record_rules.hpp"

namespace loader::io
{
/// The COPY statement the rows are written for (the column order of
/// append_typed_row), into table: a qualified name as the database gave it
/// (ingest.typed_staging), put in as it is.
inline std::string typed_copy_statement(std::string_view table)
{
  std::string s{"copy "};
  s.append(table);
  s.append(" (batch_id, record_no, rules, invoice_number, revision, status, "
           "document_type, customer_id, invoice_date, due_date, currency, "
           "net_amount, tax_amount, gross_amount, description, content_hash, "
           "raw_fields, format_note, extra) from stdin (format binary)");
  return s;
}

/// The columns of typed_copy_statement: the field count of every row.
inline constexpr std::int16_t typed_copy_columns = 19;

/// Before the first row and after the last (copy_binary's header and
/// trailer): a stream of no rows is the two alone.
void append_typed_header(std::string &out);
void append_typed_trailer(std::string &out);

/// Appends the row of one record.  Texts are sent as their bytes (UTF-8,
/// the loader's client_encoding), dates as days, amounts as numerics.
///  - passed (v.failed == 0): rules 0, the canonical values (revision as
///    an integer, amounts at the currency's minor unit, empty due_date and
///    description NULL), the content hash (32 bytes), raw_fields NULL;
///  - failed: the database's mask of the failed rules, the fields as COPY
///    CSV stores them (NULL for unquoted empty), revision, dates and
///    amounts only where readable (else NULL; an amount at the scale it
///    was written with), no hash, and raw_fields = the twelve fields as
///    COPY CSV stores them, in the contract's order (a text[]: one column,
///    not twelve, so that a passing record's row carries one NULL for
///    them; migrations/0026).
/// delivered: for a source whose format converts values, the fields as
/// delivered (raw_fields holds them instead of f) and note the sentence
/// saying what was read from them (format_note; NULL when empty or when
/// the record passed).  extra: the record's columns the contract does not
/// have, kept for a source that allows them, as a JSON object (empty:
/// NULL).
/// Throws LoaderError{data} for a record_no beyond staging's integer.
void append_typed_row(std::string &out, std::int64_t batch_id,
                      std::uint64_t record_no, RecordFields const &f,
                      Verdict const &v, RuleBits const &bits,
                      RecordFields const *delivered = nullptr,
                      std::string_view note = {}, std::string_view extra = {});
} // namespace loader::io
