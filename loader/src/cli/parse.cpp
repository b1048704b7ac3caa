/// Command line -> ParsedCommandLine, with Boost.Program_options and the
/// command table (cli/commands.cpp).
///
/// Two passes.  The first parses the global options and takes the first
/// positional token as the command; every other token (unknown options and
/// positionals after the command) is collected, in order, for the second
/// pass, which parses them against the command's own options.  A global
/// option (-v, --help, --dsn...) may therefore also follow the command.
///
/// Malformed command lines raise LoaderError{usage} (exit 64); well-formed
/// options with bad values raise LoaderError{config} (exit 78).  --help and
/// --version are honoured before anything is required or validated.
#include <sstream>

#include <boost/algorithm/string/join.hpp>
#include <boost/algorithm/string/trim.hpp>
#include <boost/program_options.hpp>

#include "cli/command.hpp"
#include "cli/config_file.hpp"
#include "cli/conninfo.hpp"
#include "cli/help.hpp"
#include "cli/values.hpp"
#include "core/errors.hpp"

namespace po = boost::program_options;

namespace loader::cli
{
namespace
{
/// Boost's default style without prefix guessing: "--verb" is not
/// "--verbose", and an abbreviation can never change meaning when an
/// option is added later.
constexpr int parse_style =
  po::command_line_style::default_style &
  ~po::command_line_style::allow_guessing;

po::options_description global_options()
{
  po::options_description d{"Global options", help_line_length};
  d.add_options()
    ("dsn", po::value<std::string>()->value_name("CONNINFO"),
     "libpq connection string (key=value or postgresql:// URI). "
     "Default: the PG* environment (PGHOST, PGPORT, PGDATABASE, PGUSER, "
     "PGSERVICE), the service file and the password file (.pgpass or "
     "PGPASSFILE). Never a password: a --dsn carrying one is refused.")
    ("log-format", po::value<std::string>()->value_name("text|json"),
     "format of the log lines on stderr (default: text)")
    ("verbose,v", po::bool_switch(), "log debug messages too")
    ("quiet,q", po::bool_switch(), "log warnings and errors only")
    ("config", po::value<std::string>()->value_name("FILE"),
     "more options from FILE (name = value lines; a [command] section, "
     "e.g. [notify] or [catch-up], for one command's); the command line "
     "wins. The one place for secrets (an SMTP password, credentials): "
     "refused unless owned by you with mode 0600 or stricter")
    ("help,h", po::bool_switch(),
     "show this help; after a command, that command's help")
    ("version", po::bool_switch(), "print the version and exit");
  return d;
}

std::string global_help()
{
  std::string h =
    "Usage: invoice-loader [global options] COMMAND [options]\n"
    "\n"
    "Nightly CSV invoice import into PostgreSQL: one file of one source "
    "for one\nbusiness date is one batch.\n"
    "\n"
    "Commands:\n";
  for (CommandSpec const &c : command_table())
  {
    std::string name{c.name};
    name.resize(std::max<std::size_t>(name.size() + 2, 17), ' ');
    h += "  " + name + std::string{c.summary} + "\n";
  }
  h += "\n" + render(global_options()) +
       "\n"
       "Connection: without --dsn, libpq reads the PG* environment "
       "variables, the\nservice file (PGSERVICE, PGSERVICEFILE, "
       "~/.pg_service.conf) and the password\nfile (PGPASSFILE or "
       "~/.pgpass). A password is never accepted on the command\nline.\n"
       "\n"
       "Exit codes:\n"
       "  0   success; for load: the batch is published (by this run or an "
       "earlier one)\n"
       "  64  usage error: the command line is malformed\n"
       "  65  data error: the batch is quarantined; the reasons are stored\n"
       "  66  the input does not exist\n"
       "  70  internal error (a bug)\n"
       "  75  temporary failure; rerunning later is safe\n"
       "  77  permission or credential failure\n"
       "  78  configuration error (unknown source, bad option value)\n"
       "\n"
       "Run 'invoice-loader COMMAND --help' for the options of a command.\n";
  return h;
}

std::string command_help(CommandSpec const &c)
{
  std::string h = "Usage: invoice-loader [global options] " +
                  std::string{c.usage} + "\n\n" + c.description();
  po::options_description const options = c.options();
  if (not options.options().empty()) h += "\n" + render(options);
  h += "\nGlobal options are listed by 'invoice-loader --help', as are "
       "the exit codes.\n";
  return h;
}

struct FirstPass
{
  po::variables_map vm;
  std::optional<std::string> command;
  std::vector<std::string> rest; ///< tokens after the command, in order
  std::optional<std::string> unknown_before_command;
};

FirstPass parse_global(int argc, char const *const argv[])
{
  po::options_description all = global_options();
  all.add_options()
    ("command", po::value<std::string>())
    ("subargs", po::value<std::vector<std::string>>());
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
/// For `source` (only "source add" exists) the subcommand is required;
/// for `notify` ("notify" and "notify resolve") it is optional.  With
/// for_help, a missing subcommand picks the first one instead of failing.
CommandSpec const *find_command(std::string const &word,
                                std::vector<std::string> &rest,
                                bool for_help)
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
  usage_error("unknown subcommand " + quoted(rest.front()) + " for '" +
                word + "' (known: " + list + ")",
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
    config ? config_file_tokens(*config, std::string{spec.name},
                                spec.options())
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
          vm.erase(name), vm.emplace(name, value);
    }
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

std::string render(po::options_description const &d)
{
  std::ostringstream out;
  out << d;
  std::istringstream lines{out.str()};
  std::string r, line;
  // Boost's rendering, without the blanks it leaves at line ends.
  while (std::getline(lines, line))
    r += boost::algorithm::trim_right_copy(line) + "\n";
  return r;
}

ParsedCommandLine parse_command_line(int argc, char const *const argv[])
{
  FirstPass first = parse_global(argc, argv);
  ParsedCommandLine r;
  auto const &vm = first.vm;
  r.global.help = vm["help"].as<bool>();
  r.global.version = vm["version"].as<bool>();

  if (first.command)
    r.command = find_command(*first.command, first.rest,
                             r.global.help or r.global.version);
  if (r.global.help and (not first.command or r.command != nullptr))
  {
    r.help_text = r.command ? command_help(*r.command) : global_help();
    return r;
  }
  if (r.global.version) return r;

  if (first.unknown_before_command)
    usage_error("unknown option " + *first.unknown_before_command, "");
  if (not first.command) usage_error("no command given", "");
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

  Bound bound{r.command->bind(
    parse_command(first.rest, *r.command, get(vm, "config")))};
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
