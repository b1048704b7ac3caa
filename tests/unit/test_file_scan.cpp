#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

#include <unistd.h>

#include "core/errors.hpp"
#include "io/file_scan.hpp"
#include "temp_file.hpp"

using loader::ErrorKind;
using loader::LoaderError;
using loader::io::read_small_file;

namespace
{
/// The LoaderError read_small_file throws for bytes, or "" if it reads them.
std::string refusal_of(std::string const &bytes, ErrorKind &kind)
{
  TempFile f{bytes};
  try
  {
    read_small_file(f.path, 1 << 20);
  }
  catch (LoaderError const &e)
  {
    kind = e.kind;
    std::string const what{e.what()};
    return what.substr(what.find(" is ") + 4);
  }
  return "";
}
} // namespace

TEST_CASE("read_small_file: a manifest must be UTF-8 text without NUL bytes",
          "[unit][file-scan]")
{
  ErrorKind kind = ErrorKind::internal;
  SECTION("UTF-8 text is read whole")
  {
    std::string const text{
      "{\"note\": \"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"}\n"};
    TempFile f{text};
    CHECK(read_small_file(f.path, 1 << 20) == text);
  }
  SECTION("a NUL byte, with anything after it, is refused at its offset")
  {
    CHECK(refusal_of(std::string{"{\"a\":1}\0garbage", 15}, kind) ==
          "not text: a NUL byte at byte offset 7");
    CHECK(kind == ErrorKind::data);
  }
  SECTION("bytes that are not UTF-8 are refused at their offset")
  {
    CHECK(refusal_of("{\"a\":\"caf\xe9\"}", kind) ==
          "not text: bytes that are not UTF-8 at byte offset 9");
    CHECK(kind == ErrorKind::data);
  }
  SECTION("overlong forms, surrogates and a cut sequence are not UTF-8")
  {
    CHECK(refusal_of("\xc0\xaf", kind) ==
          "not text: bytes that are not UTF-8 at byte offset 0");
    CHECK(refusal_of("ab\xed\xa0\x80", kind) ==
          "not text: bytes that are not UTF-8 at byte offset 2");
    CHECK(refusal_of("abc\xe2\x82", kind) ==
          "not text: bytes that are not UTF-8 at byte offset 3");
  }
}
