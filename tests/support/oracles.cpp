// SPDX-License-Identifier: Apache-2.0
#include "oracles.hpp"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>

#include <sodium.h>

#include <cstring>
#include <memory>
#include <string_view>

namespace sealwire::test::oracle {
namespace {

// OpenSSL refuses an empty octet-string parameter whose pointer is null (an
// empty std::vector's data()), so empty inputs point at a dummy byte.
std::uint8_t* nonnull(const bytes& b) {
  static std::uint8_t dummy = 0;
  return b.empty() ? &dummy : const_cast<std::uint8_t*>(b.data());
}

template <class T, void (*Free)(T*)>
struct deleter {
  void operator()(T* p) const { Free(p); }
};
using kdf_ptr = std::unique_ptr<EVP_KDF, deleter<EVP_KDF, EVP_KDF_free>>;
using kdf_ctx_ptr = std::unique_ptr<EVP_KDF_CTX, deleter<EVP_KDF_CTX, EVP_KDF_CTX_free>>;
using mac_ptr = std::unique_ptr<EVP_MAC, deleter<EVP_MAC, EVP_MAC_free>>;
using mac_ctx_ptr = std::unique_ptr<EVP_MAC_CTX, deleter<EVP_MAC_CTX, EVP_MAC_CTX_free>>;
using md_ptr = std::unique_ptr<EVP_MD, deleter<EVP_MD, EVP_MD_free>>;
using cipher_ptr = std::unique_ptr<EVP_CIPHER, deleter<EVP_CIPHER, EVP_CIPHER_free>>;
using cipher_ctx_ptr = std::unique_ptr<EVP_CIPHER_CTX, deleter<EVP_CIPHER_CTX, EVP_CIPHER_CTX_free>>;
using pkey_ctx_ptr = std::unique_ptr<EVP_PKEY_CTX, deleter<EVP_PKEY_CTX, EVP_PKEY_CTX_free>>;

}  // namespace

std::optional<bytes> evp_hkdf(const char* digest, const bytes& ikm, const bytes& salt, const bytes& info,
                              std::size_t size) {
  kdf_ptr kdf(EVP_KDF_fetch(nullptr, "HKDF", nullptr));
  if (!kdf) return std::nullopt;
  kdf_ctx_ptr ctx(EVP_KDF_CTX_new(kdf.get()));
  OSSL_PARAM params[] = {
      OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, const_cast<char*>(digest), 0),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, nonnull(ikm), ikm.size()),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, nonnull(salt), salt.size()),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, nonnull(info), info.size()),
      OSSL_PARAM_construct_end()};
  bytes out(size);
  if (!ctx || EVP_KDF_derive(ctx.get(), out.data(), size, params) != 1) return std::nullopt;
  return out;
}

std::optional<bytes> evp_hmac(const char* digest, const bytes& key, const bytes& msg) {
  mac_ptr mac(EVP_MAC_fetch(nullptr, "HMAC", nullptr));
  if (!mac) return std::nullopt;
  mac_ctx_ptr ctx(EVP_MAC_CTX_new(mac.get()));
  OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, const_cast<char*>(digest), 0),
                         OSSL_PARAM_construct_end()};
  bytes out(EVP_MAX_MD_SIZE);
  std::size_t n = 0;
  if (!ctx || EVP_MAC_init(ctx.get(), nonnull(key), key.size(), params) != 1 ||
      EVP_MAC_update(ctx.get(), nonnull(msg), msg.size()) != 1 ||
      EVP_MAC_final(ctx.get(), out.data(), &n, out.size()) != 1)
    return std::nullopt;
  out.resize(n);
  return out;
}

std::optional<bytes> evp_digest(const char* digest, const bytes& msg) {
  md_ptr md(EVP_MD_fetch(nullptr, digest, nullptr));
  if (!md) return std::nullopt;
  bytes out(EVP_MAX_MD_SIZE);
  unsigned n = 0;
  if (EVP_Digest(nonnull(msg), msg.size(), out.data(), &n, md.get(), nullptr) != 1) return std::nullopt;
  out.resize(n);
  return out;
}

