#include "db/migrate.hpp"

#include <cstring>
#include <limits>
#include <string_view>

#include <pqxx/pqxx>

#include "core/errors.hpp"
#include "db/embedded_sql.hpp"
#include "db/session.hpp"
#include "io/sha256.hpp"

namespace loader::db
{
namespace
{
constexpr char const bootstrap_sql[] = R"(
select pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('invoice-loader:migrate'));
create schema if not exists loader_meta;
create table if not exists loader_meta.schema_migration (
  version    integer primary key,
  name       text not null,
  sha256     text not null,
  applied_at timestamptz not null default now(),
  applied_by text not null default session_user
);
)";

std::string sha256_of(std::string_view text)
{
  io::Sha256 sha;
  sha.update(text.data(), text.size());
  return sha.hex();
}

/// A migration edited since an earlier release recorded its sum: the sum
/// that release recorded (sha256 of the whole file as it then was) and
/// the statements' sum of the file as it is now (migration_sha256).  Only
/// the migrations whose comments were edited since are listed; their
/// statements are what they were.  Written once, from git history: for
/// each file whose comments were rewritten after commit c0a5ad1,
/// `git show c0a5ad1:migrations/<file> | sha256sum` and
/// migration_sha256 of the file now (the statements of both are equal).
struct LegacySum
{
  int version;
  char const *whole_file;
  char const *statements;
};
constexpr LegacySum legacy_sums[] = {
  {1, "221331dfabc28004c193cd2d697acecbb072332ebe0cb8e4ffaa9f147ccd59c3",
   "99388a5f3cc097ff8e6a1e0bcc0cda275443daa3e14ca88c6f52a54c3054899a"},
  {5, "8c8595e78404a69acfae6d0e4b17159c446f81d6ba648310866d5d470db6f147",
   "544801d5f48d10b1f6f3554f217131947773f0286c946d72b881af65b0143a36"},
  {7, "ca6da2495219ca8fc1cbf3342a5fdbeb799d9941f19c8d175f1d8cd337c6ec10",
   "f88a44474ca59147fdbf9079815412fa1ad672eb1fc65e36c9feed7de6ab5d34"},
  {8, "b07f94f3efc6ddcf84b184ea3799165e9f4ab94665f48f97c09f43cee9d1ad7c",
   "b3bdb7ab40e9ce8bc5f00e74a7f167d498c5b992d434178c0e7cb208a6774812"},
  {9, "bb468d68e308f3277f627bb60417991bb63259e17fe6289c712a5dfd3033e0b9",
   "59a30ce94fdd3536409920262d09bf9896dca45c8839d9e6b096ea57f40ead28"},
  {10, "7fe7ccff38ad951ec3251b898ada3151c05e42b58a2dbb612df8dc69f867454a",
   "ee0f0873222d543c13843c23a674ae273cccad6dc0cfd5f7307caa5e1b122435"},
  {11, "2b33157ab64f1a24e59693093a46a7a82d24d28d2fc09f0129178dac33dd43cf",
   "987b8ddd97a2117bfe6974a30236483929306d79578508560829799f79fc8966"},
  {12, "1c9c05537b9f75610f1685ab89f0187af6e4218a3de728e8b64b4b9658c410ac",
   "37532059b2f766ab2333a483c825aa1edd283a1db07b7b439169fb5df0dba69b"},
  {14, "a25ff467c5b4897f482a26f9d716041750b8310bede7b315d1a3bed1e46bdf33",
   "ce4226a1d4af76e3e4a1edf41a6d2ec4a39dc6da54ef5dc6bd1a34b62e91f9df"},
  {15, "fd85411c1f7d82af366e16055341acc60643f9da570eda4553795bdd0101deb2",
   "3eb908217701c8f42603a97dc1acbff70397a3e2889355c0f2820a3a48c35006"},
  {16, "f97a27324e758e35970dd59f3a6dd1854589997def298bcac63683e2abe974d2",
   "e6bf5d1a72ba88e1fb3533857409a17c30d5f813735ce251ff220870a44ed6bc"},
  {17, "09985870837a261d6635a8c0dccf9c981a8eefdf74c11daf705d058f6f609d4e",
   "4860bb3120d6496943927918641ac9ced2fc7c6bdcc10dbcfa31b126f8e79d48"},
  {18, "78eda04f14e8afcc4e6a2f788053ffdef8721134a50d06b5917b459055423f8e",
   "7aacfb85175cdfdbb32f7e7a9da88294ec6c36fe744e57820a713f2cd884d35a"},
  {19, "d6caf2bd9b3855b7e8ed685d6ac1a7387dd7b9e04214dd05ad6464eeb7c6bcce",
   "cc06097bf81b97debe6ee46e97662850b0d8d438614545f61462057a169818fd"},
  {20, "29e8e6f23b35b558b8d3a6783177a7b35063efe4802e03d6d0aa6934ce9cfcb7",
   "494cbd88f823ce3213dd9ebc0a7a874cf0d95375883ca9e1e41ce69f9cdfe0a4"},
  {22, "bc0e3be94fbbdfe382ae2f5d9136b1bb2463dc502c929dc7e5b33033f08e9186",
   "5cd2d302057cce82f1ef913d746ef181c2eee26e85387fe403a32cbfcd1f79e9"},
  {23, "9883e577b7feab7fc818b6bfc34187872840c42b61f167aabb4ffb5f9d98ca82",
   "ebe6167ae2276ec2b1fbba8f2a7ba862d20f53489153392e0a062b11464cb118"},
  {24, "335e5fe8827b99b46c9e32d21ada3e2d60e0a0fe6acfaf102ae50a5da6e53229",
   "4bae2d21d1d2a093c95e0af9a48da9aa033b9054a11eeb042482542e2874a457"},
};

