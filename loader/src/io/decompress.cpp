// Decompressing reader (decompress.hpp): zlib for gzip, libzstd for zstd,
// both as streams, so memory stays at one output buffer and the library's
// window whatever the file expands to.  Every way a stream can be wrong
// ends in one issue the caller turns into a file-level rejection: nothing
// here throws for bad input.
#include "io/decompress.hpp"

#include <algorithm>
#include <new>
#include <stdexcept>

#include <zlib.h>
#include <zstd.h>

namespace loader::io
{
namespace
{
constexpr std::size_t out_chunk = 256 * 1024;
constexpr std::uint64_t ten_gib = std::uint64_t{10} << 30;
} // namespace

Compression compression_of(std::string_view head) noexcept
{
  auto const starts = [&head](std::string_view magic) {
    return head.size() >= magic.size() and
           head.substr(0, magic.size()) == magic;
  };
  if (starts(std::string_view{"\x1f\x8b", 2})) return Compression::gzip;
  if (starts(std::string_view{"\x28\xb5\x2f\xfd", 4}))
    return Compression::zstd;
  return Compression::none;
}

std::string_view name_of(Compression c) noexcept
{
  switch (c)
  {
  case Compression::gzip: return "gzip";
  case Compression::zstd: return "zstd";
  case Compression::none: break;
  }
  return "none";
}

std::uint64_t default_decompressed_limit(std::uint64_t delivered,
                                         std::uint32_t expansion) noexcept
{
  // Computed without overflow for any 64-bit size.
  if (expansion == 0) expansion = 1;
  if (delivered >= ten_gib / expansion) return ten_gib;
  return std::min(delivered * expansion, ten_gib);
}

/// What both formats share: the bounded hand-over to the sink and the
/// first issue.
class Decompressor::Impl
{
public:
  Impl(Compression format, std::uint64_t limit, std::uint64_t delivered,
       Sink sink) :
          m_format{format},
          m_limit{limit},
          m_delivered{delivered},
          m_sink{std::move(sink)},
          m_buffer{new char[out_chunk]}
  {}
  virtual ~Impl() = default;
  Impl(Impl const &) = delete;
  Impl &operator=(Impl const &) = delete;

  virtual void feed(char const *data, std::size_t size) = 0;
  virtual void finish() = 0;

  std::optional<DecompressIssue> issue;
  std::uint64_t out = 0;

protected:
  /// Hand n decompressed bytes to the sink, as many as the limit allows;
  /// false once the limit is passed (the issue is set).
  bool emit(char const *data, std::size_t n)
  {
    if (n > m_limit - out)
    {
      auto const room = static_cast<std::size_t>(m_limit - out);
      if (room > 0) m_sink(data, room);
      out = m_limit;
      issue = DecompressIssue{
        DecompressProblem::too_large,
        "the " + std::string{name_of(m_format)} +
          " content decompresses to more than the limit of " +
          std::to_string(m_limit) + " bytes (the delivered file has " +
          std::to_string(m_delivered) +
          " bytes; source add --max-decompressed-bytes sets the limit)"};
      return false;
    }
    if (n > 0) m_sink(data, n);
    out += n;
    return true;
  }

  void corrupt(std::string const &what)
  {
    issue = DecompressIssue{DecompressProblem::corrupt,
                            "the " + std::string{name_of(m_format)} +
                              " stream is corrupt at decompressed byte "
                              "offset " +
                              std::to_string(out) + ": " + what};
  }

  char *buffer() noexcept { return m_buffer.get(); }

private:
  Compression m_format;
  std::uint64_t m_limit;
  std::uint64_t m_delivered;
  Sink m_sink;
  std::unique_ptr<char[]> m_buffer;
};

namespace
{
/// gzip through zlib's inflate; after the end of a member, the next bytes
/// must start another member.
class Gzip final : public Decompressor::Impl
{
public:
  template<typename... Args> explicit Gzip(Args &&...args) :
          Impl{std::forward<Args>(args)...}
  {
    // 16 + MAX_WBITS: a gzip wrapper (header, CRC-32 and length checked).
    int const r = inflateInit2(&m_z, 16 + MAX_WBITS);
    if (r == Z_MEM_ERROR) throw std::bad_alloc{};
    if (r != Z_OK)
      throw std::runtime_error{std::string{"zlib inflateInit2: "} + zError(r)};
  }
  ~Gzip() override { inflateEnd(&m_z); }

  void feed(char const *data, std::size_t size) override
  {
    // avail_in is 32 bits: a very large chunk goes in parts.
    while (size > 0 and not issue)
    {
      auto const n = static_cast<uInt>(std::min<std::size_t>(size, 1u << 30));
      feed_part(data, n);
      data += n;
      size -= n;
    }
  }

