// SPDX-License-Identifier: Apache-2.0
// The AEAD fuzz target's oracles: libsodium (RFC 8439, XChaCha, NaCl
// secretbox, the original 64-bit-nonce ChaCha20-Poly1305) and OpenSSL EVP
// (AES-GCM, SP 800-38D).
#include "aead_oracle.hpp"

#include <openssl/evp.h>
#include <sodium.h>

#include <algorithm>
#include <cstdlib>
#include <memory>

namespace sealwire::fuzz::oracle {
namespace {

using crypto::aead_algorithm;
constexpr std::size_t tag_size = 16;

// libsodium and OpenSSL take pointers; an empty span may have none.
const std::uint8_t* ptr(view v) {
  static const std::uint8_t none = 0;
  return v.empty() ? &none : v.data();
}

void ensure_sodium() {
  static const bool ready = sodium_init() >= 0;
  if (!ready) std::abort();
}

struct ctx_free {
  void operator()(EVP_CIPHER_CTX* c) const { EVP_CIPHER_CTX_free(c); }
};
using evp_ctx = std::unique_ptr<EVP_CIPHER_CTX, ctx_free>;

const EVP_CIPHER* gcm(aead_algorithm alg) {
  return alg == aead_algorithm::aes128_gcm ? EVP_aes_128_gcm() : EVP_aes_256_gcm();
}

std::optional<bytes> gcm_seal(aead_algorithm alg, view key, view nonce, view aad, view pt) {
  evp_ctx c(EVP_CIPHER_CTX_new());
  if (!c || EVP_EncryptInit_ex(c.get(), gcm(alg), nullptr, nullptr, nullptr) != 1) return std::nullopt;
  if (EVP_CIPHER_CTX_ctrl(c.get(), EVP_CTRL_GCM_SET_IVLEN, static_cast<int>(nonce.size()), nullptr) != 1)
    return std::nullopt;
  if (EVP_EncryptInit_ex(c.get(), nullptr, nullptr, key.data(), nonce.data()) != 1) return std::nullopt;
  int n = 0;
  if (!aad.empty() && EVP_EncryptUpdate(c.get(), nullptr, &n, aad.data(), static_cast<int>(aad.size())) != 1)
    return std::nullopt;
  bytes out(pt.size() + tag_size);
  if (!pt.empty() && EVP_EncryptUpdate(c.get(), out.data(), &n, pt.data(), static_cast<int>(pt.size())) != 1)
    return std::nullopt;
  if (EVP_EncryptFinal_ex(c.get(), out.data() + pt.size(), &n) != 1) return std::nullopt;
  if (EVP_CIPHER_CTX_ctrl(c.get(), EVP_CTRL_GCM_GET_TAG, tag_size, out.data() + pt.size()) != 1)
    return std::nullopt;
  return out;
}

std::optional<bytes> gcm_open(aead_algorithm alg, view key, view nonce, view aad, view input) {
  if (input.size() < tag_size) return std::nullopt;
  const std::size_t n_ct = input.size() - tag_size;
  evp_ctx c(EVP_CIPHER_CTX_new());
  if (!c || EVP_DecryptInit_ex(c.get(), gcm(alg), nullptr, nullptr, nullptr) != 1) return std::nullopt;
  if (EVP_CIPHER_CTX_ctrl(c.get(), EVP_CTRL_GCM_SET_IVLEN, static_cast<int>(nonce.size()), nullptr) != 1)
    return std::nullopt;
  if (EVP_DecryptInit_ex(c.get(), nullptr, nullptr, key.data(), nonce.data()) != 1) return std::nullopt;
  int n = 0;
  if (!aad.empty() && EVP_DecryptUpdate(c.get(), nullptr, &n, aad.data(), static_cast<int>(aad.size())) != 1)
    return std::nullopt;
  bytes out(n_ct);
  if (n_ct != 0 && EVP_DecryptUpdate(c.get(), out.data(), &n, input.data(), static_cast<int>(n_ct)) != 1)
    return std::nullopt;
  std::uint8_t tag[tag_size];
  std::copy(input.begin() + static_cast<std::ptrdiff_t>(n_ct), input.end(), tag);
  if (EVP_CIPHER_CTX_ctrl(c.get(), EVP_CTRL_GCM_SET_TAG, tag_size, tag) != 1) return std::nullopt;
  std::uint8_t rest[16];
  if (EVP_DecryptFinal_ex(c.get(), rest, &n) != 1) return std::nullopt;
  return out;
}

}  // namespace

std::optional<bytes> seal(aead_algorithm alg, view key, view nonce, view aad, view pt) {
  if (crypto::is_aes_gcm(alg)) return gcm_seal(alg, key, nonce, aad, pt);
  ensure_sodium();
  bytes out(pt.size() + tag_size);
  unsigned long long len = 0;
  int rc = -1;
  switch (alg) {
    case aead_algorithm::chacha20_poly1305:
      rc = crypto_aead_chacha20poly1305_ietf_encrypt(out.data(), &len, ptr(pt), pt.size(), ptr(aad), aad.size(),
                                                     nullptr, nonce.data(), key.data());
      break;
    case aead_algorithm::xchacha20_poly1305:
      rc = crypto_aead_xchacha20poly1305_ietf_encrypt(out.data(), &len, ptr(pt), pt.size(), ptr(aad), aad.size(),
                                                      nullptr, nonce.data(), key.data());
      break;
    case aead_algorithm::chacha20_poly1305_original:
      rc = crypto_aead_chacha20poly1305_encrypt(out.data(), &len, ptr(pt), pt.size(), ptr(aad), aad.size(), nullptr,
                                                nonce.data(), key.data());
      break;
    case aead_algorithm::xsalsa20_poly1305:
      if (!aad.empty()) return std::nullopt;
      rc = crypto_secretbox_easy(out.data(), ptr(pt), pt.size(), nonce.data(), key.data());
      len = out.size();
      break;
    default:
      return std::nullopt;
  }
  if (rc != 0 || len != out.size()) return std::nullopt;
  return out;
}

std::optional<bytes> open(aead_algorithm alg, view key, view nonce, view aad, view input) {
  if (crypto::is_aes_gcm(alg)) return gcm_open(alg, key, nonce, aad, input);
  ensure_sodium();
  if (input.size() < tag_size) return std::nullopt;
  bytes out(input.size() - tag_size);
  unsigned long long len = 0;
  int rc = -1;
  std::uint8_t* o = out.empty() ? nullptr : out.data();
  std::uint8_t scratch = 0;
  if (o == nullptr) o = &scratch;
  switch (alg) {
    case aead_algorithm::chacha20_poly1305:
      rc = crypto_aead_chacha20poly1305_ietf_decrypt(o, &len, nullptr, input.data(), input.size(), ptr(aad),
                                                     aad.size(), nonce.data(), key.data());
      break;
    case aead_algorithm::xchacha20_poly1305:
      rc = crypto_aead_xchacha20poly1305_ietf_decrypt(o, &len, nullptr, input.data(), input.size(), ptr(aad),
                                                      aad.size(), nonce.data(), key.data());
      break;
    case aead_algorithm::chacha20_poly1305_original:
      rc = crypto_aead_chacha20poly1305_decrypt(o, &len, nullptr, input.data(), input.size(), ptr(aad), aad.size(),
                                                nonce.data(), key.data());
      break;
    case aead_algorithm::xsalsa20_poly1305:
      if (!aad.empty()) return std::nullopt;
      rc = crypto_secretbox_open_easy(o, input.data(), input.size(), nonce.data(), key.data());
      len = out.size();
      break;
    default:
      return std::nullopt;
  }
  if (rc != 0 || len != out.size()) return std::nullopt;
  return out;
}

}  // namespace sealwire::fuzz::oracle
