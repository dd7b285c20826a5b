// SPDX-License-Identifier: Apache-2.0
// BLAKE3 (the BLAKE3 specification, O'Connor, Aumasson, Neves and
// Wilcox-O'Hearn, 2020): constants, the round function written once for any
// word type W, the lane-parallel hash_many body, and the kernel declarations.
// W is std::uint32_t for the portable compression, a vector of lanes (one
// input per lane) in the instruction-set files. Everything except the kernel
// declarations has internal linkage, so each instruction-set file compiles
// its own copy with its own flags.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sealwire::crypto::detail {
namespace {

// Spec 2.2, table 3: the flags word of the compression input.
constexpr std::uint32_t blake3_chunk_start = 1u << 0;
constexpr std::uint32_t blake3_chunk_end = 1u << 1;
constexpr std::uint32_t blake3_parent = 1u << 2;
constexpr std::uint32_t blake3_root = 1u << 3;
constexpr std::uint32_t blake3_keyed_hash = 1u << 4;
constexpr std::uint32_t blake3_derive_key_context = 1u << 5;
constexpr std::uint32_t blake3_derive_key_material = 1u << 6;

// Spec 2.2, table 1: the initial value is SHA-256's (FIPS 180-4 5.3.3).
constexpr std::uint32_t blake3_iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

constexpr std::size_t blake3_block_len = 64;
constexpr std::size_t blake3_chunk_len = 1024;
constexpr std::size_t blake3_blocks_per_chunk = blake3_chunk_len / blake3_block_len;
constexpr std::size_t blake3_cv_len = 32;

// The vector lane types overload rotr for themselves; overload resolution
// finds them by argument-dependent lookup when the templates below are
// instantiated.
template <int N>
[[gnu::always_inline]] inline std::uint32_t rotr(std::uint32_t x) noexcept {
  return (x >> N) | (x << (32 - N));
}

// Spec 2.2, the quarter-round G. Adding the message word to `a` before `b`
// keeps it off the a-b-c-d dependency chain, which bounds a single compression.
template <class W>
[[gnu::always_inline]] inline void blake3_g(W& a, W& b, W& c, W& d, W mx, W my) noexcept {
  a = a + mx + b;
  d = rotr<16>(d ^ a);
  c = c + d;
  b = rotr<12>(b ^ c);
  a = a + my + b;
  d = rotr<8>(d ^ a);
  c = c + d;
  b = rotr<7>(b ^ c);
}

// blake3_rounds runs the seven rounds of the compression function on sixteen
// state words and sixteen message words, all in locals. Between rounds the
// message words are permuted (spec 2.2, table 2: position i receives word
// [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8][i]); once the loop is
// unrolled the permutation costs nothing, it only renames registers.
template <class W>
[[gnu::always_inline]] inline void blake3_rounds(W& v0, W& v1, W& v2, W& v3, W& v4, W& v5, W& v6, W& v7, W& v8, W& v9,
                                                 W& v10, W& v11, W& v12, W& v13, W& v14, W& v15, W m0, W m1, W m2,
                                                 W m3, W m4, W m5, W m6, W m7, W m8, W m9, W m10, W m11, W m12,
                                                 W m13, W m14, W m15) noexcept {
#pragma GCC unroll 7
  for (int r = 0; r < 7; ++r) {
    // Columns, then diagonals.
    blake3_g(v0, v4, v8, v12, m0, m1);
    blake3_g(v1, v5, v9, v13, m2, m3);
    blake3_g(v2, v6, v10, v14, m4, m5);
    blake3_g(v3, v7, v11, v15, m6, m7);
    blake3_g(v0, v5, v10, v15, m8, m9);
    blake3_g(v1, v6, v11, v12, m10, m11);
    blake3_g(v2, v7, v8, v13, m12, m13);
    blake3_g(v3, v4, v9, v14, m14, m15);
    const W t0 = m0, t1 = m1, t2 = m2, t3 = m3, t4 = m4, t5 = m5, t6 = m6, t7 = m7;
    const W t8 = m8, t9 = m9, t10 = m10, t11 = m11, t12 = m12, t13 = m13, t14 = m14, t15 = m15;
    m0 = t2, m1 = t6, m2 = t3, m3 = t10, m4 = t7, m5 = t0, m6 = t4, m7 = t13;
    m8 = t1, m9 = t11, m10 = t12, m11 = t5, m12 = t9, m13 = t14, m14 = t15, m15 = t8;
  }
}

// blake3_hash_lanes hashes V::width inputs of `blocks` whole blocks each, one
// input per lane: input l starts at in + l * stride and gets block counter
// counter + l (or counter for every lane when increment is false). The first
// block adds flags_start to flags, the last flags_end; the 32-byte chaining
// value of input l goes to out + 32 * l. V supplies splat, counters, the
// transposing load_words and store_cvs, and +, ^ and rotr on lanes.
template <class V>
[[gnu::always_inline]] inline void blake3_hash_lanes(const std::uint8_t* in, std::size_t stride, std::size_t blocks,
                                                     const std::uint32_t key[8], std::uint64_t counter,
                                                     bool increment, std::uint32_t flags, std::uint32_t flags_start,
                                                     std::uint32_t flags_end, std::uint8_t* out) noexcept {
  V h0 = V::splat(key[0]), h1 = V::splat(key[1]), h2 = V::splat(key[2]), h3 = V::splat(key[3]);
  V h4 = V::splat(key[4]), h5 = V::splat(key[5]), h6 = V::splat(key[6]), h7 = V::splat(key[7]);
  V counter_lo, counter_hi;
  V::counters(counter, increment, counter_lo, counter_hi);
  const V block_len = V::splat(static_cast<std::uint32_t>(blake3_block_len));
  std::uint32_t block_flags = flags | flags_start;
  for (std::size_t b = 0; b < blocks; ++b, in += blake3_block_len) {
    if (b + 1 == blocks) block_flags |= flags_end;
    V m[16];
    V::load_words(in, stride, m);
    V v0 = h0, v1 = h1, v2 = h2, v3 = h3, v4 = h4, v5 = h5, v6 = h6, v7 = h7;
    V v8 = V::splat(blake3_iv[0]), v9 = V::splat(blake3_iv[1]), v10 = V::splat(blake3_iv[2]);
    V v11 = V::splat(blake3_iv[3]), v12 = counter_lo, v13 = counter_hi, v14 = block_len;
    V v15 = V::splat(block_flags);
    blake3_rounds(v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, m[0], m[1], m[2], m[3], m[4],
                  m[5], m[6], m[7], m[8], m[9], m[10], m[11], m[12], m[13], m[14], m[15]);
    // Spec 2.2: the chaining value is the first half of the output.
    h0 = v0 ^ v8, h1 = v1 ^ v9, h2 = v2 ^ v10, h3 = v3 ^ v11;
    h4 = v4 ^ v12, h5 = v5 ^ v13, h6 = v6 ^ v14, h7 = v7 ^ v15;
    block_flags = flags;
  }
  V::store_cvs(out, h0, h1, h2, h3, h4, h5, h6, h7);
}

// blake3_hash_many_lanes runs blake3_hash_lanes over n_inputs inputs (a
// multiple of V::width) laid out back to back, each `blocks` blocks long.
template <class V>
[[gnu::always_inline]] inline void blake3_hash_many_lanes(const std::uint8_t* in, std::size_t n_inputs,
                                                          std::size_t blocks, const std::uint32_t key[8],
                                                          std::uint64_t counter, bool increment, std::uint32_t flags,
                                                          std::uint32_t flags_start, std::uint32_t flags_end,
                                                          std::uint8_t* out) noexcept {
  const std::size_t stride = blocks * blake3_block_len;
  for (; n_inputs >= V::width; n_inputs -= V::width) {
    blake3_hash_lanes<V>(in, stride, blocks, key, counter, increment, flags, flags_start, flags_end, out);
    in += V::width * stride;
    out += V::width * blake3_cv_len;
    if (increment) counter += V::width;
  }
}

}  // namespace

