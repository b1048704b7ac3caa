#include <catch2/catch.hpp>

#include <string>

#include "net/webhook_signature.hpp"

using loader::net::webhook_secret_key;
using loader::net::webhook_signature;

// The example of the Standard Webhooks specification (its secret, message
// id, timestamp and body); the signature was computed independently with
// Python's hmac, hashlib and base64.
TEST_CASE("webhook_signature: the specification's example",
          "[unit][webhook_signature]")
{
  auto const key = webhook_secret_key(
    "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
  REQUIRE(key);
  CHECK(key->size() == 24);
  CHECK(webhook_signature(*key, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330,
                          "{\"test\": 2432232314}") ==
        "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  // one byte of the body changed: another signature
  CHECK(webhook_signature(*key, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330,
                          "{\"test\": 2432232315}") !=
        "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
}

TEST_CASE("webhook_signature: a secret not of the form whsec_<base64> is none",
          "[unit][webhook_signature]")
{
  CHECK_FALSE(webhook_secret_key("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"));
  CHECK_FALSE(webhook_secret_key("whsec_"));
  CHECK_FALSE(webhook_secret_key("whsec_not base64!"));
  CHECK_FALSE(webhook_secret_key("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS"));
  CHECK(webhook_secret_key("whsec_AAAA") == std::string(3, '\0'));
}
