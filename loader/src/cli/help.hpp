#pragma once
#include <string>
#include <vector>

#include <boost/program_options/options_description.hpp>

#include "cli/command.hpp"

namespace loader::cli
{
/// Width of every help text.
constexpr unsigned help_line_length = 79;

/// An options description as --help shows it (no trailing blanks).
std::string render(boost::program_options::options_description const &d);

/// The options every command takes, before or after its name.
boost::program_options::options_description global_options();
/// The global options whose values are a fixed list.
std::vector<Choice> global_choices();

/// `invoice-loader --help`: the commands, the global options, the exit
/// codes (core/errors.hpp exit_codes()).
std::string global_help();
/// `invoice-loader COMMAND --help`.
std::string command_help(CommandSpec const &c);
} // namespace loader::cli
