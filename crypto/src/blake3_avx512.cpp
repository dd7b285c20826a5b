// SPDX-License-Identifier: Apache-2.0
// BLAKE3 hash_many for AVX-512F/VL (the BLAKE3 specification, 2020): thirty-
// two inputs at a time (two interleaved sets of sixteen) or sixteen in
// 512-bit vectors, and eight and four in 256- and 128-bit ones for the
// remainder. The block loops are assembly
// (blake3_avx512_lanes.S, which says why); the lanes' setup and the
// transposed store of their chaining values are here and in
// detail/blake3_avx512.hpp.
#include "detail/blake3_avx512.hpp"
#include "detail/blake3_x86.hpp"

namespace sealwire::crypto::detail {

namespace {

// The lane types' rotation parameter is unused here: the rounds are in the
// assembly.
using lanes8x = lanes8<void>;
using lanes4x = lanes4<void>;

using blocks_fn = void (*)(const std::uint8_t*, std::size_t, std::size_t, void*, const void*,
                           const std::uint32_t[3]) noexcept;

// hash_many_asm is blake3_hash_many_lanes<L> with the block loop in
// assembly: the chaining value and counters go to the loop in memory, one
// vector per word, and come back the same way.
template <class L>
[[gnu::always_inline]] inline void hash_many_asm(blocks_fn loop, const std::uint8_t* in, std::size_t n_inputs,
                                                 std::size_t blocks, const std::uint32_t key[8],
                                                 std::uint64_t counter, bool increment, std::uint32_t flags,
                                                 std::uint32_t flags_start, std::uint32_t flags_end,
                                                 std::uint8_t* out) noexcept {
  const std::size_t stride = blocks * blake3_block_len;
  const std::uint32_t block_flags[3] = {flags, flags_start, flags_end};
  alignas(64) L cv[8];
  alignas(64) L counters[2];
  for (; n_inputs >= L::width; n_inputs -= L::width, in += L::width * stride, out += L::width * blake3_cv_len) {
    for (int i = 0; i < 8; ++i) cv[i] = L::splat(key[i]);
    L::counters(counter, increment, counters[0], counters[1]);
    loop(in, stride, blocks, cv, counters, block_flags);
    L::store_cvs(out, cv[0], cv[1], cv[2], cv[3], cv[4], cv[5], cv[6], cv[7]);
    if (increment) counter += L::width;
  }
  // The chaining values (for a keyed hash, derived from the key).
  wipe_vectors(cv, 8);
}

}  // namespace

void blake3_hash_many_x32_avx512(const std::uint8_t* in, std::size_t n_inputs, std::size_t blocks,
                                 const std::uint32_t key[8], std::uint64_t counter, bool increment,
                                 std::uint32_t flags, std::uint32_t flags_start, std::uint32_t flags_end,
                                 std::uint8_t* out) noexcept {
  // Two sets of sixteen lanes: inputs 0-15 in cv[0..7] and counters[0..1],
  // inputs 16-31 in cv[8..15] and counters[2..3].
  const std::size_t stride = blocks * blake3_block_len;
  const std::uint32_t block_flags[3] = {flags, flags_start, flags_end};
  alignas(64) lanes16 cv[16];
  alignas(64) lanes16 counters[4];
  for (; n_inputs >= 32; n_inputs -= 32, in += 32 * stride, out += 32 * blake3_cv_len) {
    for (int i = 0; i < 8; ++i) cv[i] = cv[8 + i] = lanes16::splat(key[i]);
    lanes16::counters(counter, increment, counters[0], counters[1]);
    lanes16::counters(increment ? counter + 16 : counter, increment, counters[2], counters[3]);
    sealwire_blake3_x32_blocks_avx512(in, stride, blocks, cv, counters, block_flags);
    lanes16::store_cvs(out, cv[0], cv[1], cv[2], cv[3], cv[4], cv[5], cv[6], cv[7]);
    lanes16::store_cvs(out + 16 * blake3_cv_len, cv[8], cv[9], cv[10], cv[11], cv[12], cv[13], cv[14], cv[15]);
    if (increment) counter += 32;
  }
  wipe_vectors(cv, 16);
}

void blake3_hash_many_x16_avx512(const std::uint8_t* in, std::size_t n_inputs, std::size_t blocks,
                                 const std::uint32_t key[8], std::uint64_t counter, bool increment,
                                 std::uint32_t flags, std::uint32_t flags_start, std::uint32_t flags_end,
                                 std::uint8_t* out) noexcept {
  hash_many_asm<lanes16>(&sealwire_blake3_x16_blocks_avx512, in, n_inputs, blocks, key, counter, increment, flags,
                         flags_start, flags_end, out);
}

void blake3_hash_many_x8_avx512(const std::uint8_t* in, std::size_t n_inputs, std::size_t blocks,
                                const std::uint32_t key[8], std::uint64_t counter, bool increment, std::uint32_t flags,
                                std::uint32_t flags_start, std::uint32_t flags_end, std::uint8_t* out) noexcept {
  hash_many_asm<lanes8x>(&sealwire_blake3_x8_blocks_avx512, in, n_inputs, blocks, key, counter, increment, flags,
                         flags_start, flags_end, out);
}

void blake3_hash_many_x4_avx512(const std::uint8_t* in, std::size_t n_inputs, std::size_t blocks,
                                const std::uint32_t key[8], std::uint64_t counter, bool increment, std::uint32_t flags,
                                std::uint32_t flags_start, std::uint32_t flags_end, std::uint8_t* out) noexcept {
  hash_many_asm<lanes4x>(&sealwire_blake3_x4_blocks_avx512, in, n_inputs, blocks, key, counter, increment, flags,
                         flags_start, flags_end, out);
}

}  // namespace sealwire::crypto::detail
