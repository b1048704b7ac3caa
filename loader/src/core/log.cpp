#include "core/log.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <type_traits>
#include <variant>

#include <sys/stat.h>
#include <unistd.h>

#include <boost/uuid/random_generator.hpp>
#include <boost/uuid/uuid_io.hpp>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/json_exact.hpp"
#include "core/printable.hpp"
#include "core/utf8.hpp"

namespace loader
{
namespace
{
char const hex_digits[] = "0123456789abcdef";

std::string_view level_name(LogLevel level, bool upper) noexcept
{
  switch (level)
  {
  case LogLevel::debug: return upper ? "DEBUG" : "debug";
  case LogLevel::info: return upper ? "INFO" : "info";
  case LogLevel::warn: return upper ? "WARN" : "warn";
  case LogLevel::error: return upper ? "ERROR" : "error";
  }
  return upper ? "ERROR" : "error";
}

/// UTC, milliseconds: 2026-11-29T08:21:16.123Z.
std::string utc_timestamp()
{
  using namespace std::chrono;
  auto const since = system_clock::now().time_since_epoch();
  auto const ms = duration_cast<milliseconds>(since).count();
  auto const secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[64]; // room for any int the fields could hold
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
                tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                tm.tm_min, tm.tm_sec, static_cast<int>(ms % 1000));
  return buf;
}

/// A text-format value needs quotes when it is empty or holds a blank,
/// a control character, a quote, a backslash or '='.
bool needs_quotes(std::string_view v) noexcept
{
  if (v.empty()) return true;
  for (char const ch : v)
  {
    auto const c = static_cast<unsigned char>(ch);
    if (c <= 0x20 or c == 0x7f or c == '"' or c == '\\' or c == '=')
      return true;
  }
  return false;
}

void append_text(std::string &out, std::string_view v)
{
  if (needs_quotes(v))
    out += json_quote(v);
  else
    out += v;
}

/// A typed value in a text line: numbers and truth values bare, a JSON
/// document compact (quoted when it needs it, like any text).
void append_value(std::string &out, LogValue const &v)
{
  std::visit(
    [&out](auto const &x) {
      using T = std::decay_t<decltype(x)>;
      if constexpr (std::is_same_v<T, std::string>)
        append_text(out, x);
      else if constexpr (std::is_same_v<T, std::int64_t>)
        out += std::to_string(x);
      else if constexpr (std::is_same_v<T, double>)
        out += nlohmann::json(x).dump();
      else if constexpr (std::is_same_v<T, bool>)
        out += x ? "true" : "false";
      else
        append_text(out, x.text);
    },
    v.value());
}

nlohmann::ordered_json to_json(LogValue const &v)
{
  return std::visit(
    [](auto const &x) -> nlohmann::ordered_json {
      using T = std::decay_t<decltype(x)>;
      if constexpr (std::is_same_v<T, LogValue::Json>)
      {
        auto parsed = parse_exact(x.text); // decimals keep their digits
        if (parsed.is_discarded()) return x.text;
        return parsed;
      }
      else
        return x;
    },
    v.value());
}

/// Keys come from code, but keep the line parseable whatever they hold.
void append_key(std::string &out, std::string_view key)
{
  if (key.empty()) out.push_back('_');
  for (char const ch : key)
  {
    bool const ok = (ch >= 'a' and ch <= 'z') or (ch >= 'A' and ch <= 'Z') or
                    (ch >= '0' and ch <= '9') or ch == '_' or ch == '.' or
                    ch == '-';
    out.push_back(ok ? ch : '_');
  }
}

/// The free-text message ends the text line: control characters are
/// escaped (printable()) so that one event stays one line.
void append_message(std::string &out, std::string_view m)
{
  out += printable(m);
}
} // namespace

