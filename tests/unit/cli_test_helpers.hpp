#pragma once
// What the command-line tests (test_cli_options.cpp, test_cli_commands.cpp)
// share: parse an argv, its outcome as text, the bound request structs.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/conninfo.hpp"
#include "cli/values.hpp"
#include "core/errors.hpp"
#include "flows/catch_up.hpp"
#include "flows/load.hpp"
#include "flows/source_add.hpp"
#include "flows/status.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using loader::ErrorKind;
using loader::LoaderError;
using loader::LogFormat;
using loader::LogLevel;
using loader::cli::ParsedCommandLine;

namespace cli_test
{
using Args = std::vector<char const *>;

inline ParsedCommandLine parse(Args args)
{
  args.insert(args.begin(), "invoice-loader");
  return loader::cli::parse_command_line(static_cast<int>(args.size()),
                                         args.data());
}

/// "ok", or "usage: <message>" / "config: <message>" / "other: ...".
inline std::string outcome(Args const &args)
{
  try
  {
    parse(args);
    return "ok";
  }
  catch (LoaderError const &e)
  {
    switch (e.kind)
    {
    case ErrorKind::usage: return std::string{"usage: "} + e.what();
    case ErrorKind::config: return std::string{"config: "} + e.what();
    default: return std::string{"other: "} + e.what();
    }
  }
}

inline loader::flows::LoadRequest load_of(ParsedCommandLine const &r)
{
  return r.options_as<loader::flows::LoadRequest>();
}
inline loader::flows::SourceAddRequest source_add_of(
  ParsedCommandLine const &r)
{
  return r.options_as<loader::flows::SourceAddRequest>();
}
inline loader::flows::StatusRequest status_of(ParsedCommandLine const &r)
{
  return r.options_as<loader::flows::StatusRequest>();
}

inline Args load_with(std::vector<char const *> extra)
{
  Args a{"load",       "--source", "acme-erp", "--business-date",
         "2026-11-28", "--input",  "in.csv"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}
} // namespace cli_test
using namespace cli_test;
