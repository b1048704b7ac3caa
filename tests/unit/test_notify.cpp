// notify and notify resolve (loader/src/cli/notify*.cpp, flows/notify.cpp):
// the command lines that are refused, the fields they fill, the Message-ID
// derived from the dedupe key and the e-mail a notification becomes.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "core/errors.hpp"
#include "flows/notify.hpp"
#include "temp_file.hpp"

using Catch::Matchers::Contains;
using loader::ErrorKind;
using loader::LoaderError;
using loader::flows::mail_message;
using loader::flows::message_id_of;
using loader::flows::NotifyRequest;
using loader::flows::ResolveRequest;

namespace
{
using Args = std::vector<char const *>;

loader::cli::ParsedCommandLine parse(Args args)
{
  args.insert(args.begin(), "invoice-loader");
  return loader::cli::parse_command_line(static_cast<int>(args.size()),
                                         args.data());
}

/// "ok", "usage", "config" or "other".
std::string kind_of(Args const &args)
{
  try
  {
    parse(args);
    return "ok";
  }
  catch (LoaderError const &e)
  {
    if (e.kind == ErrorKind::usage) return "usage";
    if (e.kind == ErrorKind::config) return "config";
    return "other";
  }
}

char const payload[] =
  R"({"kind": "batch_published", "source": "acme-erp", "batch_id": 7, )"
  R"("detail": {}, "created_at": "2026-11-29T02:30:00+00:00", )"
  R"("dedupe_key": "batch_published:7", "published_at": )"
  R"("2026-11-29T02:30:00+00:00", "record_count": 20, "business_date": )"
  R"("2026-11-28", "control_total": 4200.00, "accepted_count": 20, )"
  R"("rejected_count": 0, "notification_id": 3})";
} // namespace

TEST_CASE("notify: a command line without a sink or with half a sink is "
          "refused",
          "[unit][cli][notify]")
{
  CHECK(kind_of({"notify"}) == "config");
  CHECK(kind_of({"notify", "--once"}) == "config");
  CHECK(kind_of({"notify", "--once", "--follow", "--webhook-url",
                 "http://127.0.0.1/h"}) == "usage");
  CHECK(kind_of({"notify", "--smtp-url", "smtp://127.0.0.1"}) == "usage");
  CHECK(kind_of({"notify", "--smtp-url", "smtp://127.0.0.1", "--mail-from",
                 "a@example.com"}) == "usage");
  CHECK(kind_of({"notify", "--webhook-url", "http://127.0.0.1/h", "--mail-to",
                 "a@example.com"}) == "usage");
  CHECK(kind_of({"notify", "--webhook-url", "ftp://127.0.0.1/h"}) == "config");
  CHECK(kind_of({"notify", "--smtp-url", "http://127.0.0.1", "--mail-from",
                 "a@example.com", "--mail-to", "b@example.com"}) == "config");
  CHECK(kind_of({"notify", "--smtp-url", "smtp://127.0.0.1", "--mail-from",
                 "a@example.com", "--mail-to", "not an address"}) == "config");
  CHECK(kind_of({"notify", "--smtp-url", "smtp://127.0.0.1", "--mail-from",
                 "a@example.com", "--mail-to", " , "}) == "config");
  CHECK(kind_of({"notify", "--webhook-url", "http://127.0.0.1/h",
                 "--batch-size", "0"}) == "usage");
  CHECK(kind_of({"notify", "--webhook-url", "http://127.0.0.1/h",
                 "--batch-size", "1001"}) == "usage");
  CHECK(kind_of({"notify", "--webhook-url", "http://127.0.0.1/h",
                 "--poll-interval", "0"}) == "usage");
  CHECK(kind_of({"notify", "--webhook-url", "http://127.0.0.1/h",
                 "--bogus"}) == "usage");
}

TEST_CASE("notify: each field is filled", "[unit][cli][notify]")
{
  auto const r = parse({"notify",
                        "--follow",
                        "--webhook-url",
                        "https://127.0.0.1/h",
                        "--smtp-url",
                        "smtps://127.0.0.1:465",
                        "--mail-from",
                        "loader@example.com",
                        "--mail-to",
                        "a@example.com, b@example.com",
                        "--batch-size",
                        "7",
                        "--poll-interval",
                        "9",
                        "--cacert",
                        "/ca.pem",
                        "--netrc-file",
                        "/n",
                        "--smtp-require-tls",
                        "--retry-attempts",
                        "3",
                        "--retry-budget",
                        "60"});
  CHECK(r.command_name() == "notify");
  auto const &o = r.options_as<NotifyRequest>();
  CHECK(o.follow);
  CHECK(o.webhook_url == "https://127.0.0.1/h");
  CHECK(o.smtp_url == "smtps://127.0.0.1:465");
  CHECK(o.mail_from == "loader@example.com");
  CHECK(o.mail_to ==
        std::vector<std::string>{"a@example.com", "b@example.com"});
  CHECK(o.batch_size == 7);
  CHECK(o.poll_interval == std::chrono::seconds{9});
  CHECK(o.ca_file == "/ca.pem");
  CHECK(o.netrc_file == "/n");
  CHECK(o.require_tls);
  CHECK(o.retry.max_attempts == 3);
  CHECK(o.retry.budget == std::chrono::seconds{60});
  auto const plain = parse({"notify", "--webhook-url", "http://127.0.0.1/h"});
  CHECK_FALSE(plain.options_as<NotifyRequest>().follow);
  CHECK(plain.options_as<NotifyRequest>().batch_size == 20);
}

