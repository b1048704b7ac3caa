#pragma once
/// How long the spool keeps a delivered file and how large it may grow.
///
/// The spool is a cache of complete downloads, each named by its SHA-256
/// (net/transport.hpp: download()).  Only the loader's own runs can reach
/// it (the database's sweep runs on the server, not on the loader's host),
/// so every load of a URL tidies it before it downloads, and settles its
/// own file when its batch ends:
///
/// - published (by this run or an earlier one): the file is removed;
/// - quarantined: the file is held for the source's retention days (a
///   "<sha256>.hold" marker beside it), for the data owner to inspect;
/// - any other end (a failure, waiting, busy, stopped): it stays as a cache
///   the next run may reuse (a 304), at most unheld_age after its last use.
///
/// Before a download the expired files go; then, while the spool and one
/// more input of the largest size would pass max_bytes, the oldest files
/// go first, except those used within in_use (another run may be reading
/// them).  The download may then take at most the room left.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace loader::net
{
struct SpoolLimits
{
  /// --spool-max-bytes: the most the spool may hold, partial files too.
  std::uint64_t max_bytes = std::uint64_t{32} << 30;
  /// --max-input-bytes: room kept free for the next download.
  std::uint64_t max_input_bytes = std::uint64_t{10} << 30;
  /// A file no batch holds is kept this long after its last use.
  std::chrono::seconds unheld_age{24 * 3600};
  /// A file used this recently is never removed to make room.
  std::chrono::seconds in_use{3600};
};

using SpoolClock = std::chrono::system_clock;

/// One complete file of the spool.
struct SpoolEntry
{
  std::string name;            ///< its SHA-256, the file name
  std::uint64_t size = 0;      ///< bytes
  SpoolClock::time_point used; ///< its modification time: the last use
  /// Held (quarantined batch) until then; nothing: not held.
  std::optional<SpoolClock::time_point> hold_until;
};

/// What tidying the spool does.
struct SpoolPlan
{
  std::vector<std::string> expired; ///< names removed: hold or age over
  std::vector<std::string> evicted; ///< names removed to make room
  std::uint64_t kept_bytes = 0;     ///< what stays, partial files included
  /// What the next download may take: max_bytes - kept_bytes, at most
  /// max_input_bytes; 0 when the spool is full.
  std::uint64_t room = 0;
};

/// The plan for entries (and partial_bytes of partial downloads) at now;
/// pure, for the unit tests.
SpoolPlan plan_spool(std::vector<SpoolEntry> entries,
                     std::uint64_t partial_bytes, SpoolLimits const &limits,
                     SpoolClock::time_point now);

/// Read dir (a missing one is empty), carry out plan_spool and return the
/// plan.  A file that cannot be removed stays and is counted.
SpoolPlan tidy_spool(std::string const &dir, SpoolLimits const &limits);

/// The run's batch is published: remove its file and hold marker.
void release_spooled(std::string const &dir, std::string const &sha256);

/// The run's batch is quarantined: hold its file for `days` from now.
/// Best effort: a marker that cannot be written leaves the file to the
/// unheld age.
void hold_spooled(std::string const &dir, std::string const &sha256, int days);

/// The file was just used again (a 304 returned it): set its modification
/// time to now, so that neither age nor room removes it from under the run.
void mark_used(std::string const &path);
} // namespace loader::net
