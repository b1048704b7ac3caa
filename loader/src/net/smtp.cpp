// send_mail(): one SMTP transaction, and what is known of its outcome.
#include "net/curl_easy.hpp"

namespace loader::net
{
namespace
{
struct Source
{
  std::string_view message;
  std::size_t offset = 0;
  /// The whole message went to libcurl (it sends the final "." itself).
  bool handed_over() const noexcept { return offset == message.size(); }
};

std::size_t on_read(char *buf, std::size_t size, std::size_t n, void *user)
{
  auto &s = *static_cast<Source *>(user);
  std::size_t const room = size * n;
  std::size_t const left = s.message.size() - s.offset;
  std::size_t const k = std::min(room, left);
  s.message.copy(buf, k, s.offset);
  s.offset += k;
  return k;
}

std::string bracketed(std::string const &addr)
{
  if (not addr.empty() and addr.front() == '<') return addr;
  return "<" + addr + ">";
}
} // namespace

MailResult send_mail(std::string const &url, std::string const &from,
                     std::vector<std::string> const &to,
                     std::string_view message, MailOptions const &options)
{
  MailResult out;
  try
  {
    if (to.empty())
      throw TransportError{ErrorKind::config,
                           "no recipient for mail via " + redact_url(url),
                           0,
                           0,
                           false,
                           std::nullopt};
    detail::Easy easy{url, options.transfer,
                      detail::allowed({"smtp", "smtps"})};
    easy.set(CURLOPT_USE_SSL,
             static_cast<long>(options.require_tls ? CURLUSESSL_ALL
                                                   : CURLUSESSL_TRY));
    std::string const mail_from = bracketed(from);
    easy.set(CURLOPT_MAIL_FROM, mail_from.c_str());
    detail::Slist rcpt;
    for (auto const &r : to) rcpt.append(bracketed(r));
    easy.set(CURLOPT_MAIL_RCPT, rcpt.get());
    Source src{message};
    easy.set(CURLOPT_UPLOAD, 1L);
    easy.set(CURLOPT_READFUNCTION, on_read);
    easy.set(CURLOPT_READDATA, static_cast<void *>(&src));

    CURLcode const rc = easy.perform();
    out.curl_code = static_cast<int>(rc);
    out.smtp_code = easy.response_code();
    if (rc == CURLE_OK)
    {
      // libcurl returns OK after the end of DATA only on a 250.
      out.outcome = MailOutcome::accepted;
      out.kind = ErrorKind::internal;
      out.detail = "mail accepted by " + easy.redacted_url();
      return out;
    }
    std::string const why = easy.error_text(rc) + " (curl " +
                            std::to_string(out.curl_code) + ", SMTP " +
                            std::to_string(out.smtp_code) + ")";
    // The reply that refused it came after the whole message: a definite
    // no.  Still 354 (go ahead) or nothing: nobody knows.
    bool const refused = out.smtp_code >= 400 and out.smtp_code <= 599;
    if (not src.handed_over())
    {
      out.outcome = refused ? MailOutcome::rejected : MailOutcome::not_sent;
      out.kind = refused ? classify_smtp_reply(static_cast<int>(out.smtp_code))
                         : classify_curl(out.curl_code);
    }
    else if (refused)
    {
      out.outcome = MailOutcome::rejected;
      out.kind = classify_smtp_reply(static_cast<int>(out.smtp_code));
    }
    else
    {
      out.outcome = MailOutcome::in_doubt;
      out.kind = ErrorKind::in_doubt;
    }
    out.detail = "mail via " + easy.redacted_url() + " " +
                 std::string{name_of(out.outcome)} + ": " + why;
    return out;
  }
  catch (TransportError const &e)
  {
    out.outcome = MailOutcome::not_sent;
    out.kind = e.kind;
    out.curl_code = e.curl_code;
    out.detail = e.what();
    return out;
  }
}
} // namespace loader::net
