// The progress line (flows/progress.hpp): written only to a terminal, and
// only for text logs at info level; never to a pipe or file (cron, CI).
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <unistd.h>

#include <string>

#include "flows/progress.hpp"

using Catch::Matchers::Contains;
using loader::LogFormat;
using loader::Logger;
using loader::LogLevel;
using loader::flows::ProgressLine;

namespace
{
/// Everything readable from fd now (non-blocking).
std::string drain(int fd)
{
  std::string out;
  char buffer[4096];
  pollfd p{fd, POLLIN, 0};
  while (::poll(&p, 1, 50) > 0 and (p.revents & POLLIN) != 0)
  {
    auto const n = ::read(fd, buffer, sizeof buffer);
    if (n <= 0) break;
    out.append(buffer, static_cast<std::size_t>(n));
  }
  return out;
}

/// One line's worth of updates and its end.
void show(Logger const &log, int fd)
{
  ProgressLine line{log, "download a.csv", fd};
  line.update(512, 2048);
  line.update(2048, 2048);
  line.finish();
}
} // namespace

TEST_CASE("progress: nothing is written when the stream is not a TTY",
          "[unit][progress]")
{
  Logger const log{"r", LogFormat::text, LogLevel::info};
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  CHECK_FALSE(ProgressLine::enabled_for(log, fds[1]));
  show(log, fds[1]);
  ::close(fds[1]);
  CHECK(drain(fds[0]).empty());
  ::close(fds[0]);
}

TEST_CASE("progress: one updating line on a terminal, unless -q or json",
          "[unit][progress]")
{
  int const master = ::posix_openpt(O_RDWR | O_NOCTTY);
  REQUIRE(master >= 0);
  REQUIRE(::grantpt(master) == 0);
  REQUIRE(::unlockpt(master) == 0);
  int const tty = ::open(::ptsname(master), O_RDWR | O_NOCTTY);
  REQUIRE(tty >= 0);

  Logger const text{"r", LogFormat::text, LogLevel::info};
  CHECK(ProgressLine::enabled_for(text, tty));
  show(text, tty);
  std::string const seen{drain(master)};
  CHECK_THAT(seen, Contains("\rdownload a.csv: 512 B of 2.0 KiB (25%)"));
  CHECK_THAT(seen, Contains("2.0 KiB of 2.0 KiB (100%)"));
  CHECK(seen.back() == '\n');

  for (Logger const &quiet : {Logger{"r", LogFormat::text, LogLevel::warn},
                              Logger{"r", LogFormat::json, LogLevel::info}})
  {
    CHECK_FALSE(ProgressLine::enabled_for(quiet, tty));
    show(quiet, tty);
    CHECK(drain(master).empty());
  }
  ::close(tty);
  ::close(master);
}

TEST_CASE("progress: the line's text", "[unit][progress]")
{
  CHECK(ProgressLine::render("COPY", 3 << 20, -1, 10, 20, 0.0) ==
        "COPY: 3.0 MiB, 10 of 20 records");
  CHECK(ProgressLine::render("download x", 1 << 20, 4 << 20, -1, -1, 1.0) ==
        "download x: 1.0 MiB of 4.0 MiB (25%), 1.0 MiB/s, ETA 3 s");
  CHECK(ProgressLine::render("download x", 100, -1, -1, -1, 2.0) ==
        "download x: 100 B, 50 B/s");
}
