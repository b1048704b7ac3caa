/// Command line -> ParsedCommandLine, with Boost.Program_options and the
/// command table (cli/commands.cpp).
///
/// Two passes.  The first parses the global options and takes the first
/// positional token as the command; every other token (unknown options and
/// positionals after the command) is collected, in order, for the second
/// pass, which parses them against the command's own options.  A global
/// option (-v, --help, --dsn...) may therefore also follow the command.
///
/// Malformed command lines raise LoaderError{usage} (exit 64): unknown
/// options, extra arguments, values their option does not take, arguments
/// that are not UTF-8.  The same bad value read from the --config file, and
/// well-formed configuration that is wrong, raise LoaderError{config} (exit
/// 78).  --help and --version are honoured before anything is required or
/// validated; --version not next to an unknown option.
#include <boost/algorithm/string/join.hpp>
#include <boost/program_options.hpp>

#include "cli/command.hpp"
#include "cli/config_file.hpp"
#include "cli/conninfo.hpp"
#include "cli/help.hpp"
#include "cli/reference.hpp"
#include "cli/values.hpp"
#include "core/errors.hpp"
#include "core/utf8.hpp"

namespace po = boost::program_options;

namespace loader::cli
{
namespace
{
/// Boost's default style without prefix guessing: "--verb" is not
/// "--verbose", and an abbreviation can never change meaning when an
/// option is added later.
constexpr int parse_style = po::command_line_style::default_style &
                            ~po::command_line_style::allow_guessing;

struct FirstPass
{
  po::variables_map vm;
  std::optional<std::string> command;
  std::vector<std::string> rest; ///< tokens after the command, in order
  std::optional<std::string> unknown_before_command;
};

bool is_utf8(std::string_view s) noexcept
{
  for (std::size_t i = 0; i < s.size();)
  {
    std::size_t const n{utf8_length(s, i)};
    if (n == 0) return false;
    i += n;
  }
  return true;
}

/// Every argument must be UTF-8: the values are stored in and compared
/// with a UTF-8 database, and printed to terminals.  The error names the
/// option whose value is broken (never the bytes themselves).
void check_arguments_are_utf8(int argc, char const *const argv[])
{
  for (int i = 1; i < argc; ++i)
  {
    std::string_view const a{argv[i]};
    if (is_utf8(a)) continue;
    std::string what{"argument " + std::to_string(i)};
    std::string_view const prev{i > 1 ? argv[i - 1] : ""};
    if (a.rfind("--", 0) == 0 and a.find('=') != std::string_view::npos)
      what = std::string{a.substr(0, a.find('='))};
    else if (prev.rfind("--", 0) == 0 and prev.size() > 2 and
             prev.find('=') == std::string_view::npos and is_utf8(prev))
      what = std::string{prev};
    if (not is_utf8(what)) what = "argument " + std::to_string(i);
    usage_error(what + " is not valid UTF-8", "");
  }
}

FirstPass parse_global(int argc, char const *const argv[])
{
  po::options_description all = global_options();
  all.add_options()("command", po::value<std::string>())(
    "subargs", po::value<std::vector<std::string>>());
  po::positional_options_description pos;
  pos.add("command", 1).add("subargs", -1);

  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);

