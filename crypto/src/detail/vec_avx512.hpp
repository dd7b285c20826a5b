// SPDX-License-Identifier: Apache-2.0
// Sixteen 32-bit lanes for the AVX-512 kernels: lane type, native rotates,
// counters, the 16x16 transpose, and the generic sixteen-block kernel.
// Include only from files compiled with AVX-512F; internal linkage.
#pragma once

#include <cstddef>
#include <cstdint>
#include <immintrin.h>

namespace sealwire::crypto::detail {
namespace {

struct v16 {
  __m512i v;
};
inline v16 operator+(v16 a, v16 b) { return {_mm512_add_epi32(a.v, b.v)}; }
inline v16 operator^(v16 a, v16 b) { return {_mm512_xor_si512(a.v, b.v)}; }

template <int N>
inline v16 rotl(v16 x) {
  return {_mm512_rol_epi32(x.v, N)};
}

inline v16 splat(std::uint32_t w) { return {_mm512_set1_epi32(static_cast<int>(w))}; }

// counter_lanes: counter + lane index as 64-bit values split into words; a
// mask compare finds the lanes whose low word wrapped.
inline void counter_lanes(std::uint64_t counter, v16& lo, v16& hi) {
  const __m512i lane = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  lo.v = _mm512_add_epi32(_mm512_set1_epi32(static_cast<int>(counter)), lane);
  const __mmask16 carry = _mm512_cmplt_epu32_mask(lo.v, lane);
  const __m512i base = _mm512_set1_epi32(static_cast<int>(counter >> 32));
  hi.v = _mm512_mask_add_epi32(base, carry, base, _mm512_set1_epi32(1));
}

// Within each 128-bit lane L, transposes words w..w+3 of four blocks:
// r[k] lane L ends up holding words w..w+3 of block 4L + k.
inline void transpose4(v16 a, v16 b, v16 c, v16 d, __m512i r[4]) {
  const __m512i t0 = _mm512_unpacklo_epi32(a.v, b.v), t1 = _mm512_unpacklo_epi32(c.v, d.v);
  const __m512i t2 = _mm512_unpackhi_epi32(a.v, b.v), t3 = _mm512_unpackhi_epi32(c.v, d.v);
  r[0] = _mm512_unpacklo_epi64(t0, t1);
  r[1] = _mm512_unpackhi_epi64(t0, t1);
  r[2] = _mm512_unpacklo_epi64(t2, t3);
  r[3] = _mm512_unpackhi_epi64(t2, t3);
}

// emit_keystream_x16: the sixteen output words s0..s15 (lane b holding block
// b's word) turned into sixteen consecutive 64-byte blocks, each handed to
// sink(block index, block).
template <class Sink>
[[gnu::always_inline]] inline void emit_keystream_x16(v16 s0, v16 s1, v16 s2, v16 s3, v16 s4, v16 s5, v16 s6, v16 s7,
                                                      v16 s8, v16 s9, v16 s10, v16 s11, v16 s12, v16 s13, v16 s14,
                                                      v16 s15, Sink&& sink) {
  __m512i g[4][4];  // g[group][k]: words 4 * group.. of block 4L + k in lane L
  transpose4(s0, s1, s2, s3, g[0]);
  transpose4(s4, s5, s6, s7, g[1]);
  transpose4(s8, s9, s10, s11, g[2]);
  transpose4(s12, s13, s14, s15, g[3]);
  for (int k = 0; k < 4; ++k) {
    // The four word groups of blocks k, 4 + k, 8 + k and 12 + k.
    const __m512i a = _mm512_shuffle_i32x4(g[0][k], g[1][k], 0x44);
    const __m512i b = _mm512_shuffle_i32x4(g[0][k], g[1][k], 0xee);
    const __m512i c = _mm512_shuffle_i32x4(g[2][k], g[3][k], 0x44);
    const __m512i d = _mm512_shuffle_i32x4(g[2][k], g[3][k], 0xee);
    const __m512i blk[4] = {_mm512_shuffle_i32x4(a, c, 0x88), _mm512_shuffle_i32x4(a, c, 0xdd),
                            _mm512_shuffle_i32x4(b, d, 0x88), _mm512_shuffle_i32x4(b, d, 0xdd)};
    for (int l = 0; l < 4; ++l) sink(static_cast<unsigned>(4 * l + k), blk[l]);
  }
}

// xor_keystream_x16: the same blocks XORed with 1024 bytes of `in` into
// `out`. Every load of a block precedes its store, so `out` may equal `in`.
[[gnu::always_inline]] inline void xor_keystream_x16(v16 s0, v16 s1, v16 s2, v16 s3, v16 s4, v16 s5, v16 s6, v16 s7,
                                                     v16 s8, v16 s9, v16 s10, v16 s11, v16 s12, v16 s13, v16 s14,
                                                     v16 s15, const std::uint8_t* in, std::uint8_t* out) {
  emit_keystream_x16(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15,
                     [&](unsigned b, __m512i blk) {
                       const std::size_t off = 64 * std::size_t{b};
                       _mm512_storeu_si512(out + off, _mm512_xor_si512(_mm512_loadu_si512(in + off), blk));
                     });
}

// blocks_x16 runs a stream family on sixteen blocks at a time.
template <class Family>
inline void blocks_x16(const std::uint32_t w[16], std::uint64_t counter, std::uint8_t* out, const std::uint8_t* in,
                       std::size_t nblocks, unsigned rounds) {
  for (; nblocks >= 16; nblocks -= 16, counter += 16, in += 1024, out += 1024) {
    v16 j[16];
    for (int i = 0; i < 16; ++i) j[i] = splat(w[i]);
    counter_lanes(counter, j[Family::counter_lo], j[Family::counter_hi]);
    v16 x0 = j[0], x1 = j[1], x2 = j[2], x3 = j[3], x4 = j[4], x5 = j[5], x6 = j[6], x7 = j[7];
    v16 x8 = j[8], x9 = j[9], x10 = j[10], x11 = j[11], x12 = j[12], x13 = j[13], x14 = j[14], x15 = j[15];
    Family::rounds(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15, rounds);
    xor_keystream_x16(x0 + j[0], x1 + j[1], x2 + j[2], x3 + j[3], x4 + j[4], x5 + j[5], x6 + j[6], x7 + j[7],
                      x8 + j[8], x9 + j[9], x10 + j[10], x11 + j[11], x12 + j[12], x13 + j[13], x14 + j[14],
                      x15 + j[15], in, out);
  }
}

}  // namespace
}  // namespace sealwire::crypto::detail
