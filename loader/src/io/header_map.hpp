#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace loader::io
{
/// The contract's columns (CONTRACT.md section 2), canonical order.
struct ColumnSpec
{
  std::string_view name;
  bool required;
};
std::vector<ColumnSpec> const &invoice_columns();

/// Up to this many unknown columns are kept (extra_1..extra_N) when the
/// source allows unknown columns.
inline constexpr std::size_t max_extra_columns = 16;

/// How a file's header maps onto staging.invoice_line, by name.
struct HeaderMapping
{
  /// One staging column per file position, in file order: a contract
  /// column name, or extra_N for an allowed unknown column.
  std::vector<std::string> copy_columns;
  std::vector<std::string> missing_required; ///< canonical order
  std::vector<std::string> unknown;          ///< file order
  std::vector<std::string> duplicated;       ///< file order, once each
  bool too_many_unknown = false;

  /// True when the file can be staged.
  bool ok() const noexcept;
  /// The rule code of the first problem ("header.missing_column", ...).
  std::string rule() const;
  /// One sentence naming every problem, e.g. "missing required column
  /// gross_amount".
  std::string detail() const;
};

/// Names are matched exactly (case-sensitive, no trimming).
HeaderMapping map_header(std::vector<std::string> const &names,
                         bool allow_unknown_columns);
} // namespace loader::io
