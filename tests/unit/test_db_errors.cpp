#include <catch2/catch.hpp>

#include <cerrno>
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <pqxx/except>

#include "core/errors.hpp"
#include "db/session.hpp"

using loader::classify_sqlstate;
using loader::ErrorKind;
using loader::exit_code_of;
using loader::LoaderError;

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
    for (char const *s : {"08000", "08001", "08003", "08006", "40001", "40P01",
                          "55P03", "57P01", "57P03", "53300"})
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
    LoaderError const e{
      classified(pqxx::sql_error{"unknown source", "select 1", "IV301"})};
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

TEST_CASE("sqlstates_in: the SQLSTATEs libpq writes at PQERRORS_VERBOSE, "
          "whatever the server's language",
          "[unit][db-errors]")
{
  using loader::db::sqlstates_in;
  // As libpq 15 prints them (measured against a server with
  // lc_messages = de_DE.UTF-8).
  CHECK(sqlstates_in("connection to server on socket \"/tmp/x/.s.PGSQL.5\" "
                     "failed: FATAL:  28P01: Passwort-Authentifizierung für "
                     "Benutzer »alice« fehlgeschlagen\nLOCATION:  "
                     "auth_failed, auth.c:334\n") ==
        std::vector<std::string>{"28P01"});
  CHECK(
    sqlstates_in("connection to server at \"a\" (10.0.0.1), port 5432 "
                 "failed: FATAL:  57P03: das Datenbanksystem startet\n"
                 "connection to server at \"b\" (10.0.0.2), port 5432 "
                 "failed: FATAL:  3D000: Datenbank »x« existiert nicht\n") ==
    std::vector<std::string>{"57P03", "3D000"});
  // Client-side failures carry none.
  CHECK(sqlstates_in("connection to server on socket \"/nonexistent/.s.PGSQL"
                     ".5432\" failed: No such file or directory\n\tIs the "
                     "server running locally?\n")
          .empty());
  CHECK(sqlstates_in("fe_sendauth: no password supplied\n").empty());
  // Not a code: lower case, too short, no colon after it.
  CHECK(sqlstates_in("FATAL:  abcde: x").empty());
  CHECK(sqlstates_in("FATAL:  28P0").empty());
  CHECK(sqlstates_in("FATAL:  28P01 x").empty());
}

TEST_CASE("without_location_lines: server source positions are dropped",
          "[unit][db-errors]")
{
  CHECK(loader::db::without_location_lines(
          "failed: FATAL:  3D000: no db\nLOCATION:  InitPostgres, "
          "postinit.c:948\n") == "failed: FATAL:  3D000: no db\n");
  CHECK(loader::db::without_location_lines("a\nb") == "a\nb");
}

TEST_CASE("kind_of_connect_failure: decided from libpq's structure, not its "
          "wording",
          "[unit][db-errors]")
{
  using loader::db::ConnectFailure;
  using loader::db::kind_of_connect_failure;
  auto const with = [](std::vector<std::string> states) {
    ConnectFailure f;
    f.sqlstates = std::move(states);
    return f;
  };
  SECTION("options libpq cannot resolve (an unknown service) or does not "
          "accept (sslmode=bogus) are configuration")
  {
    ConnectFailure f;
    f.options_unusable = true;
    CHECK(kind_of_connect_failure(f) == ErrorKind::config);
  }
  SECTION("credentials are permission failures, never retried")
  {
    CHECK(kind_of_connect_failure(with({"28P01"})) == ErrorKind::permission);
    CHECK(kind_of_connect_failure(with({"28000"})) == ErrorKind::permission);
    ConnectFailure missing;
    missing.needs_password = true;
    missing.used_password = true;
    CHECK(kind_of_connect_failure(missing) == ErrorKind::permission);
    // A wrong password on any host of a list wins over a host starting up.
    CHECK(kind_of_connect_failure(with({"57P03", "28P01"})) ==
          ErrorKind::permission);
    CHECK(kind_of_connect_failure(with({"42501"})) == ErrorKind::permission);
  }
  SECTION("an unknown database is configuration")
  {
    CHECK(kind_of_connect_failure(with({"3D000"})) == ErrorKind::config);
  }
  SECTION("GSS encryption required where it is impossible is configuration, "
          "whatever an earlier host answered; credentials still win")
  {
    ConnectFailure f;
    f.gss_encryption_impossible = true;
    CHECK(kind_of_connect_failure(f) == ErrorKind::config);
    f.sqlstates = {"57P03"}; // the first host of a list was starting up
    CHECK(kind_of_connect_failure(f) == ErrorKind::config);
    f.sqlstates = {"28P01"};
    CHECK(kind_of_connect_failure(f) == ErrorKind::permission);
  }
  SECTION("a server starting, stopping or full is worth waiting for")
  {
    CHECK(kind_of_connect_failure(with({"57P03"})) == ErrorKind::transient);
    CHECK(kind_of_connect_failure(with({"57P01"})) == ErrorKind::transient);
    CHECK(kind_of_connect_failure(with({"53300"})) == ErrorKind::transient);
    CHECK(kind_of_connect_failure(with({"55000"})) == ErrorKind::transient);
  }
  SECTION("no answer from a server is transient")
  {
    CHECK(kind_of_connect_failure(ConnectFailure{}) == ErrorKind::transient);
    ConnectFailure asked;
    asked.used_password = true; // closed during authentication
    CHECK(kind_of_connect_failure(asked) == ErrorKind::transient);
  }
}

