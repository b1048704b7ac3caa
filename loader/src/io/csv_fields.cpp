#include "io/csv_fields.hpp"

#include <cstring>

namespace loader::io
{
std::vector<Field> const &FieldSplitter::split(std::string_view raw)
{
  m_fields.clear();
  m_unquoted.clear();
  // Room for every byte of the record: appends never reallocate, so the
  // views into m_unquoted stay valid while the record is split.
  if (m_unquoted.capacity() < raw.size()) m_unquoted.reserve(raw.size());

  char const *const data = raw.data();
  std::size_t const n = raw.size();
  std::size_t k = 0;
  for (;;)
  {
    Field f;
    if (k < n and data[k] == m_quote)
    {
      f.null = false;
      std::size_t const start = ++k;
      // The common case: no doubled quote, the value is a view of raw.
      void const *q = std::memchr(data + k, m_quote, n - k);
      std::size_t close =
        q ? static_cast<std::size_t>(static_cast<char const *>(q) - data) : n;
      if (close + 1 >= n or data[close + 1] != m_quote)
      {
        f.text = raw.substr(start, close - start);
        k = close + 1;
      }
      else
      {
        std::size_t const from = m_unquoted.size();
        for (;;)
        {
          m_unquoted.append(data + k, close - k);
          if (close + 1 < n and data[close + 1] == m_quote)
          {
            m_unquoted.push_back(m_quote);
            k = close + 2;
            q = std::memchr(data + k, m_quote, n - k);
            close = q ? static_cast<std::size_t>(static_cast<char const *>(q) -
                                                 data)
                      : n;
            continue;
          }
          k = close + 1;
          break;
        }
        f.text = std::string_view{m_unquoted}.substr(from);
      }
      // Past the closing quote comes the delimiter or the end (the scanner
      // checked); anything else is skipped up to the next delimiter.
      while (k < n and data[k] != m_delimiter) ++k;
    }
    else
    {
      std::size_t const start = k;
      void const *c = k < n ? std::memchr(data + k, m_delimiter, n - k)
                            : nullptr;
      k = c ? static_cast<std::size_t>(static_cast<char const *>(c) - data)
            : n;
      f.text = raw.substr(start, k - start);
      f.null = f.text.empty();
    }
    m_fields.push_back(f);
    if (k >= n) break;
    ++k; // the delimiter
  }
  return m_fields;
}
} // namespace loader::io
