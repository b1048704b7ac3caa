#include "cli/config_file.hpp"

#include <fstream>

#include <boost/algorithm/string/replace.hpp>
#include <boost/program_options/parsers.hpp>

#include "cli/values.hpp"
#include "core/secret_file.hpp"

namespace po = boost::program_options;

namespace loader::cli
{
namespace
{
/// The rule of every file that may hold secrets (core/secret_file.hpp).
void check_private(std::string const &path)
{
  if (auto const refusal = secret_file_refusal("--config", path))
    config_error(*refusal);
}
} // namespace

std::vector<std::string> config_file_tokens(
  std::string const &path, std::string const &command_name,
  po::options_description const &options)
{
  check_private(path);
  std::ifstream in{path};
  if (not in) config_error("--config " + path + " cannot be read");
  std::string const section{
    boost::algorithm::replace_all_copy(command_name, " ", "-") + "."};
  po::parsed_options parsed{nullptr};
  try
  {
    // Every key unregistered: the command's own parser checks them.
    parsed = po::parse_config_file(in, po::options_description{}, true);
  }
  catch (po::error const &e)
  {
    config_error("--config " + path + ": " + e.what());
  }
  std::vector<std::string> tokens;
  for (po::option const &o : parsed.options)
  {
    std::string name{o.string_key};
    if (name.compare(0, section.size(), section) == 0)
      name.erase(0, section.size());
    else if (name.find('.') != std::string::npos)
      continue; // another command's section
    po::option_description const *d = options.find_nothrow(name, false);
    if (d == nullptr) continue;
    for (std::string const &value : o.value)
    {
      // A switch takes no value on the command line: "follow = true" is
      // --follow, "follow = false" nothing.
      if (d->semantic()->max_tokens() == 0)
      {
        if (value == "true" or value == "yes" or value == "on" or value == "1")
          tokens.push_back("--" + name);
        else if (not(value == "false" or value == "no" or value == "off" or
                     value == "0"))
          config_error("--config " + path + ": " + name +
                       " is a switch: true or false, not '" + value + "'");
        continue;
      }
      tokens.push_back("--" + name + "=" + value);
    }
  }
  return tokens;
}
} // namespace loader::cli
