// The two passes over an input file: pass 1 (scan_file) identifies and
// checks it before the database hears of it, pass 2 (stream_file) feeds
// the same bytes to the COPY pipeline and proves they did not change.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "io/csv_scan.hpp"
#include "io/decompress.hpp"
#include "io/file_format.hpp"

namespace loader::io
{
/// How a file is read: both passes must read it the same way.
struct ReadOptions
{
  /// The largest decompressed size of a gzip or zstd file (nullopt: the
  /// format's max_expansion times its size, at most 10 GiB).
  std::optional<std::uint64_t> max_decompressed_bytes;
  /// The source's format: its dialect for the scanner, its encoding (not
  /// UTF-8: the bytes are turned into UTF-8 before the scanner reads them,
  /// io/transcode.hpp), its values for the reader (io/format_read.hpp).
  FileFormat format;
};

/// What the first pass over an input file found.
struct FileScan
{
  std::string sha256;     ///< of every delivered byte, BOM included
  std::uint64_t size = 0; ///< delivered bytes (compressed, if it is)
  bool had_bom = false;
  std::uint64_t records = 0;              ///< data records (header excluded)
  std::uint64_t trailing_blank_lines = 0; ///< ignored, at the end
  std::vector<std::string> header;        ///< header names, if it was read
  std::optional<CsvIssue> issue;          ///< first structural problem
  /// How pass 1 read it, for pass 2 to read the same way.
  ReadOptions read;
};

/// Pass 1: stream the file once (bounded memory): SHA-256, size, CSV
/// structure.  A file that starts with the magic bytes of gzip (1f 8b) or
/// zstd (28 b5 2f fd) is decompressed for the CSV scan, at most
/// read.max_decompressed_bytes (nullopt: the format's max_expansion times
/// its size, at most 10 GiB), then turned into UTF-8 from its encoding;
/// SHA-256 and size stay those of the delivered bytes.  A byte the
/// encoding cannot read is the issue csv.encoding, naming the record and
/// column.  A corrupt
/// or truncated stream is the issue file.compression, more bytes than the
/// limit file.decompressed_size (record 0).  Throws LoaderError no_input
/// when the file is missing or not a regular file, transient when reading
/// fails midway.
FileScan scan_file(std::string const &path, ReadOptions const &read = {});

/// The scanner's dialect of a format.
CsvDialect dialect_of(FileFormat const &f);

/// Pass 2: stream the file again through sink (the header, then every
/// data record, as pass 1 saw them if the file did not change).  Returns
/// the SHA-256 of the bytes read and the scanner's result, so the caller
/// can prove the file did not change since pass 1.  Throws as scan_file;
/// whatever sink throws ends the pass.
struct StreamResult
{
  std::string sha256;
  std::uint64_t records = 0;
  std::optional<CsvIssue> issue;
};
StreamResult stream_file(std::string const &path, CsvSink &sink,
                         ReadOptions const &read = {});

/// The format the first bytes of the file at path announce (none when it
/// cannot be read: scan_file then says why).
Compression compression_of_file(std::string const &path);

/// Read a small text file whole (a manifest); at most max_bytes, UTF-8
/// without NUL bytes, else LoaderError data (naming the byte offset).
/// Throws no_input if it does not exist.
std::string read_small_file(std::string const &path, std::size_t max_bytes);
} // namespace loader::io
