#pragma once
// A delivered record read as its source's format declares: the contract's
// columns from the file's (renamed, by position or a default), coded values
// through the value maps, amounts and dates from the declared forms into
// the contract's (1234.56, YYYY-MM-DD).  A value not of the declared form
// is not reinterpreted: it stays as delivered and its column's format rule
// fails.  Written by hand because the forms are the format file's own
// small set (docs/reference/file-format.md), matched exactly; no locale
// parser is that strict.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "io/csv_fields.hpp"
#include "io/file_format.hpp"
#include "io/header_map.hpp"
#include "io/record_rules.hpp"

namespace loader::io
{
/// What reading one record found besides its values.
struct RecordRead
{
  /// Columns whose value is not of the declared form (their format rules).
  RuleSet unreadable = 0;
  /// Each contract column's value as delivered (before the format).
  RecordFields delivered{};
};

class FormatReader
{
public:
  /// mapping: where each contract column is in the file's records.
  FormatReader(FileFormat const &format, HeaderMapping const &mapping);

  /// The contract's values of one record (fields in file order) into out;
  /// views into fields or into the reader (valid until the next read()).
  void read(std::vector<Field> const &fields, RecordFields &out,
            RecordRead &info);

  /// One sentence, for a rejected record's detail: for each column of a
  /// failed rule, its value as delivered and as read ("invoice_date
  /// \"31.11.2026\" read as \"2026-11-31\""), not of the declared form, or
  /// not in the format's value map.  Empty when no such column was
  /// converted.
  std::string note(RecordFields const &read, RecordRead const &info,
                   RuleSet failed) const;

private:
  bool read_amount(std::string_view text, std::string &out) const;
  bool read_date(std::string_view text, std::string &out) const;

  FileFormat const &m_format;
  HeaderMapping const &m_mapping;
  /// Defaults by contract column (absent from the file), else empty.
  std::array<std::string, col::count> m_default{};
  std::array<bool, col::count> m_has_default{};
  /// Value maps by contract column (status, document_type, currency).
  std::array<ValueMap const *, col::count> m_values{};
  std::array<std::string, col::count> m_buffer{}; ///< converted values
};

/// The contract columns a rule judges: bit k for column k (col::).
std::uint32_t columns_of(Rule r);

/// The contract columns a format gives a value to when the file lacks
/// them (its defaults), for the batch's record: "revision=0".
std::vector<std::string> defaults_used(FileFormat const &format,
                                       HeaderMapping const &mapping);
} // namespace loader::io
