// The spool's retention and total bound (net/spool_policy.hpp).
#include "net/spool_policy.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "net/spool.hpp"

namespace loader::net
{
namespace
{
namespace fs = std::filesystem;

bool older_than(SpoolClock::time_point t, SpoolClock::time_point now,
                std::chrono::seconds age)
{
  return t + age < now;
}

SpoolClock::time_point mtime_of(struct stat const &st)
{
  return SpoolClock::time_point{
    std::chrono::duration_cast<SpoolClock::duration>(
      std::chrono::seconds{st.st_mtim.tv_sec} +
      std::chrono::nanoseconds{st.st_mtim.tv_nsec})};
}

/// The hold marker's "until=<seconds since the epoch>", or nothing.
std::optional<SpoolClock::time_point> read_hold(std::string const &path)
{
  std::ifstream in{path};
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("until=", 0) == 0)
    {
      try
      {
        return SpoolClock::time_point{
          std::chrono::seconds{std::stoll(line.substr(6))}};
      }
      catch (std::exception const &)
      {
        return std::nullopt;
      }
    }
  return std::nullopt;
}

void remove_entry(std::string const &dir, std::string const &name)
{
  ::unlink((dir + "/" + name).c_str());
  ::unlink((dir + "/" + name + ".hold").c_str());
}

/// A sidecar (".meta", validators of a URL) or a ".hold" marker whose
/// file is gone is of no use: remove it.
void remove_orphans(std::string const &dir,
                    std::vector<std::string> const &markers)
{
  for (std::string const &name : markers)
  {
    std::string const path = dir + "/" + name;
    std::string target = name.substr(0, 64);
    if (name.size() > 5 and name.compare(name.size() - 5, 5, ".meta") == 0)
    {
      auto const meta = spool::read_meta(path);
      auto const it = meta.find("sha256");
      target = it == meta.end() ? std::string{} : it->second;
    }
    bool exists = false;
    if (spool::is_sha256_hex(target))
      spool::file_size_or_zero(dir + "/" + target, exists);
    if (not exists) ::unlink(path.c_str());
  }
}

/// "<64 hex>.meta" or "<64 hex>.hold".
bool is_marker(std::string const &name)
{
  return name.size() == 69 and spool::is_sha256_hex(name.substr(0, 64)) and
         (name.compare(64, 5, ".meta") == 0 or
          name.compare(64, 5, ".hold") == 0);
}
} // namespace

SpoolPlan plan_spool(std::vector<SpoolEntry> entries,
                     std::uint64_t partial_bytes, SpoolLimits const &limits,
                     SpoolClock::time_point now)
{
  SpoolPlan plan;
  plan.kept_bytes = partial_bytes;
  std::vector<SpoolEntry> kept;
  for (SpoolEntry &e : entries)
  {
    bool const expired = e.hold_until
                           ? *e.hold_until <= now
                           : older_than(e.used, now, limits.unheld_age);
    if (expired)
      plan.expired.push_back(e.name);
    else
    {
      plan.kept_bytes += e.size;
      kept.push_back(std::move(e));
    }
  }
  // Oldest first; room for one more input of the largest size.
  std::sort(
    kept.begin(), kept.end(),
    [](SpoolEntry const &a, SpoolEntry const &b) { return a.used < b.used; });
  std::uint64_t const target = limits.max_bytes > limits.max_input_bytes
                                 ? limits.max_bytes - limits.max_input_bytes
                                 : 0;
  for (SpoolEntry const &e : kept)
  {
    if (plan.kept_bytes <= target) break;
    if (not older_than(e.used, now, limits.in_use)) break;
    plan.evicted.push_back(e.name);
    plan.kept_bytes -= e.size;
  }
  std::uint64_t const free = limits.max_bytes > plan.kept_bytes
                               ? limits.max_bytes - plan.kept_bytes
                               : 0;
  plan.room = std::min(free, limits.max_input_bytes);
  return plan;
}

SpoolPlan tidy_spool(std::string const &dir, SpoolLimits const &limits)
{
  std::vector<SpoolEntry> entries;
  std::vector<std::string> markers;
  std::uint64_t partial = 0;
  std::error_code ec;
  for (fs::directory_iterator it{dir, ec}, end; not ec and it != end;
       it.increment(ec))
  {
    std::string const name = it->path().filename().string();
    struct stat st
    {};
    if (::lstat(it->path().c_str(), &st) != 0 or not S_ISREG(st.st_mode))
      continue;
    if (name.rfind(".part-", 0) == 0)
      partial += static_cast<std::uint64_t>(st.st_size);
    if (is_marker(name)) markers.push_back(name);
    if (not spool::is_sha256_hex(name)) continue;
    entries.push_back({name, static_cast<std::uint64_t>(st.st_size),
                       mtime_of(st), read_hold(dir + "/" + name + ".hold")});
  }
  SpoolPlan plan{
    plan_spool(std::move(entries), partial, limits, SpoolClock::now())};
  for (auto const &name : plan.expired) remove_entry(dir, name);
  for (auto const &name : plan.evicted) remove_entry(dir, name);
  remove_orphans(dir, markers);
  return plan;
}

void release_spooled(std::string const &dir, std::string const &sha256)
{
  if (spool::is_sha256_hex(sha256)) remove_entry(dir, sha256);
}

void hold_spooled(std::string const &dir, std::string const &sha256, int days)
{
  if (not spool::is_sha256_hex(sha256)) return;
  auto const until =
    std::chrono::duration_cast<std::chrono::seconds>(
      (SpoolClock::now() + std::chrono::hours{24} * days).time_since_epoch())
      .count();
  std::string const path = dir + "/" + sha256 + ".hold";
  std::ofstream out{path, std::ios::trunc};
  out << "# invoice-loader: the batch of this file is quarantined; kept "
         "until\nuntil="
      << until << "\n";
}

void mark_used(std::string const &path)
{
  ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
}
} // namespace loader::net
