/// `invoice-loader migrate`.
#include "flows/migrate.hpp"
#include "cli/commands.hpp"
#include "cli/help.hpp"
#include "cli/values.hpp"

namespace po = boost::program_options;

namespace loader::cli
{
namespace
{
std::string description()
{
  return "Apply the migrations and (re)create the SQL functions in the "
         "database of\n--dsn. Idempotent and safe to run concurrently; works "
         "with or without\npg_cron. Every other command first checks that "
         "the database's schema is the\none this binary expects (exit 78 "
         "otherwise).\n";
}

po::options_description options()
{
  po::options_description d{"Options for migrate", help_line_length};
  d.add_options()(
    "status", po::bool_switch(),
    "list the migrations this binary carries, applied (when, by whom) or "
    "pending, and any the database has that it does not know; change "
    "nothing");
  return d;
}

Bound bind(po::variables_map const &vm)
{
  flows::MigrateRequest out;
  out.status = flag(vm, "status");
  return {out, [out](GlobalOptions const &g, Logger const &log) {
            return flows::migrate(g.dsn, out, log);
          }};
}
} // namespace

CommandSpec migrate_command()
{
  return {"migrate",
          "apply the migrations and SQL functions (idempotent)",
          "migrate [--status]",
          description,
          options,
          nullptr,
          bind,
          "the database's owner (or a superuser)"};
}
} // namespace loader::cli
