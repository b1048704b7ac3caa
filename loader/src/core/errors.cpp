#include "core/errors.hpp"

#include <cerrno>
#include <string>

namespace loader
{
int exit_code_of(ErrorKind kind) noexcept
{
  switch (kind)
  {
  case ErrorKind::usage: return exit_usage;
  case ErrorKind::data: return exit_data;
  case ErrorKind::no_input: return exit_no_input;
  case ErrorKind::internal: return exit_internal;
  case ErrorKind::transient: return exit_temp_fail;
  case ErrorKind::in_doubt: return exit_temp_fail;
  case ErrorKind::interrupted: return exit_temp_fail;
  case ErrorKind::permission: return exit_permission;
  case ErrorKind::config: return exit_config;
  }
  return exit_internal;
}

std::string_view name_of(ErrorKind kind) noexcept
{
  switch (kind)
  {
  case ErrorKind::usage: return "usage";
  case ErrorKind::data: return "data";
  case ErrorKind::no_input: return "no_input";
  case ErrorKind::internal: return "internal";
  case ErrorKind::transient: return "transient";
  case ErrorKind::in_doubt: return "in_doubt";
  case ErrorKind::interrupted: return "interrupted";
  case ErrorKind::permission: return "permission";
  case ErrorKind::config: return "config";
  }
  return "internal";
}

namespace
{
bool starts_with(std::string_view s, std::string_view prefix) noexcept
{
  return s.substr(0, prefix.size()) == prefix;
}
} // namespace

ErrorKind classify_sqlstate(std::string_view s) noexcept
{
  // Our own codes first (sql/ERRCODES.md, whose every row a unit test
  // checks against this): IV1xx bad input, IV2xx batch state, IV3xx
  // configuration, IV4xx permission.
  if (s == "IV203" or s == "IV209" or s == "IV216" or s == "IV218")
    return ErrorKind::transient;
  if (s == "IV208" or s == "IV215" or s == "IV217") return ErrorKind::config;
  if (starts_with(s, "IV1")) return ErrorKind::data;
  if (starts_with(s, "IV3")) return ErrorKind::config;
  if (starts_with(s, "IV4")) return ErrorKind::permission;
  if (starts_with(s, "IV")) return ErrorKind::internal;

  // Transient: the same unit of work may succeed when tried again.
  if (starts_with(s, "08") and s != "08P01") return ErrorKind::transient;
  if (s == "40001" or s == "40P01" or s == "55P03" or s == "55006" or
      s == "57P01" or s == "57P02" or s == "57P03" or s == "57P05" or
      s == "25P03" or s == "53300" or s == "53200")
    return ErrorKind::transient;
  if (s == "40003") return ErrorKind::in_doubt;

  // Credentials and privileges: never retried (lockout).
  if (starts_with(s, "28") or s == "42501") return ErrorKind::permission;

  // The data is wrong: the same input fails again.
  if (starts_with(s, "22") or starts_with(s, "23")) return ErrorKind::data;

  // 3D000: the database named in the DSN does not exist.
  if (s == "3D000") return ErrorKind::config;

  return ErrorKind::internal;
}
std::string one_line(std::string_view message, bool keep_context)
{
  static char const hex[] = "0123456789abcdef";
  std::string out;
  std::size_t start = 0;
  bool in_context = false;
  while (start <= message.size())
  {
    auto end = message.find('\n', start);
    if (end == std::string_view::npos) end = message.size();
    std::string_view line = message.substr(start, end - start);
    start = end + 1;
    while (not line.empty() and (line.back() == ' ' or line.back() == '\r' or
                                 line.back() == '\t'))
      line.remove_suffix(1);
    if (line.substr(0, 8) == "CONTEXT:") in_context = true;
    else if (line.substr(0, 7) == "DETAIL:" or line.substr(0, 5) == "HINT:")
      in_context = false;
    if (line.empty() or (in_context and not keep_context)) continue;
    if (not out.empty()) out += "; ";
    for (char const ch : line)
    {
      auto const c = static_cast<unsigned char>(ch);
      if (c < 0x20 or c == 0x7f)
        out += {'\\', 'x', hex[c >> 4], hex[c & 0x0f]};
      else
        out.push_back(ch);
    }
    if (end == message.size()) break;
  }
  // "step: ERROR:  message" -> "step: message"
  for (auto at = out.find("ERROR:  "); at != std::string::npos;
       at = out.find("ERROR:  ", at))
    out.erase(at, 8);
  return out;
}

ErrorKind classify_errno(int err) noexcept
{
  switch (err)
  {
  case ENOENT:
  case ENOTDIR:
  case EISDIR:
  case ENAMETOOLONG:
  case ELOOP: return ErrorKind::no_input;
  case EACCES:
  case EPERM: return ErrorKind::permission;
  case EIO:
  case EINTR:
  case EAGAIN:
  case ENOMEM:
  case EMFILE:
  case ENFILE:
  case ESTALE:
  case ETIMEDOUT: return ErrorKind::transient;
  default: return ErrorKind::internal;
  }
}
} // namespace loader
