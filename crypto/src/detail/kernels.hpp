// SPDX-License-Identifier: Apache-2.0
// Kernel tables for the stream ciphers and Poly1305. Kernels do bulk work on
// whole blocks only; counters, limits, buffering and tails live in the
// portable drivers (stream_cipher.cpp, poly1305.cpp), except in the
// ChaCha20-Poly1305 opener's piece path (chacha20_poly1305_open_ifma), which
// moves the counter, fills the keystream buffer and handles a piece's tails
// itself through the static helpers of stream_state.hpp.
#pragma once

#include "poly1305_state.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace sealwire::crypto {
class poly1305;  // sealwire/crypto/poly1305.hpp
}

namespace sealwire::crypto::detail {

struct aead_core;  // aead_core.hpp

// A stream kernel XORs nblocks (a multiple of its width) blocks of keystream,
// starting at block `counter`, into `in` and writes `out` (out may equal in).
using stream_blocks_fn = void (*)(const std::uint32_t words[16], std::uint64_t counter, std::uint8_t* out,
                                  const std::uint8_t* in, std::size_t nblocks, unsigned rounds) noexcept;

// stream_xor_fn writes a ^ b to out for n bytes (out equals a or overlaps
// neither input).
using stream_xor_fn = void (*)(std::uint8_t* out, const std::uint8_t* a, const std::uint8_t* b,
                               std::size_t n) noexcept;

struct stream_kernel {
  std::size_t width;
  stream_blocks_fn fn;
};

// stream_kernels is one instruction set's kernels, widest first; the last
// entry has width 1. Unused entries have fn == nullptr. `batch` is how many
// blocks it pays to generate at once (the widest kernel's width): input that
// arrives in smaller pieces is served from keystream generated ahead.
struct stream_kernels {
  std::string_view name;
  stream_kernel k[4];
  std::size_t batch;
  // XOR of text with keystream generated ahead (see stream_state::xr), or
  // null for the portable xor_bytes.
  stream_xor_fn xr = nullptr;
};

// The kernel sets for the current CPU level (read at each call).
const stream_kernels& chacha_kernels() noexcept;

// stream_kernels_for picks one of a cipher's four kernel sets for the CPU
// level enabled now (ChaCha and Salsa20 follow the same levels).
const stream_kernels& stream_kernels_for(const stream_kernels& portable, const stream_kernels& sse41,
                                         const stream_kernels& avx2, const stream_kernels& avx512) noexcept;

// "expand 32-byte k" and "expand 16-byte k": the constants ChaCha and
// Salsa20 share (placed differently in their state).
inline constexpr std::uint32_t sigma[4] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
inline constexpr std::uint32_t tau[4] = {0x61707865, 0x3120646e, 0x79622d36, 0x6b206574};

// valid_rounds: both ciphers come in 8, 12 and 20-round variants.
inline constexpr bool valid_rounds(unsigned r) noexcept { return r == 8 || r == 12 || r == 20; }
const stream_kernels& salsa_kernels() noexcept;

// Instruction-set kernels (x86-64): chacha_blocks_xN_isa processes a multiple of N blocks.
void chacha_blocks_x4_sse41(const std::uint32_t words[16], std::uint64_t counter, std::uint8_t* out,
                            const std::uint8_t* in, std::size_t nblocks, unsigned rounds) noexcept;
void chacha_blocks_x8_avx2(const std::uint32_t words[16], std::uint64_t counter, std::uint8_t* out,
                           const std::uint8_t* in, std::size_t nblocks, unsigned rounds) noexcept;
// x4_avx512: four blocks quarter-round parallel, one block per 128-bit lane.
void chacha_blocks_x4_avx512(const std::uint32_t words[16], std::uint64_t counter, std::uint8_t* out,
                             const std::uint8_t* in, std::size_t nblocks, unsigned rounds) noexcept;
void chacha_blocks_x16_avx512(const std::uint32_t words[16], std::uint64_t counter, std::uint8_t* out,
                              const std::uint8_t* in, std::size_t nblocks, unsigned rounds) noexcept;
// chacha_x16_key_avx512: sixteen blocks from counter (out = in ^ keystream)
// and one more, raw block `lone`, into lone_block, in one pass: an AEAD's
// Poly1305 key block (lone = counter - 1) beside its first 1024 bytes of
// text, or a sealer's last block (a record's type byte) beside its first.
void chacha_x16_key_avx512(const std::uint32_t words[16], std::uint64_t counter, std::uint8_t* out,
                           const std::uint8_t* in, std::uint64_t lone, std::uint8_t lone_block[64]) noexcept;
using chacha_key_fn = decltype(&chacha_x16_key_avx512);
// chacha_key_kernel: chacha_x16_key_avx512 when the AVX-512 ChaCha kernels
// run at this CPU level, else null.
chacha_key_fn chacha_key_kernel() noexcept;
// xor_bytes_avx512: a stream_xor_fn 64 bytes at a time (AVX-512F only), for
// the keystream generated ahead of pieces (chacha_avx512.cpp).
void xor_bytes_avx512(std::uint8_t* out, const std::uint8_t* a, const std::uint8_t* b, std::size_t n) noexcept;

void salsa_blocks_x4_sse41(const std::uint32_t words[16], std::uint64_t counter, std::uint8_t* out,
                           const std::uint8_t* in, std::size_t nblocks, unsigned rounds) noexcept;
void salsa_blocks_x8_avx2(const std::uint32_t words[16], std::uint64_t counter, std::uint8_t* out,
                          const std::uint8_t* in, std::size_t nblocks, unsigned rounds) noexcept;
void salsa_blocks_x16_avx512(const std::uint32_t words[16], std::uint64_t counter, std::uint8_t* out,
                             const std::uint8_t* in, std::size_t nblocks, unsigned rounds) noexcept;

void chacha_blocks_portable(const std::uint32_t words[16], std::uint64_t counter, std::uint8_t* out,
                            const std::uint8_t* in, std::size_t nblocks, unsigned rounds) noexcept;
void salsa_blocks_portable(const std::uint32_t words[16], std::uint64_t counter, std::uint8_t* out,
                           const std::uint8_t* in, std::size_t nblocks, unsigned rounds) noexcept;

// Poly1305: absorb nblocks 16-byte blocks, each with 2^128 added when hibit is 1.
using poly1305_blocks_fn = void (*)(poly1305_state& st, const std::uint8_t* in, std::size_t nblocks,
                                    std::uint64_t hibit) noexcept;
void poly1305_blocks_portable(poly1305_state& st, const std::uint8_t* in, std::size_t nblocks,
                              std::uint64_t hibit) noexcept;
// Instruction-set kernels (x86-64). The vector ones need the powers of r in
// st.pw (computed by the driver) and at least 4 (AVX2) or 1 (IFMA) blocks.
void poly1305_blocks_bmi2(poly1305_state& st, const std::uint8_t* in, std::size_t nblocks,
                          std::uint64_t hibit) noexcept;
void poly1305_blocks_avx2(poly1305_state& st, const std::uint8_t* in, std::size_t nblocks,
                          std::uint64_t hibit) noexcept;
void poly1305_blocks_ifma(poly1305_state& st, const std::uint8_t* in, std::size_t nblocks,
                          std::uint64_t hibit) noexcept;
// Live lanes (full blocks, hibit 1): poly1305_lanes_* absorbs nblocks (a
// non-zero multiple of the lane count, 4 or 8) into st.lanes, starting them
// from h when `start` is set; poly1305_collapse_* sums them into h.
using poly1305_lanes_fn = void (*)(poly1305_state& st, const std::uint8_t* in, std::size_t nblocks,
                                   bool start) noexcept;
using poly1305_collapse_fn = void (*)(poly1305_state& st) noexcept;
void poly1305_lanes_avx2(poly1305_state& st, const std::uint8_t* in, std::size_t nblocks, bool start) noexcept;
void poly1305_collapse_avx2(poly1305_state& st) noexcept;
void poly1305_lanes_ifma(poly1305_state& st, const std::uint8_t* in, std::size_t nblocks, bool start) noexcept;
void poly1305_collapse_ifma(poly1305_state& st) noexcept;

// The stitched ChaCha20-Poly1305 kernel (chacha_poly_ifma.cpp): `steps`
// times, 16 ChaCha20 blocks (1024 bytes, out = in ^ keystream, from block
// `counter`) and 64 Poly1305 blocks of `mac` (full blocks, hibit 1) into
// st's live IFMA lanes, starting them from h when `start` is set. mac may
// equal in (an opener MACs its ciphertext while it decrypts it, in place or
// not) or lie wholly before out (a sealer MACs the ciphertext it wrote in
// the step before).
using chacha_poly_fn = void (*)(const std::uint32_t words[16], std::uint64_t counter, std::uint8_t* out,
                                const std::uint8_t* in, std::size_t steps, poly1305_state& st,
                                const std::uint8_t* mac, bool start) noexcept;
void chacha20_poly1305_x16_ifma(const std::uint32_t words[16], std::uint64_t counter, std::uint8_t* out,
                                const std::uint8_t* in, std::size_t steps, poly1305_state& st,
                                const std::uint8_t* mac, bool start) noexcept;
// chacha20_poly1305_ks_ifma: one step of the same kernel whose first
// `direct` (0 to 16) blocks decrypt in into out and whose other blocks go to
// ks + 64 * block (64-byte aligned) as raw keystream, while `groups` (1 to 10)
// groups of 8 Poly1305 blocks go into the lanes: the first `head` (0 to
// groups) of them from mac_head, the rest from `mac`. All group loads
// (mac_head and mac) precede the stores to out, so out may equal in when the
// groups taken from mac cover the direct blocks. It runs where chacha_poly_kernel()
// is not null.
void chacha20_poly1305_ks_ifma(const std::uint32_t words[16], std::uint64_t counter, std::uint8_t* out,
                               const std::uint8_t* in, unsigned direct, std::uint8_t ks[1024], poly1305_state& st,
                               const std::uint8_t* mac_head, unsigned head, const std::uint8_t* mac,
                               unsigned groups, bool start) noexcept;
// chacha_open_stage_ifma: the ChaCha opener's small piece (part a, then
// part b; either may be empty) inside buffered keystream ks: its bytes are
// copied to stage (MAC input for later) and decrypted into out, in one pass.
// out may equal a, or b when an is 0 (in place); stage overlaps neither. It runs where
// chacha_poly_kernel() is not null.
void chacha_open_stage_ifma(std::uint8_t* out, std::uint8_t* stage, const std::uint8_t* a, std::size_t an,
                            const std::uint8_t* b, std::size_t bn, const std::uint8_t* ks) noexcept;
// chacha20_poly1305_open_ifma: the ChaCha20-Poly1305 opener's piece of
// open_stitch_min (aead.cpp) bytes or more, in to out (in place or not), with
// the stitched kernels; mac is the MAC's live IFMA lanes (poly1305_direct_lanes).
// It runs where chacha_poly_kernel() is not null, for ChaCha20.
void chacha20_poly1305_open_ifma(aead_core& c, poly1305_state& mac, std::uint8_t* out, const std::uint8_t* in,
                                 std::size_t n) noexcept;
// poly1305_update_bytes is poly1305::update out of line, for an ISA file
// (chacha_poly_ifma.cpp: no std::span instantiated there).
void poly1305_update_bytes(poly1305& p, const std::uint8_t* in, std::size_t n) noexcept;
// chacha_poly_kernel: the stitched kernel when the CPU level runs both the
// AVX-512 ChaCha and the IFMA Poly1305 kernels, else null (the AEAD then
// runs the cipher and MAC kernels one after the other).
chacha_poly_fn chacha_poly_kernel() noexcept;
// poly1305_direct_done records nblocks fed to the lanes of a state that
// poly1305_direct_lanes (poly1305.hpp) returned. Internal linkage: an ISA
// file calls it too (stream_state.hpp says why).
static inline void poly1305_direct_done(poly1305_state& st, std::size_t nblocks) noexcept {
  st.started = true;
  st.lanes_used = true;
  st.absorbed += nblocks;
}

}  // namespace sealwire::crypto::detail

