#pragma once
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

namespace loader
{
enum class LogFormat { text, json };
enum class LogLevel { debug = 0, info = 1, warn = 2, error = 3 };

/// One key=value pair attached to a log line.
using LogField = std::pair<std::string_view, std::string>;

/// Writes one line per event to stderr; every line carries the run id.
/// Never pass a password or a full CSV row to it.
class Logger
{
public:
  Logger(std::string run_id, LogFormat format, LogLevel threshold);

  void log(LogLevel level, std::string_view message,
           std::initializer_list<LogField> fields = {}) const;
  void debug(std::string_view m, std::initializer_list<LogField> f = {}) const
  { log(LogLevel::debug, m, f); }
  void info(std::string_view m, std::initializer_list<LogField> f = {}) const
  { log(LogLevel::info, m, f); }
  void warn(std::string_view m, std::initializer_list<LogField> f = {}) const
  { log(LogLevel::warn, m, f); }
  void error(std::string_view m, std::initializer_list<LogField> f = {}) const
  { log(LogLevel::error, m, f); }

  std::string const &run_id() const noexcept { return m_run_id; }

  /// Render one line without writing it (unit tests).
  std::string format_line(LogLevel level, std::string_view message,
                          std::initializer_list<LogField> fields) const;

private:
  std::string m_run_id;
  LogFormat m_format;
  LogLevel m_threshold;
};

/// A random RFC 4122 version-4 UUID, from /dev/urandom.
std::string new_run_id();
/// JSON string escaping (quotes included).
std::string json_quote(std::string_view s);
} // namespace loader
