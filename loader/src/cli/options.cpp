/// Command line -> ParsedCommandLine, with Boost.Program_options.
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
#include "cli/options.hpp"

#include <boost/program_options.hpp>

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "core/errors.hpp"

namespace po = boost::program_options;

namespace loader::cli
{
namespace
{
constexpr char const program[] = "invoice-loader";
constexpr unsigned line_length = 79;

/// Boost's default style without prefix guessing: "--verb" is not
/// "--verbose", and an abbreviation can never change meaning when an
/// option is added later.
constexpr int parse_style =
  po::command_line_style::default_style &
  ~po::command_line_style::allow_guessing;

[[noreturn]] void usage_error(std::string const &msg, std::string_view hint)
{
  throw LoaderError{
    ErrorKind::usage,
    msg + "; see '" + program + (hint.empty() ? "" : " ") +
      std::string{hint} + " --help'"};
}

[[noreturn]] void config_error(std::string const &msg)
{
  throw LoaderError{ErrorKind::config, msg};
}

bool is_digit(char c) noexcept { return c >= '0' and c <= '9'; }

bool all_digits(std::string_view s) noexcept
{
  if (s.empty()) return false;
  for (char const c : s)
    if (not is_digit(c)) return false;
  return true;
}

char lower(char c) noexcept
{
  return (c >= 'A' and c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool iequals(std::string_view a, std::string_view b) noexcept
{
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

bool istarts_with(std::string_view s, std::string_view prefix) noexcept
{
  return s.size() >= prefix.size() and
         iequals(s.substr(0, prefix.size()), prefix);
}

bool is_space(char c) noexcept
{
  return c == ' ' or c == '\t' or c == '\n' or c == '\r' or c == '\f' or
         c == '\v';
}

/// An unknown option as typed, without any "=value" or attached value:
/// the value may be a secret ("--password=x", "-px").
std::string option_name_only(std::string token)
{
  if (auto const eq = token.find('='); eq != std::string::npos)
    token.erase(eq);
  if (token.size() > 2 and token[0] == '-' and token[1] != '-')
    token.erase(2);
  return token;
}

/// "scheme://..." (http, https, file, s3, ...): a URL, not a local path.
bool looks_like_url(std::string_view s) noexcept
{
  auto const sep = s.find("://");
  if (sep == std::string_view::npos or sep == 0) return false;
  for (char const c : s.substr(0, sep))
    if (not((c >= 'a' and c <= 'z') or (c >= 'A' and c <= 'Z') or
            is_digit(c) or c == '+' or c == '-' or c == '.'))
      return false;
  return true;
}

// --- help texts -------------------------------------------------------

po::options_description global_options()
{
  po::options_description d{"Global options", line_length};
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
    ("help,h", po::bool_switch(),
     "show this help; after a command, that command's help")
    ("version", po::bool_switch(), "print the version and exit");
  return d;
}

po::options_description source_add_options()
{
  po::options_description d{"Options for source add", line_length};
  d.add_options()
    ("policy", po::value<std::string>()->value_name("POLICY"),
     "all-or-nothing (default for a new source): any rejected row "
     "quarantines the batch; partial: publish the accepted rows and "
     "quarantine the rejected ones")
    ("max-rejected-share", po::value<std::string>()->value_name("F"),
     "with partial: the largest share of rejected rows, a plain decimal "
     "from 0 to 1 (e.g. 0.05)")
    ("start-date", po::value<std::string>()->value_name("D"),
     "first business date of the source, YYYY-MM-DD")
    ("feed-url", po::value<std::string>()->value_name("TEMPLATE"),
     "where the source's daily files will be fetched from; recorded only, "
     "nothing fetches it yet")
    ("allow-unknown-columns", po::bool_switch(),
     "ignore columns the contract does not know instead of quarantining "
     "the batch");
  return d;
}

po::options_description load_options()
{
  po::options_description d{"Options for load", line_length};
  d.add_options()
    ("source", po::value<std::string>()->value_name("S"),
     "source name (required)")
    ("business-date", po::value<std::string>()->value_name("D"),
     "business date of the file, YYYY-MM-DD (required)")
    ("input", po::value<std::string>()->value_name("PATH"),
     "the CSV file, a local path (required); URLs are not supported yet")
    ("manifest", po::value<std::string>()->value_name("PATH"),
     "the manifest (control totals), a local path; default: "
     "PATH.manifest.json next to the input")
    ("expect-count", po::value<std::string>()->value_name("N"),
     "instead of a manifest: the number of records, an integer >= 0 "
     "(needs --expect-total)")
    ("expect-total", po::value<std::string>()->value_name("X"),
     "instead of a manifest: the sum of gross_amount, a plain decimal "
     "such as 4200.00 or -12.5 (needs --expect-count)")
    ("retry-attempts", po::value<std::string>()->value_name("N"),
     "tries of a step that fails for a transient reason (lost connection, "
     "server restarting, another run holding the batch), 1-100; default 5")
    ("retry-budget", po::value<std::string>()->value_name("SECONDS"),
     "total time the run may spend retrying, 1-86400; default 300. Retries "
     "wait with capped exponential backoff and full jitter; when tries or "
     "budget run out the run exits 75 and the batch stays at its last "
     "checkpoint");
  return d;
}

po::options_description status_options()
{
  po::options_description d{"Options for status", line_length};
  d.add_options()
    ("source", po::value<std::string>()->value_name("S"),
     "only this source")
    ("batch", po::value<std::string>()->value_name("ID"),
     "only this batch, a positive integer")
    ("format", po::value<std::string>()->value_name("text|json"),
     "output format on stdout (default: text)");
  return d;
}

/// Boost's rendering, without the blanks it leaves at line ends.
std::string to_string(po::options_description const &d)
{
  std::ostringstream out;
  out << d;
  std::string text = out.str(), r;
  std::size_t start = 0;
  while (start < text.size())
  {
    auto end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    auto line = text.substr(start, end - start);
    line.erase(line.find_last_not_of(' ') + 1);
    r += line + "\n";
    start = end + 1;
  }
  return r;
}

std::string global_help()
{
  std::string h;
  h += "Usage: invoice-loader [global options] COMMAND [options]\n"
       "\n"
       "Nightly CSV invoice import into PostgreSQL: one file of one source "
       "for one\nbusiness date is one batch.\n"
       "\n"
       "Commands:\n"
       "  migrate      apply the migrations and SQL functions (idempotent)\n"
       "  source add   register or update a source (operator)\n"
       "  load         run one batch to published, resuming from its last "
       "checkpoint\n"
       "  status       show batches, states, attempts, watermark and "
       "rejections\n"
       "\n";
  h += to_string(global_options());
  h += "\n"
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

std::string command_help(Command c)
{
  std::string h;
  switch (c)
  {
  case Command::migrate:
    h = "Usage: invoice-loader [global options] migrate\n"
        "\n"
        "Apply the migrations and (re)create the SQL functions in the "
        "database of\n--dsn. Idempotent and safe to run concurrently. "
        "Takes no options.\n";
    break;
  case Command::source_add:
    h = "Usage: invoice-loader [global options] source add NAME "
        "[options]\n"
        "\n"
        "Register the source NAME, or update it when it exists "
        "(operator).\n\n" +
        to_string(source_add_options());
    break;
  case Command::load:
    h = "Usage: invoice-loader [global options] load --source S "
        "--business-date D\n"
        "         --input PATH [--manifest PATH | --expect-count N "
        "--expect-total X]\n"
        "\n"
        "Run one batch to published, resuming from its last checkpoint. "
        "Control\ntotals come from the manifest or from --expect-count "
        "and --expect-total.\nThe input and the manifest are local files; "
        "URLs are not supported yet.\n\n" +
        to_string(load_options());
    break;
  case Command::status:
    h = "Usage: invoice-loader [global options] status [options]\n"
        "\n"
        "Show batches, their states and attempts, the watermark and the "
        "rejections.\n\n" +
        to_string(status_options());
    break;
  case Command::none:
    return global_help();
  }
  h += "\nGlobal options are listed by 'invoice-loader --help', as are "
       "the exit codes.\n";
  return h;
}

// --- value checks -----------------------------------------------------

std::optional<std::string> get(po::variables_map const &vm, char const *key)
{
  if (vm.count(key) == 0) return std::nullopt;
  return vm[key].as<std::string>();
}

std::string quoted(std::string const &v) { return "'" + v + "'"; }

void check_date(char const *option, std::string const &v)
{
  if (not is_iso_date(v))
    config_error(std::string{"--"} + option + " " + quoted(v) +
                 " is not a real date written as YYYY-MM-DD");
}

void check_text_or_json(char const *option, std::string const &v)
{
  if (v != "text" and v != "json")
    config_error(std::string{"--"} + option + " " + quoted(v) +
                 " is not one of: text, json");
}

/// A string of digits as int64; nullopt when it does not fit.
std::optional<std::int64_t> to_int64(std::string const &digits)
{
  std::int64_t v = 0;
  auto const *const end = digits.data() + digits.size();
  auto const [ptr, ec] = std::from_chars(digits.data(), end, v);
  if (ec != std::errc{} or ptr != end) return std::nullopt;
  return v;
}

/// True for a plain decimal between 0 and 1 inclusive, without a sign.
bool is_share(std::string const &v)
{
  if (not is_plain_decimal(v) or v[0] == '-') return false;
  auto const dot = v.find('.');
  std::string_view const whole = std::string_view{v}.substr(0, dot);
  std::string_view const frac =
    dot == std::string::npos ? std::string_view{}
                             : std::string_view{v}.substr(dot + 1);
  auto const first = whole.find_first_not_of('0');
  if (first == std::string_view::npos) return true; // 0.xxx
  if (whole.substr(first) != "1") return false;     // >= 2
  return frac.find_first_not_of('0') == std::string_view::npos; // 1.000
}

// --- the two passes ---------------------------------------------------

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

/// Parse a command's tokens; positional_name, when given, takes one
/// positional argument (and may not be written as an option).
po::variables_map parse_command(std::vector<std::string> const &tokens,
                                po::options_description const &desc,
                                char const *positional_name,
                                std::string_view command_words)
{
  po::options_description all{desc};
  po::positional_options_description pos;
  if (positional_name != nullptr)
  {
    all.add_options()(positional_name, po::value<std::string>());
    pos.add(positional_name, 1);
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
      if (positional_name != nullptr and o.string_key == positional_name and
          o.position_key < 0)
        usage_error(std::string{"unknown option --"} + positional_name +
                      " for '" + std::string{command_words} + "'",
                    command_words);
    po::store(parsed, vm);
    po::notify(vm);
  }
  catch (po::unknown_option const &e)
  {
    usage_error("unknown option " + option_name_only(e.get_option_name()) +
                  " for '" + std::string{command_words} + "'",
                command_words);
  }
  catch (po::too_many_positional_options_error const &)
  {
    usage_error("too many arguments for '" + std::string{command_words} +
                  "'",
                command_words);
  }
  catch (po::error const &e)
  {
    usage_error(e.what(), command_words);
  }
  return vm;
}

void fill_source_add(std::vector<std::string> tokens, SourceAddOptions &out)
{
  if (tokens.empty())
    usage_error("'source' needs a subcommand: add", "source");
  if (tokens.front() != "add")
    usage_error("unknown subcommand " + quoted(tokens.front()) +
                  " for 'source' (known: add)",
                "source");
  tokens.erase(tokens.begin());

  auto const vm =
    parse_command(tokens, source_add_options(), "name", "source add");
  auto const name = get(vm, "name");
  if (not name) usage_error("'source add' needs a NAME", "source add");
  if (name->empty()) config_error("source add: NAME must not be empty");
  out.name = *name;

  out.policy = get(vm, "policy");
  if (out.policy and *out.policy != "all-or-nothing" and
      *out.policy != "partial")
    config_error("--policy " + quoted(*out.policy) +
                 " is not one of: all-or-nothing, partial");
  out.max_rejected_share = get(vm, "max-rejected-share");
  if (out.max_rejected_share and not is_share(*out.max_rejected_share))
    config_error("--max-rejected-share " + quoted(*out.max_rejected_share) +
                 " is not a plain decimal between 0 and 1");
  out.start_date = get(vm, "start-date");
  if (out.start_date) check_date("start-date", *out.start_date);
  out.feed_url = get(vm, "feed-url");
  if (out.feed_url and out.feed_url->empty())
    config_error("--feed-url must not be empty");
  out.allow_unknown_columns = vm["allow-unknown-columns"].as<bool>();
}

void fill_load(std::vector<std::string> const &tokens, LoadOptions &out)
{
  auto const vm = parse_command(tokens, load_options(), nullptr, "load");
  for (char const *required : {"source", "business-date", "input"})
    if (vm.count(required) == 0)
      usage_error(std::string{"'load' needs --"} + required, "load");
  bool const count = vm.count("expect-count") != 0;
  bool const total = vm.count("expect-total") != 0;
  if (count != total)
    usage_error("--expect-count and --expect-total go together", "load");
  if (count and vm.count("manifest") != 0)
    usage_error("--manifest cannot be combined with --expect-count and "
                "--expect-total",
                "load");

  out.source = *get(vm, "source");
  if (out.source.empty()) config_error("--source must not be empty");
  out.business_date = *get(vm, "business-date");
  check_date("business-date", out.business_date);
  out.input = *get(vm, "input");
  if (out.input.empty()) config_error("--input must not be empty");
  if (looks_like_url(out.input))
    config_error("--input " + quoted(out.input) +
                 ": URLs are not supported yet; give a local path");
  out.manifest = get(vm, "manifest");
  if (out.manifest and out.manifest->empty())
    config_error("--manifest must not be empty");
  if (out.manifest and looks_like_url(*out.manifest))
    config_error("--manifest " + quoted(*out.manifest) +
                 ": URLs are not supported yet; give a local path");
  auto const bounded = [&](char const *name, std::int64_t lo,
                           std::int64_t hi) -> std::optional<int> {
    auto const text = get(vm, name);
    if (not text) return std::nullopt;
    auto const v = all_digits(*text) ? to_int64(*text) : std::nullopt;
    if (not v or *v < lo or *v > hi)
      config_error(std::string{"--"} + name + " " + quoted(*text) +
                   " is not a whole number from " + std::to_string(lo) +
                   " to " + std::to_string(hi));
    return static_cast<int>(*v);
  };
  if (auto const v = bounded("retry-attempts", 1, 100))
    out.retry_attempts = *v;
  if (auto const v = bounded("retry-budget", 1, 86400))
    out.retry_budget_seconds = *v;
  if (count)
  {
    auto const n = *get(vm, "expect-count");
    auto const v = all_digits(n) ? to_int64(n) : std::nullopt;
    if (not v)
      config_error("--expect-count " + quoted(n) +
                   " is not an integer >= 0");
    out.expect_count = *v;
    out.expect_total = get(vm, "expect-total");
    if (not is_plain_decimal(*out.expect_total))
      config_error("--expect-total " + quoted(*out.expect_total) +
                   " is not a plain decimal (-?digits[.digits])");
  }
}

void fill_status(std::vector<std::string> const &tokens, StatusOptions &out)
{
  auto const vm = parse_command(tokens, status_options(), nullptr, "status");
  out.source = get(vm, "source");
  if (out.source and out.source->empty())
    config_error("--source must not be empty");
  if (auto const b = get(vm, "batch"))
  {
    auto const v = all_digits(*b) ? to_int64(*b) : std::nullopt;
    if (not v or *v <= 0)
      config_error("--batch " + quoted(*b) + " is not a positive integer");
    out.batch_id = *v;
  }
  if (auto const f = get(vm, "format"))
  {
    check_text_or_json("format", *f);
    out.json = *f == "json";
  }
}

// --- conninfo ---------------------------------------------------------

bool uri_has_password(std::string_view dsn, int depth);
bool conninfo_has_password(std::string_view dsn, int depth);

/// Any string libpq may take as a connection string (dbname= may hold one
/// too, so this recurses a little).
bool any_has_password(std::string_view dsn, int depth)
{
  if (depth > 4) return true; // absurd nesting: refuse rather than guess
  if (istarts_with(dsn, "postgresql://") or istarts_with(dsn, "postgres://"))
    return uri_has_password(dsn, depth);
  return conninfo_has_password(dsn, depth);
}

int hex_value(char c) noexcept
{
  if (is_digit(c)) return c - '0';
  c = lower(c);
  if (c >= 'a' and c <= 'f') return c - 'a' + 10;
  return -1;
}

std::string percent_decode(std::string_view s)
{
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i)
  {
    if (s[i] == '%' and i + 2 < s.size())
    {
      int const hi = hex_value(s[i + 1]), lo = hex_value(s[i + 2]);
      if (hi >= 0 and lo >= 0)
      {
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
        continue;
      }
    }
    out += s[i];
  }
  return out;
}

/// postgresql://[user[:password]@][host][:port][/dbname][?key=value&...]
/// Conservative: a ':' before the first '@' counts as a password.
bool uri_has_password(std::string_view dsn, int depth)
{
  auto const rest = dsn.substr(dsn.find("://") + 3);
  auto const q = rest.find('?');
  auto const before_query = rest.substr(0, q);
  if (auto const at = before_query.find('@'); at != std::string_view::npos)
    if (before_query.substr(0, at).find(':') != std::string_view::npos)
      return true;
  if (q == std::string_view::npos) return false;

  std::string_view params = rest.substr(q + 1);
  while (not params.empty())
  {
    auto const amp = params.find('&');
    auto const pair = params.substr(0, amp);
    auto const eq = pair.find('=');
    auto const key = percent_decode(pair.substr(0, eq));
    if (iequals(key, "password")) return true;
    if (iequals(key, "dbname") and eq != std::string_view::npos and
        any_has_password(percent_decode(pair.substr(eq + 1)), depth + 1))
      return true;
    if (amp == std::string_view::npos) break;
    params.remove_prefix(amp + 1);
  }
  return false;
}

/// Conservative fallback for a string libpq would not parse: any
/// "password" followed by optional blanks and '='.
bool mentions_password_keyword(std::string_view s)
{
  constexpr std::string_view word = "password";
  for (std::size_t i = 0; i + word.size() <= s.size(); ++i)
  {
    if (not iequals(s.substr(i, word.size()), word)) continue;
    auto j = i + word.size();
    while (j < s.size() and is_space(s[j])) ++j;
    if (j < s.size() and s[j] == '=') return true;
  }
  return false;
}

/// key = value pairs as libpq reads them: blanks around '=', values
/// single-quoted with backslash escapes or bare up to the next blank.
bool conninfo_has_password(std::string_view s, int depth)
{
  std::size_t i = 0;
  auto const skip_space = [&] {
    while (i < s.size() and is_space(s[i])) ++i;
  };
  for (;;)
  {
    skip_space();
    if (i == s.size()) return false;
    auto const key_start = i;
    while (i < s.size() and s[i] != '=' and not is_space(s[i])) ++i;
    auto const key = s.substr(key_start, i - key_start);
    skip_space();
    if (i == s.size() or s[i] != '=') return mentions_password_keyword(s);
    ++i;
    skip_space();
    std::string value;
    if (i < s.size() and s[i] == '\'')
    {
      ++i;
      bool closed = false;
      while (i < s.size())
      {
        if (s[i] == '\\' and i + 1 < s.size())
        {
          value += s[i + 1];
          i += 2;
        }
        else if (s[i] == '\'')
        {
          ++i;
          closed = true;
          break;
        }
        else
          value += s[i++];
      }
      if (not closed) return mentions_password_keyword(s);
    }
    else
    {
      while (i < s.size() and not is_space(s[i]))
      {
        if (s[i] == '\\' and i + 1 < s.size()) ++i;
        value += s[i++];
      }
    }
    if (iequals(key, "password")) return true;
    if (iequals(key, "dbname") and
        (value.find('=') != std::string::npos or
         istarts_with(value, "postgresql://") or
         istarts_with(value, "postgres://")) and
        any_has_password(value, depth + 1))
      return true;
  }
}
} // namespace

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

bool dsn_has_password(std::string const &dsn)
{
  return any_has_password(dsn, 0);
}

ParsedCommandLine parse_command_line(int argc, char const *const argv[])
{
  FirstPass first = parse_global(argc, argv);
  ParsedCommandLine r;
  auto const &vm = first.vm;

  if (first.command)
  {
    auto const &c = *first.command;
    if (c == "migrate") r.command = Command::migrate;
    else if (c == "source") r.command = Command::source_add;
    else if (c == "load") r.command = Command::load;
    else if (c == "status") r.command = Command::status;
  }

  r.global.help = vm["help"].as<bool>();
  r.global.version = vm["version"].as<bool>();
  if (r.global.help and (not first.command or r.command != Command::none))
  {
    r.help_text = command_help(r.command);
    return r;
  }
  if (r.global.version) return r;

  if (first.unknown_before_command)
    usage_error("unknown option " + *first.unknown_before_command, "");
  if (not first.command) usage_error("no command given", "");
  if (r.command == Command::none)
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

  switch (r.command)
  {
  case Command::migrate:
    parse_command(first.rest, po::options_description{}, nullptr,
                  "migrate");
    break;
  case Command::source_add: fill_source_add(first.rest, r.source_add); break;
  case Command::load: fill_load(first.rest, r.load); break;
  case Command::status: fill_status(first.rest, r.status); break;
  case Command::none: break;
  }

  // Global values last: a malformed command line is a usage error (64)
  // even when a global value is bad too.
  if (auto const f = get(vm, "log-format"))
  {
    check_text_or_json("log-format", *f);
    r.global.log_format = *f == "json" ? LogFormat::json : LogFormat::text;
  }
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
