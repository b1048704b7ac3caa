// The exit-code table (core/errors.hpp) and what is generated from it and
// from the command table (cli/reference.hpp, cli/completion.cpp): every
// error class maps to one listed code, --help lists every code, the
// enumerated values are the ones bind() accepts, and `__reference` is a
// hidden command that prints the generated texts.
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/help.hpp"
#include "cli/reference.hpp"
#include "core/errors.hpp"
#include "flows/outcome.hpp"

using Catch::Matchers::Contains;
using loader::ErrorKind;
using loader::ExitCodeInfo;
using loader::LoaderError;

namespace
{
using Args = std::vector<char const *>;

loader::cli::ParsedCommandLine parse(Args args)
{
  args.insert(args.begin(), "invoice-loader");
  return loader::cli::parse_command_line(static_cast<int>(args.size()),
                                         args.data());
}

ErrorKind kind_of(Args const &args)
{
  try
  {
    parse(args);
  }
  catch (LoaderError const &e)
  {
    return e.kind;
  }
  FAIL("no error");
  return ErrorKind::internal;
}
} // namespace

TEST_CASE("exit-code table: the sysexits codes and each class in one row",
          "[unit][cli]")
{
  std::vector<int> codes;
  std::set<std::string_view> names;
  unsigned seen = 0;
  for (ExitCodeInfo const &e : loader::exit_codes())
  {
    codes.push_back(e.code);
    CHECK(names.insert(e.name).second);
    CHECK((seen & e.kinds) == 0); // a class in two rows: ambiguous
    seen |= e.kinds;
    CHECK(e.summary.size() <= 73); // "  64  " + it: 79 columns
    CHECK_FALSE(e.meaning.empty());
    CHECK_FALSE(e.action.empty());
  }
  CHECK(codes == std::vector<int>{0, 64, 65, 66, 70, 75, 77, 78});
  for (ErrorKind const k : loader::error_kinds)
    CHECK((seen & loader::kind_bit(k)) != 0);
}

TEST_CASE("exit-code table: exit_code_of keeps every class's code",
          "[unit][cli]")
{
  CHECK(loader::exit_code_of(ErrorKind::usage) == 64);
  CHECK(loader::exit_code_of(ErrorKind::data) == 65);
  CHECK(loader::exit_code_of(ErrorKind::no_input) == 66);
  CHECK(loader::exit_code_of(ErrorKind::internal) == 70);
  CHECK(loader::exit_code_of(ErrorKind::transient) == 75);
  CHECK(loader::exit_code_of(ErrorKind::in_doubt) == 75);
  CHECK(loader::exit_code_of(ErrorKind::interrupted) == 75);
  CHECK(loader::exit_code_of(ErrorKind::permission) == 77);
  CHECK(loader::exit_code_of(ErrorKind::config) == 78);
}

TEST_CASE("--help and the reference list every exit code of the table",
          "[unit][cli]")
{
  std::string const help{loader::cli::global_help()};
  std::string const doc{loader::cli::exit_codes_markdown()};
  std::string const readme{loader::cli::readme_exit_codes()};
  std::string const man{loader::cli::man_exit_status()};
  for (ExitCodeInfo const &e : loader::exit_codes())
  {
    std::string const code{std::to_string(e.code)};
    std::string const pad(4 - code.size(), ' ');
    CHECK_THAT(help,
               Contains("\n  " + code + pad + std::string{e.summary} + "\n"));
    CHECK_THAT(doc, Contains("| " + code + " | " + std::string{e.name}));
    CHECK_THAT(readme, Contains("| " + code + " | "));
    CHECK_THAT(man, Contains("\n  " + code + "  "));
  }
  CHECK_THAT(doc, Contains("| `transient`, `in_doubt`, `interrupted` |"));
}

TEST_CASE("enumerated values: what the completion offers is what bind takes",
          "[unit][cli]")
{
  for (auto const &c : loader::cli::command_table())
    for (auto const &choice : c.choices)
    {
      CAPTURE(c.name, choice.option);
      bool listed = false;
      auto const described = c.options();
      for (auto const &o : described.options())
        listed = listed or o->long_name() == choice.option;
      CHECK(listed);
    }
  // Every value of --state is accepted; anything else is a usage error
  // (a value its option does not take).
  for (char const *state : {"received", "staged", "validated", "published",
                            "quarantined", "reverted"})
    CHECK_NOTHROW(parse({"status", "--state", state}));
  CHECK(kind_of({"status", "--state", "lost"}) == ErrorKind::usage);
  CHECK(kind_of({"status", "--format", "xml"}) == ErrorKind::usage);
  CHECK(kind_of({"source", "add", "s", "--policy", "most"}) ==
        ErrorKind::usage);
  CHECK(kind_of({"notify", "resolve", "--notification", "1", "--as", "x",
                 "--reason", "r"}) == ErrorKind::usage);
}

TEST_CASE("completion: every command and option of the table is offered",
          "[unit][cli]")
{
  std::string const script{loader::cli::bash_completion()};
  for (auto const &c : loader::cli::command_table())
  {
    std::string const words{c.name};
    CHECK_THAT(script, Contains(words.find(' ') == std::string::npos
                                  ? "    " + words + ")\n"
                                  : "    '" + words + "')\n"));
    auto const described = c.options();
    for (auto const &o : described.options())
      CHECK_THAT(script, Contains("--" + o->long_name()));
    for (auto const &choice : c.choices)
      for (auto const v : choice.values)
        CHECK_THAT(script, Contains(std::string{v}));
  }
  // Not offered: the header names it, the function does not.
  CHECK_THAT(script.substr(script.find("_invoice_loader()")),
             !Contains("__reference"));
}

TEST_CASE("__reference is hidden and prints a generated text", "[unit][cli]")
{
  auto const r = parse({"__reference", "exit-codes"});
  CHECK(r.command == nullptr);
  auto const result = r.run({}, loader::Logger{"test", loader::LogFormat::text,
                                               loader::LogLevel::error});
  CHECK(result.outcome == loader::flows::Outcome::done);
  CHECK(result.output == loader::cli::exit_codes_markdown());
  CHECK(kind_of({"__reference"}) == ErrorKind::usage);
  CHECK(kind_of({"__reference", "nonsense"}) == ErrorKind::usage);
  CHECK(kind_of({"__reference", "commands", "extra"}) == ErrorKind::usage);
  CHECK_THAT(loader::cli::global_help(), !Contains("__reference"));
}

TEST_CASE("reference: the host's libcurl does not reach the committed files",
          "[unit][cli]")
{
  std::string const md{loader::cli::commands_markdown()};
  CHECK_THAT(md, !Contains("libcurl/"));
  CHECK_THAT(md, Contains("## source add\n"));
  CHECK_THAT(md, Contains("Needs a login role that is a member of "
                          "invoice_operator."));
  CHECK_THAT(loader::cli::readme_commands(),
             Contains("(docs/reference/commands.md#notify-resolve)"));
}
