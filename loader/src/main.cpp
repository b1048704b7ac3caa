// invoice-loader: parse the command line, run the command's flow, map its
// outcome or its error to an exit code (the table exit_codes() of
// core/errors.hpp, docs/reference/exit-codes.md).  Nothing else lives here.
#include <exception>
#include <iostream>
#include <string>
#include <string_view>

#include "cli/command.hpp"
#include "core/errors.hpp"
#include "core/log.hpp"
#include "core/printable.hpp"

namespace
{
using namespace loader;

int exit_code_of(flows::Outcome o) noexcept
{
  switch (o)
  {
  case flows::Outcome::done: return exit_ok;
  case flows::Outcome::quarantined: return exit_data;
  case flows::Outcome::no_input: return exit_no_input;
  case flows::Outcome::waiting:
  case flows::Outcome::busy:
  case flows::Outcome::not_delivered: return exit_temp_fail;
  case flows::Outcome::refused: return exit_config;
  }
  return exit_internal;
}

/// The outcome's name in the run's last log record.
char const *name_of(flows::Outcome o) noexcept
{
  switch (o)
  {
  case flows::Outcome::done: return "done";
  case flows::Outcome::quarantined: return "quarantined";
  case flows::Outcome::no_input: return "no_input";
  case flows::Outcome::waiting: return "waiting";
  case flows::Outcome::busy: return "busy";
  case flows::Outcome::not_delivered: return "not_delivered";
  case flows::Outcome::refused: return "refused";
  }
  return "unknown";
}

/// Every run ends with one log record of its outcome, so that a log
/// stream (the journal, a file) tells what stdout told: at debug when what
/// was asked is done (the flow logged its events already), at warn when it
/// is to be tried again later (waiting, busy, not delivered, no input), at
/// error when a human must act (quarantined, refused).  The message is the
/// first line of the command's output, which says why (at most 1000
/// bytes), or "finished" when what was asked is done.
void log_outcome(Logger const &log, cli::ParsedCommandLine const &cl,
                 flows::Result const &r, int code)
{
  LogLevel const level{r.outcome == flows::Outcome::done ? LogLevel::debug
                       : r.outcome == flows::Outcome::quarantined or
                           r.outcome == flows::Outcome::refused
                         ? LogLevel::error
                         : LogLevel::warn};
  // A refusal's or a wait's reason is its first line; a finished
  // command's output (a report, a JSON document) is not a log message.
  std::string_view const first{r.outcome == flows::Outcome::done
                                 ? std::string_view{}
                                 : std::string_view{r.output}
                                     .substr(0, r.output.find('\n'))
                                     .substr(0, 1000)};
  log.log(level, first.empty() ? std::string_view{"finished"} : first,
          {{"command", cl.command != nullptr ? cl.command->name : ""},
           {"outcome", name_of(r.outcome)},
           {"exit_code", code}});
}

/// --log-format json anywhere on the command line, read before (and
/// whatever) the parser says, so that a usage error is a JSON line too.
bool asks_for_json(int argc, char const *const argv[])
{
  for (int i = 1; i < argc; ++i)
  {
    std::string_view const a{argv[i]};
    if (a == "--log-format=json") return true;
    if (a == "--log-format" and i + 1 < argc and
        std::string_view{argv[i + 1]} == "json")
      return true;
  }
  return false;
}

/// The error line: one line, CONTEXT only with -v, and for a missing
/// privilege the role the command needs.
std::string user_message(LoaderError const &e,
                         cli::ParsedCommandLine const &cl)
{
  std::string m{one_line(e.what(), cl.global.log_level == LogLevel::debug)};
  if (e.kind == ErrorKind::permission and e.sqlstate == "42501" and
      cl.command != nullptr and not cl.command->role.empty())
    m += " (invoice-loader " + std::string{cl.command->name} +
         " needs a login role that is a member of " +
         std::string{cl.command->role} + ")";
  return m;
}
} // namespace

int main(int argc, char *argv[])
{
  cli::ParsedCommandLine cl;
  try
  {
    cl = cli::parse_command_line(argc, argv);
  }
  catch (LoaderError const &e)
  {
    if (asks_for_json(argc, argv))
      Logger{new_run_id(), LogFormat::json, LogLevel::error}.error(
        e.what(), {{"class", name_of(e.kind)}});
    else
      std::cerr << "invoice-loader: " << printable(e.what())
                << "\nRun 'invoice-loader --help' for usage.\n";
    return exit_code_of(e.kind);
  }
  if (cl.global.help)
  {
    std::cout << cl.help_text;
    return exit_ok;
  }
  if (cl.global.version)
  {
    std::cout << cli::version_text();
    return exit_ok;
  }

  Logger const log{new_run_id(), cl.global.log_format, cl.global.log_level};
  try
  {
    flows::Result const r{cl.run(cl.global, log)};
    std::cout << r.output << std::flush;
    int const code{exit_code_of(r.outcome)};
    log_outcome(log, cl, r, code);
    return code;
  }
  catch (LoaderError const &e)
  {
    std::string const m{user_message(e, cl)};
    if (e.sqlstate.empty())
      log.error(m, {{"class", name_of(e.kind)}});
    else
      log.error(m, {{"class", name_of(e.kind)}, {"sqlstate", e.sqlstate}});
    return exit_code_of(e.kind);
  }
  catch (std::exception const &e)
  {
    log.error(std::string{"internal error: "} + e.what(),
              {{"class", "internal"}});
    return exit_internal;
  }
  catch (...)
  {
    log.error("internal error: unknown exception", {{"class", "internal"}});
    return exit_internal;
  }
}