/// The sum recorded for `version` is one an earlier release wrote for
/// the statements that `statements_sum` covers now: the whole file's sum,
/// unchanged since, or a listed one (legacy_sums).
bool is_legacy_sum(int version, std::string const &recorded,
                   std::string const &whole_file_sum,
                   std::string const &statements_sum)
{
  if (recorded == whole_file_sum) return true;
  for (LegacySum const &l : legacy_sums)
    if (l.version == version and recorded == l.whole_file and
        statements_sum == l.statements)
      return true;
  return false;
}

/// "migrations/0007_add_x.sql" -> {7, "0007_add_x.sql"}
std::pair<int, std::string> version_of(std::string_view path)
{
  auto const slash = path.rfind('/');
  std::string name{
    path.substr(slash == std::string_view::npos ? 0 : slash + 1)};
  if (name.size() < 6 or name.find_first_not_of("0123456789") != 4 or
      name[4] != '_')
    throw LoaderError{ErrorKind::internal,
                      "migration file name is not NNNN_slug.sql: " + name};
  return {std::stoi(name.substr(0, 4)), name};
}
} // namespace

std::string migration_statements(std::string_view text)
{
  std::string out;
  out.reserve(text.size());
  while (not text.empty())
  {
    auto const end = text.find('\n');
    std::string_view const line{text.substr(0, end)};
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    auto const first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) continue;   // blank
    if (line.compare(first, 2, "--") == 0) continue; // whole-line comment
    out.append(line);
    out.push_back('\n');
  }
  return out;
}

std::string migration_sha256(std::string_view text)
{
  return sha256_of(migration_statements(text));
}

