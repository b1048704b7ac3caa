#include "flows/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace loader::flows
{
std::string human_bytes(double bytes)
{
  static char const *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024.0 and u < 4) bytes /= 1024.0, ++u;
  char buffer[32];
  if (u == 0)
    std::snprintf(buffer, sizeof buffer, "%.0f B", bytes);
  else
    std::snprintf(buffer, sizeof buffer, "%.1f %s", bytes, units[u]);
  return buffer;
}

bool ProgressLine::enabled_for(Logger const &log, int fd)
{
  return log.format() == LogFormat::text and log.enabled(LogLevel::info) and
         ::isatty(fd) == 1;
}

ProgressLine::ProgressLine(Logger const &log, std::string label, int fd) :
        m_enabled{enabled_for(log, fd)},
        m_label{std::move(label)},
        m_fd{fd},
        m_start{std::chrono::steady_clock::now()},
        m_last{m_start}
{}

ProgressLine::~ProgressLine()
{
  finish();
}

std::string ProgressLine::render(std::string const &label, std::int64_t done,
                                 std::int64_t total, std::int64_t records,
                                 std::int64_t records_total, double seconds)
{
  std::string out{label + ": " + human_bytes(static_cast<double>(done))};
  if (total > 0)
    out += " of " + human_bytes(static_cast<double>(total)) + " (" +
           std::to_string(done * 100 / total) + "%)";
  if (seconds > 0.05)
  {
    double const rate = static_cast<double>(done) / seconds;
    out += ", " + human_bytes(rate) + "/s";
    if (total > 0 and rate > 0 and done < total)
      out += ", ETA " +
             std::to_string(static_cast<long>(
               static_cast<double>(total - done) / rate + 0.5)) +
             " s";
  }
  if (records >= 0)
  {
    out += ", " + std::to_string(records);
    if (records_total >= 0) out += " of " + std::to_string(records_total);
    out += " records";
  }
  return out;
}

void ProgressLine::update(std::int64_t done, std::int64_t total,
                          std::int64_t records, std::int64_t records_total)
{
  if (not m_enabled or m_finished) return;
  m_done = done, m_total = total, m_records = records,
  m_records_total = records_total;
  auto const now = std::chrono::steady_clock::now();
  if (m_drawn and now - m_last < std::chrono::milliseconds{200}) return;
  m_last = now;
  draw(false);
}

void ProgressLine::draw(bool last)
{
  double const seconds = std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - m_start)
                           .count();
  // \r and "erase to the end of the line" (ANSI EL): a TTY only.
  std::string const line{
    "\r" +
    render(m_label, m_done, m_total, m_records, m_records_total, seconds) +
    "\x1b[K" + (last ? "\n" : "")};
  // Best effort: a terminal that cannot be written to loses the line.
  [[maybe_unused]] auto const n = ::write(m_fd, line.data(), line.size());
  m_drawn = true;
}

void ProgressLine::finish()
{
  if (not m_enabled or m_finished) return;
  m_finished = true;
  if (m_drawn) draw(true);
}
} // namespace loader::flows
