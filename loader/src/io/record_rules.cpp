#include "io/record_rules.hpp"

#include <algorithm>
#include <charconv>

#include <openssl/evp.h>

#include "core/errors.hpp"

namespace loader::io
{
namespace
{
constexpr std::array<std::string_view, rule_count> codes{
  "invoice_number.missing",
  "invoice_number.format",
  "revision.missing",
  "revision.format",
  "status.missing",
  "status.value",
  "document_type.missing",
  "document_type.value",
  "customer_id.missing",
  "invoice_date.missing",
  "invoice_date.format",
  "invoice_date.after_business_date",
  "due_date.format",
  "due_date.before_invoice_date",
  "currency.missing",
  "currency.unknown",
  "net_amount.missing",
  "net_amount.format",
  "net_amount.precision",
  "tax_amount.missing",
  "tax_amount.format",
  "tax_amount.precision",
  "gross_amount.missing",
  "gross_amount.format",
  "gross_amount.precision",
  "amounts.sum",
  "gross_amount.sign",
};

/// Longest invoice number and revision (failing_records.sql's lengths).
constexpr std::size_t max_invoice_number = 64;
constexpr std::size_t max_revision_digits = 9;
constexpr std::size_t max_whole_digits = 18;

constexpr bool is_digit(char c) noexcept { return c >= '0' and c <= '9'; }

bool all_digits(std::string_view s) noexcept
{
  for (char const c : s)
    if (not is_digit(c)) return false;
  return true;
}

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

int two_digits(std::string_view s, std::size_t at) noexcept
{
  return (s[at] - '0') * 10 + (s[at + 1] - '0');
}

bool is_zero(Decimal const &d) noexcept
{
  for (char const c : d.whole)
    if (c != '0') return false;
  for (char const c : d.fraction)
    if (c != '0') return false;
  return true;
}

/// The digit of d at decimal position p (0 = units, -1 = tenths, ...).
int digit_at(Decimal const &d, long p) noexcept
{
  if (p >= 0)
  {
    auto const back = static_cast<std::size_t>(p);
    if (back >= d.whole.size()) return 0;
    return d.whole[d.whole.size() - 1 - back] - '0';
  }
  auto const k = static_cast<std::size_t>(-p - 1);
  return k < d.fraction.size() ? d.fraction[k] - '0' : 0;
}

void append_hashed(std::string &out, std::string_view const *value)
{
  if (value == nullptr)
  {
    out.push_back('-');
    return;
  }
  std::array<char, 24> digits{};
  char *const end = digits.data() + digits.size();
  out.append(digits.data(),
             std::to_chars(digits.data(), end, value->size()).ptr);
  out.push_back(':');
  out.append(*value);
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
                        "the database's ingest.field_rule gives rule " +
                          code + " bit " + std::to_string(bit) +
                          ", outside 0-31" + fix};
    std::uint32_t const mask = std::uint32_t{1} << static_cast<unsigned>(bit);
    if ((used & mask) != 0)
      throw LoaderError{ErrorKind::config,
                        "the database's ingest.field_rule gives rule " +
                          code + " bit " + std::to_string(bit) +
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

Decimal parse_decimal(std::string_view text) noexcept
{
  Decimal d;
  std::size_t k = 0;
  if (k < text.size() and text[k] == '-')
  {
    d.negative = true;
    ++k;
  }
  std::size_t const whole_start = k;
  while (k < text.size() and is_digit(text[k])) ++k;
  d.whole = text.substr(whole_start, k - whole_start);
  if (d.whole.empty() or d.whole.size() > max_whole_digits) return {};
  if (k < text.size())
  {
    if (text[k] != '.') return {};
    d.fraction = text.substr(k + 1);
    if (d.fraction.empty() or not all_digits(d.fraction)) return {};
  }
  d.readable = true;
  return d;
}

bool sum_holds(Decimal const &a, Decimal const &b, Decimal const &c) noexcept
{
  // a + b - c == 0, one decimal position at a time from the smallest: the
  // total is zero exactly when every position leaves no remainder and no
  // carry is left at the top (no overflow whatever the scales).
  std::size_t const scale =
    std::max({a.fraction.size(), b.fraction.size(), c.fraction.size()});
  std::size_t const width =
    std::max({a.whole.size(), b.whole.size(), c.whole.size()});
  int const sa = a.negative ? -1 : 1;
  int const sb = b.negative ? -1 : 1;
  int const sc = c.negative ? -1 : 1;
  int carry = 0;
  for (long p = -static_cast<long>(scale); p < static_cast<long>(width); ++p)
  {
    int const t = carry + sa * digit_at(a, p) + sb * digit_at(b, p) -
                  sc * digit_at(c, p);
    if (t % 10 != 0) return false;
    carry = t / 10;
  }
  return carry == 0;
}

void canonical_amount(Decimal const &d, int minor_unit, std::string &out)
{
  out.clear();
  std::size_t lead = 0;
  while (lead + 1 < d.whole.size() and d.whole[lead] == '0') ++lead;
  if (d.negative and not is_zero(d)) out.push_back('-');
  out.append(d.whole.substr(lead));
  if (minor_unit <= 0 and d.fraction.empty()) return;
  out.push_back('.');
  out.append(d.fraction);
  auto const unit = static_cast<std::size_t>(minor_unit < 0 ? 0 : minor_unit);
  if (d.fraction.size() < unit) out.append(unit - d.fraction.size(), '0');
}

bool is_iso_date(std::string_view p) noexcept
{
  if (p.size() != 10 or p[4] != '-' or p[7] != '-') return false;
  for (std::size_t k : {0u, 1u, 2u, 3u, 5u, 6u, 8u, 9u})
    if (not is_digit(p[k])) return false;
  int const year = two_digits(p, 0) * 100 + two_digits(p, 2);
  int const month = two_digits(p, 5);
  int const day = two_digits(p, 8);
  if (year == 0 or month < 1 or month > 12) return false;
  if (day >= 1 and day <= 28) return true;
  int days = 31;
  if (month == 4 or month == 6 or month == 9 or month == 11) days = 30;
  else if (month == 2)
    days = (year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)) ? 29 : 28;
  return day >= 1 and day <= days;
}

namespace
{
/// One SHA-256 per record: a context and an algorithm fetched once per
/// thread, reset for each digest.  (OpenSSL 3's one-shot SHA256() fetches
/// the algorithm, under a lock, on every call: a third of the pass.)
class RecordDigest
{
public:
  RecordDigest() :
          m_md{EVP_MD_fetch(nullptr, "SHA256", nullptr)},
          m_ctx{EVP_MD_CTX_new()}
  {}
  ~RecordDigest()
  {
    EVP_MD_CTX_free(m_ctx);
    EVP_MD_free(m_md);
  }
  RecordDigest(RecordDigest const &) = delete;
  RecordDigest &operator=(RecordDigest const &) = delete;

