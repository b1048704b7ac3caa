#include "core/log.hpp"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>

#include <fcntl.h>
#include <unistd.h>

#include "core/errors.hpp"

namespace loader
{
namespace
{
char const hex_digits[] = "0123456789abcdef";

/// Length of the valid UTF-8 sequence at s[i], or 0 if it is not one.
std::size_t utf8_length(std::string_view s, std::size_t i) noexcept
{
  auto const at = [&](std::size_t k) {
    return static_cast<unsigned char>(s[k]);
  };
  unsigned char const c = at(i);
  std::size_t len = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 and c <= 0xDF)
  {
    len = 2;
  }
  else if (c >= 0xE0 and c <= 0xEF)
  {
    len = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  }
  else if (c >= 0xF0 and c <= 0xF4)
  {
    len = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  }
  else
  {
    return 0;
  }
  if (s.size() - i < len) return 0;
  for (std::size_t k = 1; k < len; ++k)
  {
    unsigned char const b = at(i + k);
    if (b < lo or b > hi) return 0;
    lo = 0x80;
    hi = 0xBF;
  }
  return len;
}

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

void append_value(std::string &out, std::string_view v)
{
  if (needs_quotes(v)) out += json_quote(v);
  else out += v;
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
/// escaped so that one event stays one line.
void append_message(std::string &out, std::string_view m)
{
  for (char const ch : m)
  {
    auto const c = static_cast<unsigned char>(ch);
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (c < 0x20 or c == 0x7f)
      out += {'\\', 'x', hex_digits[c >> 4], hex_digits[c & 0x0f]};
    else out.push_back(ch);
  }
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
        out += {'\\', 'u', '0', '0', hex_digits[c >> 4],
                hex_digits[c & 0x0f]};
      else
        out.push_back(s[i]);
    }
    ++i;
  }
  out.push_back('"');
  return out;
}

Logger::Logger(std::string run_id, LogFormat format, LogLevel threshold) :
        m_run_id{std::move(run_id)}, m_format{format}, m_threshold{threshold}
{}

std::string Logger::format_line(LogLevel level, std::string_view message,
                                std::initializer_list<LogField> fields) const
{
  std::string out;
  out.reserve(128);
  if (m_format == LogFormat::json)
  {
    out += "{\"ts\":";
    out += json_quote(utc_timestamp());
    out += ",\"level\":";
    out += json_quote(level_name(level, false));
    out += ",\"run_id\":";
    out += json_quote(m_run_id);
    out += ",\"msg\":";
    out += json_quote(message);
    for (auto const &[key, value] : fields)
    {
      out.push_back(',');
      out += json_quote(key);
      out.push_back(':');
      out += json_quote(value);
    }
    out.push_back('}');
    return out;
  }

  out += utc_timestamp();
  out.push_back(' ');
  out += level_name(level, true);
  out += " run=";
  append_value(out, m_run_id);
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
  line.push_back('\n');
  // One fwrite per line: stderr is unbuffered, so lines stay whole.
  std::fwrite(line.data(), 1, line.size(), stderr);
}

std::string new_run_id()
{
  unsigned char b[16];
  int const fd = ::open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    throw LoaderError{ErrorKind::internal,
                      std::string{"cannot open /dev/urandom: "} +
                        std::strerror(errno)};
  std::size_t got = 0;
  while (got < sizeof b)
  {
    ssize_t const n = ::read(fd, b + got, sizeof b - got);
    if (n > 0)
    {
      got += static_cast<std::size_t>(n);
    }
    else if (n < 0 and errno == EINTR)
    {
      continue;
    }
    else
    {
      int const err = errno;
      ::close(fd);
      throw LoaderError{ErrorKind::internal,
                        std::string{"cannot read /dev/urandom: "} +
                          (n == 0 ? "end of file" : std::strerror(err))};
    }
  }
  ::close(fd);

  // RFC 4122 section 4.4: version 4, variant 10xx.
  b[6] = static_cast<unsigned char>((b[6] & 0x0f) | 0x40);
  b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80);
  std::string out;
  out.reserve(36);
  for (std::size_t i = 0; i < sizeof b; ++i)
  {
    if (i == 4 or i == 6 or i == 8 or i == 10) out.push_back('-');
    out.push_back(hex_digits[b[i] >> 4]);
    out.push_back(hex_digits[b[i] & 0x0f]);
  }
  return out;
}
} // namespace loader
