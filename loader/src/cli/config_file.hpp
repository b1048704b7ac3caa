#pragma once
#include <string>
#include <vector>

#include <boost/program_options/options_description.hpp>

namespace loader::cli
{
/// The --config file as command-line tokens for one command: its top-level
/// `name = value` lines whose name is one of the command's options, and
/// the lines of its own `[command]` section (`[notify]`, `[catch-up]`,
/// `[notify-resolve]`: the command's words joined by '-').  Boost.Program_
/// options reads the file (its INI-like syntax: `#` comments, `[section]`
/// headers); values for other commands are left out, so one file serves
/// them all.  The file must be owned by the user running the loader and
/// not be readable or writable by anyone else (mode 0600 or stricter),
/// since it is where secrets live: LoaderError{config} otherwise, or when
/// it cannot be read or parsed.  The tokens never reach a log line.
std::vector<std::string> config_file_tokens(
  std::string const &path, std::string const &command_name,
  boost::program_options::options_description const &options);
} // namespace loader::cli
