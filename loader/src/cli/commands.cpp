/// The table of commands, in the order `invoice-loader --help` lists them
/// (after pgcopydb's cli_root.c).  A new command: a row here, a
/// declaration in cli/commands.hpp, cli/<command>.cpp and
/// flows/<command>.cpp.
#include "cli/commands.hpp"

namespace loader::cli
{
std::vector<CommandSpec> const &command_table()
{
  static std::vector<CommandSpec> const table{
    migrate_command(),         source_add_command(),
    source_check_command(),    load_command(),
    catch_up_command(),        status_command(),
    replay_command(),          revert_command(),
    approve_command(),         reject_command(),
    confirm_command(),         period_close_command(),
    period_reopen_command(),   notify_command(),
    notify_resolve_command(),  schedule_install_command(),
    schedule_remove_command(),
  };
  return table;
}
} // namespace loader::cli