MigrateResult migrate(Database &db, Logger const &log, int up_to)
{
  pqxx::connection_base &cx = db.cx();
  MigrateResult out;
  std::string current_file;
  try
  {
    pqxx::work tx{cx, "migrate"};
    tx.exec(bootstrap_sql);
    for (SqlFile const &file : embedded_migrations())
    {
      current_file = file.path;
      auto const [version, name] = version_of(file.path);
      if (version > up_to) break;
      std::string const sum{migration_sha256(file.text)};
      pqxx::result const seen{tx.exec_params(
        "select sha256 from loader_meta.schema_migration where version = $1",
        version)};
      if (not seen.empty())
      {
        std::string const recorded{seen[0][0].c_str()};
        if (recorded != sum and
            is_legacy_sum(version, recorded, sha256_of(file.text), sum))
          // recorded by an earlier release over the whole file: the same
          // statements; from now on their sum, in this transaction
          tx.exec_params("update loader_meta.schema_migration "
                         "set sha256 = $2 where version = $1",
                         version, sum);
        else if (recorded != sum)
          throw LoaderError{
            ErrorKind::config,
            "migration " + name +
              " was edited after it was applied "
              "(recorded sha256 " +
              recorded + ", statements " + sum +
              "); migrations are append-only: revert the edit and add a new "
              "migration instead"};
        ++out.already;
        out.version = name;
        continue;
      }
      // Recorded first: a concurrent migrator that got past the lock
      // somehow fails here with 23505 instead of applying twice.
      tx.exec_params("insert into loader_meta.schema_migration "
                     "(version, name, sha256) values ($1, $2, $3)",
                     version, name, sum);
      tx.exec(file.text);
      tx.exec("reset role");
      log.info("migration applied", {{"migration", name}});
      ++out.applied;
      out.version = name;
    }
    tx.exec("set local role invoice_owner");
    // Stopped early (a test hook): the functions may need later tables.
    for (SqlFile const &file : up_to < std::numeric_limits<int>::max()
                                 ? std::vector<SqlFile>{}
                                 : embedded_functions())
    {
      current_file = file.path;
      tx.exec(file.text);
      ++out.functions;
    }
    tx.exec("reset role");
    current_file.clear();
    tx.commit();
  }
  catch (...)
  {
    rethrow_classified(current_file.empty()
                         ? std::string{"migrate"}
                         : "migrate, applying " + current_file);
  }
  return out;
}
} // namespace loader::db

namespace loader::db
{
std::vector<MigrationState> migration_status(Database &db)
{
  std::vector<MigrationState> out;
  try
  {
    pqxx::read_transaction tx{db.cx(), "migrate status"};
    pqxx::result const applied{tx.exec(
      "select version, name, sha256, "
      "to_char(applied_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS') "
      "|| 'Z', applied_by "
      "from loader_meta.schema_migration order by version")};
    std::size_t next = 0;
    auto const &files = embedded_migrations();
    for (SqlFile const &file : files)
    {
      auto const [version, name] = version_of(file.path);
      MigrationState m{version, name, "pending", "", ""};
      for (auto const &row : applied)
        if (row[0].as<int>() == version)
        {
          std::string const recorded{row[2].as<std::string>()};
          std::string const sum{migration_sha256(file.text)};
          m.state = recorded == sum or is_legacy_sum(version, recorded,
                                                     sha256_of(file.text), sum)
                      ? "applied"
                      : "edited since applied";
          m.applied_at = row[3].as<std::string>();
          m.applied_by = row[4].as<std::string>();
        }
      out.push_back(m);
      next = static_cast<std::size_t>(version);
    }
    for (auto const &row : applied)
      if (row[0].as<std::size_t>() > next)
        out.push_back({row[0].as<int>(), row[1].as<std::string>(),
                       "applied, unknown to this binary",
                       row[3].as<std::string>(), row[4].as<std::string>()});
  }
  catch (pqxx::sql_error const &e)
  {
    // Never migrated: loader_meta does not exist yet.
    if (std::string{e.sqlstate()} != "3F000" and
        std::string{e.sqlstate()} != "42P01")
      rethrow_classified("reading the applied migrations");
    out.clear();
    for (SqlFile const &file : embedded_migrations())
    {
      auto const [version, name] = version_of(file.path);
      out.push_back({version, name, "pending", "", ""});
    }
  }
  catch (...)
  {
    rethrow_classified("reading the applied migrations");
  }
  return out;
}
} // namespace loader::db
