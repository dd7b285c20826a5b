// SPDX-License-Identifier: Apache-2.0
// BLAKE3 hash_many for AVX-512F/VL (the BLAKE3 specification, 2020): sixteen
// inputs at a time in 512-bit vectors, and eight and four in 256- and 128-bit
// ones for the remainder. The block loops are assembly
// (blake3_avx512_lanes.S, which says why); the lanes' setup and the
// transposed store of their chaining values are here.
#include <sealwire/crypto/ct.hpp>

#include "detail/blake3_core.hpp"
#include "detail/blake3_x86.hpp"

namespace sealwire::crypto::detail {

// The assembly block loops, one per width (blake3_avx512_lanes.S).
extern "C" {
void sealwire_blake3_x16_blocks_avx512(const std::uint8_t* in, std::size_t stride, std::size_t blocks, void* cv,
                                       const void* counter, const std::uint32_t flags[3]) noexcept;
void sealwire_blake3_x8_blocks_avx512(const std::uint8_t* in, std::size_t stride, std::size_t blocks, void* cv,
                                      const void* counter, const std::uint32_t flags[3]) noexcept;
void sealwire_blake3_x4_blocks_avx512(const std::uint8_t* in, std::size_t stride, std::size_t blocks, void* cv,
                                      const void* counter, const std::uint32_t flags[3]) noexcept;
}

namespace {

// transpose16 turns sixteen rows of sixteen words into sixteen columns.
inline void transpose16(__m512i r[16]) {
  // Within each 128-bit lane L, 4x4 transposes of rows 4a..4a+3: u[a][k]
  // lane L then holds word 4L + k of those four rows.
  __m512i u[4][4];
  for (int a = 0; a < 4; ++a) {
    const __m512i t0 = _mm512_unpacklo_epi32(r[4 * a], r[4 * a + 1]);
    const __m512i t1 = _mm512_unpackhi_epi32(r[4 * a], r[4 * a + 1]);
    const __m512i t2 = _mm512_unpacklo_epi32(r[4 * a + 2], r[4 * a + 3]);
    const __m512i t3 = _mm512_unpackhi_epi32(r[4 * a + 2], r[4 * a + 3]);
    u[a][0] = _mm512_unpacklo_epi64(t0, t2);
    u[a][1] = _mm512_unpackhi_epi64(t0, t2);
    u[a][2] = _mm512_unpacklo_epi64(t1, t3);
    u[a][3] = _mm512_unpackhi_epi64(t1, t3);
  }
  // Then, for each k, a 4x4 transpose of 128-bit lanes across u[0..3][k].
  for (int k = 0; k < 4; ++k) {
    const __m512i x = _mm512_shuffle_i32x4(u[0][k], u[1][k], 0x44);  // lanes 0, 1 of each
    const __m512i y = _mm512_shuffle_i32x4(u[2][k], u[3][k], 0x44);
    const __m512i z = _mm512_shuffle_i32x4(u[0][k], u[1][k], 0xee);  // lanes 2, 3 of each
    const __m512i w = _mm512_shuffle_i32x4(u[2][k], u[3][k], 0xee);
    r[k] = _mm512_shuffle_i32x4(x, y, 0x88);
    r[4 + k] = _mm512_shuffle_i32x4(x, y, 0xdd);
    r[8 + k] = _mm512_shuffle_i32x4(z, w, 0x88);
    r[12 + k] = _mm512_shuffle_i32x4(z, w, 0xdd);
  }
}

// lanes16: sixteen inputs' lanes in a 512-bit vector, as blake3_x86.hpp's
// lanes8 and lanes4 are for eight and four.
struct lanes16 {
  static constexpr std::size_t width = 16;
  __m512i v;

  static lanes16 splat(std::uint32_t w) { return {_mm512_set1_epi32(static_cast<int>(w))}; }

  static void counters(std::uint64_t counter, bool increment, lanes16& lo, lanes16& hi) {
    alignas(64) std::uint32_t l[16], h[16];
    counter_words(counter, increment, 16, l, h);
    lo.v = _mm512_load_si512(l);
    hi.v = _mm512_load_si512(h);
  }

  static void store_cvs(std::uint8_t* out, lanes16 h0, lanes16 h1, lanes16 h2, lanes16 h3, lanes16 h4, lanes16 h5,
                        lanes16 h6, lanes16 h7) {
    // Eight rows padded to sixteen: lane l's chaining value ends up in the
    // low half of row l.
    const __m512i zero = _mm512_setzero_si512();
    __m512i r[16] = {h0.v, h1.v, h2.v, h3.v, h4.v, h5.v, h6.v, h7.v, zero, zero, zero, zero, zero, zero, zero, zero};
    transpose16(r);
    for (std::size_t l = 0; l < 16; ++l) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 32 * l), _mm512_castsi512_si256(r[l]));
    }
  }
};

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
  ct::wipe(cv, sizeof cv);
}

}  // namespace

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
