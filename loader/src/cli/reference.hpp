#pragma once
#include <string>
#include <string_view>
#include <vector>

/// The generated reference: the files (and README.md blocks) that
/// scripts/gen-reference.sh writes from `invoice-loader __reference KIND`,
/// all made from the command table (cli/commands.cpp) and the exit-code
/// table (core/errors.hpp).  The ctest docs.reference_is_generated fails
/// when a committed copy differs.  __reference is not in the command
/// table, so neither --help nor the completion offers it.
namespace loader::cli
{
constexpr std::string_view reference_command_name = "__reference";

/// The kinds __reference prints, each with where its text goes.
struct ReferenceKind
{
  std::string_view kind;   ///< "commands"
  std::string_view target; ///< "docs/reference/commands.md"
  std::string (*text)();
};
std::vector<ReferenceKind> const &reference_kinds();

/// The text of the one kind args names; LoaderError{usage} otherwise.
std::string reference_text(std::vector<std::string> const &args);

/// docs/reference/commands.md
std::string commands_markdown();
/// docs/reference/exit-codes.md
std::string exit_codes_markdown();
/// README.md between the "commands" markers: a table, one row a command.
std::string readme_commands();
/// README.md between the "exit-codes" markers.
std::string readme_exit_codes();
/// The man page's EXIT STATUS, as help2man reads it.
std::string man_exit_status();
/// packaging/invoice-loader.bash-completion (cli/completion.cpp).
std::string bash_completion();
} // namespace loader::cli
