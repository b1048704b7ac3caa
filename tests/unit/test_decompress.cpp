// The decompressing reader (io/decompress) and both passes over a
// compressed file (io/file_scan): gzip and zstd, concatenated members and
// frames, every broken stream a file.compression issue, the size bound a
// file.decompressed_size issue, plain files read as before.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <zlib.h>
#include <zstd.h>

#include "io/decompress.hpp"
#include "io/file_scan.hpp"
#include "io/sha256.hpp"
#include "temp_file.hpp"

using namespace loader::io;

namespace
{
std::string const csv{"invoice_number,gross_amount\n"
                      "INV-1,119.00\n"
                      "INV-2,238.00\n"
                      "INV-3,357.00\n"};

/// bytes as one gzip member (zlib's deflate with a gzip wrapper).
std::string gzip(std::string const &bytes)
{
  z_stream z{};
  REQUIRE(deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8,
                       Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&z, bytes.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  z.next_out = reinterpret_cast<Bytef *>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

/// bytes as one zstd frame.
std::string zstd(std::string const &bytes)
{
  std::string out(ZSTD_compressBound(bytes.size()), '\0');
  std::size_t const n = ZSTD_compress(out.data(), out.size(), bytes.data(),
                                      bytes.size(), 3);
  REQUIRE_FALSE(ZSTD_isError(n));
  out.resize(n);
  return out;
}

struct Run
{
  std::string out;
  std::optional<DecompressIssue> issue;
};

/// Decompress bytes, fed in chunks of chunk bytes (odd sizes cut members
/// and frames anywhere).
Run decompress(std::string const &bytes, std::uint64_t limit = 1 << 30,
               std::size_t chunk = 7)
{
  Run r;
  Decompressor d{compression_of(bytes), limit, bytes.size(),
                 [&r](char const *p, std::size_t n) { r.out.append(p, n); }};
  for (std::size_t at = 0; at < bytes.size(); at += chunk)
    d.feed(bytes.data() + at, std::min(chunk, bytes.size() - at));
  d.finish();
  r.issue = d.issue();
  CHECK(d.bytes_out() == r.out.size());
  return r;
}

std::string sha256_of(std::string const &bytes)
{
  Sha256 sha;
  sha.update(bytes.data(), bytes.size());
  return sha.hex();
}
} // namespace

TEST_CASE("decompress: the magic bytes decide the format",
          "[unit][decompress]")
{
  CHECK(compression_of(gzip(csv)) == Compression::gzip);
  CHECK(compression_of(zstd(csv)) == Compression::zstd);
  CHECK(compression_of(csv) == Compression::none);
  CHECK(compression_of("") == Compression::none);
  CHECK(compression_of(std::string{"\x1f"}) == Compression::none);
  CHECK(compression_of(std::string{"\x28\xb5\x2f", 3}) == Compression::none);
}

TEST_CASE("decompress: the default bound is 20 times the size, at most "
          "10 GiB",
          "[unit][decompress]")
{
  CHECK(default_decompressed_limit(0) == 0);
  CHECK(default_decompressed_limit(1000) == 20000);
  CHECK(default_decompressed_limit(std::uint64_t{1} << 30) == std::uint64_t{10}
                                                                << 30);
  CHECK(default_decompressed_limit(~std::uint64_t{0}) == std::uint64_t{10}
                                                           << 30);
}

TEST_CASE("decompress: gzip and zstd give the bytes back",
          "[unit][decompress]")
{
  for (std::size_t chunk : {1u, 7u, 4096u})
  {
    INFO("chunk " << chunk);
    Run const g{decompress(gzip(csv), 1 << 30, chunk)};
    CHECK_FALSE(g.issue);
    CHECK(g.out == csv);
    Run const z{decompress(zstd(csv), 1 << 30, chunk)};
    CHECK_FALSE(z.issue);
    CHECK(z.out == csv);
  }
}

TEST_CASE("decompress: a large file streams through in many output chunks",
          "[unit][decompress]")
{
  std::string big;
  for (int k = 0; big.size() < 3'000'000; ++k)
    big += "INV-" + std::to_string(k) + ",119.00\n";
  Run const g{decompress(gzip(big), 1 << 30, 65536)};
  CHECK_FALSE(g.issue);
  CHECK(g.out == big);
  Run const z{decompress(zstd(big), 1 << 30, 65536)};
  CHECK_FALSE(z.issue);
  CHECK(z.out == big);
}

TEST_CASE("decompress: concatenated gzip members and zstd frames are one "
          "stream",
          "[unit][decompress]")
{
  std::string const a{csv.substr(0, 20)}, b{csv.substr(20)};
  Run const g{decompress(gzip(a) + gzip(b))};
  CHECK_FALSE(g.issue);
  CHECK(g.out == csv);
  Run const z{decompress(zstd(a) + zstd(b))};
  CHECK_FALSE(z.issue);
  CHECK(z.out == csv);
}

TEST_CASE("decompress: a truncated stream is file.compression",
          "[unit][decompress]")
{
  std::string const g{gzip(csv)};
  for (std::size_t cut :
       {g.size() - 1, g.size() - 4, g.size() / 2, std::size_t{2}})
  {
    INFO("gzip cut at " << cut);
    Run const r{decompress(g.substr(0, cut))};
    REQUIRE(r.issue);
    CHECK(r.issue->problem == DecompressProblem::corrupt);
    CHECK_THAT(r.issue->detail, Catch::Contains("gzip"));
    CHECK_THAT(r.issue->detail, Catch::Contains("decompressed byte offset"));
  }
  std::string const z{zstd(csv)};
  for (std::size_t cut : {z.size() - 1, z.size() / 2, std::size_t{4}})
  {
    INFO("zstd cut at " << cut);
    Run const r{decompress(z.substr(0, cut))};
    REQUIRE(r.issue);
    CHECK(r.issue->problem == DecompressProblem::corrupt);
    CHECK_THAT(r.issue->detail, Catch::Contains("zstd"));
    CHECK_THAT(r.issue->detail, Catch::Contains("truncated"));
  }
}

TEST_CASE("decompress: a corrupted byte is file.compression, with the "
          "library's message",
          "[unit][decompress]")
{
  // The CRC-32 of a gzip member sits in its last 8 bytes.
  std::string g{gzip(csv)};
  g[g.size() - 6] = static_cast<char>(g[g.size() - 6] ^ 0x01);
  Run const rg{decompress(g)};
  REQUIRE(rg.issue);
  CHECK(rg.issue->problem == DecompressProblem::corrupt);
  CHECK_THAT(rg.issue->detail, Catch::Contains("incorrect data check"));

  // The length (last 4 bytes) of a gzip member.
  std::string gl{gzip(csv)};
  gl[gl.size() - 4] = static_cast<char>(gl[gl.size() - 4] ^ 0x01);
  Run const rl{decompress(gl)};
  REQUIRE(rl.issue);
  CHECK_THAT(rl.issue->detail, Catch::Contains("incorrect length check"));

  // A byte of a zstd frame's header (its block header follows the magic
  // and the frame header descriptor).
  std::string z{zstd(csv)};
  z[4] = static_cast<char>(0xff);
  Run const rz{decompress(z)};
  REQUIRE(rz.issue);
  CHECK(rz.issue->problem == DecompressProblem::corrupt);
  CHECK_THAT(rz.issue->detail, Catch::Contains("zstd: "));
}

TEST_CASE("decompress: trailing bytes that are no member or frame are "
          "file.compression",
          "[unit][decompress]")
{
  Run const g{decompress(gzip(csv) + "garbage that is no gzip member")};
  REQUIRE(g.issue);
  CHECK(g.issue->problem == DecompressProblem::corrupt);
  CHECK_THAT(g.issue->detail,
             Catch::Contains("after gzip member 1 are not another"));
  CHECK_THAT(g.issue->detail,
             Catch::Contains("offset " + std::to_string(csv.size())));
  Run const z{decompress(zstd(csv) + "garbage that is no zstd frame")};
  REQUIRE(z.issue);
  CHECK(z.issue->problem == DecompressProblem::corrupt);
  CHECK_THAT(z.issue->detail,
             Catch::Contains("after zstd frame 1 are not another"));
}

TEST_CASE("decompress: the size bound may be reached exactly, not passed",
          "[unit][decompress]")
{
  for (std::string const &bytes : {gzip(csv), zstd(csv)})
  {
    Run const exact{decompress(bytes, csv.size())};
    CHECK_FALSE(exact.issue);
    CHECK(exact.out == csv);

    Run const over{decompress(bytes, csv.size() - 1)};
    REQUIRE(over.issue);
    CHECK(over.issue->problem == DecompressProblem::too_large);
    CHECK(over.out == csv.substr(0, csv.size() - 1)); // stopped at the limit
    CHECK_THAT(over.issue->detail,
               Catch::Contains("limit of " + std::to_string(csv.size() - 1) +
                               " bytes"));
    CHECK_THAT(over.issue->detail,
               Catch::Contains(std::to_string(bytes.size()) + " bytes"));
  }
}

TEST_CASE("decompress: a bomb stops at the bound", "[unit][decompress]")
{
  std::string const zeros(64 << 20, '\0');
  std::string const bomb{gzip(zeros)};
  REQUIRE(bomb.size() < 200'000);
  Run const r{decompress(bomb, 1 << 20, 65536)};
  REQUIRE(r.issue);
  CHECK(r.issue->problem == DecompressProblem::too_large);
  CHECK(r.out.size() == 1 << 20);
}

TEST_CASE("file_scan: a compressed file is scanned decompressed, named by "
          "its delivered bytes",
          "[unit][decompress]")
{
  for (std::string const &bytes : {gzip(csv), zstd(csv)})
  {
    TempFile f{bytes};
    FileScan const s{scan_file(f.path)};
    CHECK_FALSE(s.issue);
    CHECK(s.records == 3);
    CHECK(s.header ==
          std::vector<std::string>{"invoice_number", "gross_amount"});
    CHECK(s.size == bytes.size());
    CHECK(s.sha256 == sha256_of(bytes));
  }
}

TEST_CASE("file_scan: a broken or too large stream is a file issue of "
          "record 0",
          "[unit][decompress]")
{
  std::string const g{gzip(csv)};
  TempFile truncated{g.substr(0, g.size() - 3)};
  FileScan const t{scan_file(truncated.path)};
  REQUIRE(t.issue);
  CHECK(rule_of(t.issue->problem) == "file.compression");
  CHECK(t.issue->record_no == 0);
  CHECK(t.sha256 == sha256_of(g.substr(0, g.size() - 3)));

  TempFile whole{g};
  FileScan const big{scan_file(whole.path, ReadOptions{csv.size() - 10, {}})};
  REQUIRE(big.issue);
  CHECK(rule_of(big.issue->problem) == "file.decompressed_size");
  CHECK(big.issue->record_no == 0);
  CHECK(big.read.max_decompressed_bytes == csv.size() - 10);

  // A bomb behind a valid header, with the default bound.
  std::string const bomb{gzip(csv + std::string(32 << 20, 'x'))};
  TempFile b{bomb};
  FileScan const sb{scan_file(b.path)};
  REQUIRE(sb.issue);
  CHECK(rule_of(sb.issue->problem) == "file.decompressed_size");
  CHECK_THAT(sb.issue->detail,
             Catch::Contains(std::to_string(20 * bomb.size())));
}

TEST_CASE("file_scan: a plain file is read unchanged", "[unit][decompress]")
{
  // Starts with one byte of the gzip magic only: still plain text.
  std::string const odd{"\x1f" + csv};
  for (std::string const &bytes : {csv, odd})
  {
    TempFile f{bytes};
    FileScan const s{
      scan_file(f.path, ReadOptions{1, {}})}; // the bound is for compressed
    CHECK(s.size == bytes.size());
    CHECK(s.sha256 == sha256_of(bytes));
    if (bytes == csv)
    {
      CHECK_FALSE(s.issue);
      CHECK(s.records == 3);
    }
    else
    {
      // \x1f is a control character the scanner reads as any other byte.
      CHECK(s.header.size() == 2);
    }
  }
}
