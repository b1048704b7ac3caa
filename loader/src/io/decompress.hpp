// Decompressing reader for compressed deliveries: a gzip stream or a zstd
// frame, recognised by its magic bytes, is inflated chunk by chunk (bounded
// memory) so the CSV scanner sees the decompressed bytes, while the batch
// stays identified by the delivered ones.  A bound on the decompressed size
// stops a small file that expands without end (a "bomb") early.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace loader::io
{
/// The format of a delivered file, by its first bytes.
enum class Compression
{
  none, ///< anything else: read as it is
  gzip, ///< 1f 8b
  zstd, ///< 28 b5 2f fd
};

/// The format whose magic bytes head starts with (none when head is too
/// short for them).
Compression compression_of(std::string_view head) noexcept;

/// "gzip", "zstd" or "none".
std::string_view name_of(Compression c) noexcept;

/// The decompressed size a delivered file of delivered bytes may reach when
/// its source sets no limit: expansion (its format's max_expansion, 20 by
/// default) times the delivered size or 10 GiB, whichever is smaller.
std::uint64_t default_decompressed_limit(
  std::uint64_t delivered, std::uint32_t expansion = 20) noexcept;

/// Why decompression stopped early.
enum class DecompressProblem
{
  corrupt,  ///< file.compression: a library error, a truncated stream,
            ///< trailing bytes that are no further member or frame
  too_large ///< file.decompressed_size: more bytes than the limit
};

struct DecompressIssue
{
  DecompressProblem problem;
  std::string detail; ///< format, decompressed offset, the library's words
};

/// Streams one compressed file: feed() the delivered bytes in order, then
/// finish().  sink receives the decompressed bytes, never more than limit
/// in all.  Concatenated gzip members and zstd frames are one stream.  The
/// first problem stops the output; later feed() calls are ignored.
class Decompressor
{
public:
  using Sink = std::function<void(char const *data, std::size_t size)>;

  /// delivered: the file's size, named in the too_large detail.
  Decompressor(Compression format, std::uint64_t limit,
               std::uint64_t delivered, Sink sink);
  ~Decompressor();
  Decompressor(Decompressor const &) = delete;
  Decompressor &operator=(Decompressor const &) = delete;

  void feed(char const *data, std::size_t size);
  /// End of the delivered bytes: a stream that ends inside a member or a
  /// frame is a problem (corrupt).
  void finish();

  std::optional<DecompressIssue> const &issue() const noexcept;
  std::uint64_t bytes_out() const noexcept; ///< decompressed bytes emitted

  class Impl;

private:
  std::unique_ptr<Impl> m_impl;
};
} // namespace loader::io