TEST_CASE("notify: a password in a sink URL comes from the config file",
          "[unit][cli][notify]")
{
  // Not on this process's command line (the test binary's), so accepted.
  TempFile const cfg{
    "[notify]\nsmtp-url = smtp://u:s3cret@127.0.0.1:2525\n"
    "mail-from = loader@example.com\nmail-to = ops@example.com\n"
    "smtp-require-tls = true\n"};
  auto const r = parse({"--config", cfg.path.c_str(), "notify"});
  CHECK(r.options_as<NotifyRequest>().smtp_url ==
        "smtp://u:s3cret@127.0.0.1:2525");
  CHECK(r.options_as<NotifyRequest>().require_tls);
}

TEST_CASE("notify resolve: required options and their values",
          "[unit][cli][notify]")
{
  CHECK(kind_of({"notify", "resolve"}) == "usage");
  CHECK(kind_of({"notify", "resolve", "--notification", "3", "--as",
                 "dispatched"}) == "usage");
  CHECK(kind_of({"notify", "resolve", "--notification", "0", "--as",
                 "dispatched", "--reason", "r"}) == "usage");
  CHECK(kind_of({"notify", "resolve", "--notification", "3", "--as", "failed",
                 "--reason", "r"}) == "usage");
  CHECK(kind_of({"notify", "resolve", "--notification", "3", "--as", "pending",
                 "--reason", "  "}) == "usage");
  auto const r = parse({"notify", "resolve", "--notification", "3", "--as",
                        "pending", "--reason", "not in the mailbox"});
  CHECK(r.command_name() == "notify resolve");
  CHECK(r.command->role == "invoice_operator");
  auto const &o = r.options_as<ResolveRequest>();
  CHECK(o.notification_id == 3);
  CHECK(o.as == "pending");
  CHECK(o.reason == "not in the mailbox");
}

TEST_CASE("notify: the Message-ID is the dedupe key's, stable and distinct",
          "[unit][notify]")
{
  CHECK(message_id_of("batch_published:7") ==
        "<batch_published.7@invoice-loader>");
  CHECK(message_id_of("batch_published:7:r1") ==
        "<batch_published.7.r1@invoice-loader>");
  CHECK(message_id_of("deadline_missed:acme-erp:2026-11-28") ==
        "<deadline_missed.acme-erp.2026-11-28@invoice-loader>");
  // A '.' of the key is not a ':' of another; odd characters are =XX.
  CHECK(message_id_of("a.b") != message_id_of("a:b"));
  CHECK(message_id_of("a b<c>") == "<a=20b=3Cc=3E@invoice-loader>");
  // No dot-atom may start or end with '.' or hold "..".
  CHECK(message_id_of(":a::b:") == "<=3Aa=3A=3Ab=3A@invoice-loader>");
}

TEST_CASE("notify: the e-mail names the batch and keeps amounts exact",
          "[unit][notify]")
{
  std::string const m{mail_message(payload, "batch_published:7",
                                   "loader@example.com",
                                   {"a@example.com", "b@example.com"})};
  CHECK_THAT(m,
             Contains("Message-ID: <batch_published.7@invoice-loader>\r\n"));
  CHECK_THAT(m, Contains("To: a@example.com, b@example.com\r\n"));
  CHECK_THAT(m, Contains("Subject: [invoice-loader] batch_published: "
                         "acme-erp 2026-11-28 (batch 7)\r\n"));
  CHECK_THAT(m, Contains("\r\n\r\n")); // headers, blank line, body
  CHECK_THAT(m, Contains("Control total:  4200.00\r\n"));
  CHECK_THAT(m, Contains("Records:        20\r\n"));
  CHECK_THAT(m, Contains("Rejected:       0\r\n"));
  // Every line ends in CRLF; no bare LF.
  for (std::size_t i = 0; i < m.size(); ++i)
    if (m[i] == '\n') REQUIRE((i > 0 and m[i - 1] == '\r'));
}

TEST_CASE("notify: the e-mail lists the totals per currency when given",
          "[unit][notify]")
{
  std::string p{payload};
  p.replace(p.rfind('}'), 1,
            R"(, "control_totals": {"EUR": "4200.00", "JPY": "33000"}})");
  std::string const m{
    mail_message(p, "batch_published:7", "l@example.com", {"a@example.com"})};
  CHECK_THAT(m, Contains("Per currency:   EUR 4200.00, JPY 33000\r\n"));
  std::string const single{mail_message(payload, "batch_published:7",
                                        "l@example.com", {"a@example.com"})};
  CHECK_THAT(single, !Contains("Per currency:"));
}

TEST_CASE("notify: a source name cannot add a header", "[unit][notify]")
{
  std::string p{payload};
  p.replace(p.find("acme-erp"), 8, R"(x\r\nBcc: evil@example.com)");
  std::string const m{
    mail_message(p, "batch_published:7", "l@example.com", {"a@example.com"})};
  CHECK_THAT(m, !Contains("\r\nBcc:"));
  CHECK_THAT(m, Contains("Subject: [invoice-loader] batch_published: x  Bcc"));
}
