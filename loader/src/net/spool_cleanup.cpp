// remove_stale_temporaries(): the spool's housekeeping, apart from the
// download itself (net/download.cpp).
#include <filesystem>

#include "net/transport.hpp"

namespace loader::net
{
namespace fs = std::filesystem;

std::size_t remove_stale_temporaries(std::string const &spool_dir,
                                     std::chrono::seconds older_than)
{
  std::error_code ec;
  std::size_t removed = 0;
  auto const cutoff = fs::file_time_type::clock::now() - older_than;
  for (fs::directory_iterator it{spool_dir, ec}, end; not ec and it != end;
       it.increment(ec))
  {
    std::string const name = it->path().filename().string();
    if (name.rfind(".part-", 0) != 0) continue;
    std::error_code e2;
    auto const t = fs::last_write_time(it->path(), e2);
    if (e2 or t > cutoff) continue;
    if (fs::remove(it->path(), e2)) ++removed;
  }
  return removed;
}
} // namespace loader::net
