// net/spool_policy: which spooled files go, and the room a download gets.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>

#include "net/spool_policy.hpp"

using loader::net::plan_spool;
using loader::net::SpoolClock;
using loader::net::SpoolEntry;
using loader::net::SpoolLimits;
using namespace std::chrono_literals;

namespace
{
SpoolClock::time_point const now = SpoolClock::time_point{} + 1000 * 24h;

SpoolLimits limits(std::uint64_t max, std::uint64_t input)
{
  SpoolLimits l;
  l.max_bytes = max;
  l.max_input_bytes = input;
  return l;
}
} // namespace

TEST_CASE("spool_policy: an unheld file goes after a day, a held one stays "
          "until its hold ends",
          "[unit][spool_policy]")
{
  std::vector<SpoolEntry> const entries{
    {"fresh", 10, now - 1h, std::nullopt},
    {"stale", 10, now - 25h, std::nullopt},
    {"held", 10, now - 48h, now + 1h},
    {"hold-over", 10, now - 1h, now - 1s},
  };
  auto const plan = plan_spool(entries, 0, limits(1000, 100), now);
  CHECK(plan.expired == std::vector<std::string>{"stale", "hold-over"});
  CHECK(plan.evicted.empty());
  CHECK(plan.kept_bytes == 20);
  CHECK(plan.room == 100);
}

TEST_CASE("spool_policy: the oldest files go first until one more input "
          "fits, held ones too, never one in use",
          "[unit][spool_policy]")
{
  std::vector<SpoolEntry> const entries{
    {"newer", 40, now - 3h, std::nullopt},
    {"oldest", 40, now - 5h, now + 240h},
    {"in-use", 40, now - 10min, std::nullopt},
    {"older", 40, now - 4h, std::nullopt},
  };
  // 160 bytes held, 10 partial; room for 100 under 200 leaves 100.
  auto const plan = plan_spool(entries, 10, limits(200, 100), now);
  CHECK(plan.expired.empty());
  CHECK(plan.evicted == std::vector<std::string>{"oldest", "older"});
  CHECK(plan.kept_bytes == 90);
  CHECK(plan.room == 100);
}

TEST_CASE("spool_policy: files in use that fill the spool leave only the "
          "room under the bound, or none",
          "[unit][spool_policy]")
{
  std::vector<SpoolEntry> const entries{
    {"a", 150, now - 5min, std::nullopt},
    {"b", 30, now - 1min, std::nullopt},
  };
  auto plan = plan_spool(entries, 0, limits(200, 100), now);
  CHECK(plan.evicted.empty());
  CHECK(plan.room == 20);
  plan = plan_spool(entries, 30, limits(200, 100), now);
  CHECK(plan.room == 0);
}

TEST_CASE("spool_policy: tidy_spool removes an expired file and its hold, "
          "release and hold settle a run's file",
          "[unit][spool_policy]")
{
  namespace fs = std::filesystem;
  char tmpl[] = "/tmp/invoice-loader-spool.XXXXXX";
  REQUIRE(::mkdtemp(tmpl) != nullptr);
  std::string const dir = tmpl;
  std::string const a(64, 'a'), b(64, 'b'), c(64, 'c');
  for (auto const &n : {a, b, c}) std::ofstream{dir + "/" + n} << "12345";
  std::ofstream{dir + "/not-a-hash"} << "x";
  // Sidecars of a URL: one names c (kept), one names a file long gone.
  std::string const d(64, 'd'), e(64, 'e');
  std::ofstream{dir + "/" + d + ".meta"} << "sha256=" << c << "\n";
  std::ofstream{dir + "/" + e + ".meta"} << "sha256=" << e << "\n";
  // a: last used two days ago, not held: expired.
  struct timespec const old[2] = {{0, UTIME_OMIT},
                                  {std::time(nullptr) - 48 * 3600, 0}};
  REQUIRE(::utimensat(AT_FDCWD, (dir + "/" + a).c_str(), old, 0) == 0);
  // b: quarantined, held for 3 days even when old.
  loader::net::hold_spooled(dir, b, 3);
  REQUIRE(::utimensat(AT_FDCWD, (dir + "/" + b).c_str(), old, 0) == 0);
  auto const plan = loader::net::tidy_spool(dir, limits(1000, 100));
  CHECK(plan.expired == std::vector<std::string>{a});
  CHECK_FALSE(fs::exists(dir + "/" + a));
  CHECK(fs::exists(dir + "/" + b));
  CHECK(fs::exists(dir + "/" + b + ".hold"));
  CHECK(fs::exists(dir + "/not-a-hash"));
  CHECK(fs::exists(dir + "/" + d + ".meta"));
  CHECK_FALSE(fs::exists(dir + "/" + e + ".meta"));
  CHECK(plan.kept_bytes == 10);
  // b's batch is published after a replay: released with its hold.
  loader::net::release_spooled(dir, b);
  CHECK_FALSE(fs::exists(dir + "/" + b));
  CHECK_FALSE(fs::exists(dir + "/" + b + ".hold"));
  // A missing spool is empty: all the room.
  auto const none = loader::net::tidy_spool(dir + "/missing", limits(50, 100));
  CHECK(none.room == 50);
  fs::remove_all(dir);
}
