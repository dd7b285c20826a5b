// SPDX-License-Identifier: Apache-2.0
// The AES forward cipher (FIPS 197) on single 16-byte blocks, for protocols
// that need a keyed pseudorandom permutation of one block, such as header
// protection masks (RFC 9001 5.4.3, RFC 9147 4.2.3). It is not a mode of
// encryption: for encryption start from aead.hpp (AES-GCM).
#pragma once

#include <sealwire/crypto/bytes.hpp>
#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/result.hpp>
#include <sealwire/crypto/storage.hpp>

#include <cstddef>
#include <cstdint>
#include <span>

namespace sealwire::crypto {

namespace detail {
// Bytes of opaque storage an aes_block_cipher keeps its round keys in.
inline constexpr std::size_t aes_block_storage = 896;
}  // namespace detail

// aes_block_cipher holds an AES-128 or AES-256 key schedule and encrypts
// single blocks with the same constant-time kernels as AES-GCM (AES-NI or
// VAES when the CPU level allows, the computed S-box otherwise). Not
// copyable; movable (the source is wiped). Destruction wipes.
class SEALWIRE_API aes_block_cipher {
 public:
  // block_size is the AES block length in bytes.
  static constexpr std::size_t block_size = 16;

  // An empty object: init before use.
  aes_block_cipher() noexcept;
  ~aes_block_cipher();
  // The move constructor takes over other's key; other is wiped and left empty.
  aes_block_cipher(aes_block_cipher&& other) noexcept;
  // Move assignment wipes this object's key, then takes over other's.
  aes_block_cipher& operator=(aes_block_cipher&& other) noexcept;
  aes_block_cipher(const aes_block_cipher&) = delete;
  aes_block_cipher& operator=(const aes_block_cipher&) = delete;

  // init expands a 16-byte (AES-128) or 32-byte (AES-256) key. Error:
  // invalid_key for any other length (AES-192 is not offered); the object
  // is then empty.
  [[nodiscard]] result<void> init(bytes_view key) noexcept;

  // keyed reports whether the object holds a key.
  [[nodiscard]] bool keyed() const noexcept { return keyed_; }

  // encrypt_block writes CIPH_K(in) to out (the two may be the same).
  // Calling it on an empty object is a contract failure.
  void encrypt_block(std::span<std::uint8_t, block_size> out, std::span<const std::uint8_t, block_size> in) noexcept;

  // wipe clears the key; the object is empty afterwards.
  void wipe() noexcept;

 private:
  detail::state_storage<detail::aes_block_storage> storage_;
  bool keyed_ = false;
};

}  // namespace sealwire::crypto
