// SPDX-License-Identifier: Apache-2.0
// The common shape of sealwire's stream ciphers (ChaCha, Salsa20): XOR of a
// keystream in place or out of place, any lengths, seeking to a block counter.
// Start from chacha.hpp or salsa20.hpp, which key it; for authenticated
// encryption, from box.hpp or aead.hpp.
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/storage.hpp>
#include <sealwire/crypto/result.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace sealwire::crypto {
namespace detail {
struct stream_state;
// Bytes of opaque storage a stream_cipher keeps its state in (the key, the
// position and the keystream generated ahead).
inline constexpr std::size_t stream_state_storage = 1152;
}  // namespace detail

// stream_cipher holds a keyed stream position. It is the base of chacha and
// salsa20; use those to key it. Not copyable (it holds a key); moving copies
// the state and wipes the source. Destruction wipes.
class SEALWIRE_API stream_cipher {
 public:
  // block_size is the keystream block in bytes; seek counts in blocks.
  static constexpr std::size_t block_size = 64;

  stream_cipher(const stream_cipher&) = delete;
  stream_cipher& operator=(const stream_cipher&) = delete;
  // The move constructor copies other's key and position and wipes other.
  stream_cipher(stream_cipher&& other) noexcept;
  // Move assignment copies other's key and position over this state and wipes other.
  stream_cipher& operator=(stream_cipher&& other) noexcept;
  ~stream_cipher();

  // apply XORs the keystream into in and writes out; out and in must have the
  // same size and be either the same buffer or disjoint (contracts). Errors:
  // counter_exhausted when the data would need a block past the variant's
  // counter limit; then nothing is written and the position is unchanged.
  [[nodiscard]] result<void> apply(std::span<std::uint8_t> out, std::span<const std::uint8_t> in) noexcept;

  // apply_in_place XORs the keystream into buf.
  [[nodiscard]] result<void> apply_in_place(std::span<std::uint8_t> buf) noexcept;

  // keystream writes raw keystream (the encryption of zeros).
  [[nodiscard]] result<void> keystream(std::span<std::uint8_t> out) noexcept;

  // seek moves to byte `offset` (0-63) of block `block`. Error:
  // counter_exhausted when the block is beyond the variant's limit.
  [[nodiscard]] result<void> seek(std::uint64_t block, std::size_t offset = 0) noexcept;

  // provider names the kernel set that runs at the current CPU level.
  [[nodiscard]] std::string_view provider() const noexcept;

 protected:
  stream_cipher() noexcept;
  // state is the stream's state (for the keying code of chacha and salsa20).
  [[nodiscard]] detail::stream_state& state() noexcept;
  // state is the stream's state, read only.
  [[nodiscard]] const detail::stream_state& state() const noexcept;

 private:
  detail::state_storage<detail::stream_state_storage> storage_;
};

}  // namespace sealwire::crypto
