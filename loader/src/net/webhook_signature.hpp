#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace loader::net
{
/// The key of a Standard Webhooks secret "whsec_<base64>": its decoded
/// bytes, or nullopt when the text has no such form (no prefix, not
/// base64, or nothing in it).
std::optional<std::string> webhook_secret_key(std::string const &secret);

/// The Standard Webhooks signature of one delivery: "v1," and the base64
/// of HMAC-SHA256, keyed by `key` (webhook_secret_key), of
/// "<id>.<timestamp>.<body>".
std::string webhook_signature(std::string const &key, std::string const &id,
                              std::int64_t timestamp, std::string const &body);
} // namespace loader::net
