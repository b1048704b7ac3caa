// Standard Webhooks signatures with nettle (already linked for SHA-256):
// HMAC-SHA256 and base64, nothing written by hand but the message's
// "<id>.<timestamp>.<body>" form, which the specification defines.
#include "net/webhook_signature.hpp"

#include <nettle/base64.h>
#include <nettle/hmac.h>

namespace loader::net
{
namespace
{
constexpr char const prefix[] = "whsec_";
constexpr std::size_t prefix_length = sizeof prefix - 1;

std::string base64(std::uint8_t const *bytes, std::size_t n)
{
  std::string out(BASE64_ENCODE_RAW_LENGTH(n), '\0');
  base64_encode_raw(out.data(), n, bytes);
  return out;
}
} // namespace

std::optional<std::string> webhook_secret_key(std::string const &secret)
{
  if (secret.compare(0, prefix_length, prefix) != 0) return std::nullopt;
  std::string const text{secret.substr(prefix_length)};
  if (text.empty() or text.size() % 4 != 0) return std::nullopt;
  std::string key(BASE64_DECODE_LENGTH(text.size()), '\0');
  base64_decode_ctx ctx;
  base64_decode_init(&ctx);
  std::size_t n = 0;
  if (base64_decode_update(&ctx, &n,
                           reinterpret_cast<std::uint8_t *>(key.data()),
                           text.size(), text.data()) == 0 or
      base64_decode_final(&ctx) == 0 or n == 0)
    return std::nullopt;
  key.resize(n);
  return key;
}

std::string webhook_signature(std::string const &key, std::string const &id,
                              std::int64_t timestamp, std::string const &body)
{
  hmac_sha256_ctx ctx;
  hmac_sha256_set_key(&ctx, key.size(),
                      reinterpret_cast<std::uint8_t const *>(key.data()));
  std::string const head{id + "." + std::to_string(timestamp) + "."};
  hmac_sha256_update(&ctx, head.size(),
                     reinterpret_cast<std::uint8_t const *>(head.data()));
  hmac_sha256_update(&ctx, body.size(),
                     reinterpret_cast<std::uint8_t const *>(body.data()));
  std::uint8_t digest[SHA256_DIGEST_SIZE];
  hmac_sha256_digest(&ctx, sizeof digest, digest);
  return "v1," + base64(digest, sizeof digest);
}
} // namespace loader::net