std::optional<bytes> evp_chacha20(const bytes& key, const bytes& nonce12, std::uint32_t counter, const bytes& in) {
  // EVP_chacha20's 16-byte IV is the 32-bit counter (little-endian) || the 96-bit nonce.
  if (key.size() != 32 || nonce12.size() != 12) return std::nullopt;
  std::uint8_t iv[16];
  for (int b = 0; b < 4; ++b) iv[b] = static_cast<std::uint8_t>(counter >> (8 * b));
  std::copy(nonce12.begin(), nonce12.end(), iv + 4);
  cipher_ctx_ptr ctx(EVP_CIPHER_CTX_new());
  bytes out(in.size());
  int len = 0;
  if (!ctx || EVP_EncryptInit_ex(ctx.get(), EVP_chacha20(), nullptr, key.data(), iv) != 1) return std::nullopt;
  if (!in.empty() && EVP_EncryptUpdate(ctx.get(), out.data(), &len, in.data(), static_cast<int>(in.size())) != 1)
    return std::nullopt;
  return out;
}

std::optional<bytes> evp_raw_public(int type, const bytes& priv) {
  evp_key k(EVP_PKEY_new_raw_private_key(type, nullptr, priv.data(), priv.size()));
  if (!k.k) return std::nullopt;
  bytes pub(priv.size());
  std::size_t n = pub.size();
  if (EVP_PKEY_get_raw_public_key(k.k, pub.data(), &n) != 1 || n != pub.size()) return std::nullopt;
  return pub;
}

std::optional<bytes> evp_raw_derive(int type, const bytes& priv, const bytes& peer) {
  evp_key k(EVP_PKEY_new_raw_private_key(type, nullptr, priv.data(), priv.size()));
  evp_key p(EVP_PKEY_new_raw_public_key(type, nullptr, peer.data(), peer.size()));
  if (!k.k || !p.k) return std::nullopt;
  return evp_derive(k.k, p.k, priv.size());
}

std::optional<bytes> evp_derive(EVP_PKEY* priv, EVP_PKEY* peer, std::size_t size) {
  pkey_ctx_ptr ctx(EVP_PKEY_CTX_new(priv, nullptr));
  bytes out(size);
  std::size_t n = out.size();
  if (!ctx || EVP_PKEY_derive_init(ctx.get()) != 1 || EVP_PKEY_derive_set_peer(ctx.get(), peer) != 1 ||
      EVP_PKEY_derive(ctx.get(), out.data(), &n) != 1 || n != size)
    return std::nullopt;
  return out;
}

namespace {

// hkdf_mode runs OpenSSL's HKDF in one mode ("EXTRACT_ONLY" or
// "EXPAND_ONLY"); key is the IKM or the PRK.
std::optional<bytes> hkdf_mode(const char* mode, const char* digest, const bytes& key, const bytes* salt,
                               const bytes* info, std::size_t size) {
  kdf_ptr kdf(EVP_KDF_fetch(nullptr, "HKDF", nullptr));
  if (!kdf) return std::nullopt;
  kdf_ctx_ptr ctx(EVP_KDF_CTX_new(kdf.get()));
  OSSL_PARAM params[6];
  std::size_t n = 0;
  params[n++] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_MODE, const_cast<char*>(mode), 0);
  params[n++] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, const_cast<char*>(digest), 0);
  params[n++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, nonnull(key), key.size());
  if (salt) params[n++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, nonnull(*salt), salt->size());
  if (info) params[n++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, nonnull(*info), info->size());
  params[n] = OSSL_PARAM_construct_end();
  if (!ctx || size == 0) return std::nullopt;
  bytes out(size);
  if (EVP_KDF_derive(ctx.get(), out.data(), size, params) != 1) return std::nullopt;
  return out;
}

std::optional<bytes> sodium_xchacha(bool seal, const bytes& key, const bytes& nonce, const bytes& aad,
                                    const bytes& in) {
  if (sodium_init() < 0 || key.size() != crypto_aead_xchacha20poly1305_ietf_KEYBYTES ||
      nonce.size() != crypto_aead_xchacha20poly1305_ietf_NPUBBYTES)
    return std::nullopt;
  constexpr std::size_t tag = crypto_aead_xchacha20poly1305_ietf_ABYTES;
  if (seal) {
    bytes out(in.size() + tag);
    unsigned long long n = 0;
    if (crypto_aead_xchacha20poly1305_ietf_encrypt(out.data(), &n, in.data(), in.size(), aad.data(), aad.size(),
                                                   nullptr, nonce.data(), key.data()) != 0)
      return std::nullopt;
    out.resize(static_cast<std::size_t>(n));
    return out;
  }
  if (in.size() < tag) return std::nullopt;
  bytes out(in.size() - tag + 1);  // never empty: data() of an empty vector may be null
  unsigned long long n = 0;
  if (crypto_aead_xchacha20poly1305_ietf_decrypt(out.data(), &n, nullptr, in.data(), in.size(), aad.data(),
                                                 aad.size(), nonce.data(), key.data()) != 0)
    return std::nullopt;
  out.resize(static_cast<std::size_t>(n));
  return out;
}

}  // namespace

