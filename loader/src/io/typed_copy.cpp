#include "io/typed_copy.hpp"

#include <array>
#include <charconv>

namespace loader::io
{
namespace
{
/// The bytes COPY text reads specially, and what stands for each.
constexpr std::array<char, 256> make_escapes()
{
  std::array<char, 256> t{};
  t[std::size_t{'\\'}] = '\\';
  t[std::size_t{'\t'}] = 't';
  t[std::size_t{'\n'}] = 'n';
  t[std::size_t{'\r'}] = 'r';
  return t;
}
constexpr std::array<char, 256> escapes = make_escapes();

constexpr std::string_view null_value{"\\N"};

/// n in decimal (std::to_chars: no locale, no allocation).
template<typename Int> void append_number(std::string &out, Int n)
{
  std::array<char, 24> digits{};
  char *const end = digits.data() + digits.size();
  out.append(digits.data(), std::to_chars(digits.data(), end, n).ptr);
}

/// A field as COPY CSV stores it: NULL for an unquoted empty field.
void append_field(std::string &out, Field const &f)
{
  if (f.null) out.append(null_value);
  else append_copy_text(out, f.text);
}

/// A value that is NULL when empty (quoted or not).
void append_or_null(std::string &out, std::string_view text)
{
  if (text.empty()) out.append(null_value);
  else append_copy_text(out, text);
}

void append_hex(std::string &out, std::array<unsigned char, 32> const &h)
{
  static char const hex[] = "0123456789abcdef";
  out.append("\\\\x"); // \x, its backslash doubled for COPY text
  for (unsigned char const b : h)
  {
    out.push_back(hex[b >> 4]);
    out.push_back(hex[b & 0x0f]);
  }
}
} // namespace

void append_copy_text(std::string &out, std::string_view value)
{
  std::size_t done = 0;
  for (std::size_t k = 0; k < value.size(); ++k)
  {
    char const e = escapes[static_cast<unsigned char>(value[k])];
    if (e == 0) continue;
    out.append(value.data() + done, k - done);
    out.push_back('\\');
    out.push_back(e);
    done = k + 1;
  }
  out.append(value.data() + done, value.size() - done);
}

void append_typed_row(std::string &out, std::string_view batch_id,
                      std::uint64_t record_no, RecordFields const &f,
                      Verdict const &v, RuleBits const &bits)
{
  out.append(batch_id);
  out.push_back('\t');
  append_number(out, record_no);
  out.push_back('\t');
  bool const passed = v.failed == 0;
  append_number(out, passed ? 0 : bits.mask_of(v.failed));
  out.push_back('\t');

  auto const tab = [&out] { out.push_back('\t'); };
  append_field(out, f[col::invoice_number]);
  tab();
  if (v.revision_ok) out.append(v.revision);
  else out.append(null_value);
  tab();
  append_field(out, f[col::status]);
  tab();
  append_field(out, f[col::document_type]);
  tab();
  append_field(out, f[col::customer_id]);
  tab();
  // A real date is ten ASCII characters: nothing to escape.
  if (v.invoice_date_ok) out.append(f[col::invoice_date].text);
  else out.append(null_value);
  tab();
  if (v.due_date_ok) out.append(f[col::due_date].text);
  else out.append(null_value);
  tab();
  append_field(out, f[col::currency]);
  tab();

  if (passed)
  {
    out.append(v.net_text);
    tab();
    out.append(v.tax_text);
    tab();
    out.append(v.gross_text);
    tab();
    append_or_null(out, f[col::description].text);
    tab();
    append_hex(out, v.content_hash);
    for (std::size_t k = 0; k < col::count; ++k)
    {
      tab();
      out.append(null_value);
    }
    out.push_back('\n');
    return;
  }

  // A readable amount is -?digits[.digits]: nothing to escape either.
  for (std::size_t c : {std::size_t{col::net_amount},
                        std::size_t{col::tax_amount},
                        std::size_t{col::gross_amount}})
  {
    Decimal const &d = c == col::net_amount   ? v.net
                       : c == col::tax_amount ? v.tax
                                              : v.gross;
    if (d.readable) out.append(f[c].text);
    else out.append(null_value);
    tab();
  }
  append_field(out, f[col::description]);
  tab();
  out.append(null_value); // no content hash
  for (std::size_t k = 0; k < col::count; ++k)
  {
    tab();
    append_field(out, f[k]);
  }
  out.push_back('\n');
}
} // namespace loader::io
