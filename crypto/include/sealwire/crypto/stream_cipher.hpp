// SPDX-License-Identifier: Apache-2.0
// The common shape of sealwire's stream ciphers (ChaCha, Salsa20): XOR of a
// keystream in place or out of place, any lengths, seeking to a block counter.
#pragma once

#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/result.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace sealwire::crypto {
namespace detail {

enum class stream_family : std::uint8_t { chacha, salsa };

// Keystream is generated ahead into a buffer of up to this many blocks when
// the input comes in pieces smaller than the kernels' natural width.
inline constexpr std::size_t stream_buffer_blocks = 16;

// stream_state is the whole state of a ChaCha or Salsa20 stream. Kernels see
// `words` (the input block; its counter words are ignored) and a 64-bit block
// counter that they place in the family's counter words (ChaCha 12-13, Salsa20
// 8-9). For the IETF ChaCha variant the driver passes (nonce word 0 << 32 |
// counter) and never lets the low half wrap, so no kernel carries into the nonce.
// The keystream buffer is left uninitialised until generated; only the
// generated part (ks_high bytes) is ever read or wiped.
struct stream_state {
  alignas(64) std::uint8_t ks[64 * stream_buffer_blocks];  // keystream generated ahead
  std::uint32_t words[16] = {};
  std::uint64_t counter = 0;       // next block to generate
  std::uint64_t counter_base = 0;  // the counter value of logical block 0
  std::uint64_t last_counter = 0;  // highest block counter the variant allows
  std::uint16_t ks_pos = 0;        // bytes of ks consumed
  std::uint16_t ks_len = 0;        // bytes of ks generated (ks_len - ks_pos are buffered)
  std::uint16_t ks_high = 0;       // most bytes of ks ever generated (what wipe must clear)
  std::uint32_t buffered_blocks = 0;  // blocks generated through ks in this stream
  std::uint8_t lookahead = 1;         // blocks the next refill generates at least
  std::uint8_t rounds = 0;
  stream_family family = stream_family::chacha;
  bool exhausted = false;  // every allowed block has been generated
};

// stream_wipe clears the key and the keystream that was generated.
void stream_wipe(stream_state& st) noexcept;

[[nodiscard]] result<void> stream_xor(stream_state& st, std::uint8_t* out, const std::uint8_t* in,
                                      std::size_t n) noexcept;
[[nodiscard]] result<void> stream_seek(stream_state& st, std::uint64_t block, std::size_t offset) noexcept;
[[nodiscard]] std::string_view stream_provider(stream_family f) noexcept;
// stream_start resets the position to block `first` with nothing buffered.
void stream_start(stream_state& st, std::uint64_t first) noexcept;

}  // namespace detail

// stream_cipher holds a keyed stream position. It is the base of chacha and
// salsa20; use those to key it. Not copyable (it holds a key); moving copies
// the state and wipes the source. Destruction wipes.
class stream_cipher {
 public:
  static constexpr std::size_t block_size = 64;

  stream_cipher(const stream_cipher&) = delete;
  stream_cipher& operator=(const stream_cipher&) = delete;
  stream_cipher(stream_cipher&& other) noexcept : st_(other.st_) { detail::stream_wipe(other.st_); }
  stream_cipher& operator=(stream_cipher&& other) noexcept {
    if (this != &other) {
      st_ = other.st_;
      detail::stream_wipe(other.st_);
    }
    return *this;
  }
  ~stream_cipher() { detail::stream_wipe(st_); }

  // apply XORs the keystream into in and writes out; out and in must have the
  // same size and be either the same buffer or disjoint (contracts). Errors:
  // counter_exhausted when the data would need a block past the variant's
  // counter limit; then nothing is written and the position is unchanged.
  [[nodiscard]] result<void> apply(std::span<std::uint8_t> out, std::span<const std::uint8_t> in) noexcept;

  // apply_in_place XORs the keystream into buf.
  [[nodiscard]] result<void> apply_in_place(std::span<std::uint8_t> buf) noexcept {
    return detail::stream_xor(st_, buf.data(), buf.data(), buf.size());
  }

  // keystream writes raw keystream (the encryption of zeros).
  [[nodiscard]] result<void> keystream(std::span<std::uint8_t> out) noexcept;

  // seek moves to byte `offset` (0-63) of block `block`. Error:
  // counter_exhausted when the block is beyond the variant's limit.
  [[nodiscard]] result<void> seek(std::uint64_t block, std::size_t offset = 0) noexcept {
    return detail::stream_seek(st_, block, offset);
  }

  // provider names the kernel set that runs at the current CPU level.
  [[nodiscard]] std::string_view provider() const noexcept { return detail::stream_provider(st_.family); }

 protected:
  stream_cipher() noexcept = default;
  detail::stream_state st_;
};

}  // namespace sealwire::crypto
