#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "io/csv_fields.hpp"

using loader::io::Field;
using loader::io::FieldSplitter;

namespace
{
/// Each field as text, "<NULL>" for NULL.
std::vector<std::string> shown(std::vector<Field> const &fields)
{
  std::vector<std::string> out;
  for (Field const &f : fields)
    out.push_back(f.null ? "<NULL>" : std::string{f.text});
  return out;
}

using Texts = std::vector<std::string>;
} // namespace

TEST_CASE("csv_fields: splits a record at its commas", "[unit][csv_fields]")
{
  FieldSplitter s;
  CHECK(shown(s.split("a,b,c")) == Texts{"a", "b", "c"});
  CHECK(shown(s.split("one")) == Texts{"one"});
  SECTION("spaces and backslashes are data, as COPY CSV keeps them")
  {
    CHECK(shown(s.split(" a , b\\N,\\")) == Texts{" a ", " b\\N", "\\"});
  }
}

TEST_CASE("csv_fields: an unquoted empty field is NULL, a quoted one is ''",
          "[unit][csv_fields]")
{
  FieldSplitter s;
  auto const &f = s.split(",\"\",x,");
  REQUIRE(f.size() == 4);
  CHECK(f[0].null);
  CHECK(f[0].empty());
  CHECK_FALSE(f[1].null);
  CHECK(f[1].empty());
  CHECK(f[2].text == "x");
  CHECK(f[3].null);
  SECTION("a record of one empty field is one NULL")
  {
    auto const &one = s.split("");
    REQUIRE(one.size() == 1);
    CHECK(one[0].null);
  }
  SECTION("commas alone")
  {
    CHECK(shown(s.split(",,")) == Texts{"<NULL>", "<NULL>", "<NULL>"});
  }
}

TEST_CASE("csv_fields: quotes are removed and doubled quotes undone",
          "[unit][csv_fields]")
{
  FieldSplitter s;
  CHECK(shown(s.split("\"a,b\",c")) == Texts{"a,b", "c"});
  CHECK(shown(s.split("\"say \"\"hi\"\"\",x")) == Texts{"say \"hi\"", "x"});
  CHECK(shown(s.split("\"\"\"\"")) == Texts{"\""});
  CHECK(shown(s.split("\"\"\"\"\"\",\"\"\"a\"")) == Texts{"\"\"", "\"a"});
  SECTION("several fields with doubled quotes in one record keep apart")
  {
    CHECK(shown(s.split("\"1\"\"\",\"2\"\"\",\"3\"")) ==
          Texts{"1\"", "2\"", "3"});
  }
  SECTION("a quoted field without doubled quotes is a view of the record")
  {
    std::string const raw{"\"abc\",d"};
    auto const &f = s.split(raw);
    CHECK(f[0].text.data() == raw.data() + 1);
  }
}

TEST_CASE("csv_fields: line ends and tabs inside quotes are data",
          "[unit][csv_fields]")
{
  FieldSplitter s;
  CHECK(shown(s.split("\"a\nb\",\"c\r\nd\",\"e\tf\"")) ==
        Texts{"a\nb", "c\r\nd", "e\tf"});
  CHECK(shown(s.split("x\ty,z")) == Texts{"x\ty", "z"});
}

TEST_CASE("csv_fields: non-ASCII text passes through byte for byte",
          "[unit][csv_fields]")
{
  FieldSplitter s;
  CHECK(shown(s.split("Z\xC3\xBCrich,\"\xE2\x82\xAC \xF0\x9F\x98\x80\"")) ==
        Texts{"Z\xC3\xBCrich", "\xE2\x82\xAC \xF0\x9F\x98\x80"});
}

TEST_CASE("csv_fields: input the scanner would refuse is split safely",
          "[unit][csv_fields]")
{
  FieldSplitter s;
  // An unterminated quote ends the last field; text after a closing quote
  // is skipped up to the comma.
  CHECK(shown(s.split("\"abc")) == Texts{"abc"});
  CHECK(shown(s.split("\"a\"\"")) == Texts{"a\""});
  CHECK(shown(s.split("\"a\"junk,b")) == Texts{"a", "b"});
  CHECK(shown(s.split("\"")) == Texts{""});
}

TEST_CASE("csv_fields: reuses its buffers from record to record",
          "[unit][csv_fields]")
{
  FieldSplitter s;
  std::string const long_raw = "\"" + std::string(1000, 'x') + "\"\"y\"";
  auto const &first = s.split(long_raw);
  REQUIRE(first.size() == 1);
  CHECK(first[0].text == std::string(1000, 'x') + "\"y");
  // A second, shorter record: the views are of it, not of the first.
  auto const &second = s.split("\"p\"\"q\",r");
  CHECK(shown(second) == Texts{"p\"q", "r"});
}
