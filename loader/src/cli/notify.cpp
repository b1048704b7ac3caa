/// `invoice-loader notify [--once | --follow] [sinks] ...`: the outbox
/// dispatcher: each pending notification to every sink configured.
#include <algorithm>
#include <cstring>
#include <fstream>

#include <boost/algorithm/string/classification.hpp>
#include <boost/algorithm/string/split.hpp>
#include <boost/algorithm/string/trim.hpp>

#include "cli/commands.hpp"
#include "cli/feed_options.hpp"
#include "cli/help.hpp"
#include "cli/values.hpp"
#include "flows/notify.hpp"
#include "net/transport.hpp"
#include "net/webhook_signature.hpp"

namespace po = boost::program_options;

namespace loader::cli
{
namespace
{
std::string description()
{
  return "Dispatch the pending outbox notifications (batch_published,\n"
         "batch_quarantined, batch_reverted, deadline_missed), each to every "
         "sink\nconfigured: a webhook, e-mail, or both. Claim, send and mark "
         "happen on one\ndatabase session; two dispatchers never send one "
         "notification twice.\n"
         "\n"
         "Webhook: an HTTP POST of the notification's JSON (notification_id, "
         "kind,\ndedupe_key, batch_id, source, business_date, record_count, "
         "control_total,\naccepted_count, rejected_count, published_at, "
         "created_at, detail) with\n'Idempotency-Key: <dedupe_key>'. "
         "At-least-once: a resend carries the same\nkey. 2xx: dispatched; "
         "408, "
         "429, 5xx and no answer: retried within\n--retry-budget, then left "
         "pending; any other 4xx: failed (status and the\nanswer's first "
         "bytes "
         "recorded); 401/403/407 or a 3xx: left pending, exit\n77/78.\n"
         "With webhook-secret in the --config file, each POST is signed per "
         "the\nStandard Webhooks specification: webhook-id (the dedupe key), "
         "webhook-timestamp\nand webhook-signature 'v1,<base64 HMAC-SHA256 of "
         "id.timestamp.body>'; with\nwebhook-secret-previous too, both "
         "signatures.\n"
         "\n"
         "E-mail (smtp://, STARTTLS when offered, or smtps://): at-most-once. "
         "The row\nis marked in_doubt BEFORE the message goes out and "
         "dispatched after the\nserver's 250 for DATA; a crash or a lost "
         "connection in between leaves it\nin_doubt, never resent until an "
         "operator runs 'notify resolve'. Message-ID\n<dedupe "
         "key@invoice-loader> "
         "is stable, so a receiver can drop a duplicate.\n"
         "\n"
         "Both sinks: the webhook first, then the e-mail. A row is dispatched "
         "when\nboth accepted; pending while the webhook has not accepted (no "
         "mail sent yet;\nthe webhook may get it again, same key); in_doubt "
         "once the webhook accepted\nand the mail is going out; failed when "
         "either refused it for good (after a\nwebhook refusal no mail is "
         "sent).\n"
         "\n"
         "Secrets (a password in --smtp-url or --webhook-url) only from the "
         "--config\nfile ([notify] section, mode 0600) or --netrc-file, never "
         "the command line.\n"
         "\n"
         "Exit: 0 when everything claimable was dispatched, failed for good "
         "or "
         "is in\ndoubt (the summary on stdout counts each); 75 when a sink "
         "stayed unreachable\npast the retry budget (the rest stays pending) "
         "or "
         "the run was stopped by a\nsignal; with --follow, SIGTERM/SIGINT end "
         "it cleanly with 0.\n";
}

po::options_description options()
{
  po::options_description d{"Options for notify", help_line_length};
  d.add_options()("once", po::bool_switch(),
                  "dispatch what is pending and exit (the default; for cron)")(
    "follow", po::bool_switch(),
    "keep running: LISTEN on invoice_loader_outbox and poll every "
    "--poll-interval seconds as well; SIGTERM/SIGINT exit 0")(
    "webhook-url", po::value<std::string>()->value_name("URL"),
    "POST each notification here (http:// or https://)")(
    "smtp-url", po::value<std::string>()->value_name("URL"),
    "send each notification as an e-mail through this server "
    "(smtp://host:port or smtps://); needs --mail-from and --mail-to")(
    "mail-from", po::value<std::string>()->value_name("ADDR"),
    "the envelope and From: address")(
    "mail-to", po::value<std::string>()->value_name("ADDR[,ADDR]"),
    "the recipients, comma-separated")
    // A value with an implicit "true", not a bool_switch: the --config
    // file writes "smtp-require-tls = true" as --smtp-require-tls=true.
    ("smtp-require-tls",
     po::value<bool>()->default_value(false)->implicit_value(true)->value_name(
       "BOOL"),
     "with smtp://: refuse to send unless STARTTLS succeeds (in the "
     "--config file: smtp-require-tls = true)")(
      "batch-size", po::value<std::string>()->value_name("N"),
      "notifications claimed at a time, 1-1000; default 20")(
      "poll-interval", po::value<std::string>()->value_name("SECONDS"),
      "with --follow: look for pending notifications at least this often, "
      "1-3600; default 30")(
      "cacert", po::value<std::string>()->value_name("FILE"),
      "PEM bundle of the CAs to trust for https:// and TLS mail; default: "
      "the system's")(
      "webhook-secret", po::value<std::string>()->value_name("whsec_KEY"),
      "sign each webhook delivery per the Standard Webhooks specification "
      "(webhook-id, webhook-timestamp, webhook-signature: HMAC-SHA256) "
      "with this secret, whsec_ and a base64 key; in the --config file "
      "only, never on the command line")(
      "webhook-secret-previous",
      po::value<std::string>()->value_name("whsec_KEY"),
      "while the receiver moves to a new webhook-secret, the one it has: "
      "both signatures are sent (--config file only)")(
      "netrc-file", po::value<std::string>()->value_name("FILE"),
      "credentials for the sinks' hosts (netrc format; mode 0600 "
      "owned by you, or 0640 owned by root in your group, "
      "else refused like --config)")(
      "retry-attempts", po::value<std::string>()->value_name("N"),
      "an extra bound on the tries of a send or a database call that fails "
      "for a transient reason, 1-100; default: none (--retry-budget bounds "
      "them)")("retry-budget", po::value<std::string>()->value_name("SECONDS"),
               "time one pass may spend retrying, 1-86400; default 300");
  return d;
}

/// The program's own argv, from /proc/self/cmdline (Linux).  The parsed
/// options cannot tell a value from the --config file from one typed on
/// the command line, and a secret in argv is visible to every user (ps).
std::vector<std::string> own_argv()
{
  std::ifstream in{"/proc/self/cmdline", std::ios::binary};
  std::vector<std::string> out;
  for (std::string arg; std::getline(in, arg, '\0');) out.push_back(arg);
  return out;
}

/// A URL whose userinfo holds a password ("scheme://user:secret@host").
bool has_password(std::string const &url)
{
  auto const scheme = url.find("://");
  if (scheme == std::string::npos) return false;
  auto const start = scheme + 3;
  auto const end = url.find_first_of("/?#", start);
  std::string const authority{url.substr(start, end - start)};
  auto const at = authority.rfind('@');
  return at != std::string::npos and
         authority.substr(0, at).find(':') != std::string::npos;
}

void check_url(char const *option, std::string const &url,
               std::vector<std::string> const &schemes)
{
  check_not_empty(option, url);
  std::string const scheme{net::scheme_of(url)};
  if (std::find(schemes.begin(), schemes.end(), scheme) == schemes.end())
    config_error(std::string{"--"} + option + " " +
                 quoted(net::redact_url(url)) + ": the scheme must be " +
                 schemes.front() + " or " + schemes.back());
  if (not has_password(url)) return;
  for (std::string const &arg : own_argv())
    if (arg.find(url) != std::string::npos)
      config_error(std::string{"--"} + option +
                   " carries a password on the command line, where any "
                   "user can read it; put it in the --config file (mode "
                   "0600, [notify] section) or a --netrc-file instead");
}

/// The keys of webhook-secret and webhook-secret-previous, current first.
/// A secret is read from the --config file only (a command line is
/// visible to every user) and must be whsec_ and a base64 key; either
/// refusal exits 78 and never shows the secret.
std::vector<std::string> webhook_keys(po::variables_map const &vm)
{
  std::vector<std::string> keys;
  for (char const *option : {"webhook-secret", "webhook-secret-previous"})
  {
    auto const v = get(vm, option);
    if (not v) continue;
    for (std::string const &arg : own_argv())
      if (arg.rfind(std::string{"--"} + option, 0) == 0 and
          (arg.size() == std::strlen(option) + 2 or
           arg[std::strlen(option) + 2] == '='))
        config_error(std::string{"--"} + option +
                     " is given on the command line, where any user can "
                     "read it; put it in the --config file (mode 0600, "
                     "[notify] section)");
    auto const key = net::webhook_secret_key(*v);
    if (not key)
      config_error(std::string{option} +
                   " in the --config file is not a Standard Webhooks "
                   "secret: whsec_ followed by a base64 key");
    keys.push_back(*key);
  }
  if (keys.size() == 1 and vm.count("webhook-secret-previous") != 0)
    config_error("webhook-secret-previous needs webhook-secret, the new "
                 "secret it is rotated out for");
  return keys;
}

Bound bind(po::variables_map const &vm)
{
  flows::NotifyRequest out;
  bool const once = flag(vm, "once");
  out.follow = flag(vm, "follow");
  if (once and out.follow)
    usage_error("--once and --follow cannot be combined", "notify");
  if (auto const v = get(vm, "webhook-url"))
  {
    out.webhook_url = *v;
    check_url("webhook-url", out.webhook_url, {"http", "https"});
  }
  out.webhook_keys = webhook_keys(vm);
  if (not out.webhook_keys.empty() and out.webhook_url.empty())
    config_error("webhook-secret goes with --webhook-url");
  if (auto const v = get(vm, "smtp-url"))
  {
    out.smtp_url = *v;
    check_url("smtp-url", out.smtp_url, {"smtp", "smtps"});
  }
  bool const from = vm.count("mail-from") != 0;
  bool const to = vm.count("mail-to") != 0;
  if (out.smtp_url.empty() and (from or to))
    usage_error("--mail-from and --mail-to go with --smtp-url", "notify");
  if (not out.smtp_url.empty() and not(from and to))
    usage_error("--smtp-url needs --mail-from and --mail-to", "notify");
  if (out.webhook_url.empty() and out.smtp_url.empty())
    config_error("notify has no sink: give --webhook-url, or --smtp-url "
                 "with --mail-from and --mail-to (on the command line or "
                 "in the --config file's [notify] section)");
  if (from)
  {
    out.mail_from = boost::algorithm::trim_copy(*get(vm, "mail-from"));
    check_not_empty("mail-from", out.mail_from);
    std::vector<std::string> parts;
    boost::algorithm::split(parts, *get(vm, "mail-to"),
                            boost::algorithm::is_any_of(","));
    for (std::string &p : parts)
    {
      boost::algorithm::trim(p);
      if (not p.empty()) out.mail_to.push_back(p);
    }
    if (out.mail_to.empty()) config_error("--mail-to names no address");
    for (std::string const &a : out.mail_to)
      if (a.find('@') == std::string::npos or
          a.find_first_of(" \t\r\n<>") != std::string::npos)
        config_error("--mail-to " + quoted(a) + " is not an address");
    if (out.mail_from.find('@') == std::string::npos or
        out.mail_from.find_first_of(" \t\r\n<>") != std::string::npos)
      config_error("--mail-from " + quoted(out.mail_from) +
                   " is not an address");
  }
  out.require_tls = flag(vm, "smtp-require-tls");
  if (auto const v = bounded(vm, "batch-size", 1, 1000))
    out.batch_size = static_cast<int>(*v);
  if (auto const v = bounded(vm, "poll-interval", 1, 3600))
    out.poll_interval = std::chrono::seconds{*v};
  if (auto const v = get(vm, "cacert"))
  {
    check_not_empty("cacert", *v);
    out.ca_file = *v;
  }
  if (auto const v = get(vm, "netrc-file"))
  {
    check_not_empty("netrc-file", *v);
    out.netrc_file = *v;
  }
  bind_retry_options(vm, out.retry);
  return {out, [out](GlobalOptions const &g, Logger const &log) {
            return flows::notify(g.dsn, out, log);
          }};
}
} // namespace

CommandSpec notify_command()
{
  return {"notify",
          "dispatch pending outbox notifications (webhook, e-mail)",
          "notify [--once | --follow] [--webhook-url URL]\n"
          "         [--smtp-url URL --mail-from ADDR --mail-to ADDR[,ADDR]] "
          "[options]",
          description,
          options,
          nullptr,
          bind,
          "invoice_loader"};
}
} // namespace loader::cli
