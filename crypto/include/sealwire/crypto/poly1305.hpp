// SPDX-License-Identifier: Apache-2.0
// Poly1305 (RFC 8439 section 2.5): a one-time authenticator, incremental or
// one-shot, with a constant-time tag check. A building block: for
// authenticated encryption start from box.hpp, or aead.hpp.
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/storage.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace sealwire::crypto {
class poly1305;
namespace detail {
struct poly1305_state;
// For the stitched ChaCha20-Poly1305 kernels (poly1305.cpp).
poly1305_state* poly1305_direct_lanes(poly1305& p, std::size_t nblocks) noexcept;
// Bytes of opaque storage a poly1305 keeps its state in (the key, the
// accumulator, the powers of r the vector kernels use, their live lane
// accumulators, up to eight buffered blocks).
inline constexpr std::size_t poly1305_state_storage = 768;
}  // namespace detail

// poly1305 computes a tag over a message given in pieces of any size. A key
// must never be used for two messages. Not copyable; moving hands the state
// over and wipes the source. Destruction wipes.
class SEALWIRE_API poly1305 {
 public:
  // key_size is the one-time key's length in bytes (r || s).
  static constexpr std::size_t key_size = 32;
  // tag_size is the tag's length in bytes.
  static constexpr std::size_t tag_size = 16;
  // block_size is the length in bytes of the blocks the message is cut into.
  static constexpr std::size_t block_size = 16;

  // An unkeyed authenticator: init before use.
  poly1305() noexcept;
  // An authenticator keyed with `key` (r || s).
  explicit poly1305(std::span<const std::uint8_t, key_size> key) noexcept;
  ~poly1305();
  poly1305(const poly1305&) = delete;
  poly1305& operator=(const poly1305&) = delete;
  // The move constructor takes over other's key and message so far; other is wiped.
  poly1305(poly1305&& other) noexcept;
  // Move assignment replaces this state with other's, as the move constructor does.
  poly1305& operator=(poly1305&& other) noexcept;

  // init starts a new message with key = r || s.
  void init(std::span<const std::uint8_t, key_size> key) noexcept;

  // update absorbs message bytes. Whole 16-byte blocks go straight from `in`
  // to the kernel; only a partial block is buffered.
  void update(std::span<const std::uint8_t> in) noexcept;

  // pad16 zero-pads the message so far to a multiple of 16 bytes, as the
  // RFC 8439 AEAD construction does between AAD, ciphertext and lengths.
  void pad16() noexcept;

  // finish writes the tag and wipes the state; init before reuse.
  void finish(std::span<std::uint8_t, tag_size> tag) noexcept;

  // verify finishes and compares with `expected` in constant time.
  [[nodiscard]] bool verify(std::span<const std::uint8_t, tag_size> expected) noexcept;

  // mac computes the tag of a whole message.
  static void mac(std::span<std::uint8_t, tag_size> tag, std::span<const std::uint8_t> msg,
                  std::span<const std::uint8_t, key_size> key) noexcept;

  // provider names the kernel that runs for long inputs at the current CPU level.
  [[nodiscard]] static std::string_view provider() noexcept;

  // wipe clears the key, the accumulator, any powers of r and the buffer.
  void wipe() noexcept;

 private:
  friend detail::poly1305_state* detail::poly1305_direct_lanes(poly1305& p, std::size_t nblocks) noexcept;
  [[nodiscard]] detail::poly1305_state& st() noexcept;

  detail::state_storage<detail::poly1305_state_storage> storage_;
};

}  // namespace sealwire::crypto
