#include "io/sha256.hpp"

#include <stdexcept>

#include <openssl/evp.h>

namespace loader::io
{
namespace
{
[[noreturn]] void fail(char const *what)
{
  throw std::runtime_error{std::string{"SHA-256: "} + what + " failed"};
}
} // namespace

struct Sha256::Impl
{
  EVP_MD_CTX *ctx = nullptr;
  std::string digest; ///< Set by hex(); the context is spent after that.

  Impl() : ctx{EVP_MD_CTX_new()}
  {
    if (ctx == nullptr) fail("EVP_MD_CTX_new");
    if (EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr) != 1)
    {
      EVP_MD_CTX_free(ctx);
      fail("EVP_DigestInit_ex");
    }
  }
  ~Impl() { EVP_MD_CTX_free(ctx); }
  Impl(Impl const &) = delete;
  Impl &operator=(Impl const &) = delete;
};

Sha256::Sha256() : m_impl{std::make_unique<Impl>()} {}

Sha256::~Sha256() = default;

void Sha256::update(void const *data, std::size_t size)
{
  if (not m_impl->digest.empty())
    throw std::logic_error{"SHA-256: update() after hex()"};
  if (size == 0) return;
  if (EVP_DigestUpdate(m_impl->ctx, data, size) != 1)
    fail("EVP_DigestUpdate");
}

std::string Sha256::hex()
{
  if (not m_impl->digest.empty()) return m_impl->digest;

  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_DigestFinal_ex(m_impl->ctx, md, &len) != 1)
    fail("EVP_DigestFinal_ex");

  static char const digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * std::size_t{len});
  for (unsigned int i = 0; i < len; ++i)
  {
    out.push_back(digits[md[i] >> 4]);
    out.push_back(digits[md[i] & 0x0f]);
  }
  m_impl->digest = out;
  return out;
}
} // namespace loader::io
