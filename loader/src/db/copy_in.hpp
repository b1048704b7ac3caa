#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include <pqxx/transaction>

namespace loader::db
{
/// COPY ... FROM STDIN fed with raw bytes through libpq's PQputCopyData,
/// in large chunks, inside a libpqxx transaction.  (libpqxx 6.4's stream_to
/// only speaks the text format one line at a time.)
class CopyIn
{
public:
  /// Starts the COPY; copy_sql is the whole COPY statement.
  CopyIn(pqxx::dbtransaction &tx, std::string const &copy_sql);
  CopyIn(CopyIn const &) = delete;
  CopyIn &operator=(CopyIn const &) = delete;
  /// Ends an unfinished COPY with an error, so the transaction can abort.
  ~CopyIn() noexcept;

  /// Buffer bytes; sent when the buffer is full (a large write with an
  /// empty buffer is sent as it is).
  void write(char const *data, std::size_t size);
  void write(std::string const &s) { write(s.data(), s.size()); }
  /// Send the rest and end the COPY; returns the number of rows the
  /// server says it stored (its command tag).  Throws LoaderError with the
  /// server's SQLSTATE if the server rejected the data.
  std::uint64_t finish();
  /// End the COPY with an error of ours (the server aborts it).
  void abort(std::string const &why) noexcept;

  std::size_t bytes_sent() const noexcept { return m_sent; }

private:
  void flush();
  void send(char const *data, std::size_t size);
  void *m_conn; ///< PGconn, kept opaque to callers
  std::string m_buffer;
  std::size_t m_sent = 0;
  bool m_open = true;
};
} // namespace loader::db
