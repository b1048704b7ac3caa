#pragma once
#include "cli/command.hpp"

/// The commands' specs, one per cli/<command>.cpp; cli/commands.cpp lists
/// them in one table.
namespace loader::cli
{
CommandSpec migrate_command();
CommandSpec source_add_command();
CommandSpec load_command();
CommandSpec catch_up_command();
CommandSpec status_command();
} // namespace loader::cli
