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

// split_bare turns the 64-bit halves of eight blocks into 44-bit limbs
// without the 2^128 bit: limbs 0 and 1 below 2^44, limb 2 below 2^40
// (mul_add adds the bit).
inline limbs44 split_bare(__m512i a, __m512i b) {
  const __m512i even = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0);
  const __m512i odd = _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1);
  const __m512i lo = _mm512_permutex2var_epi64(a, even, b);
  const __m512i hi = _mm512_permutex2var_epi64(a, odd, b);
  const __m512i m44 = _mm512_set1_epi64(static_cast<long long>(mask44));
  return {_mm512_and_si512(lo, m44),
          _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(lo, 44), _mm512_slli_epi64(hi, 20)), m44),
          _mm512_srli_epi64(hi, 24)};
}

// split is split_bare with `top` ORed into limb 2: 2^40 (the 2^128 of a full
// block) in the lanes that carry a block.
inline limbs44 split(__m512i a, __m512i b, __m512i top) {
  limbs44 l = split_bare(a, b);
  l.l2 = _mm512_or_si512(l.l2, top);
  return l;
}

inline limbs44 add(limbs44 a, limbs44 b) {
  return {_mm512_add_epi64(a.l0, b.l0), _mm512_add_epi64(a.l1, b.l1), _mm512_add_epi64(a.l2, b.l2)};
}

// A lane's multiplier in the form mul takes.
struct multiplier44 {
  __m512i r0, r1, r2, s1, s2;
};

inline void mul(limbs44& a, const multiplier44& m) { mul(a, m.r0, m.r1, m.r2, m.s1, m.s2); }


// fresh_zero: a zero register made by its own zeroing idiom (vpxord x, x, x,
// which cores recognise as independent of x). vpmadd52
// overwrites its accumulator, so from one shared zero GCC copies a register
// for every chain that starts at zero; with the idioms instead the stitched
// kernel ran 0.5-1% faster on the Intel host (2026-12-04), as if not every
// copy was eliminated.
[[gnu::always_inline]] inline __m512i fresh_zero() {
  __m512i z;
  __asm__ __volatile__("vpxord %0, %0, %0" : "=v"(z));
  return z;
}

// mul_add sets each lane to a * m + b + 2^128 (b from split_bare: eight whole
// blocks) and carries: the same value mod p as mul then add of split's
// limbs (the limbs differ: mul_add carries after the block is added), in
// fewer vector operations, for the stitched kernel, where the vector ports
// are the bound (ChaCha's rounds fill them) and a longer dependency chain is
// hidden by the rounds in between. Every sum is a chain of multiply-adds
// (vpmadd52 accumulates into its destination): the block's limbs start the
// low chains, the high halves, 2^52 above their limb (2^8 into the next),
// join them through one more multiply-add by 2^8, or by 5 * 2^10 for limb
// 2's (2^140 = 5 * 2^10 mod p), and 2^128 starts limb 1's high chain as 2^32
// (times 2^8 into limb 2: 2^(88 + 40)). The carry folds limb 2's overflow
// times 5 with one multiply-add as well.
// Bounds: a's limbs below 2^46 (live lanes hold at most a carried
// accumulator plus a block), m as step_multipliers gives it: r0 < 2^44,
// r1 < 2^44 + 2^9, r2 < 2^42 (compute_powers' mul44), s1 = 20 r1 < 2^48.4,
// s2 = 20 r2 < 2^46.4. A high half is below (product) / 2^52:
//  - h0 = hi(a0 r0 + a1 s2 + a2 s1) < 2^46 (2^44 + 2^46.4 + 2^48.4) / 2^52
//    < 2^42.8, so h0 * 2^8 < 2^50.8;
//  - h1 = 2^32 + hi(a0 r1 + a1 r0 + a2 s2) < 2^32 + 2^46 * 2^46.9 / 2^52
//    < 2^41, so h1 * 2^8 < 2^49;
//  - h2 = hi(a0 r2 + a1 r1 + a2 r0) < 2^46 * 2^45.2 / 2^52 = 2^39.2, so
//    h2 * 5 * 2^10 < 2^51.6.
// All below 2^52, so vpmadd52luq's low 52 bits are the whole product. Each
// d is b's limb (below 2^44) plus three low halves (below 2^52) plus one of
// those: below 2^54. The carries c0, c1 = d >> 44 < 2^10 and
// c2 = d2 >> 42 < 2^12 (5 c2 < 2^15) leave l0 < 2^44 + 2^15,
// l1 < 2^44 + 2^10, l2 < 2^42 + 2^10: good inputs again, and the value
// is the same modulo p. The 2^46 input bound carries weight: h2's product
// nears 2^52 first (a model of the exact vector steps stays exact up to
// limbs of about 2^46.5), while real lane inputs stay below 2^45.01.
inline void mul_add(limbs44& a, const multiplier44& m, const limbs44& b) {
  auto lo = [](__m512i acc, __m512i x, __m512i y) { return _mm512_madd52lo_epu64(acc, x, y); };
  auto hi = [](__m512i acc, __m512i x, __m512i y) { return _mm512_madd52hi_epu64(acc, x, y); };
  auto all = [](std::uint64_t v) { return _mm512_set1_epi64(static_cast<long long>(v)); };
  const __m512i h0 = hi(hi(hi(fresh_zero(), a.l0, m.r0), a.l1, m.s2), a.l2, m.s1);
  const __m512i h1 = hi(hi(hi(all(std::uint64_t{1} << 32), a.l0, m.r1), a.l1, m.r0), a.l2, m.s2);
  const __m512i h2 = hi(hi(hi(fresh_zero(), a.l0, m.r2), a.l1, m.r1), a.l2, m.r0);
  const __m512i d0 = lo(lo(lo(lo(b.l0, a.l0, m.r0), a.l1, m.s2), a.l2, m.s1), h2, all(5 << 10));
  const __m512i d1 = lo(lo(lo(lo(b.l1, a.l0, m.r1), a.l1, m.r0), a.l2, m.s2), h0, all(1 << 8));
  const __m512i d2 = lo(lo(lo(lo(b.l2, a.l0, m.r2), a.l1, m.r1), a.l2, m.r0), h1, all(1 << 8));
  const __m512i m44 = all(mask44);
  const __m512i c0 = _mm512_srli_epi64(d0, 44), c1 = _mm512_srli_epi64(d1, 44), c2 = _mm512_srli_epi64(d2, 42);
  a.l0 = lo(_mm512_and_si512(d0, m44), c2, all(5));
  a.l1 = _mm512_add_epi64(_mm512_and_si512(d1, m44), c0);
  a.l2 = _mm512_add_epi64(_mm512_and_si512(d2, all(mask42)), c1);
}

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
