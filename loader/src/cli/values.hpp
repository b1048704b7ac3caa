#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/program_options/variables_map.hpp>

#include "core/digits.hpp"

namespace loader::cli
{
/// LoaderError{usage}: "<msg>; see 'invoice-loader <hint> --help'".
[[noreturn]] void usage_error(std::string const &msg, std::string_view hint);
/// LoaderError{config} with the message as given.
[[noreturn]] void config_error(std::string const &msg);
/// A malformed value of --<option>: LoaderError{usage} (64) when it was
/// typed on the command line, LoaderError{config} (78) naming the file
/// when it came from the --config file (see note_value_origin).
[[noreturn]] void bad_value(std::string_view option, std::string const &msg);
/// What bad_value needs to know of the command line being bound: the
/// command's words (for the usage hint), the --config file's path and the
/// options whose value came from it.
void note_value_origin(std::string words, std::string config_path,
                       std::vector<std::string> from_file);

/// The option's value, or nothing when it was not given.
std::optional<std::string> get(boost::program_options::variables_map const &vm,
                               char const *key);
/// A switch (po::bool_switch).
bool flag(boost::program_options::variables_map const &vm, char const *key);
std::string quoted(std::string const &v);

/// --<option> must be a real date written as YYYY-MM-DD (bad_value).
void check_date(char const *option, std::string const &v);
/// The values of a --log-format or --format that takes text or json.
std::vector<std::string_view> const &text_or_json();
/// --<option> must be text or json (bad_value); returns v == "json".
bool check_text_or_json(char const *option, std::string const &v);
/// --<option> must be one of values (bad_value naming them all).
void check_one_of(char const *option, std::string const &v,
                  std::vector<std::string_view> const &values);
/// --<option> must not be empty (bad_value).
void check_not_empty(char const *option, std::string const &v);
/// A whole number from lo to hi, or nothing when the option is absent
/// (bad_value otherwise).
std::optional<std::int64_t> bounded(
  boost::program_options::variables_map const &vm, char const *option,
  std::int64_t lo, std::int64_t hi);
/// A positive integer id (--batch, --notification), or nothing
/// (bad_value otherwise).
std::optional<std::int64_t> positive_id(
  boost::program_options::variables_map const &vm, char const *option);

/// True for a real calendar date written exactly as YYYY-MM-DD.
bool is_iso_date(std::string const &s);
/// True for -?digits[.digits] (no exponent, sign, spaces or separators).
bool is_plain_decimal(std::string const &s);
/// True for a plain decimal between 0 and 1 inclusive, without a sign.
bool is_share(std::string const &v);
/// loader::all_digits (core/digits.hpp): digits only, at least one.
using loader::all_digits;
/// A string of digits as int64; nothing when it does not fit.
std::optional<std::int64_t> to_int64(std::string const &digits);
/// "scheme://..." (http, https, file, s3, ...): a URL, not a local path.
bool looks_like_url(std::string_view s) noexcept;
/// An unknown option as typed, without any "=value" or attached value:
/// the value may be a secret ("--password=x", "-px").
std::string option_name_only(std::string token);
} // namespace loader::cli