// A hash_many kernel hashes n_inputs inputs (a multiple of the kernel's
// width), each `blocks` whole blocks, laid out back to back from `in`; see
// blake3_hash_lanes for counters and flags. It writes n_inputs chaining values
// of 32 bytes each (little-endian words) to out, which must not overlap in.
using blake3_hash_many_fn = void (*)(const std::uint8_t* in, std::size_t n_inputs, std::size_t blocks,
                                     const std::uint32_t key[8], std::uint64_t counter, bool increment,
                                     std::uint32_t flags, std::uint32_t flags_start, std::uint32_t flags_end,
                                     std::uint8_t* out) noexcept;

void blake3_hash_many_portable(const std::uint8_t* in, std::size_t n_inputs, std::size_t blocks,
                               const std::uint32_t key[8], std::uint64_t counter, bool increment, std::uint32_t flags,
                               std::uint32_t flags_start, std::uint32_t flags_end, std::uint8_t* out) noexcept;

// blake3_compress_portable is the compression function (spec 2.2) on one
// block: out gets all sixteen output words, the chaining value first (for
// the kernel tests; the driver inlines the same code).
void blake3_compress_portable(const std::uint32_t cv[8], const std::uint8_t* block, std::uint32_t block_len,
                              std::uint64_t counter, std::uint32_t flags, std::uint32_t out[16]) noexcept;

#if SEALWIRE_X86_KERNELS
// Instruction-set kernels (x86-64): blake3_hash_many_xN_isa processes a multiple of N inputs.
void blake3_hash_many_x4_sse41(const std::uint8_t* in, std::size_t n_inputs, std::size_t blocks,
                               const std::uint32_t key[8], std::uint64_t counter, bool increment, std::uint32_t flags,
                               std::uint32_t flags_start, std::uint32_t flags_end, std::uint8_t* out) noexcept;
