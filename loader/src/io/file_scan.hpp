#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "io/csv_scan.hpp"

namespace loader::io
{
/// What the first pass over an input file found.
struct FileScan
{
  std::string sha256; ///< of every byte, BOM included
  std::uint64_t size = 0;
  bool had_bom = false;
  std::uint64_t records = 0;              ///< data records (header excluded)
  std::uint64_t trailing_blank_lines = 0; ///< ignored, at the end
  std::vector<std::string> header;        ///< header names, if it was read
  std::optional<CsvIssue> issue;          ///< first structural problem
};

/// Pass 1: stream the file once (bounded memory): SHA-256, size, CSV
/// structure.  Throws LoaderError no_input when the file is missing or not
/// a regular file, transient when reading fails midway.
FileScan scan_file(std::string const &path);

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
StreamResult stream_file(std::string const &path, CsvSink &sink);

/// Read a small text file whole (a manifest); at most max_bytes, UTF-8
/// without NUL bytes, else LoaderError data (naming the byte offset).
/// Throws no_input if it does not exist.
std::string read_small_file(std::string const &path, std::size_t max_bytes);
} // namespace loader::io
