// SPDX-License-Identifier: Apache-2.0
// OpenSSL EVP wrappers for Ed25519 (see ed25519_oracle.hpp).
#include "ed25519_oracle.hpp"

#include <openssl/evp.h>

#include <memory>

namespace sealwire::test::oracle {
namespace {

struct pkey_free {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
struct md_ctx_free {
  void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};
using pkey_ptr = std::unique_ptr<EVP_PKEY, pkey_free>;
using md_ctx_ptr = std::unique_ptr<EVP_MD_CTX, md_ctx_free>;

pkey_ptr private_key(std::span<const std::uint8_t> seed) {
  return pkey_ptr(EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr, seed.data(), seed.size()));
}

}  // namespace

std::optional<std::vector<std::uint8_t>> evp_ed25519_public(std::span<const std::uint8_t> seed) {
  const auto key = private_key(seed);
  if (!key) return std::nullopt;
  std::vector<std::uint8_t> out(32);
  std::size_t len = out.size();
  if (EVP_PKEY_get_raw_public_key(key.get(), out.data(), &len) != 1 || len != 32) return std::nullopt;
  return out;
}

std::optional<std::vector<std::uint8_t>> evp_ed25519_sign(std::span<const std::uint8_t> seed,
                                                        std::span<const std::uint8_t> message) {
  const auto key = private_key(seed);
  const md_ctx_ptr ctx(EVP_MD_CTX_new());
  if (!key || !ctx || EVP_DigestSignInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) != 1) return std::nullopt;
  std::vector<std::uint8_t> sig(64);
  std::size_t len = sig.size();
  if (EVP_DigestSign(ctx.get(), sig.data(), &len, message.data(), message.size()) != 1 || len != 64) {
    return std::nullopt;
  }
  return sig;
}

bool evp_ed25519_verify(std::span<const std::uint8_t> public_key, std::span<const std::uint8_t> message,
                        std::span<const std::uint8_t> signature) {
  const pkey_ptr key(EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr, public_key.data(), public_key.size()));
  const md_ctx_ptr ctx(EVP_MD_CTX_new());
  if (!key || !ctx || EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) != 1) return false;
  return EVP_DigestVerify(ctx.get(), signature.data(), signature.size(), message.data(), message.size()) == 1;
}

}  // namespace sealwire::test::oracle
