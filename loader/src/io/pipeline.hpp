#pragma once
// Pass 2 as two threads: a parser thread reads the file (SHA-256 and the
// scanner, as pass 1), splits each record, decides its field rules and
// writes its binary COPY row (io/typed_copy) into chunk buffers, the
// format's header before the first and its trailer after the last; the
// calling thread sends the chunks (the COPY is its connection's).  A small
// bounded pool of buffers between them keeps memory flat whatever the file
// size.
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "io/file_scan.hpp"
#include "io/header_map.hpp"
#include "io/record_rules.hpp"

namespace loader::io
{
/// Binary COPY data: whole rows (the first chunk starts with the header,
/// the last ends with the trailer).
struct Chunk
{
  std::string bytes;
  std::uint64_t records = 0;
};

/// At most `buffers` chunks exist at a time: full ones wait for the
/// sender, empty ones go back to the parser (keeping their capacity).
class ChunkQueue
{
public:
  /// Thrown to the parser when the sender stopped.
  struct Cancelled
  {};

  explicit ChunkQueue(std::size_t buffers) : m_limit{buffers} {}

  // The parser's side.
  /// An empty chunk; waits while every buffer is in use.  Throws
  /// Cancelled once the sender has stopped.
  Chunk take_empty();
  /// Hand a full chunk to the sender; throws Cancelled as take_empty().
  void push_full(Chunk chunk);
  /// No more chunks: the end of the data, or the parser's failure.
  void finish(std::exception_ptr failure) noexcept;

  // The sender's side.
  /// The next full chunk into out; false at the end of the data.
  /// Rethrows the parser's failure once the chunks before it are sent.
  bool pop_full(Chunk &out);
  /// A sent chunk, back to the pool.
  void give_back(Chunk chunk);
  /// The sender stops (its COPY failed): the parser's next call throws.
  void cancel() noexcept;

private:
  std::mutex m_mutex;
  std::condition_variable m_changed;
  std::deque<Chunk> m_full;
  std::vector<Chunk> m_empty;
  std::size_t m_limit;
  std::size_t m_made = 0;
  bool m_finished = false;
  bool m_cancelled = false;
  std::exception_ptr m_failure;
};

/// What the parser needs besides the file.
struct TypedPass
{
  std::int64_t batch_id = 0; ///< written into every row
  /// Pass 1's header: pass 2 must see the same (else the file changed).
  std::vector<std::string> header;
  HeaderMapping const *mapping = nullptr; ///< of that header
  RuleBits const *bits = nullptr;
  Currencies const *currencies = nullptr;
  std::string business_date; ///< YYYY-MM-DD
  /// How pass 1 read the file (limit, format), so both passes read the
  /// same records and stop at the same byte.
  ReadOptions read;
};

/// What pass 2 read and what it sent.
struct TypedResult
{
  StreamResult file;      ///< SHA-256 and scanner result of the bytes read
  std::uint64_t sent = 0; ///< rows handed to send()
  bool header_changed = false; ///< pass 2 saw another header or shape
};

/// Pass 2: the whole binary COPY stream of the file's records (at least
/// the header and the trailer), in chunks of whole rows, handed to send()
/// on the calling thread.  What send() throws stops the parser and
/// is rethrown; so is what the parser throws (a file that cannot be
/// read).  chunk_bytes: a chunk is handed over once it holds this much.
TypedResult stream_typed_rows(std::string const &path, TypedPass const &pass,
                              std::function<void(Chunk const &)> const &send,
                              std::size_t chunk_bytes = 256 * 1024);
} // namespace loader::io
