// SPDX-License-Identifier: Apache-2.0
// SHA-2, HMAC, HKDF, X25519 and NIST-curve ECDH benchmarks beside OpenSSL,
// libsodium and Crypto++ (HKDF).
#include "common.hpp"

#include <sealwire/crypto/ecdh_nist.hpp>
#include <sealwire/crypto/hkdf.hpp>
#include <sealwire/crypto/hmac.hpp>
#include <sealwire/crypto/sha2.hpp>
#include <sealwire/crypto/x25519.hpp>

#include <cryptopp/hkdf.h>
#include <cryptopp/sha.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <sodium.h>

namespace sealwire::bench {
namespace {

template <class H>
void ours_hash(benchmark::State& st, std::size_t n) {
  const bytes msg = pattern(n);
  std::uint8_t out[H::digest_size];
  measure(st, n, [&] {
    H::hash(out, msg);
    benchmark::DoNotOptimize(out);
  });
}

void openssl_hash(benchmark::State& st, const EVP_MD* md, std::size_t n) {
  const bytes msg = pattern(n);
  std::uint8_t out[64];
  unsigned len = 0;
  measure(st, n, [&] { EVP_Digest(msg.data(), n, out, &len, md, nullptr); });
}

const bytes ikm = pattern(32, 11), salt = pattern(32, 12), info = pattern(20, 13);

void register_hashes() {
  for (std::size_t n : {64u, 1024u, 16384u, 1u << 20}) {
    add("sha256", n, "sealwire", [n](benchmark::State& st) { ours_hash<crypto::sha256>(st, n); },
        std::string(crypto::sha256::provider()));
    add("sha256", n, "openssl", [n](benchmark::State& st) { openssl_hash(st, EVP_sha256(), n); });
    add("sha256", n, "libsodium", [n](benchmark::State& st) {
      const bytes msg = pattern(n);
      std::uint8_t out[32];
      measure(st, n, [&] { crypto_hash_sha256(out, msg.data(), n); });
    });
    add("sha512", n, "sealwire", [n](benchmark::State& st) { ours_hash<crypto::sha512>(st, n); },
        std::string(crypto::sha512::provider()));
    add("sha512", n, "openssl", [n](benchmark::State& st) { openssl_hash(st, EVP_sha512(), n); });
    add("sha512", n, "libsodium", [n](benchmark::State& st) {
      const bytes msg = pattern(n);
      std::uint8_t out[64];
      measure(st, n, [&] { crypto_hash_sha512(out, msg.data(), n); });
    });
  }

  add("hmac_sha256", 64, "sealwire", [](benchmark::State& st) {
    const bytes msg = pattern(64), key = pattern(32, 2);
    std::uint8_t out[32];
    measure(st, 64, [&] { crypto::hmac_sha256::mac(out, key, msg); });
  }, std::string(crypto::sha256::provider()));
  add("hmac_sha256", 64, "openssl", [](benchmark::State& st) {
    const bytes msg = pattern(64), key = pattern(32, 2);
    std::uint8_t out[32];
    unsigned len = 0;
    measure(st, 64, [&] { HMAC(EVP_sha256(), key.data(), 32, msg.data(), 64, out, &len); });
  });
  add("hmac_sha256", 64, "libsodium", [](benchmark::State& st) {
    const bytes msg = pattern(64), key = pattern(32, 2);
    std::uint8_t out[32];
    measure(st, 64, [&] { crypto_auth_hmacsha256(out, msg.data(), 64, key.data()); });
  });

  // HKDF-SHA256: extract, then expand 32 bytes (the shape of a key schedule step).
  add("hkdf_sha256.extract_expand32", 32, "sealwire", [](benchmark::State& st) {
    std::uint8_t prk[32], okm[32];
    measure(st, 0, [&] {
      crypto::hkdf_sha256::extract(prk, salt, ikm);
      (void)crypto::hkdf_sha256::expand(okm, prk, info);
      benchmark::DoNotOptimize(okm);
    });
  }, std::string(crypto::sha256::provider()));
  add("hkdf_sha256.extract_expand32", 32, "openssl", [](benchmark::State& st) {
    EVP_KDF* kdf = EVP_KDF_fetch(nullptr, "HKDF", nullptr);
    EVP_KDF_CTX* ctx = EVP_KDF_CTX_new(kdf);
    std::uint8_t okm[32];
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, const_cast<char*>("SHA256"), 0),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, const_cast<std::uint8_t*>(ikm.data()), ikm.size()),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, const_cast<std::uint8_t*>(salt.data()), salt.size()),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, const_cast<std::uint8_t*>(info.data()), info.size()),
        OSSL_PARAM_construct_end()};
    measure(st, 0, [&] { EVP_KDF_derive(ctx, okm, sizeof okm, params); });
    EVP_KDF_CTX_free(ctx);
    EVP_KDF_free(kdf);
  });
  add("hkdf_sha256.extract_expand32", 32, "libsodium", [](benchmark::State& st) {
    // libsodium 1.0.18 has no HKDF; this is RFC 5869 on its HMAC-SHA256.
    std::uint8_t prk[32], okm[32];
    const std::uint8_t one = 1;
    measure(st, 0, [&] {
      crypto_auth_hmacsha256_state s;
      crypto_auth_hmacsha256_init(&s, salt.data(), salt.size());
      crypto_auth_hmacsha256_update(&s, ikm.data(), ikm.size());
      crypto_auth_hmacsha256_final(&s, prk);
      crypto_auth_hmacsha256_init(&s, prk, sizeof prk);
      crypto_auth_hmacsha256_update(&s, info.data(), info.size());
      crypto_auth_hmacsha256_update(&s, &one, 1);
      crypto_auth_hmacsha256_final(&s, okm);
    });
  });
  add("hkdf_sha256.extract_expand32", 32, "cryptopp", [](benchmark::State& st) {
    CryptoPP::HKDF<CryptoPP::SHA256> hkdf;
    std::uint8_t okm[32];
    measure(st, 0, [&] {
      hkdf.DeriveKey(okm, sizeof okm, ikm.data(), ikm.size(), salt.data(), salt.size(), info.data(), info.size());
    });
  });
}

