// SPDX-License-Identifier: Apache-2.0
// RFC 9420 17.1: the cipher suite table.
#include <sealwire/record/group/cipher_suite.hpp>

namespace sealwire::record::group {
namespace {

struct suite_row {
  cipher_suite_id id;
  crypto::hash_algorithm hash;
  crypto::aead_algorithm aead;
  hpke::suite hpke;
  signature_scheme signature;
  std::string_view name;
};

using crypto::aead_algorithm;
using crypto::hash_algorithm;

// RFC 9420 17.1, "MLS Cipher Suites" registry, ids 0x0001 to 0x0007.
constexpr suite_row rows[] = {
    {cipher_suite_id::x25519_aes128gcm_sha256_ed25519, hash_algorithm::sha2_256, aead_algorithm::aes128_gcm,
     {hpke::kem_id::x25519, hpke::kdf_id::hkdf_sha256, hpke::aead_id::aes128_gcm}, signature_scheme::ed25519,
     "MLS_128_DHKEMX25519_AES128GCM_SHA256_Ed25519"},
    {cipher_suite_id::p256_aes128gcm_sha256_p256, hash_algorithm::sha2_256, aead_algorithm::aes128_gcm,
     {hpke::kem_id::p256, hpke::kdf_id::hkdf_sha256, hpke::aead_id::aes128_gcm},
     signature_scheme::ecdsa_secp256r1_sha256, "MLS_128_DHKEMP256_AES128GCM_SHA256_P256"},
    {cipher_suite_id::x25519_chacha20poly1305_sha256_ed25519, hash_algorithm::sha2_256,
     aead_algorithm::chacha20_poly1305,
     {hpke::kem_id::x25519, hpke::kdf_id::hkdf_sha256, hpke::aead_id::chacha20_poly1305}, signature_scheme::ed25519,
     "MLS_128_DHKEMX25519_CHACHA20POLY1305_SHA256_Ed25519"},
    {cipher_suite_id::x448_aes256gcm_sha512_ed448, hash_algorithm::sha2_512, aead_algorithm::aes256_gcm,
     {hpke::kem_id::x448, hpke::kdf_id::hkdf_sha512, hpke::aead_id::aes256_gcm}, signature_scheme::ed448,
     "MLS_256_DHKEMX448_AES256GCM_SHA512_Ed448"},
    {cipher_suite_id::p521_aes256gcm_sha512_p521, hash_algorithm::sha2_512, aead_algorithm::aes256_gcm,
     {hpke::kem_id::p521, hpke::kdf_id::hkdf_sha512, hpke::aead_id::aes256_gcm},
     signature_scheme::ecdsa_secp521r1_sha512, "MLS_256_DHKEMP521_AES256GCM_SHA512_P521"},
    {cipher_suite_id::x448_chacha20poly1305_sha512_ed448, hash_algorithm::sha2_512,
     aead_algorithm::chacha20_poly1305,
     {hpke::kem_id::x448, hpke::kdf_id::hkdf_sha512, hpke::aead_id::chacha20_poly1305}, signature_scheme::ed448,
     "MLS_256_DHKEMX448_CHACHA20POLY1305_SHA512_Ed448"},
    {cipher_suite_id::p384_aes256gcm_sha384_p384, hash_algorithm::sha2_384, aead_algorithm::aes256_gcm,
     {hpke::kem_id::p384, hpke::kdf_id::hkdf_sha384, hpke::aead_id::aes256_gcm},
     signature_scheme::ecdsa_secp384r1_sha384, "MLS_256_DHKEMP384_AES256GCM_SHA384_P384"},
};

const suite_row& row_of(cipher_suite_id id) noexcept {
  const auto index = static_cast<std::size_t>(id) - 1;
  SEALWIRE_EXPECTS(index < std::size(rows));
  return rows[index];
}

}  // namespace

result<suite_algorithms> suite_algorithms::from_id(std::uint16_t id) noexcept {
  if (id < 1 || id > std::size(rows)) return crypto_errc::unknown_algorithm;
  return suite_algorithms(static_cast<cipher_suite_id>(id));
}

suite_algorithms::suite_algorithms(cipher_suite_id id) noexcept {
  const suite_row& row = row_of(id);
  id_ = row.id;
  hash_ = row.hash;
  aead_ = row.aead;
  hpke_ = row.hpke;
  signature_ = row.signature;
}

std::size_t suite_algorithms::key_size() const noexcept { return crypto::properties(aead_).key_size; }

std::size_t suite_algorithms::digest(std::span<std::uint8_t> out, std::initializer_list<bytes_view> pieces) const noexcept {
  crypto::dynamic_hash h(hash_);
  for (bytes_view piece : pieces) h.update(piece);
  return h.current(out);
}

void suite_algorithms::extract(std::span<std::uint8_t> out, bytes_view salt, bytes_view ikm) const noexcept {
  crypto::hkdf_extract(hash_, out, salt, {ikm});
}

result<void> suite_algorithms::expand(std::span<std::uint8_t> out, bytes_view prk, bytes_view info) const noexcept {
  return crypto::hkdf_expand(hash_, out, prk, {info});
}

void suite_algorithms::mac(std::span<std::uint8_t> out, bytes_view key, bytes_view data) const noexcept {
  crypto::hmac_compute(hash_, out, key, {data});
}

std::string_view to_string(cipher_suite_id id) noexcept {
  const auto index = static_cast<std::size_t>(id) - 1;
  return index < std::size(rows) ? rows[index].name : std::string_view("unknown");
}

}  // namespace sealwire::record::group
