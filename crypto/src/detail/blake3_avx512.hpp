// SPDX-License-Identifier: Apache-2.0
// BLAKE3 for AVX-512F/VL (the BLAKE3 specification, 2020): the assembly
// block loops' declarations (blake3_avx512_lanes.S), the sixteen-lane type
// that sets up their chaining values and counters and stores their results,
// and the wipe of vectors on the stack. Include only from the AVX-512 files,
// which are compiled with the flags these need; everything here but the
// assembly has internal linkage.
#pragma once

#include "blake3_core.hpp"

#include <cstddef>
#include <cstdint>
#include <immintrin.h>

namespace sealwire::crypto::detail {

// The assembly block loops, one per width (blake3_avx512_lanes.S).
extern "C" {
void sealwire_blake3_x32_blocks_avx512(const std::uint8_t* in, std::size_t stride, std::size_t blocks, void* cv,
                                       const void* counter, const std::uint32_t flags[3]) noexcept;
void sealwire_blake3_x16_blocks_avx512(const std::uint8_t* in, std::size_t stride, std::size_t blocks, void* cv,
                                       const void* counter, const std::uint32_t flags[3]) noexcept;
void sealwire_blake3_x8_blocks_avx512(const std::uint8_t* in, std::size_t stride, std::size_t blocks, void* cv,
                                      const void* counter, const std::uint32_t flags[3]) noexcept;
void sealwire_blake3_x4_blocks_avx512(const std::uint8_t* in, std::size_t stride, std::size_t blocks, void* cv,
                                      const void* counter, const std::uint32_t flags[3]) noexcept;
// groups groups of sixteen inputs, the 16-lane loop over each in turn: group
// g's inputs at in + 16 g stride, its chaining value at cv + 512 g, its
// counters at counter + 128 g (the x16 entry is this with one group);
// groups >= 1 (with 0 the loop would not end).
void sealwire_blake3_x16_groups_avx512(const std::uint8_t* in, std::size_t stride, std::size_t blocks, void* cv,
                                       const void* counter, const std::uint32_t flags[3], std::size_t groups) noexcept;
// One parent level, sixteen parents from thirty-two word-sliced chaining
// values (blake3_avx512_lanes.S says how).
void sealwire_blake3_x16_parents_sliced_avx512(const void* in, const std::uint32_t key[8], std::uint32_t flags,
                                               void* out) noexcept;
}

namespace {

// lanes16: sixteen inputs' lanes in a 512-bit vector, as blake3_x86.hpp's
// lanes8 and lanes4 are for eight and four.
struct lanes16 {
  static constexpr std::size_t width = 16;
  __m512i v;

  static lanes16 splat(std::uint32_t w) { return {_mm512_set1_epi32(static_cast<int>(w))}; }

  // counters: lane l's block counter is counter + l (or counter), split
  // into low and high words; the high word takes the carry out of the low
  // one, found as a low word below its starting value.
  static void counters(std::uint64_t counter, bool increment, lanes16& lo, lanes16& hi) {
    const __m512i base_lo = _mm512_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(counter)));
    const __m512i base_hi = _mm512_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(counter >> 32)));
    const __m512i step =
        increment ? _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) : _mm512_setzero_si512();
    lo.v = _mm512_add_epi32(base_lo, step);
    const __mmask16 carry = _mm512_cmplt_epu32_mask(lo.v, base_lo);
    hi.v = _mm512_mask_add_epi32(base_hi, carry, base_hi, _mm512_set1_epi32(1));
  }

  // store_cvs writes lane l's eight words to out + 32 * l: eight rows of
  // sixteen words become sixteen chaining values, two per 512-bit store.
  static void store_cvs(std::uint8_t* out, lanes16 h0, lanes16 h1, lanes16 h2, lanes16 h3, lanes16 h4, lanes16 h5,
                        lanes16 h6, lanes16 h7) {
    // Within each 128-bit lane L: a[k] holds words 0-3 of input 4L + k,
    // b[k] its words 4-7.
    __m512i a[4], b[4];
    const __m512i rows[8] = {h0.v, h1.v, h2.v, h3.v, h4.v, h5.v, h6.v, h7.v};
    for (int half = 0; half < 2; ++half) {
      const __m512i* r = rows + 4 * half;
      __m512i* d = half == 0 ? a : b;
      const __m512i t0 = _mm512_unpacklo_epi32(r[0], r[1]), t1 = _mm512_unpackhi_epi32(r[0], r[1]);
      const __m512i t2 = _mm512_unpacklo_epi32(r[2], r[3]), t3 = _mm512_unpackhi_epi32(r[2], r[3]);
      d[0] = _mm512_unpacklo_epi64(t0, t2);
      d[1] = _mm512_unpackhi_epi64(t0, t2);
      d[2] = _mm512_unpacklo_epi64(t1, t3);
      d[3] = _mm512_unpackhi_epi64(t1, t3);
    }
    // x[k]: 128-bit lanes (a[k] 0, a[k] 2, b[k] 0, b[k] 2); y[k] the same
    // for lanes 1 and 3.
    __m512i x[4], y[4];
    for (int k = 0; k < 4; ++k) {
      x[k] = _mm512_shuffle_i32x4(a[k], b[k], 0x88);
      y[k] = _mm512_shuffle_i32x4(a[k], b[k], 0xdd);
    }
    // Inputs 2j and 2j + 1 (lane L = j / 2 of a[k], b[k] with k = 2 (j % 2)
    // and k + 1) fill store j. Each result goes straight to out: through an
    // array, GCC kept a copy of all sixteen chaining values (key-derived in
    // the keyed modes) in the stack frame of blake3_avx512_tree.cpp's kernel.
    _mm512_storeu_si512(out + 64 * 0, _mm512_shuffle_i32x4(x[0], x[1], 0x88));
    _mm512_storeu_si512(out + 64 * 1, _mm512_shuffle_i32x4(x[2], x[3], 0x88));
    _mm512_storeu_si512(out + 64 * 2, _mm512_shuffle_i32x4(y[0], y[1], 0x88));
    _mm512_storeu_si512(out + 64 * 3, _mm512_shuffle_i32x4(y[2], y[3], 0x88));
    _mm512_storeu_si512(out + 64 * 4, _mm512_shuffle_i32x4(x[0], x[1], 0xdd));
    _mm512_storeu_si512(out + 64 * 5, _mm512_shuffle_i32x4(x[2], x[3], 0xdd));
    _mm512_storeu_si512(out + 64 * 6, _mm512_shuffle_i32x4(y[0], y[1], 0xdd));
    _mm512_storeu_si512(out + 64 * 7, _mm512_shuffle_i32x4(y[2], y[3], 0xdd));
  }
};

// wipe_vectors zeroes n lane vectors with vector stores. ct::wipe's memset
// of the 512-byte chaining value became `rep stosq`, whose start-up cost
// showed in every call (the 16-lane kernel on sixteen inputs of one block,
// TSC cycles: 455 against 428 with vector stores).
template <class L>
[[gnu::always_inline]] inline void wipe_vectors(L* p, std::size_t n) noexcept {
  static_assert(sizeof(L) == sizeof(p[0].v), "the vector is every byte of a lane vector");
  // The zero is hidden from the optimiser, which would make the loop a memset again.
  decltype(p[0].v) zero{};
  __asm__("" : "+v"(zero));
  for (std::size_t i = 0; i < n; ++i) p[i].v = zero;
  __asm__ __volatile__("" : : "r"(p) : "memory");
}

}  // namespace
}  // namespace sealwire::crypto::detail
