#pragma once
// One raw CSV record (as the scanner emitted it: already checked for
// quoting, field count, UTF-8 and NUL bytes) split into its fields, each
// with what PostgreSQL's COPY (format csv) would have stored for it.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace loader::io
{
/// One field of a record.  COPY CSV semantics: an unquoted empty field is
/// NULL, a quoted empty one ("") is the empty string; quotes are removed
/// and doubled quotes undone; nothing else (spaces, backslashes) is
/// touched.
struct Field
{
  std::string_view text; ///< the value (empty for NULL)
  bool null = true;

  /// NULL or '': "missing" for the field rules.
  bool empty() const noexcept { return text.empty(); }
};

/// Splits records into fields, reusing its buffers from record to record
/// (no allocation per record once they have grown).  The views it returns
/// point into the record or into the splitter: valid until the next
/// split() call and while the record lives.
class FieldSplitter
{
public:
  /// The delimiter and quote the scanner checked the records with.
  explicit FieldSplitter(char delimiter = ',', char quote = '"') :
          m_delimiter{delimiter}, m_quote{quote}
  {}

  /// The fields of raw, in file order.  Tolerant of any input (a record
  /// the scanner did not check is split somehow, never read out of
  /// bounds): a quote that does not close ends the last field.
  std::vector<Field> const &split(std::string_view raw);

private:
  char m_delimiter;
  char m_quote;
  std::vector<Field> m_fields;
  std::string m_unquoted; ///< fields that held doubled quotes, undone
};
} // namespace loader::io
