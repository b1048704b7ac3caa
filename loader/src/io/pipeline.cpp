#include "io/pipeline.hpp"

#include <optional>
#include <thread>
#include <utility>

#include <nlohmann/json.hpp>

#include "io/csv_fields.hpp"
#include "io/format_read.hpp"
#include "io/typed_copy.hpp"

namespace loader::io
{
Chunk ChunkQueue::take_empty()
{
  std::unique_lock<std::mutex> lock{m_mutex};
  m_changed.wait(lock, [this] {
    return m_cancelled or not m_empty.empty() or m_made < m_limit;
  });
  if (m_cancelled) throw Cancelled{};
  if (m_empty.empty())
  {
    ++m_made;
    return {};
  }
  Chunk c{std::move(m_empty.back())};
  m_empty.pop_back();
  return c;
}

void ChunkQueue::push_full(Chunk chunk)
{
  std::lock_guard<std::mutex> lock{m_mutex};
  if (m_cancelled) throw Cancelled{};
  m_full.push_back(std::move(chunk));
  m_changed.notify_all();
}

void ChunkQueue::finish(std::exception_ptr failure) noexcept
{
  std::lock_guard<std::mutex> lock{m_mutex};
  m_finished = true;
  m_failure = std::move(failure);
  m_changed.notify_all();
}

bool ChunkQueue::pop_full(Chunk &out)
{
  std::unique_lock<std::mutex> lock{m_mutex};
  m_changed.wait(lock, [this] { return not m_full.empty() or m_finished; });
  if (not m_full.empty())
  {
    out = std::move(m_full.front());
    m_full.pop_front();
    return true;
  }
  if (m_failure) std::rethrow_exception(m_failure);
  return false;
}

void ChunkQueue::give_back(Chunk chunk)
{
  chunk.bytes.clear();
  chunk.records = 0;
  std::lock_guard<std::mutex> lock{m_mutex};
  m_empty.push_back(std::move(chunk));
  m_changed.notify_all();
}

void ChunkQueue::cancel() noexcept
{
  std::lock_guard<std::mutex> lock{m_mutex};
  m_cancelled = true;
  m_changed.notify_all();
}

namespace
{
/// Buffers between the threads: one being filled, one being sent, two
/// waiting (the parser is never far ahead; RSS stays flat).
constexpr std::size_t pipeline_buffers = 4;

/// The parser thread's sink: each record's row into the current chunk.
class TypedSink final : public CsvSink
{
public:
  TypedSink(TypedPass const &pass, ChunkQueue &queue,
            std::size_t chunk_bytes) :
          m_pass{pass},
          m_queue{queue},
          m_chunk_bytes{chunk_bytes},
          m_splitter{pass.read.format.delimiter, pass.read.format.quote},
          m_checker{*pass.currencies, pass.business_date}
  {
    // Only a format that converts values needs the reader; the contract's
    // own format (and a mere dialect or encoding) maps fields directly.
    if (pass.read.format.converts_values())
      m_reader.emplace(pass.read.format, *pass.mapping);
    m_chunk = m_queue.take_empty();
    m_chunk.bytes.reserve(m_chunk_bytes + m_chunk_bytes / 4);
    append_typed_header(m_chunk.bytes);
  }

  void on_header(std::vector<std::string> const &names) override
  {
    if (names != m_pass.header) changed = true;
  }

  void on_record(std::uint64_t record_no, std::string_view raw) override
  {
    if (changed) return;
    std::vector<Field> const &fields = m_splitter.split(raw);
    if (fields.size() != m_pass.header.size())
    {
      changed = true;
      return;
    }
    std::string_view const extra = extra_json(fields);
    if (m_reader)
    {
      m_reader->read(fields, m_record, m_read);
      m_checker.check(m_record, m_verdict, m_read.unreadable);
      std::string const note = m_verdict.failed != 0
                                 ? m_reader->note(m_record, m_read,
                                                  m_verdict.failed)
                                 : std::string{};
      append_typed_row(m_chunk.bytes, m_pass.batch_id, record_no, m_record,
                       m_verdict, *m_pass.bits, &m_read.delivered, note,
                       extra);
    }
    else
    {
      for (std::size_t c = 0; c < col::count; ++c)
      {
        std::size_t const at = m_pass.mapping->position[c];
        m_record[c] = at == absent_column ? Field{} : fields[at];
      }
      m_checker.check(m_record, m_verdict);
      append_typed_row(m_chunk.bytes, m_pass.batch_id, record_no, m_record,
                       m_verdict, *m_pass.bits, nullptr, {}, extra);
    }
    ++m_chunk.records;
    if (m_chunk.bytes.size() >= m_chunk_bytes) hand_over();
  }

  /// The last, partly filled chunk, with the trailer.
  void flush()
  {
    append_typed_trailer(m_chunk.bytes);
    sent += m_chunk.records;
    m_queue.push_full(std::move(m_chunk));
  }

  std::uint64_t sent = 0;
  bool changed = false;

private:
  /// The record's columns the contract does not have, as a JSON object
  /// (name to the value as delivered, null for an unquoted empty field),
  /// when the source keeps them; else empty.
  std::string_view extra_json(std::vector<Field> const &fields)
  {
    if (m_pass.mapping->extra.empty()) return {};
    nlohmann::json object = nlohmann::json::object();
    for (auto const &[at, name] : m_pass.mapping->extra)
      object[name] = fields[at].null
                       ? nlohmann::json(nullptr)
                       : nlohmann::json(std::string{fields[at].text});
    m_extra = object.dump(-1, ' ', false,
                          nlohmann::json::error_handler_t::replace);
    return m_extra;
  }

  void hand_over()
  {
    sent += m_chunk.records;
    m_queue.push_full(std::move(m_chunk));
    m_chunk = m_queue.take_empty();
    if (m_chunk.bytes.capacity() < m_chunk_bytes)
      m_chunk.bytes.reserve(m_chunk_bytes + m_chunk_bytes / 4);
  }

  TypedPass const &m_pass;
  ChunkQueue &m_queue;
  std::size_t m_chunk_bytes;
  FieldSplitter m_splitter;
  RecordChecker m_checker;
  std::optional<FormatReader> m_reader;
  RecordRead m_read;
  RecordFields m_record{};
  std::string m_extra;
  Verdict m_verdict;
  Chunk m_chunk;
};
} // namespace

TypedResult stream_typed_rows(std::string const &path, TypedPass const &pass,
                              std::function<void(Chunk const &)> const &send,
                              std::size_t chunk_bytes)
{
  ChunkQueue queue{pipeline_buffers};
  TypedResult result;
  std::thread parser{[&] {
    try
    {
      TypedSink sink{pass, queue, chunk_bytes};
      result.file = stream_file(path, sink, pass.read);
      sink.flush();
      result.sent = sink.sent;
      result.header_changed = sink.changed;
      queue.finish(nullptr);
    }
    catch (ChunkQueue::Cancelled const &)
    {
      queue.finish(nullptr);
    }
    catch (...)
    {
      queue.finish(std::current_exception());
    }
  }};
  try
  {
    Chunk chunk;
    while (queue.pop_full(chunk))
    {
      send(chunk);
      queue.give_back(std::move(chunk));
    }
  }
  catch (...)
  {
    queue.cancel();
    parser.join();
    throw;
  }
  parser.join();
  return result;
}
} // namespace loader::io
