// post(): one webhook request; the HTTP answer is returned, not judged.
#include "net/curl_easy.hpp"

namespace loader::net
{
namespace
{
constexpr std::size_t head_limit = 1024;

std::size_t on_body(char *p, std::size_t, std::size_t n, void *user)
{
  auto &head = *static_cast<std::string *>(user);
  if (head.size() < head_limit)
    head.append(p, std::min(n, head_limit - head.size()));
  return n;
}
} // namespace

PostResult post(std::string const &url, std::string_view body,
                std::vector<std::string> const &headers,
                TransferOptions const &options)
{
  detail::Easy easy{url, options, detail::allowed({"http", "https"})};
  detail::Slist list;
  for (auto const &h : headers) list.append(h);
  // No "Expect: 100-continue" round trip (a second wait, and a server that
  // answers 417 to it).
  list.append("Expect:");
  easy.set(CURLOPT_HTTPHEADER, list.get());
  easy.set(CURLOPT_POST, 1L);
  easy.set(CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
  easy.set(CURLOPT_POSTFIELDS, body.data());

  PostResult out;
  easy.set(CURLOPT_WRITEFUNCTION, on_body);
  easy.set(CURLOPT_WRITEDATA, static_cast<void *>(&out.body_head));

  CURLcode const rc = easy.perform();
  if (rc != CURLE_OK) detail::throw_curl(easy, "POST", rc);
  out.http_status = easy.response_code();
  std::string const after = easy.header("Retry-After");
  if (not after.empty()) out.retry_after = parse_retry_after(after);
  return out;
}
} // namespace loader::net
