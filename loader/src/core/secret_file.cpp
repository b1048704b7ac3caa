#include "core/secret_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace loader
{
std::optional<std::string> secret_file_refusal(std::string const &label,
                                               std::string const &path)
{
  struct stat st
  {};
  if (::stat(path.c_str(), &st) != 0)
    return label + " " + path + ": " + std::strerror(errno);
  if (not S_ISREG(st.st_mode))
    return label + " " + path + " is not a regular file";
  bool const own_and_private{st.st_uid == ::geteuid() and
                             (st.st_mode & 077) == 0};
  bool const root_and_group{st.st_uid == 0 and st.st_gid == ::getegid() and
                            (st.st_mode & 037) == 0};
  if (own_and_private or root_and_group) return std::nullopt;
  return label + " " + path +
         " is refused: it may hold secrets, so it must be owned by the "
         "user running invoice-loader and not be readable or writable by "
         "anyone else (chmod 600 " +
         path +
         "), or be owned by root, in the loader's group and readable by "
         "that group only (mode 0640)";
}
} // namespace loader
