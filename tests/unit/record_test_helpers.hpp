#pragma once
// Shared by the record_rules unit tests: a good record to vary, the
// corpus's currencies, and the verdict as rule codes.
#include <catch2/catch.hpp>

#include <array>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "io/record_rules.hpp"

namespace record_test
{
using namespace loader::io;
using Codes = std::set<std::string>;

/// The record's fields; "<NULL>" stands for an unquoted empty field.
struct Record
{
  std::vector<std::string> values{
    "INV-1",      "0",   "ISSUED", "INVOICE", "C-001",  "2026-11-20",
    "2026-12-20", "EUR", "100.00", "19.00",   "119.00", "Consulting"};

  Record &set(std::size_t column, std::string value)
  {
    values[column] = std::move(value);
    return *this;
  }

  RecordFields fields() const
  {
    RecordFields f{};
    for (std::size_t k = 0; k < col::count; ++k)
      if (values[k] != "<NULL>") f[k] = Field{values[k], false};
    return f;
  }
};

inline Currencies const &currencies()
{
  static Currencies const c{{{"EUR", 2}, {"JPY", 0}, {"KWD", 3}, {"CLF", 4}}};
  return c;
}

inline Codes codes(RuleSet failed)
{
  Codes out;
  for (std::size_t k = 0; k < rule_count; ++k)
    if ((failed & bit_of(rule_at(k))) != 0) out.emplace(code_of(rule_at(k)));
  return out;
}

inline Verdict check(Record const &r)
{
  RecordChecker checker{currencies(), "2026-11-28"};
  Verdict v;
  checker.check(r.fields(), v);
  return v;
}

inline Codes failed(Record const &r)
{
  return codes(check(r).failed);
}

inline std::string hex(std::array<unsigned char, 32> const &h)
{
  static char const digits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char b : h)
  {
    out.push_back(digits[b >> 4]);
    out.push_back(digits[b & 0x0f]);
  }
  return out;
}

inline std::string canonical(std::string const &text, int minor_unit)
{
  std::string out;
  canonical_amount(parse_decimal(text), minor_unit, out);
  return out;
}

inline bool sum(std::string const &a, std::string const &b,
                std::string const &c)
{
  return sum_holds(parse_decimal(a), parse_decimal(b), parse_decimal(c));
}
} // namespace record_test
