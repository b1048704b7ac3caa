#include "io/sha256.hpp"

#include <stdexcept>

#include <nettle/sha2.h>

namespace loader::io
{
struct Sha256::Impl
{
  sha256_ctx ctx{};
  std::string digest; ///< Set by hex(); the context is spent after that.

  Impl() { sha256_init(&ctx); }
};

Sha256::Sha256() : m_impl{std::make_unique<Impl>()} {}

Sha256::~Sha256() = default;

void Sha256::update(void const *data, std::size_t size)
{
  if (not m_impl->digest.empty())
    throw std::logic_error{"SHA-256: update() after hex()"};
  if (size == 0) return;
  sha256_update(&m_impl->ctx, size, static_cast<std::uint8_t const *>(data));
}

std::string Sha256::hex()
{
  if (not m_impl->digest.empty()) return m_impl->digest;

  std::uint8_t md[SHA256_DIGEST_SIZE];
  sha256_digest(&m_impl->ctx, sizeof md, md);

  static char const digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * sizeof md);
  for (std::uint8_t const b : md)
  {
    out.push_back(digits[b >> 4]);
    out.push_back(digits[b & 0x0f]);
  }
  m_impl->digest = out;
  return out;
}
} // namespace loader::io
