#include "io/typed_copy.hpp"

#include <charconv>
#include <limits>

#include "core/errors.hpp"
#include "io/copy_binary.hpp"

namespace loader::io
{
namespace
{
using copy_binary::Writer;

/// A field as COPY CSV stores it: NULL for an unquoted empty field.
void put_field(Writer &w, Field const &f)
{
  if (f.null)
    w.null();
  else
    w.bytes(f.text);
}

/// A value that is NULL when empty (quoted or not).
void put_or_null(Writer &w, std::string_view text)
{
  if (text.empty())
    w.null();
  else
    w.bytes(text);
}

/// The extra columns' JSON object, or NULL.
void put_extra(Writer &w, std::string_view extra)
{
  if (extra.empty())
    w.null();
  else
    w.jsonb(extra);
}

/// A real YYYY-MM-DD date, or NULL.
void put_date(Writer &w, bool ok, std::string_view text)
{
  if (ok)
    w.date(text);
  else
    w.null();
}

/// A readable amount at dscale, or NULL.
void put_amount(Writer &w, Decimal const &d, std::size_t dscale)
{
  if (d.readable)
    w.numeric(d.negative, d.whole, d.fraction, dscale);
  else
    w.null();
}

/// The canonical revision: at most 9 digits (record_rules), an integer.
std::int32_t revision_of(std::string const &digits) noexcept
{
  std::int32_t n = 0;
  std::from_chars(digits.data(), digits.data() + digits.size(), n);
  return n;
}

/// Room for a row: its fixed part and the fields' texts, twice for a
/// failing record (typed, and raw in the array, whose header and lengths
/// the fixed part covers).
std::size_t size_hint(RecordFields const &f, bool passed) noexcept
{
  std::size_t texts = 0;
  for (Field const &field : f) texts += field.text.size();
  return 340 + (passed ? texts : 3 * texts);
}
} // namespace

void append_typed_header(std::string &out)
{
  Writer{out}.header();
}

void append_typed_trailer(std::string &out)
{
  Writer{out}.trailer();
}

void append_typed_row(std::string &out, std::int64_t batch_id,
                      std::uint64_t record_no, RecordFields const &f,
                      Verdict const &v, RuleBits const &bits,
                      RecordFields const *delivered, std::string_view note,
                      std::string_view extra)
{
  if (record_no > std::numeric_limits<std::int32_t>::max())
    throw LoaderError{ErrorKind::data,
                      "batch " + std::to_string(batch_id) + " record " +
                        std::to_string(record_no) +
                        ": more records than staging.invoice_valid."
                        "record_no (integer) can number"};
  bool const passed = v.failed == 0;
  Writer w{out, size_hint(f, passed)};
  w.field_count(typed_copy_columns);
  w.int8(batch_id);
  w.int4(static_cast<std::int32_t>(record_no));
  w.int4(passed ? 0 : bits.mask_of(v.failed));

  put_field(w, f[col::invoice_number]);
  if (v.revision_ok)
    w.int4(revision_of(v.revision));
  else
    w.null();
  put_field(w, f[col::status]);
  put_field(w, f[col::document_type]);
  put_field(w, f[col::customer_id]);
  put_date(w, v.invoice_date_ok, f[col::invoice_date].text);
  put_date(w, v.due_date_ok, f[col::due_date].text);
  put_field(w, f[col::currency]);

  if (passed)
  {
    // At the currency's minor unit, which no amount that passes exceeds.
    auto const unit = static_cast<std::size_t>(v.minor_unit);
    put_amount(w, v.net, unit);
    put_amount(w, v.tax, unit);
    put_amount(w, v.gross, unit);
    put_or_null(w, f[col::description].text);
    w.bytes(
      std::string_view{reinterpret_cast<char const *>(v.content_hash.data()),
                       v.content_hash.size()});
    w.null(); // no raw fields
    w.null(); // no note
    put_extra(w, extra);
    return;
  }

  // A readable amount at the scale it was written with (as the text
  // numeric_in reads).
  for (Decimal const *d : {&v.net, &v.tax, &v.gross})
    put_amount(w, *d, d->fraction.size());
  put_field(w, f[col::description]);
  w.null(); // no content hash
  RecordFields const &raw = delivered ? *delivered : f;
  w.text_array(raw.data(), raw.size());
  put_or_null(w, note);
  put_extra(w, extra);
}
} // namespace loader::io
