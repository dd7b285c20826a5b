// SPDX-License-Identifier: Apache-2.0
// Four 32-bit lanes for the SSSE3/SSE4.1 kernels: lane type, rotates,
// counters, transpose, and the generic four-block kernel. Include only from
// files compiled with -mssse3 -msse4.1; everything here has internal linkage.
#pragma once

#include <cstddef>
#include <cstdint>
#include <immintrin.h>

namespace sealwire::crypto::detail {
namespace {

struct v4 {
  __m128i v;
};
inline v4 operator+(v4 a, v4 b) { return {_mm_add_epi32(a.v, b.v)}; }
inline v4 operator^(v4 a, v4 b) { return {_mm_xor_si128(a.v, b.v)}; }

template <int N>
inline v4 rotl(v4 x) {
  if constexpr (N == 16) {
    return {_mm_shuffle_epi8(x.v, _mm_set_epi8(13, 12, 15, 14, 9, 8, 11, 10, 5, 4, 7, 6, 1, 0, 3, 2))};
  } else if constexpr (N == 8) {
    return {_mm_shuffle_epi8(x.v, _mm_set_epi8(14, 13, 12, 15, 10, 9, 8, 11, 6, 5, 4, 7, 2, 1, 0, 3))};
  } else {
    return {_mm_or_si128(_mm_slli_epi32(x.v, N), _mm_srli_epi32(x.v, 32 - N))};
  }
}

inline v4 splat(std::uint32_t w) { return {_mm_set1_epi32(static_cast<int>(w))}; }
inline v4 load4(const std::uint8_t* p) { return {_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))}; }
inline void store4(std::uint8_t* p, v4 x) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), x.v); }

// counter_lanes: a 64-bit block counter per lane (counter + lane index),
// split in its low and high words; an unsigned compare (done signed on
// biased values) finds the lanes whose low word wrapped.
inline void counter_lanes(std::uint64_t counter, v4& lo, v4& hi) {
  const __m128i lane = _mm_set_epi32(3, 2, 1, 0);
  const __m128i bias = _mm_set1_epi32(static_cast<int>(0x80000000u));
  lo.v = _mm_add_epi32(_mm_set1_epi32(static_cast<int>(counter)), lane);
  const __m128i carry = _mm_cmplt_epi32(_mm_xor_si128(lo.v, bias), _mm_xor_si128(lane, bias));
  hi.v = _mm_sub_epi32(_mm_set1_epi32(static_cast<int>(counter >> 32)), carry);
}

// xor_group transposes word k of four blocks (register k) into four
// consecutive words per block, XORs with the input and stores at 16-byte
// offset `group` of each block.
inline void xor_group(std::uint8_t* out, const std::uint8_t* in, int group, v4 a, v4 b, v4 c, v4 d) {
  const __m128i t0 = _mm_unpacklo_epi32(a.v, b.v), t1 = _mm_unpacklo_epi32(c.v, d.v);
  const __m128i t2 = _mm_unpackhi_epi32(a.v, b.v), t3 = _mm_unpackhi_epi32(c.v, d.v);
  const v4 r[4] = {{_mm_unpacklo_epi64(t0, t1)}, {_mm_unpackhi_epi64(t0, t1)}, {_mm_unpacklo_epi64(t2, t3)},
                   {_mm_unpackhi_epi64(t2, t3)}};
  for (int blk = 0; blk < 4; ++blk) {
    const std::size_t off = static_cast<std::size_t>(64 * blk + 16 * group);
    store4(out + off, load4(in + off) ^ r[blk]);
  }
}

// blocks_x4 runs a stream family (chacha_family, salsa_family) on four
// blocks at a time, one block per lane.
template <class Family>
inline void blocks_x4(const std::uint32_t w[16], std::uint64_t counter, std::uint8_t* out, const std::uint8_t* in,
                      std::size_t nblocks, unsigned rounds) {
  for (; nblocks >= 4; nblocks -= 4, counter += 4, in += 256, out += 256) {
    v4 j[16];
    for (int i = 0; i < 16; ++i) j[i] = splat(w[i]);
    counter_lanes(counter, j[Family::counter_lo], j[Family::counter_hi]);
    v4 x0 = j[0], x1 = j[1], x2 = j[2], x3 = j[3], x4 = j[4], x5 = j[5], x6 = j[6], x7 = j[7];
    v4 x8 = j[8], x9 = j[9], x10 = j[10], x11 = j[11], x12 = j[12], x13 = j[13], x14 = j[14], x15 = j[15];
    Family::rounds(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15, rounds);
    xor_group(out, in, 0, x0 + j[0], x1 + j[1], x2 + j[2], x3 + j[3]);
    xor_group(out, in, 1, x4 + j[4], x5 + j[5], x6 + j[6], x7 + j[7]);
    xor_group(out, in, 2, x8 + j[8], x9 + j[9], x10 + j[10], x11 + j[11]);
    xor_group(out, in, 3, x12 + j[12], x13 + j[13], x14 + j[14], x15 + j[15]);
  }
}

}  // namespace
}  // namespace sealwire::crypto::detail
