// The --config file (cli/config_file.cpp): a command's values from its own
// section and the top level, under the command line's; refused unless it
// is private to the user.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "core/errors.hpp"
#include "core/secret_file.hpp"
#include "flows/load.hpp"
#include "temp_file.hpp"

using Catch::Matchers::Contains;
using loader::ErrorKind;
using loader::LoaderError;

namespace
{
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
  std::vector<char const *> a{"--config",   keep.c_str(), "load",
                              "--source",   "acme-erp",   "--business-date",
                              "2026-11-28", "--input",    "in.csv"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}
} // namespace

TEST_CASE("config file: values for the command, under the command line",
          "[unit][config]")
{
  TempFile const cfg{"# shared by every command\n"
                     "retry-budget = 120\n"
                     "policy = partial\n"
                     "[load]\n"
                     "wait-for-manifest = 30\n"
                     "[notify]\n"
                     "webhook-url = https://example.test/hook\n"};
  auto const r = parse(load_with(cfg.path));
  auto const &l = r.options_as<loader::flows::LoadRequest>();
  CHECK(l.retry.budget == std::chrono::seconds{120});
  CHECK(l.wait_for_manifest == std::chrono::seconds{30});
  SECTION("the command line wins")
  {
    auto const o = parse(load_with(cfg.path, {"--retry-budget", "7"}));
    CHECK(o.options_as<loader::flows::LoadRequest>().retry.budget ==
          std::chrono::seconds{7});
  }
}

TEST_CASE("config file: refused unless private to the user", "[unit][config]")
{
  for (mode_t mode : {mode_t{0644}, mode_t{0640}, mode_t{0604}, mode_t{0620}})
  {
    TempFile const cfg("retry-budget = 120\n", mode);
    // Group read is allowed for root's files in the loader's group only:
    // as root, give the file another group.
    if (::geteuid() == 0)
      REQUIRE(::chown(cfg.path.c_str(), static_cast<uid_t>(-1),
                      ::getegid() + 1) == 0);
    CAPTURE(mode);
    try
    {
      parse(load_with(cfg.path));
      FAIL("a config file readable by others was accepted");
    }
    catch (LoaderError const &e)
    {
      CHECK(e.kind == ErrorKind::config);
      CHECK_THAT(e.what(), Contains("chmod 600"));
      CHECK_THAT(e.what(), !Contains("120"));
    }
  }
  SECTION("a missing file")
  {
    CHECK_THROWS_AS(parse(load_with("/nonexistent/invoice-loader.conf")),
                    LoaderError);
  }
  SECTION("a bad value in it is a configuration error naming the file")
  {
    // The same value on the command line is a usage error (64); in the
    // file it is configuration (78), and the message names the file.
    TempFile const cfg("[load]\nretry-budget = soon\n", 0600);
    try
    {
      parse(load_with(cfg.path));
      FAIL("accepted");
    }
    catch (LoaderError const &e)
    {
      CHECK(e.kind == ErrorKind::config);
      CHECK_THAT(e.what(), Contains(cfg.path));
      CHECK_THAT(e.what(), Contains("--retry-budget 'soon'"));
    }
  }
}

TEST_CASE("config file: a switch is true or false", "[unit][config]")
{
  TempFile const on{"[load]\ndry-run = true\n"};
  CHECK(parse(load_with(on.path))
          .options_as<loader::flows::LoadRequest>()
          .dry_run);
  TempFile const off{"[load]\ndry-run = false\n"};
  CHECK_FALSE(parse(load_with(off.path))
                .options_as<loader::flows::LoadRequest>()
                .dry_run);
  TempFile const bad{"[load]\ndry-run = maybe\n"};
  CHECK_THROWS_AS(parse(load_with(bad.path)), LoaderError);
}

TEST_CASE("secret files: one rule for --config and netrc files",
          "[unit][config]")
{
  using loader::secret_file_refusal;
  SECTION("private to the user: 0600 and 0400")
  {
    for (mode_t mode : {mode_t{0600}, mode_t{0400}})
    {
      TempFile const f("password s3cr3tXY\n", mode);
      CHECK_FALSE(secret_file_refusal("--netrc-file", f.path));
    }
  }
  SECTION("readable or writable by others: the same refusal for each")
  {
    for (mode_t mode : {mode_t{0644}, mode_t{0604}, mode_t{0620}, mode_t{0660},
                        mode_t{0602}, mode_t{0601}})
    {
      TempFile const f("password s3cr3tXY\n", mode);
      CAPTURE(mode);
      auto const netrc = secret_file_refusal("--netrc-file", f.path);
      auto const config = secret_file_refusal("--config", f.path);
      REQUIRE(netrc);
      REQUIRE(config);
      CHECK(netrc->substr(std::string{"--netrc-file"}.size()) ==
            config->substr(std::string{"--config"}.size()));
      CHECK_THAT(*netrc, Contains("chmod 600 " + f.path));
      CHECK_THAT(*netrc, !Contains("s3cr3tXY"));
    }
  }
  SECTION("0640: only owned by root and in the loader's group")
  {
    TempFile const f("password s3cr3tXY\n", 0640);
    if (::geteuid() == 0)
    {
      REQUIRE(::chown(f.path.c_str(), 0, ::getegid()) == 0);
      CHECK_FALSE(secret_file_refusal("--config", f.path));
      REQUIRE(::chown(f.path.c_str(), 0, ::getegid() + 1) == 0);
      CHECK(secret_file_refusal("--config", f.path));
    }
    else
      CHECK(secret_file_refusal("--config", f.path));
  }
  SECTION("not a regular file, or missing")
  {
    CHECK(secret_file_refusal("--config", "/tmp"));
    CHECK(secret_file_refusal("--config", "/nonexistent/netrc"));
  }
}
