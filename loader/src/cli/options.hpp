#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/log.hpp"

namespace loader::cli
{
enum class Command { none, migrate, source_add, load, status };

struct GlobalOptions
{
  std::string dsn;             ///< libpq conninfo; empty = PG* environment
  LogFormat log_format = LogFormat::text;
  LogLevel log_level = LogLevel::info; ///< -v lowers it, -q raises it
  bool help = false;
  bool version = false;
};

struct SourceAddOptions
{
  std::string name;
  std::optional<std::string> policy;             ///< all-or-nothing|partial
  std::optional<std::string> max_rejected_share; ///< decimal in [0,1]
  std::optional<std::string> start_date;         ///< YYYY-MM-DD
  std::optional<std::string> feed_url;
  bool allow_unknown_columns = false;
};

struct LoadOptions
{
  std::string source;
  std::string business_date; ///< YYYY-MM-DD, checked
  std::string input;
  std::optional<std::string> manifest;
  std::optional<std::int64_t> expect_count;
  std::optional<std::string> expect_total; ///< plain decimal, checked
  int retry_attempts = 5;         ///< tries per step, 1..100
  int retry_budget_seconds = 300; ///< whole run, 1..86400
};

struct StatusOptions
{
  std::optional<std::string> source;
  std::optional<std::int64_t> batch_id;
  bool json = false;
};

struct ParsedCommandLine
{
  GlobalOptions global;
  Command command = Command::none;
  SourceAddOptions source_add;
  LoadOptions load;
  StatusOptions status;
  /// Help for what was asked (global or the command's), when global.help.
  std::string help_text;
};

/// argv -> options.  Throws LoaderError{usage} for malformed command lines
/// (unknown option or command, missing value or required option) and
/// LoaderError{config} for well-formed options with bad values (a date that
/// is not YYYY-MM-DD, a policy name, a share outside [0,1], a password in
/// --dsn).  --help and --version are honoured before required options are
/// checked.
ParsedCommandLine parse_command_line(int argc, char const *const argv[]);

/// True for a real calendar date written exactly as YYYY-MM-DD.
bool is_iso_date(std::string const &s);
/// True for -?digits[.digits] (no exponent, sign, spaces or separators).
bool is_plain_decimal(std::string const &s);
/// True when a conninfo string or URI carries a password.
bool dsn_has_password(std::string const &dsn);
} // namespace loader::cli
