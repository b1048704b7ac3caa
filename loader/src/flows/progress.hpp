#pragma once
/// The one updating status line of a long step (a download, the COPY) on
/// an interactive terminal, so a person sees a long step move.  Written
/// only when the stream is a TTY and the run logs text at info level or
/// below (not -q, not --log-format json): cron, CI and log collectors never
/// see it.
#include <chrono>
#include <cstdint>
#include <string>

#include "core/log.hpp"

namespace loader::flows
{
class ProgressLine
{
public:
  /// fd: where the line goes (stderr).  Enabled only when fd is a TTY and
  /// log asks for text at info level (enabled_for).
  ProgressLine(Logger const &log, std::string label, int fd = 2);
  ~ProgressLine();
  ProgressLine(ProgressLine const &) = delete;
  ProgressLine &operator=(ProgressLine const &) = delete;

  /// Whether a line would be written for this logger and fd.
  static bool enabled_for(Logger const &log, int fd);
  bool enabled() const noexcept { return m_enabled; }

  /// done of total bytes (total < 0: unknown); records, when >= 0, is
  /// shown too (of records_total when that is >= 0).  Redraws at most
  /// every 200 ms; cheap otherwise.
  void update(std::int64_t done, std::int64_t total, std::int64_t records = -1,
              std::int64_t records_total = -1);
  /// Draw the last state and end the line (a later log line starts on a
  /// line of its own).  Called by the destructor if not before.
  void finish();

  /// The text of one redraw (tests): "<label>: 1.5 MiB of 3.0 MiB (50%),
  /// 2.0 MiB/s, ETA 1 s, 10 of 20 records".
  static std::string render(std::string const &label, std::int64_t done,
                            std::int64_t total, std::int64_t records,
                            std::int64_t records_total, double seconds);

private:
  void draw(bool last);
  bool m_enabled;
  std::string m_label;
  int m_fd;
  bool m_drawn = false;
  bool m_finished = false;
  std::int64_t m_done = 0, m_total = -1, m_records = -1, m_records_total = -1;
  std::chrono::steady_clock::time_point m_start, m_last;
};

/// Bytes for people: "512 B", "1.5 KiB", "12.3 MiB", "1.2 GiB".
std::string human_bytes(double bytes);
} // namespace loader::flows
