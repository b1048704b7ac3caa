#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace loader
{
enum class LogFormat
{
  text,
  json
};
enum class LogLevel
{
  debug = 0,
  info = 1,
  warn = 2,
  error = 3
};

/// A log field's value, typed: JSON lines carry numbers as numbers and a
/// JSON document (LogValue::json) as an object; text lines show them bare.
class LogValue
{
public:
  /// A JSON document's text, e.g. the merge counts the database returned.
  struct Json
  {
    std::string text;
  };

  LogValue(std::string s) : m_value{std::move(s)} {}
  LogValue(std::string_view s) : m_value{std::string{s}} {}
  LogValue(char const *s) : m_value{std::string{s}} {}
  LogValue(bool b) : m_value{b} {}
  LogValue(double d) : m_value{d} {}
  template<typename T, std::enable_if_t<std::is_integral_v<T> and
                                          not std::is_same_v<T, bool> and
                                          not std::is_same_v<T, char>,
                                        int> = 0>
  LogValue(T n) : m_value{static_cast<std::int64_t>(n)}
  {}
  static LogValue json(std::string text)
  {
    return LogValue{Json{std::move(text)}};
  }

  using Variant = std::variant<std::string, std::int64_t, double, bool, Json>;
  Variant const &value() const noexcept { return m_value; }

private:
  explicit LogValue(Json j) : m_value{std::move(j)} {}
  Variant m_value;
};

/// One key=value pair attached to a log line.
using LogField = std::pair<std::string_view, LogValue>;

/// Writes one line per event to stderr; every line carries the run id.
/// Never pass a password or a full CSV row to it.
class Logger
{
public:
  Logger(std::string run_id, LogFormat format, LogLevel threshold);

  void log(LogLevel level, std::string_view message,
           std::initializer_list<LogField> fields = {}) const;
  void debug(std::string_view m, std::initializer_list<LogField> f = {}) const
  {
    log(LogLevel::debug, m, f);
  }
  void info(std::string_view m, std::initializer_list<LogField> f = {}) const
  {
    log(LogLevel::info, m, f);
  }
  void warn(std::string_view m, std::initializer_list<LogField> f = {}) const
  {
    log(LogLevel::warn, m, f);
  }
  void error(std::string_view m, std::initializer_list<LogField> f = {}) const
  {
    log(LogLevel::error, m, f);
  }

  /// A logger whose every line also carries these fields (after run_id,
  /// before the line's own): the batch's source and business date, say.
  Logger with(std::initializer_list<LogField> context) const;

  std::string const &run_id() const noexcept { return m_run_id; }
  LogFormat format() const noexcept { return m_format; }
  bool enabled(LogLevel level) const noexcept { return level >= m_threshold; }

  /// Render one line without writing it (unit tests).
  std::string format_line(LogLevel level, std::string_view message,
                          std::initializer_list<LogField> fields) const;

private:
  std::string m_run_id;
  LogFormat m_format;
  LogLevel m_threshold;
  /// stderr is the journal's stream: lines start with <N> (journal_prefix).
  bool m_journal;
  std::vector<std::pair<std::string, LogValue>> m_context;
};

/// Whether fd is the stream systemd connected to the journal: JOURNAL_STREAM
/// ("DEVICE:INODE", journal_env) names it, and a child whose stderr was
/// redirected elsewhere inherits the variable with another stream.
bool is_journal_stream(char const *journal_env, int fd) noexcept;

/// sd-daemon(3)'s priority prefix for a line to the journal: <3> error,
/// <4> warn, <6> info, <7> debug, so that `journalctl -p err` finds the
/// errors; journald strips it from the message.
std::string_view journal_prefix(LogLevel level) noexcept;

/// A random RFC 4122 version-4 UUID (Boost.UUID's random generator).
std::string new_run_id();
/// JSON string escaping (quotes included); invalid UTF-8 becomes \ufffd.
std::string json_quote(std::string_view s);
} // namespace loader
