// The --config file (cli/config_file.cpp): a command's values from its own
// section and the top level, under the command line's; refused unless it
// is private to the user.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "core/errors.hpp"
#include "flows/load.hpp"

using Catch::Matchers::Contains;
using loader::ErrorKind;
using loader::LoaderError;

namespace
{
std::string write_config(std::string const &text, mode_t mode)
{
  char path[] = "/tmp/invoice-loader-config-XXXXXX";
  int const fd = ::mkstemp(path);
  REQUIRE(fd >= 0);
  ::close(fd);
  std::ofstream{path} << text;
  REQUIRE(::chmod(path, mode) == 0);
  return path;
}

loader::cli::ParsedCommandLine parse(std::vector<char const *> args)
{
  args.insert(args.begin(), "invoice-loader");
  return loader::cli::parse_command_line(static_cast<int>(args.size()),
                                         args.data());
}

std::vector<char const *> load_with(std::string const &config,
                                    std::vector<char const *> extra = {})
{
  static std::string keep;
  keep = config;
  std::vector<char const *> a{"--config", keep.c_str(), "load", "--source",
                              "acme-erp", "--business-date", "2026-11-28",
                              "--input", "in.csv"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}
} // namespace

TEST_CASE("config file: values for the command, under the command line",
          "[unit][config]")
{
  auto const path = write_config("# shared by every command\n"
                                 "retry-budget = 120\n"
                                 "policy = partial\n"
                                 "[load]\n"
                                 "wait-for-manifest = 30\n"
                                 "[notify]\n"
                                 "webhook-url = https://example.test/hook\n",
                                 0600);
  auto const r = parse(load_with(path));
  auto const &l = r.options_as<loader::flows::LoadRequest>();
  CHECK(l.retry.budget == std::chrono::seconds{120});
  CHECK(l.wait_for_manifest == std::chrono::seconds{30});
  SECTION("the command line wins")
  {
    auto const o = parse(load_with(path, {"--retry-budget", "7"}));
    CHECK(o.options_as<loader::flows::LoadRequest>().retry.budget ==
          std::chrono::seconds{7});
  }
  ::unlink(path.c_str());
}

TEST_CASE("config file: refused unless private to the user", "[unit][config]")
{
  for (mode_t mode : {mode_t{0644}, mode_t{0640}, mode_t{0604}, mode_t{0620}})
  {
    auto const path = write_config("retry-budget = 120\n", mode);
    CAPTURE(mode);
    try
    {
      parse(load_with(path));
      FAIL("a config file readable by others was accepted");
    }
    catch (LoaderError const &e)
    {
      CHECK(e.kind == ErrorKind::config);
      CHECK_THAT(e.what(), Contains("chmod 600"));
      CHECK_THAT(e.what(), !Contains("120"));
    }
    ::unlink(path.c_str());
  }
  SECTION("a missing file")
  {
    CHECK_THROWS_AS(parse(load_with("/nonexistent/invoice-loader.conf")),
                    LoaderError);
  }
  SECTION("a bad value in it is a configuration error like on the line")
  {
    auto const path = write_config("[load]\nretry-budget = soon\n", 0600);
    try
    {
      parse(load_with(path));
      FAIL("accepted");
    }
    catch (LoaderError const &e)
    {
      CHECK(e.kind == ErrorKind::config);
    }
    ::unlink(path.c_str());
  }
}

TEST_CASE("config file: a switch is true or false", "[unit][config]")
{
  auto const on = write_config("[load]\ndry-run = true\n", 0600);
  CHECK(parse(load_with(on)).options_as<loader::flows::LoadRequest>().dry_run);
  auto const off = write_config("[load]\ndry-run = false\n", 0600);
  CHECK_FALSE(
    parse(load_with(off)).options_as<loader::flows::LoadRequest>().dry_run);
  auto const bad = write_config("[load]\ndry-run = maybe\n", 0600);
  CHECK_THROWS_AS(parse(load_with(bad)), LoaderError);
  for (auto const &p : {on, off, bad}) ::unlink(p.c_str());
}
