// SPDX-License-Identifier: Apache-2.0
// HPKE (RFC 9180) algorithm identifiers: modes, KEM, KDF and AEAD ids, the
// suite they form, their names, and the sizes of each KEM. Most programs keep
// default_suite; start from single_shot.hpp.
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/kdf.hpp>
#include <sealwire/crypto/parse.hpp>
#include <sealwire/hpke/error.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace sealwire::hpke {

// RFC 9180 5: the four modes.
enum class mode : std::uint8_t { base = 0x00, psk = 0x01, auth = 0x02, auth_psk = 0x03 };

// RFC 9180 7.1-7.3: algorithm identifiers. The post-quantum KEMs are those
// of draft-ietf-hpke-pq (section 3): ML-KEM (FIPS 203) and X-Wing
// (MLKEM768-X25519). They have no AuthEncap: the auth modes are refused
// with auth_not_supported.
enum class kem_id : std::uint16_t {
  p256 = 0x0010,
  p384 = 0x0011,
  p521 = 0x0012,
  x25519 = 0x0020,
  x448 = 0x0021,
  ml_kem_512 = 0x0040,
  ml_kem_768 = 0x0041,
  ml_kem_1024 = 0x0042,
  xwing = 0x647a,
};
// kdf_id names a KDF (RFC 9180 7.2): HKDF with SHA-256, SHA-384 or SHA-512.
enum class kdf_id : std::uint16_t { hkdf_sha256 = 0x0001, hkdf_sha384 = 0x0002, hkdf_sha512 = 0x0003 };
// aead_id names an AEAD (RFC 9180 7.3); export_only sets up contexts that
// only export secrets.
enum class aead_id : std::uint16_t {
  aes128_gcm = 0x0001,
  aes256_gcm = 0x0002,
  chacha20_poly1305 = 0x0003,
  export_only = 0xffff,
};

// suite is a KEM, a KDF and an AEAD.
struct suite {
  kem_id kem;    // the KEM, which fixes the key type
  kdf_id kdf;    // the KDF of the key schedule
  aead_id aead;  // the AEAD that seals the messages
  friend bool operator==(const suite&, const suite&) = default;
};

// default_suite is DHKEM(X25519, HKDF-SHA256), HKDF-SHA256 and
// ChaCha20-Poly1305: what the one-call functions and key generation use
// unless told otherwise.
inline constexpr suite default_suite{kem_id::x25519, kdf_id::hkdf_sha256, aead_id::chacha20_poly1305};

// to_string names an id as parse reads it: modes "base", "psk", "auth",
// "auth_psk"; KEMs "x25519", "x448", "p256", "p384", "p521", "mlkem512",
// "mlkem768", "mlkem1024", "xwing"; KDFs
// "hkdf-sha256", "hkdf-sha384", "hkdf-sha512"; AEADs "aes128gcm",
// "aes256gcm", "chacha20poly1305", "export-only". An id sealwire does not
// have is "unknown".
[[nodiscard]] SEALWIRE_API std::string_view to_string(mode m) noexcept;
// to_string names a KEM id: "x25519", "x448", "p256", "p384", "p521",
// "mlkem512", "mlkem768", "mlkem1024", "xwing".
[[nodiscard]] SEALWIRE_API std::string_view to_string(kem_id id) noexcept;
// to_string names a KDF id: "hkdf-sha256", "hkdf-sha384", "hkdf-sha512".
[[nodiscard]] SEALWIRE_API std::string_view to_string(kdf_id id) noexcept;
// to_string names an AEAD id: "aes128gcm", "aes256gcm", "chacha20poly1305",
// "export-only".
[[nodiscard]] SEALWIRE_API std::string_view to_string(aead_id id) noexcept;
// to_string of a suite is "KEM,KDF,AEAD", e.g. "x25519,hkdf-sha256,chacha20poly1305".
[[nodiscard]] SEALWIRE_API std::string to_string(const suite& s);

// kdf_hash is the hash a KDF id's HKDF runs on. Error: unsupported_suite.
[[nodiscard]] SEALWIRE_API result<crypto::hash_algorithm> kdf_hash(kdf_id kdf) noexcept;

// check_suite reports unsupported_suite unless all three algorithms are built in.
[[nodiscard]] SEALWIRE_API result<void> check_suite(const suite& s) noexcept;

// The sizes of a KEM (RFC 9180 7.1): Nsecret, Nenc, Npk, Nsk.
struct kem_sizes {
  std::size_t secret;       // Nsecret: the length of the shared secret
  std::size_t enc;          // Nenc: the length of the encapsulated key
  std::size_t public_key;   // Npk: the length of a serialized public key
  std::size_t private_key;  // Nsk: the length of a serialized private key
};
// kem_info returns a KEM's sizes. Error: unsupported_suite.
[[nodiscard]] SEALWIRE_API result<kem_sizes> kem_info(kem_id kem) noexcept;

// kem_supports_auth reports whether a KEM has AuthEncap/AuthDecap (the
// DHKEMs do; ML-KEM and X-Wing do not). False for an unknown id.
[[nodiscard]] SEALWIRE_API bool kem_supports_auth(kem_id kem) noexcept;

// Largest sizes over all KEMs, so buffers need no heap: Npk and Nenc are
// ML-KEM-1024's (1568 bytes).
inline constexpr std::size_t max_public_key_size = 1568;
// max_private_key_size is the largest Nsk (P-521's; the post-quantum KEMs'
// private keys are seeds of 64 or 32 bytes).
inline constexpr std::size_t max_private_key_size = 66;

}  // namespace sealwire::hpke

namespace sealwire {
// parse reads the names above (any ASCII case) or the RFC 9180 numbers
// (decimal or 0x hex). Error: crypto_errc::unknown_algorithm.
template <>
[[nodiscard]] SEALWIRE_API result<hpke::mode> parse<hpke::mode>(std::string_view text) noexcept;
// parse<hpke::kem_id> reads a KEM's name or number.
template <>
[[nodiscard]] SEALWIRE_API result<hpke::kem_id> parse<hpke::kem_id>(std::string_view text) noexcept;
// parse<hpke::kdf_id> reads a KDF's name or number.
template <>
[[nodiscard]] SEALWIRE_API result<hpke::kdf_id> parse<hpke::kdf_id>(std::string_view text) noexcept;
// parse<hpke::aead_id> reads an AEAD's name or number.
template <>
[[nodiscard]] SEALWIRE_API result<hpke::aead_id> parse<hpke::aead_id>(std::string_view text) noexcept;
// parse<hpke::suite> reads "KEM,KDF,AEAD", each part as above.
template <>
[[nodiscard]] SEALWIRE_API result<hpke::suite> parse<hpke::suite>(std::string_view text) noexcept;
}  // namespace sealwire