void register_x25519() {
  add("x25519.shared", 1, "sealwire", [](benchmark::State& st) {
    const bytes a = pattern(32, 1);
    std::uint8_t pb[32], out[32];
    crypto::x25519::public_key(pb, std::span<const std::uint8_t, 32>(pattern(32, 2).data(), 32));
    measure(st, 0, [&] { (void)crypto::x25519::shared_secret(out, std::span<const std::uint8_t, 32>(a.data(), 32), pb); });
  }, std::string(crypto::x25519::provider()));
  add("x25519.shared", 1, "libsodium", [](benchmark::State& st) {
    const bytes a = pattern(32, 1), b = pattern(32, 2);
    std::uint8_t pb[32], out[32];
    crypto_scalarmult_base(pb, b.data());
    measure(st, 0, [&] { benchmark::DoNotOptimize(crypto_scalarmult(out, a.data(), pb)); });
  });
  add("x25519.shared", 1, "openssl", [](benchmark::State& st) { openssl_raw_derive(st, EVP_PKEY_X25519, 32); });
  add("x25519.keygen", 1, "sealwire", [](benchmark::State& st) {
    std::uint8_t sk[32], pk[32];
    measure(st, 0, [&] { (void)crypto::x25519::generate(sk, pk); });
  }, std::string(crypto::x25519::provider()));
  add("x25519.keygen", 1, "libsodium", [](benchmark::State& st) {
    std::uint8_t sk[32], pk[32];
    measure(st, 0, [&] { crypto_box_keypair(pk, sk); });
  });
  add("x25519.keygen", 1, "openssl", [](benchmark::State& st) { openssl_raw_keygen(st, EVP_PKEY_X25519); });
}

// ECDH on the NIST curves: shared secret and key generation, ours beside
// OpenSSL's EVP with a reused context and with a fresh one per call (what a
// caller that derives once per key pays).
template <class E>
EVP_PKEY* openssl_ec_key(const char* group) {
  return EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", group);
}

template <class E>
void register_nist(const std::string& name, const char* group) {
  add(name + ".shared", 1, "sealwire", [](benchmark::State& st) {
    std::uint8_t a[E::scalar_size], pa[E::point_size], b[E::scalar_size], pb[E::point_size], out[E::secret_size];
    if (!E::generate(a, pa) || !E::generate(b, pb)) return st.SkipWithError("keygen");
    measure(st, 0, [&] { benchmark::DoNotOptimize(E::shared_secret(out, a, std::span<const std::uint8_t>(pb))); });
  }, std::string(E::provider()));
  add(name + ".shared", 1, "openssl", [group](benchmark::State& st) {
    EVP_PKEY* ka = openssl_ec_key<E>(group);
    EVP_PKEY* kb = openssl_ec_key<E>(group);
    EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new(ka, nullptr);
    EVP_PKEY_derive_init(ctx);
    EVP_PKEY_derive_set_peer(ctx, kb);
    std::uint8_t out[E::secret_size];
    measure(st, 0, [&] {
      std::size_t len = sizeof out;
      EVP_PKEY_derive(ctx, out, &len);
    });
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(ka);
    EVP_PKEY_free(kb);
  });
  add(name + ".shared", 1, "openssl-fresh", [group](benchmark::State& st) {
    EVP_PKEY* ka = openssl_ec_key<E>(group);
    EVP_PKEY* kb = openssl_ec_key<E>(group);
    std::uint8_t out[E::secret_size];
    measure(st, 0, [&] {
      EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new(ka, nullptr);
      EVP_PKEY_derive_init(ctx);
      EVP_PKEY_derive_set_peer(ctx, kb);
      std::size_t len = sizeof out;
      EVP_PKEY_derive(ctx, out, &len);
      EVP_PKEY_CTX_free(ctx);
    });
    EVP_PKEY_free(ka);
    EVP_PKEY_free(kb);
  });
  add(name + ".keygen", 1, "sealwire", [](benchmark::State& st) {
    std::uint8_t sk[E::scalar_size], pk[E::point_size];
    measure(st, 0, [&] { benchmark::DoNotOptimize(E::generate(sk, pk)); });
  }, std::string(E::provider()));
  add(name + ".keygen", 1, "openssl", [group](benchmark::State& st) {
    EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr);
    EVP_PKEY_keygen_init(ctx);
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, const_cast<char*>(group), 0),
        OSSL_PARAM_construct_end()};
    EVP_PKEY_CTX_set_params(ctx, params);
    measure(st, 0, [&] {
      EVP_PKEY* k = nullptr;
      EVP_PKEY_keygen(ctx, &k);
      EVP_PKEY_free(k);
    });
    EVP_PKEY_CTX_free(ctx);
  });
  add(name + ".keygen", 1, "openssl-fresh", [group](benchmark::State& st) {
    measure(st, 0, [&] { EVP_PKEY_free(openssl_ec_key<E>(group)); });
  });
}

void register_nist_curves() {
  register_nist<crypto::p256>("p256", "P-256");
  register_nist<crypto::p384>("p384", "P-384");
  register_nist<crypto::p521>("p521", "P-521");
}

const registrar reg1(&register_hashes);
const registrar reg2(&register_x25519);
const registrar reg3(&register_nist_curves);

}  // namespace
}  // namespace sealwire::bench
