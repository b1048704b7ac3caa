#include "io/typed_copy.hpp"

#include <charconv>
#include <limits>

#include "core/errors.hpp"
#include "io/copy_binary.hpp"

namespace loader::io
{
namespace cb = copy_binary;

namespace
{
/// A field as COPY CSV stores it: NULL for an unquoted empty field.
void append_field(std::string &out, Field const &f)
{
  if (f.null) cb::append_null(out);
  else cb::append_bytes(out, f.text);
}

/// A value that is NULL when empty (quoted or not).
void append_or_null(std::string &out, std::string_view text)
{
  if (text.empty()) cb::append_null(out);
  else cb::append_bytes(out, text);
}

/// A real YYYY-MM-DD date, or NULL.
void append_date_or_null(std::string &out, bool ok, std::string_view text)
{
  if (ok) cb::append_date(out, text);
  else cb::append_null(out);
}

/// A readable amount at dscale, or NULL.
void append_amount(std::string &out, Decimal const &d, std::size_t dscale)
{
  if (d.readable)
    cb::append_numeric(out, d.negative, d.whole, d.fraction, dscale);
  else cb::append_null(out);
}

/// The canonical revision: at most 9 digits (record_rules), an integer.
std::int32_t revision_of(std::string const &digits) noexcept
{
  std::int32_t n = 0;
  std::from_chars(digits.data(), digits.data() + digits.size(), n);
  return n;
}
} // namespace

void append_typed_header(std::string &out) { cb::append_header(out); }

void append_typed_trailer(std::string &out) { cb::append_trailer(out); }

void append_typed_row(std::string &out, std::int64_t batch_id,
                      std::uint64_t record_no, RecordFields const &f,
                      Verdict const &v, RuleBits const &bits)
{
  if (record_no > std::numeric_limits<std::int32_t>::max())
    throw LoaderError{ErrorKind::data,
                      "batch " + std::to_string(batch_id) + " record " +
                        std::to_string(record_no) +
                        ": more records than staging.invoice_valid."
                        "record_no (integer) can number"};
  bool const passed = v.failed == 0;
  cb::append_field_count(out, typed_copy_columns);
  cb::append_int8(out, batch_id);
  cb::append_int4(out, static_cast<std::int32_t>(record_no));
  cb::append_int4(out, passed ? 0 : bits.mask_of(v.failed));

  append_field(out, f[col::invoice_number]);
  if (v.revision_ok) cb::append_int4(out, revision_of(v.revision));
  else cb::append_null(out);
  append_field(out, f[col::status]);
  append_field(out, f[col::document_type]);
  append_field(out, f[col::customer_id]);
  append_date_or_null(out, v.invoice_date_ok, f[col::invoice_date].text);
  append_date_or_null(out, v.due_date_ok, f[col::due_date].text);
  append_field(out, f[col::currency]);

  if (passed)
  {
    // At the currency's minor unit, which no amount that passes exceeds.
    auto const unit = static_cast<std::size_t>(v.minor_unit);
    append_amount(out, v.net, unit);
    append_amount(out, v.tax, unit);
    append_amount(out, v.gross, unit);
    append_or_null(out, f[col::description].text);
    cb::append_bytes(
      out, std::string_view{reinterpret_cast<char const *>(
                              v.content_hash.data()),
                            v.content_hash.size()});
    for (std::size_t k = 0; k < col::count; ++k) cb::append_null(out);
    return;
  }

  // A readable amount at the scale it was written with (as the text
  // numeric_in reads).
  for (Decimal const *d : {&v.net, &v.tax, &v.gross})
    append_amount(out, *d, d->fraction.size());
  append_field(out, f[col::description]);
  cb::append_null(out); // no content hash
  for (std::size_t k = 0; k < col::count; ++k) append_field(out, f[k]);
}
} // namespace loader::io