void blake3_hash_many_x8_avx2(const std::uint8_t* in, std::size_t n_inputs, std::size_t blocks,
                              const std::uint32_t key[8], std::uint64_t counter, bool increment, std::uint32_t flags,
                              std::uint32_t flags_start, std::uint32_t flags_end, std::uint8_t* out) noexcept;
// The AVX-512 file also has 8- and 4-lane kernels: AVX-512VL's vprord makes
// every rotation one instruction on 256- and 128-bit vectors too.
// The 32-lane kernel runs two sets of sixteen lanes interleaved, for CPUs
// whose 512-bit operations have two cycles of latency (blake3_avx512_lanes.S).
void blake3_hash_many_x32_avx512(const std::uint8_t* in, std::size_t n_inputs, std::size_t blocks,
                                 const std::uint32_t key[8], std::uint64_t counter, bool increment,
                                 std::uint32_t flags, std::uint32_t flags_start, std::uint32_t flags_end,
                                 std::uint8_t* out) noexcept;
void blake3_hash_many_x16_avx512(const std::uint8_t* in, std::size_t n_inputs, std::size_t blocks,
                                 const std::uint32_t key[8], std::uint64_t counter, bool increment,
                                 std::uint32_t flags, std::uint32_t flags_start, std::uint32_t flags_end,
                                 std::uint8_t* out) noexcept;
void blake3_hash_many_x8_avx512(const std::uint8_t* in, std::size_t n_inputs, std::size_t blocks,
                                const std::uint32_t key[8], std::uint64_t counter, bool increment, std::uint32_t flags,
                                std::uint32_t flags_start, std::uint32_t flags_end, std::uint8_t* out) noexcept;
void blake3_hash_many_x4_avx512(const std::uint8_t* in, std::size_t n_inputs, std::size_t blocks,
                                const std::uint32_t key[8], std::uint64_t counter, bool increment, std::uint32_t flags,
                                std::uint32_t flags_start, std::uint32_t flags_end, std::uint8_t* out) noexcept;
// Row-wise (blake3_avx512_rows.cpp): one input per 128-bit lane, any
// number of inputs (eight at a time as two sets of four, five to seven with
// repeated lanes, then four or three, two or one); the tree sends it its
// levels of two and four parents (the level of eight runs inside
// blake3_reduce16_rows_avx512).
void blake3_hash_many_rows_avx512(const std::uint8_t* in, std::size_t n_inputs, std::size_t blocks,
                                  const std::uint32_t key[8], std::uint64_t counter, bool increment,
                                  std::uint32_t flags, std::uint32_t flags_start, std::uint32_t flags_end,
                                  std::uint8_t* out) noexcept;
// blake3_reduce16_rows_avx512 reduces sixteen chaining values at in (eight
// parent blocks) by three parent levels to two, written to out (64 bytes,
// not overlapping in); flags include PARENT, never ROOT.
void blake3_reduce16_rows_avx512(const std::uint8_t* in, const std::uint32_t key[8], std::uint32_t flags,
                                 std::uint8_t* out) noexcept;
// blake3_hash16_reduce_avx512 hashes the sixteen whole chunks at in (chunk
// `counter` first) and reduces their chaining values by three parent levels
// to two, written to out (64 bytes); flags are the mode's (no PARENT).
void blake3_hash16_reduce_avx512(const std::uint8_t* in, const std::uint32_t key[8], std::uint64_t counter,
                                 std::uint32_t flags, std::uint8_t* out) noexcept;
// blake3_wide16_avx512 writes to out (512 bytes) the sixteen chaining
// values at the level that has sixteen nodes of the subtree of `chunks`
// whole chunks at in (a power of two, 16 to blake3_wide16_max_chunks,
// starting at chunk `counter`, a multiple of it); flags are the mode's (no
// PARENT). The levels in between stay word-sliced, as the 16-lane loop
// leaves its chaining values, with no transposes.
constexpr std::uint64_t blake3_wide16_max_chunks = 1024;
void blake3_wide16_avx512(const std::uint8_t* in, std::uint64_t chunks, std::uint64_t counter,
                          const std::uint32_t key[8], std::uint32_t flags, std::uint8_t* out) noexcept;
// blake3_chunk_blocks_rows_avx512 compresses `blocks` (>= 1) whole 64-byte
// blocks at in, consecutive blocks of chunk `counter`, into the chaining
// value cv (read first, replaced at the end; the value in between stays in
// registers); the first block's flags are flags | flags_start, the others'
// flags. None of them is the chunk's last block.
void blake3_chunk_blocks_rows_avx512(std::uint32_t cv[8], const std::uint8_t* in, std::size_t blocks,
                                     std::uint64_t counter, std::uint32_t flags, std::uint32_t flags_start) noexcept;
// blake3_compress_rows_avx512 is one compression (spec 2.2) of the 64-byte
// block at `block`, in 128-bit rows, as blake3_compress_portable.
void blake3_compress_rows_avx512(const std::uint32_t cv[8], const std::uint8_t* block, std::uint32_t block_len,
                                 std::uint64_t counter, std::uint32_t flags, std::uint32_t out[16]) noexcept;
#endif

}  // namespace sealwire::crypto::detail
