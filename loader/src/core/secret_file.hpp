#pragma once
#include <optional>
#include <string>

namespace loader
{
/// The one rule for a file that may hold secrets (the --config file, a
/// netrc file): a regular file, owned by the user running invoice-loader
/// and private to it (0600 or stricter), or owned by root, in the
/// loader's group, and readable by that group only (0640 or stricter),
/// the way a package ships /etc files for a service user.
///
/// Nothing when path keeps the rule; else the whole refusal, the same
/// for every such file: "<label> <path> is refused: ...".  The file's
/// content is never read or shown.
std::optional<std::string> secret_file_refusal(std::string const &label,
                                               std::string const &path);
} // namespace loader
