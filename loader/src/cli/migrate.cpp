/// `invoice-loader migrate`.
#include "cli/commands.hpp"
#include "flows/migrate.hpp"

namespace po = boost::program_options;

namespace loader::cli
{
namespace
{
std::string description()
{
  return "Apply the migrations and (re)create the SQL functions in the "
         "database of\n--dsn. Idempotent and safe to run concurrently. "
         "Takes no options.\n";
}

po::options_description options() { return po::options_description{}; }

Bound bind(po::variables_map const &)
{
  return {std::any{},
          [](GlobalOptions const &g, Logger const &log) {
            return flows::migrate(g.dsn, log);
          }};
}
} // namespace

CommandSpec migrate_command()
{
  return {"migrate",
          "apply the migrations and SQL functions (idempotent)",
          "migrate",
          description,
          options,
          nullptr,
          bind};
}
} // namespace loader::cli
