#pragma once
#include <any>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/variables_map.hpp>

#include "core/log.hpp"
#include "flows/outcome.hpp"

namespace loader::cli
{
struct GlobalOptions
{
  std::string dsn; ///< libpq conninfo; empty = PG* environment
  LogFormat log_format = LogFormat::text;
  LogLevel log_level = LogLevel::info; ///< -v lowers it, -q raises it
  bool help = false;
  bool version = false;
};

/// A parsed command, ready to run: its flow with the options bound.
using Runner =
  std::function<flows::Result(GlobalOptions const &, Logger const &)>;

/// What a command's bind() makes of its parsed options: the options as a
/// plain struct (for tests and --help), and the runner.
struct Bound
{
  std::any options;
  Runner run;
};

/// An option whose value is one of a fixed list: bind() checks it
/// (check_one_of, cli/values.hpp) and the completion offers the values.
struct Choice
{
  std::string_view option;              ///< without "--": "format"
  std::vector<std::string_view> values; ///< in the order help lists them
};

/// One row of the command table (cli/commands.cpp).  Adding a command is
/// one row there plus the command's own files: cli/<command>.cpp (this
/// spec) and flows/<command>.cpp (what it does).
struct CommandSpec
{
  std::string_view name;    ///< the words as typed: "load", "source add"
  std::string_view summary; ///< one line of the global help
  std::string_view usage;   ///< after "invoice-loader [global options] "
  /// The paragraph(s) of the command's own help, before its options.
  std::string (*description)();
  /// The command's options (Boost.Program_options), or an empty set.
  boost::program_options::options_description (*options)();
  /// The name of its one positional argument ("NAME"), or nullptr.
  char const *positional;
  /// Checks the values (LoaderError usage or config) and binds the flow.
  Bound (*bind)(boost::program_options::variables_map const &vm);
  /// The group role (created by migrate) a login role must be a member
  /// of to run it, named in a permission error; empty when any may.
  std::string_view role = {};
  /// The options among options() whose values are a fixed list.
  std::vector<Choice> choices = {};
};

/// Every command, in the order the global help lists them.
std::vector<CommandSpec> const &command_table();

struct ParsedCommandLine
{
  GlobalOptions global;
  CommandSpec const *command = nullptr; ///< nullptr: none given
  std::any options; ///< the command's options struct (see its bind())
  Runner run;
  /// Help for what was asked (global or the command's), when global.help.
  std::string help_text;

  std::string_view command_name() const noexcept
  {
    return command == nullptr ? std::string_view{} : command->name;
  }
  template<typename T> T const &options_as() const
  {
    return std::any_cast<T const &>(options);
  }
};

/// argv -> options.  Throws LoaderError{usage} for malformed command lines
/// (unknown option or command, missing value or required option, an extra
/// argument, a value its option does not take: a date that is not
/// YYYY-MM-DD, a policy name, a share outside [0,1]; an argument that is
/// not UTF-8) and LoaderError{config} for configuration that is wrong (a
/// bad value in the --config file, a password in --dsn).  --help and
/// --version are honoured before required options are checked.
ParsedCommandLine parse_command_line(int argc, char const *const argv[]);

/// The text --version prints: version, commit, libpq, schema expected.
std::string version_text();
} // namespace loader::cli
