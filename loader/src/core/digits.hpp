#pragma once
#include <string_view>

namespace loader
{
/// An ASCII digit, whatever the locale (std::isdigit is locale-bound).
constexpr bool is_digit(char c) noexcept
{
  return c >= '0' and c <= '9';
}

/// Digits only, at least one.
constexpr bool all_digits(std::string_view s) noexcept
{
  if (s.empty()) return false;
  for (char const c : s)
    if (not is_digit(c)) return false;
  return true;
}
} // namespace loader
