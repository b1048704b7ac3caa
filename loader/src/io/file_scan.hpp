#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "io/csv_scan.hpp"

namespace loader::io
{
/// What the first pass over an input file found.
struct FileScan
{
  std::string sha256;               ///< of every byte, BOM included
  std::uint64_t size = 0;
  bool had_bom = false;
  std::uint64_t records = 0;        ///< data records (header excluded)
  std::uint64_t trailing_blank_lines = 0; ///< ignored, at the end
  std::vector<std::string> header;  ///< header names, if it was read
  std::optional<CsvIssue> issue;    ///< first structural problem
};

/// Pass 1: stream the file once (bounded memory): SHA-256, size, CSV
/// structure.  Throws LoaderError no_input when the file is missing or not
/// a regular file, transient when reading fails midway.
FileScan scan_file(std::string const &path);

/// Pass 2: stream the file again and hand every data record to write() as
/// "<prefix><record_no>,<raw record>\n" (COPY CSV input).  Returns the
/// SHA-256 of the bytes read, so the caller can prove the file did not
/// change since pass 1.
struct StreamResult
{
  std::string sha256;
  std::uint64_t records = 0;
  std::optional<CsvIssue> issue;
};
StreamResult stream_records(
  std::string const &path, std::string const &prefix,
  std::function<void(char const *, std::size_t)> const &write);

/// Read a small text file whole (a manifest); at most max_bytes, UTF-8
/// without NUL bytes, else LoaderError data (naming the byte offset).
/// Throws no_input if it does not exist.
std::string read_small_file(std::string const &path, std::size_t max_bytes);
} // namespace loader::io
