/// Value checks shared by the commands' parsers (cli/<command>.cpp).
#include "cli/values.hpp"

#include <algorithm>
#include <charconv>
#include <system_error>
#include <utility>

#include "core/errors.hpp"

namespace loader::cli
{
void usage_error(std::string const &msg, std::string_view hint)
{
  throw LoaderError{ErrorKind::usage, msg + "; see 'invoice-loader" +
                                        (hint.empty() ? "" : " ") +
                                        std::string{hint} + " --help'"};
}

void config_error(std::string const &msg)
{
  throw LoaderError{ErrorKind::config, msg};
}

namespace
{
/// Where the values being bound came from (note_value_origin).
struct ValueOrigin
{
  std::string words;
  std::string config_path;
  std::vector<std::string> from_file;
};

ValueOrigin &value_origin()
{
  static ValueOrigin origin;
  return origin;
}
} // namespace

void note_value_origin(std::string words, std::string config_path,
                       std::vector<std::string> from_file)
{
  value_origin() = {std::move(words), std::move(config_path),
                    std::move(from_file)};
}

void bad_value(std::string_view option, std::string const &msg)
{
  // A value typed on the command line is a malformed command line (64); the
  // same value read from the --config file is configuration (78).
  ValueOrigin const &o{value_origin()};
  if (std::find(o.from_file.begin(), o.from_file.end(), option) !=
      o.from_file.end())
    config_error("--config " + o.config_path + ": " + msg);
  usage_error(msg, o.words);
}

std::optional<std::string> get(boost::program_options::variables_map const &vm,
                               char const *key)
{
  if (vm.count(key) == 0) return std::nullopt;
  return vm[key].as<std::string>();
}

bool flag(boost::program_options::variables_map const &vm, char const *key)
{
  return vm.count(key) != 0 and vm[key].as<bool>();
}

std::string quoted(std::string const &v)
{
  return "'" + v + "'";
}

void check_date(char const *option, std::string const &v)
{
  if (not is_iso_date(v))
    bad_value(option, std::string{"--"} + option + " " + quoted(v) +
                        " is not a real date written as YYYY-MM-DD");
}

void check_one_of(char const *option, std::string const &v,
                  std::vector<std::string_view> const &values)
{
  if (std::find(values.begin(), values.end(), v) != values.end()) return;
  std::string list;
  for (std::string_view const value : values)
    list += (list.empty() ? "" : ", ") + std::string{value};
  bad_value(option, std::string{"--"} + option + " " + quoted(v) +
                      " is not one of: " + list);
}

std::vector<std::string_view> const &text_or_json()
{
  static std::vector<std::string_view> const values{"text", "json"};
  return values;
}

bool check_text_or_json(char const *option, std::string const &v)
{
  check_one_of(option, v, text_or_json());
  return v == "json";
}

void check_not_empty(char const *option, std::string const &v)
{
  if (v.empty())
    bad_value(option, std::string{"--"} + option + " must not be empty");
}

std::optional<std::int64_t> bounded(
  boost::program_options::variables_map const &vm, char const *option,
  std::int64_t lo, std::int64_t hi)
{
  auto const text = get(vm, option);
  if (not text) return std::nullopt;
  auto const v = all_digits(*text) ? to_int64(*text) : std::nullopt;
  if (not v or *v < lo or *v > hi)
    bad_value(option, std::string{"--"} + option + " " + quoted(*text) +
                        " is not a whole number from " + std::to_string(lo) +
                        " to " + std::to_string(hi));
  return v;
}

std::optional<std::int64_t> positive_id(
  boost::program_options::variables_map const &vm, char const *option)
{
  auto const text = get(vm, option);
  if (not text) return std::nullopt;
  auto const v = all_digits(*text) ? to_int64(*text) : std::nullopt;
  if (not v or *v <= 0)
    bad_value(option, std::string{"--"} + option + " " + quoted(*text) +
                        " is not a positive integer");
  return v;
}

std::optional<std::int64_t> to_int64(std::string const &digits)
{
  std::int64_t v = 0;
  auto const *const end = digits.data() + digits.size();
  auto const [ptr, ec] = std::from_chars(digits.data(), end, v);
  if (ec != std::errc{} or ptr != end) return std::nullopt;
  return v;
}

bool is_iso_date(std::string const &s)
{
  if (s.size() != 10 or s[4] != '-' or s[7] != '-') return false;
  std::string_view const v{s};
  if (not all_digits(v.substr(0, 4)) or not all_digits(v.substr(5, 2)) or
      not all_digits(v.substr(8, 2)))
    return false;
  auto const num = [&](std::size_t at, std::size_t n) {
    int r = 0;
    for (std::size_t k = at; k < at + n; ++k) r = r * 10 + (s[k] - '0');
    return r;
  };
  int const year = num(0, 4), month = num(5, 2), day = num(8, 2);
  if (year < 1 or month < 1 or month > 12 or day < 1) return false;
  bool const leap = (year % 4 == 0 and year % 100 != 0) or year % 400 == 0;
  constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  int const last = days[month - 1] + ((month == 2 and leap) ? 1 : 0);
  return day <= last;
}

bool is_plain_decimal(std::string const &s)
{
  std::string_view v{s};
  if (not v.empty() and v.front() == '-') v.remove_prefix(1);
  auto const dot = v.find('.');
  if (dot == std::string_view::npos) return all_digits(v);
  return all_digits(v.substr(0, dot)) and all_digits(v.substr(dot + 1));
}

bool is_share(std::string const &v)
{
  if (not is_plain_decimal(v) or v[0] == '-') return false;
  auto const dot = v.find('.');
  std::string_view const whole = std::string_view{v}.substr(0, dot);
  std::string_view const frac = dot == std::string::npos
                                  ? std::string_view{}
                                  : std::string_view{v}.substr(dot + 1);
  auto const first = whole.find_first_not_of('0');
  if (first == std::string_view::npos) return true;             // 0.xxx
  if (whole.substr(first) != "1") return false;                 // >= 2
  return frac.find_first_not_of('0') == std::string_view::npos; // 1.000
}

bool looks_like_url(std::string_view s) noexcept
{
  auto const sep = s.find("://");
  if (sep == std::string_view::npos or sep == 0) return false;
  for (char const c : s.substr(0, sep))
    if (not((c >= 'a' and c <= 'z') or (c >= 'A' and c <= 'Z') or
            (c >= '0' and c <= '9') or c == '+' or c == '-' or c == '.'))
      return false;
  return true;
}

std::string option_name_only(std::string token)
{
  if (auto const eq = token.find('='); eq != std::string::npos)
    token.erase(eq);
  if (token.size() > 2 and token[0] == '-' and token[1] != '-') token.erase(2);
  return token;
}
} // namespace loader::cli
