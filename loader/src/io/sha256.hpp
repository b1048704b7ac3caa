#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace loader::io
{
/// Streaming SHA-256 (Nettle).  Feed any number of chunks, then hex().
class Sha256
{
public:
  Sha256();
  ~Sha256();
  Sha256(Sha256 const &) = delete;
  Sha256 &operator=(Sha256 const &) = delete;

  void update(void const *data, std::size_t size);
  /// Lower-case hex digest (64 chars); finishes the hash, call once.
  std::string hex();

private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};
} // namespace loader::io