  std::array<unsigned char, 32> of(std::string const &bytes)
  {
    std::array<unsigned char, 32> digest{};
    unsigned int size = 0;
    if (m_md == nullptr or m_ctx == nullptr or
        EVP_DigestInit_ex2(m_ctx, m_md, nullptr) != 1 or
        EVP_DigestUpdate(m_ctx, bytes.data(), bytes.size()) != 1 or
        EVP_DigestFinal_ex(m_ctx, digest.data(), &size) != 1 or
        size != digest.size())
      throw LoaderError{ErrorKind::internal,
                        "SHA-256 of a record's content failed (OpenSSL)"};
    return digest;
  }

private:
  EVP_MD *m_md;
  EVP_MD_CTX *m_ctx;
};
} // namespace

std::array<unsigned char, 32> content_hash(
  std::array<std::string_view const *, 10> const &values,
  std::string &scratch)
{
  thread_local RecordDigest digest;
  scratch.clear();
  for (std::string_view const *v : values) append_hashed(scratch, v);
  return digest.of(scratch);
}

RecordChecker::RecordChecker(Currencies const &currencies,
                             std::string business_date) :
        m_currencies{currencies}, m_business_date{std::move(business_date)}
{}

void RecordChecker::check(RecordFields const &f, Verdict &out)
{
  RuleSet failed = 0;
  auto const fail = [&failed](Rule r) { failed |= bit_of(r); };

  std::string_view const inv{f[col::invoice_number].text};
  if (inv.empty()) fail(Rule::invoice_number_missing);
  else if (inv.size() > max_invoice_number or not invoice_number_chars(inv))
    fail(Rule::invoice_number_format);

  std::string_view const rev{f[col::revision].text};
  out.revision_ok = false;
  out.revision.clear();
  if (rev.empty()) fail(Rule::revision_missing);
  else if (rev.size() > max_revision_digits or not all_digits(rev))
    fail(Rule::revision_format);
  else
  {
    out.revision_ok = true;
    std::size_t lead = 0;
    while (lead + 1 < rev.size() and rev[lead] == '0') ++lead;
    out.revision.assign(rev.substr(lead));
  }

  std::string_view const status{f[col::status].text};
  if (status.empty()) fail(Rule::status_missing);
  else if (status != "ISSUED" and status != "VOID") fail(Rule::status_value);

  std::string_view const doc{f[col::document_type].text};
  bool const invoice = doc == "INVOICE";
  bool const credit_note = doc == "CREDIT_NOTE";
  if (doc.empty()) fail(Rule::document_type_missing);
  else if (not invoice and not credit_note) fail(Rule::document_type_value);

  if (f[col::customer_id].empty()) fail(Rule::customer_id_missing);

  std::string_view const idate{f[col::invoice_date].text};
  out.invoice_date_ok = false;
  if (idate.empty()) fail(Rule::invoice_date_missing);
  else if (not is_iso_date(idate)) fail(Rule::invoice_date_format);
  else
  {
    out.invoice_date_ok = true;
    // Both YYYY-MM-DD: the text order is the date order.
    if (idate > std::string_view{m_business_date})
      fail(Rule::invoice_date_after_business_date);
  }

  std::string_view const ddate{f[col::due_date].text};
  out.due_date_ok = false;
  if (not ddate.empty())
  {
    if (not is_iso_date(ddate)) fail(Rule::due_date_format);
    else
    {
      out.due_date_ok = true;
      if (out.invoice_date_ok and ddate < idate)
        fail(Rule::due_date_before_invoice_date);
    }
  }

  std::string_view const code{f[col::currency].text};
  int unit = -1;
  if (code.empty()) fail(Rule::currency_missing);
  else
  {
    if (code != m_last_code)
    {
      m_last_code.assign(code);
      m_last_unit = m_currencies.minor_unit(code);
    }
    unit = m_last_unit;
    if (unit < 0) fail(Rule::currency_unknown);
  }

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
    *a.value = parse_decimal(text);
    if (text.empty()) fail(a.missing);
    else if (not a.value->readable) fail(a.format);
    else if (unit >= 0 and
             a.value->fraction.size() > static_cast<std::size_t>(unit))
      fail(a.precision);
  }
  if (out.net.readable and out.tax.readable and out.gross.readable and
      not sum_holds(out.net, out.tax, out.gross))
    fail(Rule::amounts_sum);
  if (out.gross.readable and not is_zero(out.gross) and
      ((invoice and out.gross.negative) or
       (credit_note and not out.gross.negative)))
    fail(Rule::gross_amount_sign);

  out.failed = failed;
  if (failed != 0) return;

  canonical_amount(out.net, unit, out.net_text);
  canonical_amount(out.tax, unit, out.tax_text);
  canonical_amount(out.gross, unit, out.gross_text);
  std::string_view const net{out.net_text}, tax{out.tax_text},
    gross{out.gross_text};
  std::string_view const &desc = f[col::description].text;
  out.content_hash = content_hash(
    {&f[col::status].text, &f[col::document_type].text,
     &f[col::customer_id].text, &f[col::invoice_date].text,
     ddate.empty() ? nullptr : &ddate, &f[col::currency].text, &net, &tax,
     &gross, desc.empty() ? nullptr : &desc},
    m_scratch);
}
} // namespace loader::io