std::optional<bytes> evp_hkdf_extract(const char* digest, const bytes& salt, const bytes& ikm) {
  // Extract's output is one hash: HMAC-Hash(salt, IKM).
  md_ptr md(EVP_MD_fetch(nullptr, digest, nullptr));
  if (!md) return std::nullopt;
  return hkdf_mode("EXTRACT_ONLY", digest, ikm, &salt, nullptr, static_cast<std::size_t>(EVP_MD_get_size(md.get())));
}

std::optional<bytes> evp_hkdf_expand(const char* digest, const bytes& prk, const bytes& info, std::size_t size) {
  if (size == 0) return bytes{};
  return hkdf_mode("EXPAND_ONLY", digest, prk, nullptr, &info, size);
}

std::optional<bytes> evp_aead_seal(const char* cipher, const bytes& key, const bytes& nonce, const bytes& aad,
                                   const bytes& pt) {
  if (std::string_view(cipher) == "XChaCha20-Poly1305") return sodium_xchacha(true, key, nonce, aad, pt);
  cipher_ptr c(EVP_CIPHER_fetch(nullptr, cipher, nullptr));
  cipher_ctx_ptr ctx(EVP_CIPHER_CTX_new());
  if (!c || !ctx || key.size() != static_cast<std::size_t>(EVP_CIPHER_get_key_length(c.get()))) return std::nullopt;
  int len = 0;
  if (EVP_EncryptInit_ex(ctx.get(), c.get(), nullptr, nullptr, nullptr) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_AEAD_SET_IVLEN, static_cast<int>(nonce.size()), nullptr) != 1 ||
      EVP_EncryptInit_ex(ctx.get(), nullptr, nullptr, key.data(), nonce.data()) != 1)
    return std::nullopt;
  if (!aad.empty() && EVP_EncryptUpdate(ctx.get(), nullptr, &len, aad.data(), static_cast<int>(aad.size())) != 1)
    return std::nullopt;
  bytes out(pt.size() + 16);
  int total = 0;
  if (!pt.empty()) {
    if (EVP_EncryptUpdate(ctx.get(), out.data(), &len, pt.data(), static_cast<int>(pt.size())) != 1)
      return std::nullopt;
    total = len;
  }
  if (EVP_EncryptFinal_ex(ctx.get(), out.data() + total, &len) != 1) return std::nullopt;
  total += len;
  if (static_cast<std::size_t>(total) != pt.size() ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_AEAD_GET_TAG, 16, out.data() + pt.size()) != 1)
    return std::nullopt;
  return out;
}

std::optional<bytes> evp_aead_open(const char* cipher, const bytes& key, const bytes& nonce, const bytes& aad,
                                   const bytes& ct_and_tag) {
  if (std::string_view(cipher) == "XChaCha20-Poly1305") return sodium_xchacha(false, key, nonce, aad, ct_and_tag);
  if (ct_and_tag.size() < 16) return std::nullopt;
  cipher_ptr c(EVP_CIPHER_fetch(nullptr, cipher, nullptr));
  cipher_ctx_ptr ctx(EVP_CIPHER_CTX_new());
  if (!c || !ctx || key.size() != static_cast<std::size_t>(EVP_CIPHER_get_key_length(c.get()))) return std::nullopt;
  const std::size_t n = ct_and_tag.size() - 16;
  bytes tag(ct_and_tag.begin() + static_cast<std::ptrdiff_t>(n), ct_and_tag.end());
  int len = 0;
  if (EVP_DecryptInit_ex(ctx.get(), c.get(), nullptr, nullptr, nullptr) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_AEAD_SET_IVLEN, static_cast<int>(nonce.size()), nullptr) != 1 ||
      EVP_DecryptInit_ex(ctx.get(), nullptr, nullptr, key.data(), nonce.data()) != 1)
    return std::nullopt;
  if (!aad.empty() && EVP_DecryptUpdate(ctx.get(), nullptr, &len, aad.data(), static_cast<int>(aad.size())) != 1)
    return std::nullopt;
  bytes out(n + 16);
  int total = 0;
  if (n != 0) {
    if (EVP_DecryptUpdate(ctx.get(), out.data(), &len, ct_and_tag.data(), static_cast<int>(n)) != 1)
      return std::nullopt;
    total = len;
  }
  if (EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_AEAD_SET_TAG, 16, tag.data()) != 1 ||
      EVP_DecryptFinal_ex(ctx.get(), out.data() + total, &len) != 1)
    return std::nullopt;
  total += len;
  out.resize(static_cast<std::size_t>(total));
  return out;
}