TEST_CASE("connection_defaults: keepalives and timeouts unless the "
          "environment sets them",
          "[unit][db-errors]")
{
  using loader::db::connection_defaults;
  auto const find = [](auto const &pairs, std::string const &key) {
    for (auto const &[k, v] : pairs)
      if (k == key) return std::optional<std::string>{v};
    return std::optional<std::string>{};
  };
  auto const none = connection_defaults(
    [](char const *) -> char const * { return nullptr; });
  CHECK(find(none, "keepalives") == "1");
  CHECK(find(none, "keepalives_idle") == "30");
  CHECK(find(none, "keepalives_interval") == "10");
  CHECK(find(none, "keepalives_count") == "3");
  CHECK(find(none, "tcp_user_timeout") == "30000");
  CHECK(find(none, "connect_timeout") == "10");
  CHECK(find(none, "fallback_application_name") == "invoice-loader");
  auto const env = connection_defaults([](char const *name) -> char const * {
    return std::string_view{name} == "PGCONNECT_TIMEOUT" ? "3" : nullptr;
  });
  CHECK_FALSE(find(env, "connect_timeout"));
}

TEST_CASE("connect: a malformed DSN or an unknown service is configuration, "
          "found without contacting a server",
          "[unit][db-errors]")
{
  // host=/nonexistent-dir: were a connection attempted it would fail as
  // transient (no socket), so config proves none was.
  for (char const *dsn :
       {"host=/nonexistent-dir colour=red", "host=/nonexistent-dir dbname='x",
        "postgresql://[::1", "host=/nonexistent-dir service=no-such-service"})
  {
    CAPTURE(dsn);
    try
    {
      loader::db::connect(dsn);
      FAIL("connected");
    }
    catch (LoaderError const &e)
    {
      CHECK(e.kind == ErrorKind::config);
    }
  }
}

TEST_CASE("connect: no server there is transient", "[unit][db-errors]")
{
  try
  {
    loader::db::connect("host=/nonexistent-dir port=1");
    FAIL("connected");
  }
  catch (LoaderError const &e)
  {
    CHECK(e.kind == ErrorKind::transient);
    CHECK(e.sqlstate.empty());
  }
}

TEST_CASE("statement_timeout_for: the remaining budget, or the server's "
          "shorter setting",
          "[unit][db-errors]")
{
  using loader::db::statement_timeout_for;
  using ms = std::chrono::milliseconds;
  CHECK(statement_timeout_for(ms{120'000}, ms{0}) == ms{120'000});
  CHECK(statement_timeout_for(ms{120'000}, ms{30'000}) == ms{30'000});
  CHECK(statement_timeout_for(ms{10'000}, ms{30'000}) == ms{10'000});
  CHECK(statement_timeout_for(ms{0}, ms{0}) == ms{1'000});
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
