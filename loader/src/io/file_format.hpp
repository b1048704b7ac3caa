#pragma once
// A source's file format (`source add --format-file F`): how the bytes of
// its deliveries turn into the contract's values.  Declared, never
// guessed: every key has one meaning and a value outside its set is
// refused when the format is stored, not when a night's file arrives.
// The keys and their defaults are docs/reference/file-format.md's; the
// defaults are the contract's own file (docs/reference/input-file.md).
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace loader::io
{
/// The encodings a delivery may be declared in.
enum class Encoding
{
  utf8,
  windows_1252,
  iso_8859_1,
  iso_8859_15,
};
/// "UTF-8", "windows-1252", ... as the format file and messages write it.
std::string_view name_of(Encoding e) noexcept;

/// The date forms a delivery may be declared to write.
enum class DateForm
{
  iso,         ///< YYYY-MM-DD
  dotted,      ///< DD.MM.YYYY
  day_first,   ///< DD/MM/YYYY
  month_first, ///< MM/DD/YYYY
  compact,     ///< YYYYMMDD
};
std::string_view name_of(DateForm f) noexcept;

/// Delivered value -> the contract's value (looked up by string_view).
using ValueMap = std::map<std::string, std::string, std::less<>>;

struct FileFormat
{
  char delimiter = ',';
  char quote = '"';
  bool header = true;
  Encoding encoding = Encoding::utf8;
  char decimal_separator = '.';
  /// The digit grouping an amount may use ('\0': none).
  char group_separator = '\0';
  DateForm date_format = DateForm::iso;
  /// header true: delivered name -> contract column (names not listed are
  /// read as they are).  Sorted by delivered name.
  std::map<std::string, std::string> renames;
  /// header false: the contract column at each position ("" = a column
  /// that is read past).
  std::vector<std::string> positions;
  /// Contract column -> its value when the file lacks the column.
  std::map<std::string, std::string> defaults;
  /// Contract column (status, document_type, currency) -> delivered value
  /// -> the contract's value.
  std::map<std::string, ValueMap> values;
  /// A compressed delivery may decompress to at most this many times its
  /// size (and never past 10 GiB); a source's --max-decompressed-bytes
  /// wins.
  std::uint32_t max_expansion = 20;

  /// The contract's own format: nothing to convert.
  bool is_default() const;
  /// Values need converting record by record (decimals, dates, maps,
  /// defaults): the reader's work, beyond the scanner's.
  bool converts_values() const;
};

/// Reads a format file's JSON.  Throws LoaderError{config} naming the key
/// and what it may be: an unknown key, a value outside its set, a column
/// mapped that the contract does not have or mapped twice, a decimal
/// separator equal to the delimiter or to the group separator, a default
/// for a column the file also delivers by position.
FileFormat parse_format(std::string_view json_text);

/// The format as stored: every key, in a fixed order, so that two files
/// meaning the same store the same text (and make the same version).
std::string format_json(FileFormat const &f);

/// One line for status: "delimiter ;, windows-1252, decimal 1.234,56,
/// dates DD.MM.YYYY, 9 columns renamed, 1 default, 2 value maps".
std::string describe(FileFormat const &f);
} // namespace loader::io