std::optional<bytes> evp_ec_public(const char* group, const bytes& priv, std::size_t point_size) {
  const int nid = EC_curve_nist2nid(group);
  if (nid == NID_undef) return std::nullopt;
  std::unique_ptr<EC_GROUP, deleter<EC_GROUP, EC_GROUP_free>> g(EC_GROUP_new_by_curve_name(nid));
  std::unique_ptr<BIGNUM, deleter<BIGNUM, BN_clear_free>> d(BN_bin2bn(priv.data(), static_cast<int>(priv.size()), nullptr));
  if (!g || !d || BN_is_zero(d.get()) || BN_cmp(d.get(), EC_GROUP_get0_order(g.get())) >= 0) return std::nullopt;
  std::unique_ptr<EC_POINT, deleter<EC_POINT, EC_POINT_free>> q(EC_POINT_new(g.get()));
  bytes out(point_size);
  if (!q || EC_POINT_mul(g.get(), q.get(), d.get(), nullptr, nullptr, nullptr) != 1 ||
      EC_POINT_point2oct(g.get(), q.get(), POINT_CONVERSION_UNCOMPRESSED, out.data(), out.size(), nullptr) !=
          point_size)
    return std::nullopt;
  return out;
}

evp_key evp_ec_key(const char* group, const bytes& pub, const bytes* priv) {
  OSSL_PARAM_BLD* bld = OSSL_PARAM_BLD_new();
  BIGNUM* d = priv ? BN_bin2bn(priv->data(), static_cast<int>(priv->size()), nullptr) : nullptr;
  OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, group, 0);
  OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, pub.data(), pub.size());
  if (d) OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, d);
  OSSL_PARAM* params = OSSL_PARAM_BLD_to_param(bld);
  pkey_ctx_ptr ctx(EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr));
  EVP_PKEY* k = nullptr;
  if (!ctx || EVP_PKEY_fromdata_init(ctx.get()) != 1 ||
      EVP_PKEY_fromdata(ctx.get(), &k, d ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params) != 1) {
    k = nullptr;
  }
  OSSL_PARAM_free(params);
  BN_free(d);
  OSSL_PARAM_BLD_free(bld);
  return evp_key(k);
}

bool evp_ec_key_pair(const char* group, seeded_random& rng, std::size_t scalar_size, std::size_t point_size,
                     bytes& priv, bytes& pub) {
  const int nid = EC_curve_nist2nid(group);
  std::unique_ptr<EC_GROUP, deleter<EC_GROUP, EC_GROUP_free>> g(nid == NID_undef ? nullptr
                                                                                  : EC_GROUP_new_by_curve_name(nid));
  if (!g) return false;
  const int excess_bits = static_cast<int>(8 * scalar_size) - BN_num_bits(EC_GROUP_get0_order(g.get()));
  if (excess_bits < 0 || excess_bits >= 8) return false;
  // Draws of the order's bit length: fewer than two per key on average;
  // evp_ec_public refuses zero and scalars not below the order.
  for (int draw = 0; draw < 1000; ++draw) {
    priv = rng.fill(scalar_size);
    priv[0] &= static_cast<std::uint8_t>(0xff >> excess_bits);
    if (auto p = evp_ec_public(group, priv, point_size)) {
      pub = std::move(*p);
      return true;
    }
  }
  return false;
}

}  // namespace sealwire::test::oracle
