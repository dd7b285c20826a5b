// SPDX-License-Identifier: Apache-2.0
// SHA-2, HMAC and HKDF (RFC 5869) with the hash chosen at run time, for
// protocols whose hash is negotiated (HPKE's KDF ids, the record handshake).
// The templates in sha2.hpp, hmac.hpp and hkdf.hpp are the compile-time form;
// start from those when the hash is fixed.
#pragma once

#include <sealwire/crypto/bytes.hpp>
#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/parse.hpp>
#include <sealwire/crypto/result.hpp>
#include <sealwire/crypto/sha2.hpp>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>
#include <variant>

namespace sealwire::crypto {

// hash_algorithm names a SHA-2 hash.
enum class hash_algorithm : std::uint8_t { sha2_256, sha2_384, sha2_512 };

// to_string names a hash: "sha256", "sha384", "sha512".
[[nodiscard]] SEALWIRE_API std::string_view to_string(hash_algorithm h) noexcept;

// digest_size is the hash's output length in bytes (HKDF's HashLen).
[[nodiscard]] constexpr std::size_t digest_size(hash_algorithm h) noexcept {
  return h == hash_algorithm::sha2_256 ? 32 : h == hash_algorithm::sha2_384 ? 48 : 64;
}

// max_digest_size is the longest digest_size (SHA-512's).
inline constexpr std::size_t max_digest_size = 64;

// hkdf_extract is HKDF-Extract (RFC 5869 2.2) into prk's first
// digest_size(h) bytes (prk shorter than that is a contract failure), the
// input keying material being the concatenation of the pieces.
SEALWIRE_API void hkdf_extract(hash_algorithm h, std::span<std::uint8_t> prk, bytes_view salt,
                               std::initializer_list<bytes_view> ikm) noexcept;

// hkdf_expand is HKDF-Expand (RFC 5869 2.3) filling okm, the info being the
// concatenation of the pieces. Error: output_too_long beyond 255 * HashLen.
[[nodiscard]] SEALWIRE_API result<void> hkdf_expand(hash_algorithm h, std::span<std::uint8_t> okm, bytes_view prk,
                                                    std::initializer_list<bytes_view> info) noexcept;

// hmac_compute writes HMAC (RFC 2104) of the concatenated pieces into tag's
// first digest_size(h) bytes (a shorter tag is a contract failure).
SEALWIRE_API void hmac_compute(hash_algorithm h, std::span<std::uint8_t> tag, bytes_view key,
                               std::initializer_list<bytes_view> data) noexcept;

// dynamic_hash is a running SHA-2 hash chosen at run time (a handshake
// transcript). Copyable: a copy snapshots the hash so far.
class SEALWIRE_API dynamic_hash {
 public:
  // A SHA-256 hash of the empty message; see init.
  dynamic_hash() noexcept = default;
  // A hash of the empty message with algorithm h.
  explicit dynamic_hash(hash_algorithm h) noexcept { init(h); }

  // init starts a new message with algorithm h.
  void init(hash_algorithm h) noexcept;
  // update absorbs bytes.
  void update(bytes_view in) noexcept;
  // current writes the digest of everything so far into out's first
  // digest_size() bytes (a shorter out is a contract failure) and returns
  // that size; the running hash continues.
  std::size_t current(std::span<std::uint8_t> out) const noexcept;
  // algorithm is the hash in use.
  [[nodiscard]] hash_algorithm algorithm() const noexcept { return alg_; }
  // digest_size is its output length.
  [[nodiscard]] std::size_t digest_size() const noexcept { return crypto::digest_size(alg_); }

 private:
  hash_algorithm alg_ = hash_algorithm::sha2_256;
  std::variant<sha256, sha384, sha512> state_;
};

}  // namespace sealwire::crypto

namespace sealwire {
// parse<crypto::hash_algorithm> reads "sha256", "sha384", "sha512".
template <>
[[nodiscard]] SEALWIRE_API result<crypto::hash_algorithm> parse<crypto::hash_algorithm>(std::string_view text) noexcept;
}  // namespace sealwire
