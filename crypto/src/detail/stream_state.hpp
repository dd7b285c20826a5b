// SPDX-License-Identifier: Apache-2.0
// The state of a ChaCha or Salsa20 stream, behind the public stream_cipher's
// opaque storage, and the portable driver's functions on it.
#pragma once

#include <sealwire/crypto/result.hpp>
#include <sealwire/crypto/stream_cipher.hpp>

#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <string_view>

namespace sealwire::crypto::detail {

enum class stream_family : std::uint8_t { chacha, salsa };

// Keystream is generated ahead into a buffer of up to this many blocks when
// the input comes in pieces smaller than the kernels' natural width.
inline constexpr std::size_t stream_buffer_blocks = 16;

// The source for generating raw keystream into the buffer: the kernels XOR
// into their input, so a buffer's worth of zero bytes yields bare keystream.
alignas(64) inline constexpr std::uint8_t stream_zero_text[64 * stream_buffer_blocks] = {};

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
  // The XOR for text against buffered keystream, set by each refill from the
  // kernel set that generated it (null: bytes.hpp's xor_bytes).
  void (*xr)(std::uint8_t* out, const std::uint8_t* a, const std::uint8_t* b, std::size_t n) noexcept = nullptr;
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

static_assert(sizeof(stream_state) <= stream_state_storage && alignof(stream_state) <= 64,
              "stream_cipher's storage is too small for its state");

// The three helpers below have internal linkage (static): an ISA file
// (chacha_poly_ifma.cpp) calls them, and an inline function with external
// linkage compiled there could be the one copy the linker keeps for every
// caller, AVX-512 code on a CPU without it.

// stream_have_blocks reports whether `blocks` (>= 1) more blocks are allowed.
static inline bool stream_have_blocks(const stream_state& st, std::uint64_t blocks) noexcept {
  return !st.exhausted && blocks - 1 <= st.last_counter - st.counter;
}

// stream_advance moves the counter past `blocks` allowed blocks.
static inline void stream_advance(stream_state& st, std::uint64_t blocks) noexcept {
  if (blocks - 1 == st.last_counter - st.counter) {
    st.exhausted = true;  // the counter would pass its last value
  } else {
    st.counter += blocks;
  }
}

// stream_fill_buffer is stream_take_buffer (below) with the XOR of the
// kernel set that fills the buffer given by the caller, inline for the
// opener's per-piece path.
static inline std::uint8_t* stream_fill_buffer(stream_state& st, std::uint64_t& first,
                                        decltype(stream_state::xr) xr) noexcept {
  if (st.ks_pos != st.ks_len || !stream_have_blocks(st, stream_buffer_blocks)) return nullptr;
  first = st.counter;
  stream_advance(st, stream_buffer_blocks);
  st.ks_pos = 0;
  st.ks_len = static_cast<std::uint16_t>(64 * stream_buffer_blocks);
  st.ks_high = st.ks_len;  // the whole buffer: wipe clears it
  st.xr = xr;
  return st.ks;
}

// stream_wipe clears the key and the keystream that was generated.
void stream_wipe(stream_state& st) noexcept;

[[nodiscard]] result<void> stream_xor(stream_state& st, std::uint8_t* out, const std::uint8_t* in,
                                      std::size_t n) noexcept;
// stream_xor_rest is stream_xor for a caller that has checked the limit
// (an ISA file: no result<void> instantiated there).
void stream_xor_rest(stream_state& st, std::uint8_t* out, const std::uint8_t* in, std::size_t n) noexcept;
[[nodiscard]] result<void> stream_seek(stream_state& st, std::uint64_t block, std::size_t offset) noexcept;
[[nodiscard]] std::string_view stream_provider(stream_family f) noexcept;
// stream_generate fills the keystream buffer of a fresh stream (at block 0,
// nothing buffered) with keystream for at least `need` (<= 64 *
// stream_buffer_blocks) bytes, in one call of the kernel that covers them.
void stream_generate(stream_state& st, std::size_t need) noexcept;
// stream_take hands `blocks` (>= 1) blocks of the stream to a kernel the
// caller runs (the stitched ChaCha20-Poly1305 kernel): it needs nothing
// buffered, sets `first` to the first block's counter and advances; false,
// with nothing changed, when the limit does not allow them.
[[nodiscard]] bool stream_take(stream_state& st, std::uint64_t blocks, std::uint64_t& first) noexcept;
// stream_take_buffer hands the whole keystream buffer (stream_buffer_blocks
// blocks) to a kernel the caller runs to fill it with raw keystream (the
// opener's stitched step): it needs nothing buffered, sets `first` to the
// first block's counter, advances and marks the buffer generated; null, with
// nothing changed, when the limit does not allow the blocks. A kernel that
// spends its first blocks elsewhere (on text directly) leaves them out of the
// buffer: the caller then moves ks_pos past them.
[[nodiscard]] std::uint8_t* stream_take_buffer(stream_state& st, std::uint64_t& first) noexcept;
// stream_take_buffer_after is stream_take_buffer for a stream that spends
// one block before the buffer's elsewhere (its kernel computes the block at
// `first` apart, the buffer holds the next stream_buffer_blocks): the
// incremental opener's Poly1305 key block.
[[nodiscard]] std::uint8_t* stream_take_buffer_after(stream_state& st, std::uint64_t& first) noexcept;
// stream_take_tail is stream_take of `blocks` blocks and one more, whose raw
// keystream the caller's kernel writes to the returned buffer (64 bytes),
// which then holds that block as buffered keystream; null, with nothing
// changed, when the limit does not allow the blocks.
[[nodiscard]] std::uint8_t* stream_take_tail(stream_state& st, std::uint64_t blocks, std::uint64_t& first) noexcept;
// stream_start resets the position to block `first` with nothing buffered.
void stream_start(stream_state& st, std::uint64_t first) noexcept;

// Keying shared by the public cipher classes and the AEADs. Lengths as in
// chacha::init and salsa20::init.
[[nodiscard]] result<void> chacha_setup(stream_state& st, std::span<const std::uint8_t> key,
                                        std::span<const std::uint8_t> nonce, unsigned rounds) noexcept;
[[nodiscard]] result<void> salsa_setup(stream_state& st, std::span<const std::uint8_t> key,
                                       std::span<const std::uint8_t> nonce, unsigned rounds) noexcept;

}  // namespace sealwire::crypto::detail