  void finish() override
  {
    if (issue) return;
    if (m_in_member)
      corrupt("the stream ends inside gzip member " +
              std::to_string(m_members + 1) + " (truncated)");
  }

private:
  void feed_part(char const *data, uInt size)
  {
    // zlib's next_in is not const; it only reads through it.
    m_z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data));
    m_z.avail_in = size;
    for (;;)
    {
      m_z.next_out = reinterpret_cast<Bytef *>(buffer());
      m_z.avail_out = static_cast<uInt>(out_chunk);
      int const r = inflate(&m_z, Z_NO_FLUSH);
      std::size_t const got = out_chunk - m_z.avail_out;
      if (r == Z_BUF_ERROR) return; // no progress: wants more input
      if (r != Z_OK and r != Z_STREAM_END)
      {
        std::string const what =
          m_z.msg ? m_z.msg : zError(r == Z_NEED_DICT ? Z_DATA_ERROR : r);
        if (not m_in_member and m_members > 0)
          corrupt("the bytes after gzip member " + std::to_string(m_members) +
                  " are not another gzip member (zlib: " + what + ")");
        else
          corrupt("zlib: " + what);
        return;
      }
      if (not emit(buffer(), got)) return;
      if (r == Z_STREAM_END)
      {
        ++m_members;
        m_in_member = false;
        inflateReset(&m_z);
        if (m_z.avail_in == 0) return;
        continue;
      }
      m_in_member = true;
      if (m_z.avail_in == 0 and m_z.avail_out != 0) return;
    }
  }

  z_stream m_z{};
  bool m_in_member = false;    ///< bytes of a member read, its end not yet
  std::uint64_t m_members = 0; ///< members ended
};

/// zstd through ZSTD_decompressStream, which reads concatenated frames on
/// its own.
class Zstd final : public Decompressor::Impl
{
public:
  template<typename... Args> explicit Zstd(Args &&...args) :
          Impl{std::forward<Args>(args)...}, m_ctx{ZSTD_createDCtx()}
  {
    if (m_ctx == nullptr) throw std::bad_alloc{};
  }
  ~Zstd() override { ZSTD_freeDCtx(m_ctx); }

  void feed(char const *data, std::size_t size) override
  {
    if (issue) return;
    ZSTD_inBuffer in{data, size, 0};
    // A frame's last byte is consumed only once its output is flushed, so
    // a loop until the input is used up drains every complete frame.
    while (in.pos < in.size)
    {
      ZSTD_outBuffer o{buffer(), out_chunk, 0};
      std::size_t const r = ZSTD_decompressStream(m_ctx, &o, &in);
      if (ZSTD_isError(r))
      {
        std::string const what = ZSTD_getErrorName(r);
        if (m_hint == 0 and m_frames > 0)
          corrupt("the bytes after zstd frame " + std::to_string(m_frames) +
                  " are not another zstd frame (zstd: " + what + ")");
        else
          corrupt("zstd: " + what);
        return;
      }
      if (not emit(buffer(), o.pos)) return;
      m_hint = r;
      if (r == 0) ++m_frames;
    }
  }

  void finish() override
  {
    if (issue) return;
    if (m_hint != 0)
      corrupt("the stream ends inside zstd frame " +
              std::to_string(m_frames + 1) + " (truncated)");
  }

private:
  ZSTD_DCtx *m_ctx;
  std::size_t m_hint = 0;     ///< 0: at a frame boundary
  std::uint64_t m_frames = 0; ///< frames ended
};
} // namespace

Decompressor::Decompressor(Compression format, std::uint64_t limit,
                           std::uint64_t delivered, Sink sink)
{
  switch (format)
  {
  case Compression::gzip:
    m_impl = std::make_unique<Gzip>(format, limit, delivered, std::move(sink));
    break;
  case Compression::zstd:
    m_impl = std::make_unique<Zstd>(format, limit, delivered, std::move(sink));
    break;
  case Compression::none:
    throw std::logic_error{"Decompressor: no compression to undo"};
  }
}

Decompressor::~Decompressor() = default;

void Decompressor::feed(char const *data, std::size_t size)
{
  if (not m_impl->issue) m_impl->feed(data, size);
}

void Decompressor::finish()
{
  if (not m_impl->issue) m_impl->finish();
}

std::optional<DecompressIssue> const &Decompressor::issue() const noexcept
{
  return m_impl->issue;
}

std::uint64_t Decompressor::bytes_out() const noexcept
{
  return m_impl->out;
}
} // namespace loader::io
