// The checksum migrate records for a migration (db/migrate.hpp): it covers
// the statements only, so a comment on a line of its own or a blank line
// may be edited, and any other edit is still refused.
#include <catch2/catch.hpp>

#include <string>

#include "db/embedded_sql.hpp"
#include "db/migrate.hpp"

using loader::db::migration_sha256;
using loader::db::migration_statements;

namespace
{
char const file[] = "-- 0042: a header\n"
                    "--   that wraps\n"
                    "set local role invoice_owner;\n"
                    "\n"
                    "create table t (a int); -- a trailing comment\n"
                    "  -- an indented comment\n"
                    "create function f() returns int language sql\n"
                    "as $$ select 1 $$;\n";
} // namespace

TEST_CASE("migration checksum: the statements are the lines that are not "
          "whole-line comments or blank",
          "[migrate]")
{
  CHECK(migration_statements(file) ==
        "set local role invoice_owner;\n"
        "create table t (a int); -- a trailing comment\n"
        "create function f() returns int language sql\n"
        "as $$ select 1 $$;\n");
  CHECK(migration_statements("") == "");
  CHECK(migration_statements("select 1;") == "select 1;\n");
  CHECK(migration_statements("select 1;\r\n \t\r\n") == "select 1;\r\n");
}

TEST_CASE("migration checksum: a comment-only edit keeps it, a statement "
          "edit changes it",
          "[migrate]")
{
  std::string const sum{migration_sha256(file)};
  CHECK(sum.size() == 64);

  std::string comments{file};
  comments.replace(comments.find("a header"), 8, "the reason, rewritten");
  comments.insert(comments.find("create table"), "\n\n-- a new comment\n");
  CHECK(migration_sha256(comments) == sum);

  std::string statement{file};
  statement.replace(statement.find("a int"), 5, "a bigint");
  CHECK(migration_sha256(statement) != sum);

  std::string trailing{file};
  trailing.replace(trailing.find("a trailing"), 10, "another");
  CHECK(migration_sha256(trailing) != sum);

  std::string uncommented{file};
  uncommented.replace(uncommented.find("  -- an indented comment"), 24,
                      "  drop table t;");
  CHECK(migration_sha256(uncommented) != sum);
}

TEST_CASE("migration checksum: every shipped migration has statements",
          "[migrate]")
{
  for (auto const &m : loader::db::embedded_migrations())
  {
    INFO(m.path);
    CHECK_FALSE(migration_statements(m.text).empty());
  }
}
