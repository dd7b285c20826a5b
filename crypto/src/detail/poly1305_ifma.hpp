// SPDX-License-Identifier: Apache-2.0
// The radix-2^44 vector arithmetic of the IFMA Poly1305 kernels (eight lanes,
// one block each): the multiply-and-carry step, block splitting and lane
// addition, shared by poly1305_ifma.cpp and the stitched ChaCha20-Poly1305
// kernel (chacha_poly_ifma.cpp). Include only from files compiled with
// AVX-512F and AVX-512 IFMA; internal linkage.
#pragma once

#include "poly1305_core.hpp"

#include <immintrin.h>

namespace sealwire::crypto::detail {
namespace {

struct limbs44 {
  __m512i l0, l1, l2;
};

// mul multiplies each lane by the lane's multiplier (r0, r1, r2 and
// s1 = 20 r1, s2 = 20 r2 for products at 2^132 and up, 2^132 = 20 mod p)
// and carries. Each product's high 52 bits sit 2^52 = 2^44 * 2^8 above its
// limb, so they enter the next limb shifted by 8; limb 2's reach
// 2^140 = 5 * 2^10 mod p and come back to limb 0 times 5 * 2^10.
// Bounds: limbs in are below 2^46 (accumulator plus a block), multipliers
// below 2^49, so the limb sums d stay below 2^59.
inline void mul(limbs44& a, __m512i r0, __m512i r1, __m512i r2, __m512i s1, __m512i s2) {
  // Independent products first, then sums: the latency is one multiply and
  // two adds rather than a chain of three multiply-adds.
  const __m512i z = _mm512_setzero_si512();
  auto lo = [&](__m512i x, __m512i y) { return _mm512_madd52lo_epu64(z, x, y); };
  auto hi = [&](__m512i x, __m512i y) { return _mm512_madd52hi_epu64(z, x, y); };
  auto add3 = [](__m512i x, __m512i y, __m512i w) { return _mm512_add_epi64(_mm512_add_epi64(x, y), w); };
  const __m512i lo0 = add3(lo(a.l0, r0), lo(a.l1, s2), lo(a.l2, s1));
  const __m512i hi0 = add3(hi(a.l0, r0), hi(a.l1, s2), hi(a.l2, s1));
  const __m512i lo1 = add3(lo(a.l0, r1), lo(a.l1, r0), lo(a.l2, s2));
  const __m512i hi1 = add3(hi(a.l0, r1), hi(a.l1, r0), hi(a.l2, s2));
  const __m512i lo2 = add3(lo(a.l0, r2), lo(a.l1, r1), lo(a.l2, r0));
  const __m512i hi2 = add3(hi(a.l0, r2), hi(a.l1, r1), hi(a.l2, r0));

  const __m512i d0 = _mm512_add_epi64(lo0, _mm512_add_epi64(_mm512_slli_epi64(hi2, 12), _mm512_slli_epi64(hi2, 10)));
  const __m512i d1 = _mm512_add_epi64(lo1, _mm512_slli_epi64(hi0, 8));
  const __m512i d2 = _mm512_add_epi64(lo2, _mm512_slli_epi64(hi1, 8));
  // One round of carries, all three taken from the uncarried limbs at once
  // (d < 2^59): afterwards every limb is below 2^44 + 2^17, well under the 2^52 the
  // next multiplication may take, and the value is the same modulo p.
  const __m512i m44 = _mm512_set1_epi64(static_cast<long long>(mask44));
  const __m512i m42 = _mm512_set1_epi64(static_cast<long long>(mask42));
  const __m512i c0 = _mm512_srli_epi64(d0, 44), c1 = _mm512_srli_epi64(d1, 44), c2 = _mm512_srli_epi64(d2, 42);
  a.l0 = _mm512_add_epi64(_mm512_and_si512(d0, m44), _mm512_add_epi64(c2, _mm512_slli_epi64(c2, 2)));
  a.l1 = _mm512_add_epi64(_mm512_and_si512(d1, m44), c0);
  a.l2 = _mm512_add_epi64(_mm512_and_si512(d2, m42), c1);
}

// split turns the 64-bit halves of eight blocks into 44-bit limbs; `top`
// holds 2^40 (the 2^128 of a full block) in the lanes that carry a block.
inline limbs44 split(__m512i a, __m512i b, __m512i top) {
  const __m512i even = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0);
  const __m512i odd = _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1);
  const __m512i lo = _mm512_permutex2var_epi64(a, even, b);
  const __m512i hi = _mm512_permutex2var_epi64(a, odd, b);
  const __m512i m44 = _mm512_set1_epi64(static_cast<long long>(mask44));
  return {_mm512_and_si512(lo, m44),
          _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(lo, 44), _mm512_slli_epi64(hi, 20)), m44),
          _mm512_or_si512(_mm512_srli_epi64(hi, 24), top)};
}

inline limbs44 add(limbs44 a, limbs44 b) {
  return {_mm512_add_epi64(a.l0, b.l0), _mm512_add_epi64(a.l1, b.l1), _mm512_add_epi64(a.l2, b.l2)};
}

// A lane's multiplier in the form mul takes.
struct multiplier44 {
  __m512i r0, r1, r2, s1, s2;
};

inline void mul(limbs44& a, const multiplier44& m) { mul(a, m.r0, m.r1, m.r2, m.s1, m.s2); }

// lane_multipliers: r^(8 - j) in lane j (pw[8 k + j] holds limb k of it,
// k = 3 and 4 the 20-fold limbs 1 and 2), for the final collapse.
inline multiplier44 lane_multipliers(const poly1305_state& st) {
  return {_mm512_load_si512(st.pw), _mm512_load_si512(st.pw + 8), _mm512_load_si512(st.pw + 16),
          _mm512_load_si512(st.pw + 24), _mm512_load_si512(st.pw + 32)};
}

// step_multipliers: r^8 (lane 0's power) in every lane, for a step of
// eight blocks.
inline multiplier44 step_multipliers(const poly1305_state& st) {
  auto all = [](std::uint64_t v) { return _mm512_set1_epi64(static_cast<long long>(v)); };
  return {all(st.pw[0]), all(st.pw[8]), all(st.pw[16]), all(st.pw[24]), all(st.pw[32])};
}

// add_h adds the running value h (radix 2^64) to the lane selected by `lane`.
inline void add_h(limbs44& acc, const poly1305_state& st, __mmask8 lane) {
  std::uint64_t hl[3];
  to44(st.h[0], st.h[1], st.h[2], hl);
  acc.l0 = _mm512_mask_add_epi64(acc.l0, lane, acc.l0, _mm512_set1_epi64(static_cast<long long>(hl[0])));
  acc.l1 = _mm512_mask_add_epi64(acc.l1, lane, acc.l1, _mm512_set1_epi64(static_cast<long long>(hl[1])));
  acc.l2 = _mm512_mask_add_epi64(acc.l2, lane, acc.l2, _mm512_set1_epi64(static_cast<long long>(hl[2])));
}

// load_lanes / store_lanes: the live lanes kept in the state between calls.
inline limbs44 load_lanes(const poly1305_state& st) {
  return {_mm512_load_si512(st.lanes), _mm512_load_si512(st.lanes + 8), _mm512_load_si512(st.lanes + 16)};
}

inline void store_lanes(poly1305_state& st, const limbs44& acc) {
  _mm512_store_si512(st.lanes, acc.l0);
  _mm512_store_si512(st.lanes + 8, acc.l1);
  _mm512_store_si512(st.lanes + 16, acc.l2);
}

}  // namespace
}  // namespace sealwire::crypto::detail
