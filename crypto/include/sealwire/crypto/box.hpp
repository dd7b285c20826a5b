// SPDX-License-Identifier: Apache-2.0
// The symmetric box: seal a message under a 32-byte key, open it back. Start
// here for symmetric encryption. XChaCha20-Poly1305 with a fresh random
// 24-byte nonce per message, sealed as one byte string:
//   nonce (24) || ciphertext (as long as the plaintext) || tag (16).
// Random 192-bit nonces do not repeat in any realistic number of messages
// under one key, so the caller keeps no counter.
//
//   auto key = sealwire::box::key::generate().value();
//   std::vector<std::uint8_t> sealed = sealwire::box::seal(key, message).value();
//   std::vector<std::uint8_t> opened = sealwire::box::open(key, sealed).value();
//
// Optional associated data is authenticated, not encrypted, and must be given
// again to open. aead.hpp is the span-based layer beneath; for public-key
// encryption start from hpke/single_shot.hpp instead.
#pragma once

#include <sealwire/crypto/bytes.hpp>
#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/result.hpp>
#include <sealwire/crypto/secret.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace sealwire::box {

// key_size is the length of a box key in bytes.
inline constexpr std::size_t key_size = 32;
// nonce_size is the length in bytes of the random nonce that starts a sealed message.
inline constexpr std::size_t nonce_size = 24;
// tag_size is the length in bytes of the tag that ends a sealed message.
inline constexpr std::size_t tag_size = 16;
// overhead is what sealing adds to a message: the nonce and the tag.
inline constexpr std::size_t overhead = nonce_size + tag_size;

// key is a box key: 32 secret bytes, wiped on destruction and when moved from.
class SEALWIRE_API key {
 public:
  // generate draws a fresh key from the CSPRNG. Error: rng_failure.
  [[nodiscard]] static result<key> generate() noexcept;
  // from_bytes loads a key saved with bytes(). Error: invalid_key unless 32 bytes.
  [[nodiscard]] static result<key> from_bytes(bytes_view raw) noexcept;
  // bytes is the key, to store it (as secret as the key itself).
  [[nodiscard]] std::span<const std::uint8_t, key_size> bytes() const noexcept { return k_.span(); }

 private:
  key() noexcept = default;
  crypto::secret_array<key_size> k_;
};

// sealed_size is the exact size of a sealed message of plaintext_size bytes.
[[nodiscard]] constexpr std::size_t sealed_size(std::size_t plaintext_size) noexcept {
  return plaintext_size + overhead;
}

// opened_size is the exact plaintext size of a sealed message of
// sealed_size bytes (0 when it is too short to be one; open then fails).
[[nodiscard]] constexpr std::size_t opened_size(std::size_t sealed_size) noexcept {
  return sealed_size >= overhead ? sealed_size - overhead : 0;
}

// seal encrypts plaintext under k with a random nonce and returns
// nonce || ciphertext || tag. Errors: rng_failure; std::errc::not_enough_memory.
[[nodiscard]] SEALWIRE_API result<std::vector<std::uint8_t>> seal(const key& k, bytes_view plaintext,
                                                                  associated_data ad = {});

// open authenticates a sealed message and returns its plaintext. Error:
// authentication_failed (a wrong key, wrong associated data, a modified or
// truncated message); nothing of the plaintext is released then.
[[nodiscard]] SEALWIRE_API result<std::vector<std::uint8_t>> open(const key& k, bytes_view sealed,
                                                                  associated_data ad = {});

// seal_into writes sealed_size(plaintext.size()) bytes to out (disjoint
// from plaintext) and returns that count. Errors: buffer_too_small (nothing
// written), rng_failure.
[[nodiscard]] SEALWIRE_API result<std::size_t> seal_into(std::span<std::uint8_t> out, const key& k,
                                                         bytes_view plaintext, associated_data ad = {}) noexcept;

// open_into writes opened_size(sealed.size()) bytes of plaintext to out
// (disjoint from sealed) and returns that count, only when the message
// authenticated. Errors: authentication_failed (out's first
// opened_size(sealed.size()) bytes are zeroed), buffer_too_small (nothing
// written).
[[nodiscard]] SEALWIRE_API result<std::size_t> open_into(std::span<std::uint8_t> out, const key& k, bytes_view sealed,
                                                         associated_data ad = {}) noexcept;

}  // namespace sealwire::box
