/// The help texts: `invoice-loader --help` and each command's, built from
/// the command table (cli/commands.cpp) and the exit-code table
/// (core/errors.hpp), the same tables the reference files are made from.
#include "cli/help.hpp"

#include <algorithm>
#include <sstream>

#include <boost/algorithm/string/trim.hpp>
#include <boost/program_options.hpp>

#include "cli/values.hpp"
#include "core/errors.hpp"

namespace po = boost::program_options;

namespace loader::cli
{
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

po::options_description global_options()
{
  po::options_description d{"Global options", help_line_length};
  d.add_options()(
    "dsn", po::value<std::string>()->value_name("CONNINFO"),
    "libpq connection string (key=value or postgresql:// URI). "
    "Default: the PG* environment (PGHOST, PGPORT, PGDATABASE, PGUSER, "
    "PGSERVICE), the service file and the password file (.pgpass or "
    "PGPASSFILE). Never a password: a --dsn carrying one is refused.")(
    "log-format", po::value<std::string>()->value_name("text|json"),
    "format of the log lines on stderr (default: text)")(
    "verbose,v", po::bool_switch(), "log debug messages too")(
    "quiet,q", po::bool_switch(), "log warnings and errors only")(
    "config", po::value<std::string>()->value_name("FILE"),
    "more options from FILE (name = value lines; a [command] section, "
    "e.g. [notify] or [catch-up], for one command's); the command line "
    "wins. The one place for secrets (an SMTP password, credentials): "
    "refused unless owned by you with mode 0600 or stricter, or owned by "
    "root, in your group, with mode 0640 (the rule of every file that "
    "holds secrets)")("help,h", po::bool_switch(),
                      "show this help; after a command, that command's help")(
    "version", po::bool_switch(), "print the version and exit");
  return d;
}

std::vector<Choice> global_choices()
{
  return {{"log-format", text_or_json()}};
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
       "Exit codes:\n";
  for (ExitCodeInfo const &e : exit_codes())
  {
    std::string code{std::to_string(e.code)};
    code.resize(4, ' ');
    h += "  " + code + std::string{e.summary} + "\n";
  }
  h += "\n"
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
} // namespace loader::cli
