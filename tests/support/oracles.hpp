// SPDX-License-Identifier: Apache-2.0
// Reference implementations the tests compare against (OpenSSL through EVP,
// libsodium), wrapped once for the differential tests and the long
// differential run (tests/differential). No GoogleTest assertions here:
// failures of the oracle itself come back as std::nullopt.
#pragma once

#include "vectors.hpp"

#include <openssl/evp.h>

#include <cstddef>
#include <cstdint>
#include <optional>

namespace sealwire::test::oracle {

// evp_hkdf is HKDF (RFC 5869) through OpenSSL's EVP_KDF, digest "SHA256" etc.
[[nodiscard]] std::optional<bytes> evp_hkdf(const char* digest, const bytes& ikm, const bytes& salt, const bytes& info,
                                            std::size_t size);

// evp_hmac is HMAC through OpenSSL; digest "SHA256", "SHA384" or "SHA512".
[[nodiscard]] std::optional<bytes> evp_hmac(const char* digest, const bytes& key, const bytes& msg);

// evp_digest hashes msg with an OpenSSL digest ("SHA256", "SHA512", "BLAKE2B-512", ...).
[[nodiscard]] std::optional<bytes> evp_digest(const char* digest, const bytes& msg);

// evp_chacha20 is OpenSSL's IETF ChaCha20 from a 32-bit block counter.
[[nodiscard]] std::optional<bytes> evp_chacha20(const bytes& key, const bytes& nonce12, std::uint32_t counter,
                                                const bytes& in);

// evp_hkdf_extract and evp_hkdf_expand are the two halves of HKDF (RFC 5869
// 2.2, 2.3) through OpenSSL's EVP_KDF in EXTRACT_ONLY and EXPAND_ONLY mode.
[[nodiscard]] std::optional<bytes> evp_hkdf_extract(const char* digest, const bytes& salt, const bytes& ikm);
[[nodiscard]] std::optional<bytes> evp_hkdf_expand(const char* digest, const bytes& prk, const bytes& info,
                                                   std::size_t size);

// AEAD with a 16-byte tag appended (ct || tag). cipher is an OpenSSL cipher
// name: "AES-128-GCM", "AES-256-GCM" (12-byte nonces) or "ChaCha20-Poly1305";
// "XChaCha20-Poly1305" (24-byte nonce) goes to libsodium, which OpenSSL
// lacks. evp_aead_open returns nullopt when the tag does not verify.
[[nodiscard]] std::optional<bytes> evp_aead_seal(const char* cipher, const bytes& key, const bytes& nonce,
                                                 const bytes& aad, const bytes& pt);
[[nodiscard]] std::optional<bytes> evp_aead_open(const char* cipher, const bytes& key, const bytes& nonce,
                                                 const bytes& aad, const bytes& ct_and_tag);

// Montgomery-curve key agreement with raw keys through EVP (EVP_PKEY_X25519
// or EVP_PKEY_X448): the public key of a private key, and the shared secret
// (nullopt when OpenSSL refuses, e.g. an all-zero result).
[[nodiscard]] std::optional<bytes> evp_raw_public(int type, const bytes& priv);
[[nodiscard]] std::optional<bytes> evp_raw_derive(int type, const bytes& priv, const bytes& peer);

// evp_key owns an EVP_PKEY (null when OpenSSL refused the key).
struct evp_key {
  EVP_PKEY* k = nullptr;
  evp_key() = default;
  explicit evp_key(EVP_PKEY* p) : k(p) {}
  evp_key(evp_key&& o) noexcept : k(o.k) { o.k = nullptr; }
  evp_key& operator=(evp_key&&) = delete;
  evp_key(const evp_key&) = delete;
  evp_key& operator=(const evp_key&) = delete;
  ~evp_key() { EVP_PKEY_free(k); }
};

// NIST curves through EVP; group is "P-256", "P-384" or "P-521". evp_ec_key
// builds a key from an uncompressed SEC 1 point and, when priv is given, its
// big-endian scalar.
[[nodiscard]] evp_key evp_ec_key(const char* group, const bytes& pub, const bytes* priv);
// evp_ec_public is the uncompressed SEC 1 point of a big-endian scalar
// (point_size bytes), computed by OpenSSL's EC_POINT_mul; nullopt when the
// scalar is zero or not below the group order.
[[nodiscard]] std::optional<bytes> evp_ec_public(const char* group, const bytes& priv, std::size_t point_size);

// evp_ec_key_pair makes a peer key pair for the differential tests: the
// scalar (scalar_size bytes) is drawn from rng, uniformly in [1, n-1] by
// rejection, so that a test's seed replays it; OpenSSL computes the public
// point (point_size bytes, uncompressed) from it. False when OpenSSL fails.
[[nodiscard]] bool evp_ec_key_pair(const char* group, seeded_random& rng, std::size_t scalar_size,
                                   std::size_t point_size, bytes& priv, bytes& pub);
// evp_derive is EVP_PKEY_derive: the shared secret of priv with peer.
[[nodiscard]] std::optional<bytes> evp_derive(EVP_PKEY* priv, EVP_PKEY* peer, std::size_t size);

}  // namespace sealwire::test::oracle
