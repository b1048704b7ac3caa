#pragma once
#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace loader::io
{
/// The contract's columns (docs/reference/input-file.md), canonical order.
struct ColumnSpec
{
  std::string_view name;
  bool required;
};
std::vector<ColumnSpec> const &invoice_columns();

/// The position of a contract column the file does not have.
inline constexpr std::size_t absent_column = static_cast<std::size_t>(-1);

/// How a file's header maps onto the contract's columns, by name.  Only
/// the contract's columns are validated: an unknown column a source allows
/// travels with each record as its extra JSON (HeaderMapping::extra).
struct HeaderMapping
{
  /// For each contract column (invoice_columns() order), its field
  /// position in the file's records, or absent_column.
  std::array<std::size_t, 12> position{};
  /// The contract columns the file has, in file order (recorded with the
  /// batch).
  std::vector<std::string> columns;
  std::vector<std::string> missing_required; ///< canonical order
  std::vector<std::string> unknown;          ///< file order
  std::vector<std::string> duplicated;       ///< file order, once each
  /// With unknown columns allowed: each unknown column's position and
  /// name, in file order (kept with the version as its extra JSON).
  std::vector<std::pair<std::size_t, std::string>> extra;

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

struct FileFormat;
/// As a source's format reads the file: a delivered name its columns map
/// renames is read as that contract column (other names as they are);
/// without a header, the names are the positions ("1", "2", ...) and
/// columns lists the contract column at each.  A required column the
/// file lacks but the format gives a default is not missing.
HeaderMapping map_header(std::vector<std::string> const &names,
                         bool allow_unknown_columns, FileFormat const &format);
} // namespace loader::io
