#pragma once
#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace loader
{
/// What the caller may do about a failure.  Decided only in errors.cpp
/// (classify_*), mapped to an exit code only by exit_code_of().
enum class ErrorKind
{
  usage,       ///< the command line is malformed (64)
  data,        ///< the input is wrong; the batch is quarantined (65)
  no_input,    ///< the input file does not exist (66)
  internal,    ///< a bug (70)
  transient,   ///< try again later; rerunning is safe (75)
  in_doubt,    ///< commit outcome unknown; resolve, never blindly redo (75)
  interrupted, ///< SIGTERM/SIGINT; the attempt is closed, rerun is safe (75)
  permission,  ///< credentials or privileges (77)
  config,      ///< configuration: unknown source, bad option value (78)
};

/// Every ErrorKind, in the order above (for tables and tests).
constexpr ErrorKind error_kinds[] = {
  ErrorKind::usage,       ErrorKind::data,       ErrorKind::no_input,
  ErrorKind::internal,    ErrorKind::transient,  ErrorKind::in_doubt,
  ErrorKind::interrupted, ErrorKind::permission, ErrorKind::config,
};

/// sysexits.h codes.  Each has one row in exit_codes(), the table that
/// exit_code_of(), --help, the man page, README.md and
/// docs/reference/exit-codes.md all read.
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

/// The bit of an ErrorKind in ExitCodeInfo::kinds.
constexpr unsigned kind_bit(ErrorKind k) noexcept
{
  return 1u << static_cast<unsigned>(k);
}

/// One exit code, as every listing of the codes shows it.  The texts may
/// hold `code spans` (Markdown); plain-text renderings drop the backticks.
struct ExitCodeInfo
{
  ExitCode code;
  std::string_view name;    ///< the sysexits.h name: "EX_USAGE"
  std::string_view summary; ///< one line of --help (at most 73 columns)
  std::string_view meaning; ///< when the loader exits with it, in full
  std::string_view action;  ///< what a scheduler or operator should do
  unsigned kinds;           ///< kind_bit() of each ErrorKind mapped to it
};

/// Every exit code the loader uses, ascending; exit_code_of() maps each
/// ErrorKind to the row whose kinds hold it.
std::vector<ExitCodeInfo> const &exit_codes();

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
  /// The least wait the failure asks for before another try (an HTTP
  /// 429/503's Retry-After), uncapped; the retry layer caps it by what is
  /// left of its budget.  Absent for most failures.
  std::optional<std::chrono::milliseconds> retry_after;
};

/// Classify a server SQLSTATE (docs/reference/faults.md).
ErrorKind classify_sqlstate(std::string_view sqlstate) noexcept;

/// A failure's message as a user sees it: one line, libpq's "ERROR:" and
/// "DETAIL:"/"HINT:" lines joined with "; ", control characters shown as
/// \xNN, and PL/pgSQL's CONTEXT (where in the SQL it failed) left out
/// unless keep_context (-v).
std::string one_line(std::string_view message, bool keep_context);

/// Classify the errno of a failed local file operation on an input.
ErrorKind classify_errno(int err) noexcept;

/// Classify a failed libcurl transfer by its CURLcode (passed as int so
/// this header needs no <curl/curl.h>).  Timeouts, resets, DNS and
/// connect failures, cut bodies: transient.  TLS verification and CA
/// problems, unsupported protocols, malformed URLs, too many redirects:
/// config.  Login refused: permission.  A missing remote file (file://,
/// sftp://): transient, and is_not_delivered_curl() says so.  0 (CURLE_OK)
/// and codes not listed: internal.
ErrorKind classify_curl(int curl_code) noexcept;

/// Classify an HTTP status that ended a transfer unsuccessfully: 408, 429
/// and 5xx transient; 401, 403 and 407 permission; 404 and 410 transient
/// (not delivered yet: is_not_delivered_http()); other 4xx and any 3xx
/// left unfollowed config; 1xx/2xx internal (not a failure).
ErrorKind classify_http_status(int status) noexcept;

/// Whether a failure means "the sender has not published it yet" (exit 75,
/// nothing registered, not worth retrying within the run): HTTP 404/410,
/// or curl's file-not-found for file:// and sftp:// (CURLE_REMOTE_FILE_
/// NOT_FOUND 78, CURLE_FILE_COULDNT_READ_FILE 37).  The kind stays
/// transient; net::TransportError::not_delivered carries the answer.
bool is_not_delivered_http(int status) noexcept;
bool is_not_delivered_curl(int curl_code) noexcept;

/// Classify an SMTP reply code that refused a mail: 4xx transient;
/// 530/534/535/538 (authentication) permission; other 5xx config (a
/// recipient or sender the server will never take); anything else
/// internal.
ErrorKind classify_smtp_reply(int code) noexcept;
} // namespace loader