  FirstPass r;
  try
  {
    po::parsed_options const parsed = po::command_line_parser{args}
                                        .options(all)
                                        .positional(pos)
                                        .style(parse_style)
                                        .allow_unregistered()
                                        .run();
    for (auto const &o : parsed.options)
    {
      // "command" and "subargs" exist only as positions, not as options.
      if ((o.string_key == "command" or o.string_key == "subargs") and
          o.position_key < 0)
        usage_error("unknown option --" + o.string_key, "");
      if (o.string_key == "command" and not r.command)
        r.command = o.value.front();
      else if (o.unregistered or o.string_key == "subargs")
      {
        if (not r.command)
        {
          if (not r.unknown_before_command)
            r.unknown_before_command = option_name_only(
              o.original_tokens.empty() ? o.string_key
                                        : o.original_tokens.front());
        }
        else
          r.rest.insert(r.rest.end(), o.original_tokens.begin(),
                        o.original_tokens.end());
      }
    }
    po::store(parsed, r.vm);
  }
  catch (po::error const &e)
  {
    usage_error(e.what(), "");
  }
  return r;
}

/// The command the words name, consuming a subcommand word from rest.
/// For `source` ("source add", "source check") the subcommand is required;
/// for `notify` ("notify" and "notify resolve") it is optional.  With
/// for_help, a missing subcommand picks the first one instead of failing.
CommandSpec const *find_command(std::string const &word,
                                std::vector<std::string> &rest, bool for_help)
{
  CommandSpec const *single = nullptr;
  std::vector<CommandSpec const *> subs;
  std::vector<std::string> known;
  for (CommandSpec const &c : command_table())
  {
    auto const space = c.name.find(' ');
    if (c.name.substr(0, space) != word) continue;
    if (space == std::string_view::npos)
    {
      single = &c;
      continue;
    }
    subs.push_back(&c);
    known.emplace_back(c.name.substr(space + 1));
  }
  if (not rest.empty())
    for (CommandSpec const *c : subs)
      if (c->name.substr(c->name.find(' ') + 1) == rest.front())
      {
        rest.erase(rest.begin());
        return c;
      }
  if (single != nullptr or subs.empty()) return single;
  if (for_help) return subs.front();
  std::string const list{boost::algorithm::join(known, ", ")};
  if (rest.empty() or rest.front().rfind('-', 0) == 0)
    usage_error("'" + word + "' needs a subcommand: " + list, word);
  usage_error("unknown subcommand " + quoted(rest.front()) + " for '" + word +
                "' (known: " + list + ")",
              word);
}

/// Parse a command's tokens; positional_name, when given, takes one
/// positional argument (and may not be written as an option).
po::variables_map parse_command(std::vector<std::string> const &tokens,
                                CommandSpec const &spec,
                                std::optional<std::string> const &config)
{
  // The --config file's values, merged under the command line's.
  std::vector<std::string> const file_tokens{
    config
      ? config_file_tokens(*config, std::string{spec.name}, spec.options())
      : std::vector<std::string>{}};
  std::string const words{spec.name};
  po::options_description all{spec.options()};
  po::positional_options_description pos;
  if (spec.positional != nullptr)
  {
    all.add_options()(spec.positional, po::value<std::string>());
    pos.add(spec.positional, 1);
  }
  po::variables_map vm;
  try
  {
    po::parsed_options const parsed = po::command_line_parser{tokens}
                                        .options(all)
                                        .positional(pos)
                                        .style(parse_style)
                                        .run();
    for (auto const &o : parsed.options)
      if (spec.positional != nullptr and o.string_key == spec.positional and
          o.position_key < 0)
        usage_error(std::string{"unknown option --"} + spec.positional +
                      " for '" + words + "'",
                    words);
    po::store(parsed, vm);
    std::vector<std::string> taken_from_file;
    if (not file_tokens.empty())
    {
      // Merged second: an option given on the command line keeps its value.
      po::variables_map from_file;
      po::store(po::command_line_parser{file_tokens}
                  .options(spec.options())
                  .style(parse_style)
                  .run(),
                from_file);
      for (auto const &[name, value] : from_file)
        if (vm.count(name) == 0 or vm[name].defaulted())
        {
          vm.erase(name), vm.emplace(name, value);
          taken_from_file.push_back(name);
        }
    }
    note_value_origin(words, config.value_or(""), taken_from_file);
    po::notify(vm);
  }
  catch (po::unknown_option const &e)
  {
    usage_error("unknown option " + option_name_only(e.get_option_name()) +
                  " for '" + words + "'",
                words);
  }
  catch (po::too_many_positional_options_error const &)
  {
    usage_error("too many arguments for '" + words + "'", words);
  }
  catch (po::error const &e)
  {
    usage_error(e.what(), words);
  }
  return vm;
}
} // namespace

ParsedCommandLine parse_command_line(int argc, char const *const argv[])
{
  note_value_origin("", "", {});
  check_arguments_are_utf8(argc, argv);
  FirstPass first = parse_global(argc, argv);
  ParsedCommandLine r;
  auto const &vm = first.vm;
  r.global.help = vm["help"].as<bool>();
  r.global.version = vm["version"].as<bool>();

  if (first.command)
    r.command = find_command(*first.command, first.rest,
                             r.global.help or r.global.version);
  // --version answers only a well-formed command line: an unknown option
  // ("--version --frob") is a usage error like any other.  --help wins:
  // it is what a user who typed a bad option needs.
  if (r.global.version and not r.global.help)
  {
    if (first.unknown_before_command)
      usage_error("unknown option " + *first.unknown_before_command, "");
    if (first.command and r.command == nullptr)
      usage_error("unknown command " + quoted(*first.command), "");
  }
  if (r.global.help and (not first.command or r.command != nullptr))
  {
    r.help_text = r.command ? command_help(*r.command) : global_help();
    return r;
  }
  if (r.global.version) return r;

  if (first.unknown_before_command)
    usage_error("unknown option " + *first.unknown_before_command, "");
  if (not first.command) usage_error("no command given", "");
  if (r.command == nullptr and *first.command == reference_command_name)
  {
    // Hidden: prints a generated file (scripts/gen-reference.sh).
    std::string const text{reference_text(first.rest)};
    r.run = [text](GlobalOptions const &, Logger const &) {
      return flows::Result{flows::Outcome::done, text};
    };
    return r;
  }
  if (r.command == nullptr)
    usage_error("unknown command " + quoted(*first.command), "");
  try
  {
    po::notify(first.vm);
  }
  catch (po::error const &e)
  {
    usage_error(e.what(), "");
  }

  bool const verbose = vm["verbose"].as<bool>();
  bool const quiet = vm["quiet"].as<bool>();
  if (verbose and quiet)
    usage_error("-v/--verbose and -q/--quiet cannot be combined", "");
  if (verbose) r.global.log_level = LogLevel::debug;
  if (quiet) r.global.log_level = LogLevel::warn;

  Bound bound{
    r.command->bind(parse_command(first.rest, *r.command, get(vm, "config")))};
  r.options = std::move(bound.options);
  r.run = std::move(bound.run);

  // Global values last: a malformed command line is a usage error (64)
  // even when a global value is bad too.
  if (auto const f = get(vm, "log-format"))
    r.global.log_format = check_text_or_json("log-format", *f)
                            ? LogFormat::json
                            : LogFormat::text;
  if (auto const dsn = get(vm, "dsn"))
  {
    // Never echo the value: it carries a secret.
    if (dsn_has_password(*dsn))
      config_error("--dsn must not contain a password; put it in a "
                   "password file (PGPASSFILE or ~/.pgpass) or a service "
                   "file (PGSERVICEFILE) instead");
    r.global.dsn = *dsn;
  }
  return r;
}
} // namespace loader::cli
