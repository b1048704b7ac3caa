#pragma once
#include "cli/command.hpp"

/// The commands' specs, one per cli/<command>.cpp; cli/commands.cpp lists
/// them in one table.
namespace loader::cli
{
CommandSpec migrate_command();
CommandSpec source_add_command();
CommandSpec source_check_command();
CommandSpec load_command();
CommandSpec catch_up_command();
CommandSpec status_command();
CommandSpec replay_command();
CommandSpec revert_command();
CommandSpec approve_command();
CommandSpec reject_command();
CommandSpec confirm_command();
CommandSpec period_close_command();
CommandSpec period_reopen_command();
CommandSpec notify_command();
CommandSpec notify_resolve_command();
CommandSpec schedule_install_command();
CommandSpec schedule_remove_command();
} // namespace loader::cli
