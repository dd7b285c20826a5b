// SPDX-License-Identifier: Apache-2.0
// MLS cipher suites (RFC 9420 5.1, 17.1): what a suite id stands for in
// sealwire's primitives (hash and KDF, AEAD, HPKE suite, signature scheme)
// and the sizes the key schedule and the secret tree need.
#pragma once

#include <sealwire/crypto/aead.hpp>
#include <sealwire/crypto/bytes.hpp>
#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/kdf.hpp>
#include <sealwire/crypto/result.hpp>
#include <sealwire/hpke/suite.hpp>
#include <sealwire/record/group/common.hpp>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>

namespace sealwire::record::group {

// cipher_suite_id names the seven cipher suites of RFC 9420 17.1
// (MLS_128_DHKEMX25519_AES128GCM_SHA256_Ed25519 and the others).
enum class cipher_suite_id : std::uint16_t {
  x25519_aes128gcm_sha256_ed25519 = 0x0001,
  p256_aes128gcm_sha256_p256 = 0x0002,
  x25519_chacha20poly1305_sha256_ed25519 = 0x0003,
  x448_aes256gcm_sha512_ed448 = 0x0004,
  p521_aes256gcm_sha512_p521 = 0x0005,
  x448_chacha20poly1305_sha512_ed448 = 0x0006,
  p384_aes256gcm_sha384_p384 = 0x0007,
};

// signature_scheme is a suite's signature algorithm, numbered as TLS 1.3's
// SignatureScheme (RFC 9420 5.1.2 uses those names). ECDSA signatures are
// DER-encoded, public keys uncompressed SEC 1 points; EdDSA is pure, with
// an empty context.
enum class signature_scheme : std::uint16_t {
  ecdsa_secp256r1_sha256 = 0x0403,
  ecdsa_secp384r1_sha384 = 0x0503,
  ecdsa_secp521r1_sha512 = 0x0603,
  ed25519 = 0x0807,
  ed448 = 0x0808,
};

// max_hash_size is the longest Nh of any suite (SHA-512's 64 bytes).
inline constexpr std::size_t max_hash_size = 64;
// max_aead_key_size is the longest AEAD key (32 bytes).
inline constexpr std::size_t max_aead_key_size = 32;
// aead_nonce_size is Nn for every suite (12 bytes).
inline constexpr std::size_t aead_nonce_size = 12;

// suite_algorithms maps an RFC 9420 suite id to the algorithms it names and
// runs them (Hash, KDF, MAC). A small value type; copy it freely. (The wire
// value itself is common.hpp's cipher_suite.)
class SEALWIRE_API suite_algorithms {
 public:
  // from_id looks up a suite. Error: crypto_errc::unknown_algorithm for an
  // id other than 1 to 7 (GREASE and private-use ids included).
  [[nodiscard]] static result<suite_algorithms> from_id(std::uint16_t id) noexcept;
  // from_id looks up the suite a GroupContext or KeyPackage names (common.hpp's
  // cipher_suite). Errors as above.
  [[nodiscard]] static result<suite_algorithms> from_id(group::cipher_suite id) noexcept {
    return from_id(static_cast<std::uint16_t>(id));
  }
  // A suite from its enum value (always one of the seven).
  explicit suite_algorithms(cipher_suite_id id) noexcept;

  // id is the suite's RFC 9420 number.
  [[nodiscard]] cipher_suite_id id() const noexcept { return id_; }
  // hash is the suite's hash, which HKDF (the KDF) and HMAC (the MAC) run on.
  [[nodiscard]] crypto::hash_algorithm hash() const noexcept { return hash_; }
  // aead is the suite's AEAD.
  [[nodiscard]] crypto::aead_algorithm aead() const noexcept { return aead_; }
  // hpke is the suite's HPKE suite (RFC 9420 5.1: KEM, KDF and AEAD of the
  // same names).
  [[nodiscard]] const hpke::suite& hpke() const noexcept { return hpke_; }
  // signature is the suite's signature scheme.
  [[nodiscard]] signature_scheme signature() const noexcept { return signature_; }

  // hash_size is Nh, the hash and KDF output length.
  [[nodiscard]] std::size_t hash_size() const noexcept { return crypto::digest_size(hash_); }
  // key_size is the AEAD's Nk.
  [[nodiscard]] std::size_t key_size() const noexcept;
  // nonce_size is the AEAD's Nn (12 for every suite).
  [[nodiscard]] static constexpr std::size_t nonce_size() noexcept { return aead_nonce_size; }

  // digest writes Hash(concatenation of the pieces) into out's first
  // hash_size() bytes and returns that size (a shorter out is a contract failure).
  std::size_t digest(std::span<std::uint8_t> out, std::initializer_list<bytes_view> pieces) const noexcept;
  // extract is KDF.Extract(salt, ikm) into out's first hash_size() bytes.
  void extract(std::span<std::uint8_t> out, bytes_view salt, bytes_view ikm) const noexcept;
  // expand is KDF.Expand(prk, info, out.size()). Error: output_too_long.
  [[nodiscard]] result<void> expand(std::span<std::uint8_t> out, bytes_view prk, bytes_view info) const noexcept;
  // mac is MAC(key, data), HMAC with the suite's hash, into out's first
  // hash_size() bytes.
  void mac(std::span<std::uint8_t> out, bytes_view key, bytes_view data) const noexcept;

  // Suites are equal when their ids are.
  friend bool operator==(const suite_algorithms& a, const suite_algorithms& b) noexcept { return a.id_ == b.id_; }

 private:
  cipher_suite_id id_;
  crypto::hash_algorithm hash_;
  crypto::aead_algorithm aead_;
  hpke::suite hpke_;
  signature_scheme signature_;
};

// to_string names a suite as RFC 9420 17.1 does, e.g.
// "MLS_128_DHKEMX25519_AES128GCM_SHA256_Ed25519".
[[nodiscard]] SEALWIRE_API std::string_view to_string(cipher_suite_id id) noexcept;

}  // namespace sealwire::record::group
