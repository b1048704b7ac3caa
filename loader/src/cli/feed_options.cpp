#include "cli/feed_options.hpp"

#include <algorithm>

#include <boost/algorithm/string/join.hpp>

#include "cli/values.hpp"
#include "net/transport.hpp"

namespace po = boost::program_options;

namespace loader::cli
{
std::string url_support_sentence()
{
  // libcurl's version and its TLS library: the first two words of
  // curl_version() ("libcurl/7.88.1 OpenSSL/3.0.11 zlib/... ...").
  std::string const line{net::curl_version_line()};
  auto end = line.find(' ');
  if (end != std::string::npos) end = line.find(' ', end + 1);
  return "URLs: " + boost::algorithm::join(net::supported_protocols(), ", ") +
         " (" + line.substr(0, end) + ")";
}

void add_feed_options(po::options_description &d)
{
  d.add_options()(
    "spool-dir", po::value<std::string>()->value_name("DIR"),
    "where a URL input and its manifest are downloaded, each file named by "
    "its SHA-256 once complete (created mode 0700; it must be owned by you "
    "and writable by no one else); default $XDG_CACHE_HOME/invoice-loader/"
    "spool, else /var/tmp/invoice-loader-UID")(
    "netrc-file", po::value<std::string>()->value_name("FILE"),
    "credentials for the feed's host (netrc format, libcurl's own); "
    "without it no netrc is read. The rule of --config applies: mode 0600 "
    "owned by you, or 0640 owned by root in your group, else refused (78). "
    "A password in a URL on the command line is refused")(
    "cacert", po::value<std::string>()->value_name("FILE"),
    "PEM file of the CAs to trust for https:// (default: the system's); a "
    "server it does not verify exits 78")(
    "connect-timeout", po::value<std::string>()->value_name("SECONDS"),
    "TCP and TLS connect limit of a download, 1-600; default 10")(
    "low-speed-time", po::value<std::string>()->value_name("SECONDS"),
    "a download that receives less than 1 byte/s for this long is cut "
    "and retried (a stalled server), 1-3600; default 30")(
    "max-input-bytes", po::value<std::string>()->value_name("BYTES"),
    "the largest input accepted, in bytes, 1 to 2^50; default 10737418240 "
    "(10 GiB). A download stops as soon as its body passes it (a declared "
    "larger Content-Length at once), its partial file is removed, and so "
    "is a larger local file refused: exit 78, nothing registered")(
    "allow-redirect-host",
    po::value<std::vector<std::string>>()->composing()->value_name("HOST"),
    "a host a download may be redirected to (http or https, never from "
    "https down to http); repeatable. Without it a redirect is followed "
    "only to the same scheme, host and port; any other exits 78, nothing "
    "registered. Every redirect followed is logged");
  d.add_options()(
    "spool-max-bytes", po::value<std::string>()->value_name("BYTES"),
    "the most the spool may hold, in bytes, 1 to 2^50; default 34359738368 "
    "(32 GiB). Before a download the oldest spooled files go (never one "
    "used within the hour) until one more input of --max-input-bytes "
    "fits; a download larger than the room left is refused: exit 78, "
    "nothing registered");
}

void add_retry_options(po::options_description &d)
{
  d.add_options()(
    "retry-attempts", po::value<std::string>()->value_name("N"),
    "tries of a step that fails for a transient reason (lost connection, "
    "server restarting, another run holding the batch, a download that "
    "failed or got 5xx/429), 1-100; default: no bound, the budget bounds "
    "the run")(
    "retry-budget", po::value<std::string>()->value_name("SECONDS"),
    "how long the run may keep retrying transient failures (server down "
    "or restarting, lost connection, failover, another run holding the "
    "batch, a failed download), 1-86400; default 300. Waits grow from "
    "0.25 s to at most 5 s (exponential backoff, full jitter; at least a "
    "429/503's Retry-After), so an outage shorter than the budget costs "
    "time, not the outcome, and the run continues within about 5 s of the "
    "server's return; each step's statement_timeout is what is left of it. "
    "When it is spent the run exits 75 and the batch stays at its last "
    "checkpoint");
}

void bind_feed_options(po::variables_map const &vm, flows::FeedOptions &out)
{
  if (auto const v = get(vm, "spool-dir"))
  {
    check_not_empty("spool-dir", *v);
    out.spool_dir = *v;
  }
  if (auto const v = get(vm, "netrc-file"))
  {
    check_not_empty("netrc-file", *v);
    out.netrc_file = *v;
  }
  if (auto const v = get(vm, "cacert"))
  {
    check_not_empty("cacert", *v);
    out.ca_file = *v;
  }
  if (auto const v = bounded(vm, "connect-timeout", 1, 600))
    out.connect_timeout = std::chrono::seconds{*v};
  if (auto const v = bounded(vm, "low-speed-time", 1, 3600))
    out.low_speed_time = std::chrono::seconds{*v};
  if (auto const v = bounded(vm, "max-input-bytes", 1, std::int64_t{1} << 50))
  {
    out.max_input_bytes = static_cast<std::uint64_t>(*v);
    out.max_input_bytes_given = true;
  }
  if (auto const v = bounded(vm, "spool-max-bytes", 1, std::int64_t{1} << 50))
    out.spool_max_bytes = static_cast<std::uint64_t>(*v);
  if (vm.count("allow-redirect-host") != 0)
    for (auto const &h :
         vm["allow-redirect-host"].as<std::vector<std::string>>())
    {
      check_not_empty("allow-redirect-host", h);
      if (h.find_first_of("/:@ ") != std::string::npos)
        config_error("--allow-redirect-host " + quoted(h) +
                     ": a host name or address, without scheme, port or "
                     "path");
      out.allow_redirect_hosts.push_back(h);
    }
}

void bind_retry_options(po::variables_map const &vm, RetryPolicy &out)
{
  if (auto const v = bounded(vm, "retry-attempts", 1, 100))
    out.max_attempts = static_cast<int>(*v);
  if (auto const v = bounded(vm, "retry-budget", 1, 86400))
    out.budget = std::chrono::seconds{*v};
}

namespace
{
/// user:password@ before the host.
bool has_password(std::string const &url)
{
  auto const start = url.find("://");
  if (start == std::string::npos) return false;
  auto const end = url.find_first_of("/?#", start + 3);
  std::string const authority{url.substr(start + 3, end == std::string::npos
                                                      ? std::string::npos
                                                      : end - start - 3)};
  auto const at = authority.rfind('@');
  return at != std::string::npos and
         authority.substr(0, at).find(':') != std::string::npos;
}
} // namespace

void check_input_url(char const *option, std::string const &url)
{
  std::string const shown{net::redact_url(url)};
  if (has_password(url))
    config_error(std::string{"--"} + option + " " + quoted(shown) +
                 " (shown without its credentials): a password in a URL "
                 "is refused, since the command line is visible to every "
                 "user; put it in a netrc file (--netrc-file, which may be "
                 "named in --config)");
  std::string const scheme{net::scheme_of(url)};
  auto const offered = net::supported_protocols();
  if (std::find(offered.begin(), offered.end(), scheme) == offered.end())
    config_error(std::string{"--"} + option + " " + quoted(shown) + ": " +
                 (scheme.empty() ? std::string{"not a URL"}
                                 : "'" + scheme + "' is not supported") +
                 "; " + url_support_sentence());
}
} // namespace loader::cli
