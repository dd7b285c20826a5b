// SPDX-License-Identifier: Apache-2.0
// Eight 32-bit lanes for the AVX2 kernels: lane type, rotates, counters,
// transpose, and the generic eight-block kernel. Include only from files
// compiled with -mavx2; everything here has internal linkage.
#pragma once

#include <cstddef>
#include <cstdint>
#include <immintrin.h>

namespace sealwire::crypto::detail {
namespace {

struct v8 {
  __m256i v;
};
inline v8 operator+(v8 a, v8 b) { return {_mm256_add_epi32(a.v, b.v)}; }
inline v8 operator^(v8 a, v8 b) { return {_mm256_xor_si256(a.v, b.v)}; }

template <int N>
inline v8 rotl(v8 x) {
  if constexpr (N == 16) {
    return {_mm256_shuffle_epi8(x.v, _mm256_set_epi8(13, 12, 15, 14, 9, 8, 11, 10, 5, 4, 7, 6, 1, 0, 3, 2, 13, 12, 15,
                                                     14, 9, 8, 11, 10, 5, 4, 7, 6, 1, 0, 3, 2))};
  } else if constexpr (N == 8) {
    return {_mm256_shuffle_epi8(x.v, _mm256_set_epi8(14, 13, 12, 15, 10, 9, 8, 11, 6, 5, 4, 7, 2, 1, 0, 3, 14, 13, 12,
                                                     15, 10, 9, 8, 11, 6, 5, 4, 7, 2, 1, 0, 3))};
  } else {
    return {_mm256_or_si256(_mm256_slli_epi32(x.v, N), _mm256_srli_epi32(x.v, 32 - N))};
  }
}

inline v8 splat(std::uint32_t w) { return {_mm256_set1_epi32(static_cast<int>(w))}; }
inline v8 load8(const std::uint8_t* p) { return {_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))}; }
inline void store8(std::uint8_t* p, v8 x) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), x.v); }

// counter_lanes: counter + lane index as 64-bit values split into words,
// with the carry of lanes whose low word wrapped (biased signed compare).
inline void counter_lanes(std::uint64_t counter, v8& lo, v8& hi) {
  const __m256i lane = _mm256_set_epi32(7, 6, 5, 4, 3, 2, 1, 0);
  const __m256i bias = _mm256_set1_epi32(static_cast<int>(0x80000000u));
  lo.v = _mm256_add_epi32(_mm256_set1_epi32(static_cast<int>(counter)), lane);
  const __m256i carry = _mm256_cmpgt_epi32(_mm256_xor_si256(lane, bias), _mm256_xor_si256(lo.v, bias));
  hi.v = _mm256_sub_epi32(_mm256_set1_epi32(static_cast<int>(counter >> 32)), carry);
}

// xor_half transposes eight registers (word k of blocks 0-7 in register k)
// into eight consecutive words per block, XORs with the input and stores
// them at 32-byte offset `half` of each block.
inline void xor_half(std::uint8_t* out, const std::uint8_t* in, int half, const v8 x[8]) {
  const __m256i t0 = _mm256_unpacklo_epi32(x[0].v, x[1].v), t1 = _mm256_unpackhi_epi32(x[0].v, x[1].v);
  const __m256i t2 = _mm256_unpacklo_epi32(x[2].v, x[3].v), t3 = _mm256_unpackhi_epi32(x[2].v, x[3].v);
  const __m256i t4 = _mm256_unpacklo_epi32(x[4].v, x[5].v), t5 = _mm256_unpackhi_epi32(x[4].v, x[5].v);
  const __m256i t6 = _mm256_unpacklo_epi32(x[6].v, x[7].v), t7 = _mm256_unpackhi_epi32(x[6].v, x[7].v);
  // u[k]: words 0-3 of block k in the low lane, of block k + 4 in the high lane.
  const __m256i u0 = _mm256_unpacklo_epi64(t0, t2), u1 = _mm256_unpackhi_epi64(t0, t2);
  const __m256i u2 = _mm256_unpacklo_epi64(t1, t3), u3 = _mm256_unpackhi_epi64(t1, t3);
  const __m256i u4 = _mm256_unpacklo_epi64(t4, t6), u5 = _mm256_unpackhi_epi64(t4, t6);
  const __m256i u6 = _mm256_unpacklo_epi64(t5, t7), u7 = _mm256_unpackhi_epi64(t5, t7);
  const v8 blk[8] = {{_mm256_permute2x128_si256(u0, u4, 0x20)}, {_mm256_permute2x128_si256(u1, u5, 0x20)},
                     {_mm256_permute2x128_si256(u2, u6, 0x20)}, {_mm256_permute2x128_si256(u3, u7, 0x20)},
                     {_mm256_permute2x128_si256(u0, u4, 0x31)}, {_mm256_permute2x128_si256(u1, u5, 0x31)},
                     {_mm256_permute2x128_si256(u2, u6, 0x31)}, {_mm256_permute2x128_si256(u3, u7, 0x31)}};
  for (int b = 0; b < 8; ++b) {
    const std::size_t off = static_cast<std::size_t>(64 * b + 32 * half);
    store8(out + off, load8(in + off) ^ blk[b]);
  }
}

// blocks_x8 runs a stream family on eight blocks at a time.
template <class Family>
inline void blocks_x8(const std::uint32_t w[16], std::uint64_t counter, std::uint8_t* out, const std::uint8_t* in,
                      std::size_t nblocks, unsigned rounds) {
  for (; nblocks >= 8; nblocks -= 8, counter += 8, in += 512, out += 512) {
    v8 j[16];
    for (int i = 0; i < 16; ++i) j[i] = splat(w[i]);
    counter_lanes(counter, j[Family::counter_lo], j[Family::counter_hi]);
    v8 x0 = j[0], x1 = j[1], x2 = j[2], x3 = j[3], x4 = j[4], x5 = j[5], x6 = j[6], x7 = j[7];
    v8 x8 = j[8], x9 = j[9], x10 = j[10], x11 = j[11], x12 = j[12], x13 = j[13], x14 = j[14], x15 = j[15];
    Family::rounds(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15, rounds);
    const v8 a[8] = {x0 + j[0], x1 + j[1], x2 + j[2], x3 + j[3], x4 + j[4], x5 + j[5], x6 + j[6], x7 + j[7]};
    xor_half(out, in, 0, a);
    const v8 b[8] = {x8 + j[8], x9 + j[9], x10 + j[10], x11 + j[11], x12 + j[12], x13 + j[13], x14 + j[14], x15 + j[15]};
    xor_half(out, in, 1, b);
  }
}

}  // namespace
}  // namespace sealwire::crypto::detail
