// SPDX-License-Identifier: Apache-2.0
// Poly1305 kernel for AVX-512 IFMA: radix 2^44 (limbs of 44, 44 and 42
// bits), eight blocks per step with vpmadd52luq/vpmadd52huq. Eight lanes each
// carry an accumulator multiplied by r^8 per step; at the end lane j is
// multiplied by r^(8-j) and the lanes are summed. A count that is not a
// multiple of eight starts with a short group loaded into the top lanes, so
// any number of blocks takes one vector pass.
#include "detail/poly1305_core.hpp"

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

}  // namespace

// Requires st.powers == radix44x8 and nblocks >= 1; pw[8 * k + j] holds, for
// lane j and r^(8 - j): limb k (k = 0, 1, 2), or 20 * limb 1 (k = 3) and
// 20 * limb 2 (k = 4).
void poly1305_blocks_ifma(poly1305_state& st, const std::uint8_t* in, std::size_t nblocks,
                          std::uint64_t hibit) noexcept {
  const __m512i lane_r0 = _mm512_load_si512(st.pw), lane_r1 = _mm512_load_si512(st.pw + 8);
  const __m512i lane_r2 = _mm512_load_si512(st.pw + 16), lane_s1 = _mm512_load_si512(st.pw + 24);
  const __m512i lane_s2 = _mm512_load_si512(st.pw + 32);
  const __m512i step_r0 = _mm512_set1_epi64(static_cast<long long>(st.pw[0]));
  const __m512i step_r1 = _mm512_set1_epi64(static_cast<long long>(st.pw[8]));
  const __m512i step_r2 = _mm512_set1_epi64(static_cast<long long>(st.pw[16]));
  const __m512i step_s1 = _mm512_set1_epi64(static_cast<long long>(st.pw[24]));
  const __m512i step_s2 = _mm512_set1_epi64(static_cast<long long>(st.pw[32]));
  const __m512i top = _mm512_set1_epi64(static_cast<long long>(hibit << 40));

  // The first group: its blocks fill the top lanes, so that block i of the
  // whole run is multiplied by r^(n - i) in the end; h joins the first block.
  const std::size_t first = nblocks % 8 == 0 ? 8 : nblocks % 8;
  const __mmask8 lanes = static_cast<__mmask8>(0xff << (8 - first));
  const auto words = static_cast<__mmask16>(0xffff << (2 * (8 - first)));
  const auto low_words = static_cast<__mmask8>(words & 0xff), high_words = static_cast<__mmask8>(words >> 8);
  const __m512i fa = _mm512_maskz_expandloadu_epi64(low_words, in);
  const __m512i fb = _mm512_maskz_expandloadu_epi64(high_words, in + 8 * __builtin_popcount(low_words));
  limbs44 acc = split(fa, fb, _mm512_maskz_mov_epi64(lanes, top));
  std::uint64_t hl[3];
  to44(st.h[0], st.h[1], st.h[2], hl);
  const auto h_lane = static_cast<__mmask8>(1u << (8 - first));
  acc.l0 = _mm512_mask_add_epi64(acc.l0, h_lane, acc.l0, _mm512_set1_epi64(static_cast<long long>(hl[0])));
  acc.l1 = _mm512_mask_add_epi64(acc.l1, h_lane, acc.l1, _mm512_set1_epi64(static_cast<long long>(hl[1])));
  acc.l2 = _mm512_mask_add_epi64(acc.l2, h_lane, acc.l2, _mm512_set1_epi64(static_cast<long long>(hl[2])));
  in += 16 * first;
  nblocks -= first;

  for (; nblocks != 0; nblocks -= 8, in += 128) {
    mul(acc, step_r0, step_r1, step_r2, step_s1, step_s2);
    acc = add(acc, split(_mm512_loadu_si512(in), _mm512_loadu_si512(in + 64), top));
  }
  mul(acc, lane_r0, lane_r1, lane_r2, lane_s1, lane_s2);

  std::uint64_t l[3] = {static_cast<std::uint64_t>(_mm512_reduce_add_epi64(acc.l0)),
                        static_cast<std::uint64_t>(_mm512_reduce_add_epi64(acc.l1)),
                        static_cast<std::uint64_t>(_mm512_reduce_add_epi64(acc.l2))};
  carry44(l);
  from44(l, st.h);
}

