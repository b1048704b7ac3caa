#include <catch2/catch.hpp>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <unistd.h>

#include "copy_binary_reader.hpp"
#include "core/errors.hpp"
#include "io/file_scan.hpp"
#include "io/pipeline.hpp"
#include "io/typed_copy.hpp"
#include "temp_file.hpp"

using namespace loader::io;
using loader::ErrorKind;
using loader::LoaderError;

namespace
{
/// A file of n good records, columns in a shuffled order plus one unknown.
std::string file_of(int n)
{
  std::string out{"colour,gross_amount,invoice_number,revision,status,"
                  "document_type,customer_id,invoice_date,currency,"
                  "net_amount,tax_amount\n"};
  for (int k = 1; k <= n; ++k)
    out += "red,119.00,INV-" + std::to_string(k) +
           ",0,ISSUED,INVOICE,C-1,2026-11-20,EUR,100,19\n";
  return out;
}

struct Setup
{
  RuleBits bits{[] {
    std::vector<std::pair<std::string, int>> t;
    for (std::size_t k = 0; k < rule_count; ++k)
      t.emplace_back(std::string{code_of(rule_at(k))}, static_cast<int>(k));
    return t;
  }()};
  Currencies currencies{{{"EUR", 2}}};
  HeaderMapping mapping;
  TypedPass pass;

  explicit Setup(std::string const &path)
  {
    FileScan const scan{scan_file(path)};
    mapping = map_header(scan.header, true);
    pass.batch_id = 9;
    pass.header = scan.header;
    pass.mapping = &mapping;
    pass.bits = &bits;
    pass.currencies = &currencies;
    pass.business_date = "2026-11-28";
  }
};
} // namespace

TEST_CASE("pipeline: every record's row reaches the sender, in order",
          "[unit][pipeline]")
{
  TempFile const f{file_of(500)};
  Setup s{f.path};
  std::string received;
  std::uint64_t records = 0, chunks = 0;
  // Small chunks: many hand-overs through the four buffers.
  TypedResult const r{stream_typed_rows(
    f.path, s.pass,
    [&](Chunk const &c) {
      received += c.bytes;
      records += c.records;
      ++chunks;
    },
    1024)};
  CHECK(r.file.sha256 == scan_file(f.path).sha256);
  CHECK_FALSE(r.file.issue);
  CHECK_FALSE(r.header_changed);
  CHECK(r.file.records == 500);
  CHECK(r.sent == 500);
  CHECK(records == 500);
  CHECK(chunks > 20);
  // One binary COPY stream: one row per record, in record order, each a
  // passing one, of batch 9.
  auto const rows = copy_test::read_stream(received);
  REQUIRE(rows.size() == 500);
  for (std::size_t k = 0; k < rows.size(); ++k)
  {
    REQUIRE(rows[k].size() == std::size_t{typed_copy_columns});
    CHECK(copy_test::be(*rows[k][0]) == 9);
    CHECK(copy_test::be(*rows[k][1]) == k + 1);
    CHECK(copy_test::be(*rows[k][2]) == 0);
    CHECK(*rows[k][3] == "INV-" + std::to_string(k + 1));
  }
}

TEST_CASE("pipeline: a file of no records is a stream of no rows",
          "[unit][pipeline]")
{
  TempFile const f{file_of(0)};
  Setup s{f.path};
  std::string received;
  std::uint64_t chunks = 0;
  TypedResult const r{stream_typed_rows(f.path, s.pass, [&](Chunk const &c) {
    received += c.bytes;
    ++chunks;
  })};
  CHECK(r.sent == 0);
  CHECK(chunks == 1);
  CHECK(received.size() == 21); // the header and the trailer
  CHECK(copy_test::read_stream(received).empty());
}

TEST_CASE("pipeline: a failing sender stops the parser and is rethrown",
          "[unit][pipeline]")
{
  TempFile const f{file_of(2000)};
  Setup s{f.path};
  int calls = 0;
  CHECK_THROWS_WITH(stream_typed_rows(
                      f.path, s.pass,
                      [&](Chunk const &) {
                        if (++calls == 3)
                          throw std::runtime_error{"COPY failed"};
                      },
                      512),
                    "COPY failed");
  CHECK(calls == 3);
}

TEST_CASE("pipeline: what the parser throws reaches the sender's thread",
          "[unit][pipeline]")
{
  TempFile const f{"a\n1\n"};
  Setup s{f.path};
  std::string const gone{f.path + ".gone"};
  try
  {
    stream_typed_rows(gone, s.pass, [](Chunk const &) {});
    FAIL("no error");
  }
  catch (LoaderError const &e)
  {
    CHECK(e.kind == ErrorKind::no_input);
  }
}

TEST_CASE("pipeline: another header in pass 2 is reported, not staged",
          "[unit][pipeline]")
{
  TempFile const f{file_of(3)};
  Setup s{f.path};
  s.pass.header[0] = "color";
  std::uint64_t records = 0;
  TypedResult const r{stream_typed_rows(
    f.path, s.pass, [&](Chunk const &c) { records += c.records; })};
  CHECK(r.header_changed);
  CHECK(r.sent == 0);
  CHECK(records == 0);
}

TEST_CASE("pipeline: the queue never holds more buffers than its limit",
          "[unit][pipeline]")
{
  ChunkQueue q{2};
  Chunk a{q.take_empty()};
  Chunk b{q.take_empty()};
  a.bytes.reserve(4096);
  SECTION("a third buffer is one given back")
  {
    Chunk third;
    std::thread parser{[&] { third = q.take_empty(); }};
    q.give_back(std::move(a));
    parser.join();
    CHECK(third.bytes.capacity() >= 4096);
    CHECK(third.bytes.empty());
  }
  SECTION("a parser waiting for a buffer is released by cancel()")
  {
    bool cancelled = false;
    std::thread parser{[&] {
      try
      {
        q.take_empty();
      }
      catch (ChunkQueue::Cancelled const &)
      {
        cancelled = true;
      }
    }};
    q.cancel();
    parser.join();
    CHECK(cancelled);
    CHECK_THROWS_AS(q.push_full(std::move(b)), ChunkQueue::Cancelled);
  }
  SECTION("the sender gets every full chunk before the end")
  {
    a.records = 1;
    b.records = 2;
    q.push_full(std::move(a));
    q.push_full(std::move(b));
    q.finish(nullptr);
    Chunk got;
    REQUIRE(q.pop_full(got));
    CHECK(got.records == 1);
    REQUIRE(q.pop_full(got));
    CHECK(got.records == 2);
    CHECK_FALSE(q.pop_full(got));
  }
  SECTION("the parser's failure comes after its chunks")
  {
    a.records = 1;
    q.push_full(std::move(a));
    q.finish(std::make_exception_ptr(std::runtime_error{"read failed"}));
    Chunk got;
    REQUIRE(q.pop_full(got));
    CHECK_THROWS_WITH(q.pop_full(got), "read failed");
  }
}