std::string json_quote(std::string_view s)
{
  std::string out;
  out.reserve(s.size() + 2);
  out.push_back('"');
  for (std::size_t i = 0; i < s.size();)
  {
    auto const c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80)
    {
      // Copy valid UTF-8 as is; JSON text must be UTF-8, so an invalid
      // byte becomes U+FFFD.
      std::size_t const len = utf8_length(s, i);
      if (len == 0)
      {
        out += "\\ufffd";
        ++i;
      }
      else
      {
        out.append(s.substr(i, len));
        i += len;
      }
      continue;
    }
    switch (c)
    {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\b': out += "\\b"; break;
    case '\f': out += "\\f"; break;
    case '\n': out += "\\n"; break;
    case '\r': out += "\\r"; break;
    case '\t': out += "\\t"; break;
    default:
      if (c < 0x20)
        out += {'\\', 'u', '0', '0', hex_digits[c >> 4], hex_digits[c & 0x0f]};
      else
        out.push_back(s[i]);
    }
    ++i;
  }
  out.push_back('"');
  return out;
}

bool is_journal_stream(char const *journal_env, int fd) noexcept
{
  if (journal_env == nullptr) return false;
  unsigned long long dev{0};
  unsigned long long ino{0};
  if (std::sscanf(journal_env, "%llu:%llu", &dev, &ino) != 2) return false;
  struct stat st
  {};
  if (::fstat(fd, &st) != 0) return false;
  return static_cast<unsigned long long>(st.st_dev) == dev and
         static_cast<unsigned long long>(st.st_ino) == ino;
}

std::string_view journal_prefix(LogLevel level) noexcept
{
  switch (level)
  {
  case LogLevel::debug: return "<7>";
  case LogLevel::info: return "<6>";
  case LogLevel::warn: return "<4>";
  case LogLevel::error: return "<3>";
  }
  return "<6>";
}

Logger::Logger(std::string run_id, LogFormat format, LogLevel threshold) :
        m_run_id{std::move(run_id)},
        m_format{format},
        m_threshold{threshold},
        m_journal{
          is_journal_stream(std::getenv("JOURNAL_STREAM"), STDERR_FILENO)}
{}

Logger Logger::with(std::initializer_list<LogField> context) const
{
  Logger out{*this};
  for (auto const &[key, value] : context)
    out.m_context.emplace_back(std::string{key}, value);
  return out;
}

std::string Logger::format_line(LogLevel level, std::string_view message,
                                std::initializer_list<LogField> fields) const
{
  std::string out;
  out.reserve(128);
  if (m_format == LogFormat::json)
  {
    nlohmann::ordered_json line;
    line["ts"] = utc_timestamp();
    line["level"] = level_name(level, false);
    line["run_id"] = m_run_id;
    line["msg"] = message;
    for (auto const &[key, value] : m_context) line[key] = to_json(value);
    for (auto const &[key, value] : fields)
      line[std::string{key}] = to_json(value);
    return line.dump(-1, ' ', false,
                     nlohmann::ordered_json::error_handler_t::replace);
  }

  out += utc_timestamp();
  out.push_back(' ');
  out += level_name(level, true);
  out += " run=";
  append_text(out, m_run_id);
  for (auto const &[key, value] : m_context)
  {
    out.push_back(' ');
    append_key(out, key);
    out.push_back('=');
    append_value(out, value);
  }
  for (auto const &[key, value] : fields)
  {
    out.push_back(' ');
    append_key(out, key);
    out.push_back('=');
    append_value(out, value);
  }
  if (not message.empty())
  {
    out.push_back(' ');
    append_message(out, message);
  }
  return out;
}

void Logger::log(LogLevel level, std::string_view message,
                 std::initializer_list<LogField> fields) const
{
  if (level < m_threshold) return;
  std::string line = format_line(level, message, fields);
  if (m_journal) line.insert(0, journal_prefix(level));
  line.push_back('\n');
  // One fwrite per line: stderr is unbuffered, so lines stay whole.
  std::fwrite(line.data(), 1, line.size(), stderr);
}

std::string new_run_id()
{
  try
  {
    // Boost's generator reads the system's entropy source (getrandom).
    return boost::uuids::to_string(boost::uuids::random_generator{}());
  }
  catch (std::exception const &e)
  {
    throw LoaderError{ErrorKind::internal,
                      std::string{"cannot make a run id: "} + e.what()};
  }
}
} // namespace loader