// ---- live lanes (poly1305.cpp keeps them between update calls) ----
//
// st.lanes[8 * k + j] holds limb k of lane j's accumulator: the blocks
// absorbed so far, lane j holding blocks j, j + 8, ... with the last group
// added but not yet multiplied, so the value is sum_j lane_j * r^(8 - j).

// Requires st.powers == radix44x8 and nblocks a non-zero multiple of 8.
// start: the lanes begin here, h joins lane 0; otherwise they continue.
void poly1305_lanes_ifma(poly1305_state& st, const std::uint8_t* in, std::size_t nblocks, bool start) noexcept {
  const __m512i step_r0 = _mm512_set1_epi64(static_cast<long long>(st.pw[0]));
  const __m512i step_r1 = _mm512_set1_epi64(static_cast<long long>(st.pw[8]));
  const __m512i step_r2 = _mm512_set1_epi64(static_cast<long long>(st.pw[16]));
  const __m512i step_s1 = _mm512_set1_epi64(static_cast<long long>(st.pw[24]));
  const __m512i step_s2 = _mm512_set1_epi64(static_cast<long long>(st.pw[32]));
  const __m512i top = _mm512_set1_epi64(static_cast<long long>(std::uint64_t{1} << 40));
  limbs44 acc;
  if (start) {
    acc = split(_mm512_loadu_si512(in), _mm512_loadu_si512(in + 64), top);
    std::uint64_t hl[3];
    to44(st.h[0], st.h[1], st.h[2], hl);
    acc.l0 = _mm512_mask_add_epi64(acc.l0, 1, acc.l0, _mm512_set1_epi64(static_cast<long long>(hl[0])));
    acc.l1 = _mm512_mask_add_epi64(acc.l1, 1, acc.l1, _mm512_set1_epi64(static_cast<long long>(hl[1])));
    acc.l2 = _mm512_mask_add_epi64(acc.l2, 1, acc.l2, _mm512_set1_epi64(static_cast<long long>(hl[2])));
    in += 128;
    nblocks -= 8;
  } else {
    acc = {_mm512_load_si512(st.lanes), _mm512_load_si512(st.lanes + 8), _mm512_load_si512(st.lanes + 16)};
  }
  for (; nblocks != 0; nblocks -= 8, in += 128) {
    mul(acc, step_r0, step_r1, step_r2, step_s1, step_s2);
    acc = add(acc, split(_mm512_loadu_si512(in), _mm512_loadu_si512(in + 64), top));
  }
  _mm512_store_si512(st.lanes, acc.l0);
  _mm512_store_si512(st.lanes + 8, acc.l1);
  _mm512_store_si512(st.lanes + 16, acc.l2);
}

// poly1305_collapse_ifma multiplies lane j by r^(8 - j) and sums into h.
void poly1305_collapse_ifma(poly1305_state& st) noexcept {
  limbs44 acc = {_mm512_load_si512(st.lanes), _mm512_load_si512(st.lanes + 8), _mm512_load_si512(st.lanes + 16)};
  mul(acc, _mm512_load_si512(st.pw), _mm512_load_si512(st.pw + 8), _mm512_load_si512(st.pw + 16),
      _mm512_load_si512(st.pw + 24), _mm512_load_si512(st.pw + 32));
  std::uint64_t l[3] = {static_cast<std::uint64_t>(_mm512_reduce_add_epi64(acc.l0)),
                        static_cast<std::uint64_t>(_mm512_reduce_add_epi64(acc.l1)),
                        static_cast<std::uint64_t>(_mm512_reduce_add_epi64(acc.l2))};
  carry44(l);
  from44(l, st.h);
}

}  // namespace sealwire::crypto::detail
