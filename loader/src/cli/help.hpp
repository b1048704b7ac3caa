#pragma once
#include <string>

#include <boost/program_options/options_description.hpp>

namespace loader::cli
{
/// Width of every help text.
constexpr unsigned help_line_length = 79;

/// An options description as --help shows it (no trailing blanks).
std::string render(boost::program_options::options_description const &d);
} // namespace loader::cli
