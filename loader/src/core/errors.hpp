#pragma once
#include <stdexcept>
#include <string>
#include <string_view>

namespace loader
{
/// What the caller may do about a failure.  Decided only in errors.cpp
/// (classify_*), mapped to an exit code only by exit_code_of().
enum class ErrorKind
{
  usage,      ///< the command line is malformed (64)
  data,       ///< the input is wrong; the batch is quarantined (65)
  no_input,   ///< the input file does not exist (66)
  internal,   ///< a bug (70)
  transient,  ///< try again later; rerunning is safe (75)
  in_doubt,   ///< commit outcome unknown; resolve, never blindly redo (75)
  interrupted, ///< SIGTERM/SIGINT; the attempt is closed, rerun is safe (75)
  permission, ///< credentials or privileges (77)
  config,     ///< configuration: unknown source, bad option value (78)
};

/// sysexits.h codes, as CONTRACT.md section 7.
enum ExitCode : int
{
  exit_ok = 0,
  exit_usage = 64,
  exit_data = 65,
  exit_no_input = 66,
  exit_internal = 70,
  exit_temp_fail = 75,
  exit_permission = 77,
  exit_config = 78,
};

int exit_code_of(ErrorKind kind) noexcept;
std::string_view name_of(ErrorKind kind) noexcept;

/// The one error type the loader throws.  sqlstate is empty when the
/// failure did not come from the server (or libpqxx 6.4 dropped it).
struct LoaderError : std::runtime_error
{
  LoaderError(ErrorKind k, std::string const &what, std::string state = {}) :
          std::runtime_error{what}, kind{k}, sqlstate{std::move(state)}
  {}
  ErrorKind kind;
  std::string sqlstate;
};

/// Classify a server SQLSTATE (RELIABILITY.md section 3, docs/FAILURES.md).
ErrorKind classify_sqlstate(std::string_view sqlstate) noexcept;

/// A failure's message as a user sees it: one line, libpq's "ERROR:" and
/// "DETAIL:"/"HINT:" lines joined with "; ", control characters shown as
/// \xNN, and PL/pgSQL's CONTEXT (where in the SQL it failed) left out
/// unless keep_context (-v).
std::string one_line(std::string_view message, bool keep_context);

/// Classify the errno of a failed local file operation on an input.
ErrorKind classify_errno(int err) noexcept;
} // namespace loader
