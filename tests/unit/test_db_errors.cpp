#include <catch2/catch.hpp>

#include <cerrno>

#include <pqxx/except>

#include "core/errors.hpp"
#include "db/session.hpp"

using loader::ErrorKind;
using loader::LoaderError;
using loader::classify_sqlstate;
using loader::exit_code_of;

namespace
{
/// Throw e, classify it the way every db/ call does, return the result.
template<typename E> LoaderError classified(E const &e)
{
  try
  {
    try
    {
      throw e;
    }
    catch (...)
    {
      loader::db::rethrow_classified("testing");
    }
  }
  catch (LoaderError const &out)
  {
    return out;
  }
  FAIL("rethrow_classified did not throw a LoaderError");
  throw;
}
} // namespace

TEST_CASE("classify_sqlstate: server states map to the contract's classes",
          "[unit][db-errors]")
{
  SECTION("lost connections, serialization failures and lock waits are "
          "transient")
  {
    for (char const *s : {"08000", "08001", "08003", "08006", "40001",
                          "40P01", "55P03", "57P01", "57P03", "53300"})
      CHECK(classify_sqlstate(s) == ErrorKind::transient);
  }
  SECTION("a protocol violation is a bug, not a lost connection")
  {
    CHECK(classify_sqlstate("08P01") == ErrorKind::internal);
  }
  SECTION("credentials and privileges are permission failures")
  {
    CHECK(classify_sqlstate("28P01") == ErrorKind::permission);
    CHECK(classify_sqlstate("28000") == ErrorKind::permission);
    CHECK(classify_sqlstate("42501") == ErrorKind::permission);
  }
  SECTION("data and integrity errors are data errors")
  {
    CHECK(classify_sqlstate("22P02") == ErrorKind::data);
    CHECK(classify_sqlstate("22003") == ErrorKind::data);
    CHECK(classify_sqlstate("23505") == ErrorKind::data);
  }
  SECTION("our own codes follow sql/ERRCODES.md")
  {
    CHECK(classify_sqlstate("IV102") == ErrorKind::data);
    CHECK(classify_sqlstate("IV201") == ErrorKind::internal);
    CHECK(classify_sqlstate("IV203") == ErrorKind::transient);
    CHECK(classify_sqlstate("IV204") == ErrorKind::internal);
    CHECK(classify_sqlstate("IV301") == ErrorKind::config);
    CHECK(classify_sqlstate("IV304") == ErrorKind::config);
    CHECK(classify_sqlstate("IV305") == ErrorKind::config);
    CHECK(classify_sqlstate("IV306") == ErrorKind::config);
    CHECK(classify_sqlstate("IV307") == ErrorKind::config);
    CHECK(classify_sqlstate("IV211") == ErrorKind::internal);
    CHECK(classify_sqlstate("IV212") == ErrorKind::internal);
    CHECK(classify_sqlstate("IV401") == ErrorKind::permission);
  }
  SECTION("anything unknown is a bug, never a retry")
  {
    CHECK(classify_sqlstate("XX000") == ErrorKind::internal);
    CHECK(classify_sqlstate("42P01") == ErrorKind::internal);
    CHECK(classify_sqlstate("") == ErrorKind::internal);
  }
}

TEST_CASE("exit_code_of: every kind has its sysexits code",
          "[unit][db-errors]")
{
  CHECK(exit_code_of(ErrorKind::usage) == 64);
  CHECK(exit_code_of(ErrorKind::data) == 65);
  CHECK(exit_code_of(ErrorKind::no_input) == 66);
  CHECK(exit_code_of(ErrorKind::internal) == 70);
  CHECK(exit_code_of(ErrorKind::transient) == 75);
  CHECK(exit_code_of(ErrorKind::in_doubt) == 75);
  CHECK(exit_code_of(ErrorKind::permission) == 77);
  CHECK(exit_code_of(ErrorKind::config) == 78);
}

TEST_CASE("rethrow_classified: libpqxx 6.4 exception types are classified",
          "[unit][db-errors]")
{
  SECTION("insufficient_privilege arrives without SQLSTATE and is still a "
          "permission failure")
  {
    LoaderError const e{classified(pqxx::insufficient_privilege{"denied"})};
    CHECK(e.kind == ErrorKind::permission);
    CHECK(e.sqlstate == "42501");
  }
  SECTION("serialization failures and deadlocks are transient")
  {
    CHECK(classified(pqxx::serialization_failure{"x"}).kind ==
          ErrorKind::transient);
    CHECK(classified(pqxx::deadlock_detected{"x"}).sqlstate == "40P01");
  }
  SECTION("a commit whose outcome is unknown is in doubt")
  {
    CHECK(classified(pqxx::in_doubt_error{"x"}).kind == ErrorKind::in_doubt);
  }
  SECTION("a lost connection is transient")
  {
    CHECK(classified(pqxx::broken_connection{"x"}).kind ==
          ErrorKind::transient);
  }
  SECTION("a server error keeps its SQLSTATE and the context")
  {
    LoaderError const e{classified(
      pqxx::sql_error{"unknown source", "select 1", "IV301"})};
    CHECK(e.kind == ErrorKind::config);
    CHECK(e.sqlstate == "IV301");
    CHECK(std::string{e.what()}.find("testing: ") == 0);
  }
  SECTION("a LoaderError passes through unchanged")
  {
    LoaderError const e{classified(LoaderError{ErrorKind::no_input, "gone"})};
    CHECK(e.kind == ErrorKind::no_input);
    CHECK(std::string{e.what()} == "gone");
  }
}

TEST_CASE("kind_of_connect_failure: libpq's connection messages are "
          "classified", "[unit][db-errors]")
{
  using loader::db::kind_of_connect_failure;
  SECTION("a server that is down is worth retrying")
  {
    CHECK(kind_of_connect_failure(
            "connection to server on socket \"/tmp/.s.PGSQL.5432\" failed: "
            "No such file or directory") == ErrorKind::transient);
    CHECK(kind_of_connect_failure("FATAL:  the database system is starting "
                                  "up") == ErrorKind::transient);
  }
  SECTION("credentials are permission failures")
  {
    CHECK(kind_of_connect_failure("FATAL:  password authentication failed "
                                  "for user \"x\"") ==
          ErrorKind::permission);
    CHECK(kind_of_connect_failure("FATAL:  role \"nobody\" does not exist") ==
          ErrorKind::permission);
    CHECK(kind_of_connect_failure("fe_sendauth: no password supplied") ==
          ErrorKind::permission);
  }
  SECTION("a missing database or a malformed DSN is configuration")
  {
    CHECK(kind_of_connect_failure("FATAL:  database \"nosuch\" does not "
                                  "exist") == ErrorKind::config);
    CHECK(kind_of_connect_failure("invalid connection option \"colour\"") ==
          ErrorKind::config);
  }
}

TEST_CASE("classify_errno: local input failures", "[unit][db-errors]")
{
  using loader::classify_errno;
  CHECK(classify_errno(ENOENT) == ErrorKind::no_input);
  CHECK(classify_errno(ENOTDIR) == ErrorKind::no_input);
  CHECK(classify_errno(EACCES) == ErrorKind::permission);
  CHECK(classify_errno(EIO) == ErrorKind::transient);
  CHECK(classify_errno(EMFILE) == ErrorKind::transient);
  CHECK(classify_errno(EBADF) == ErrorKind::internal);
}
