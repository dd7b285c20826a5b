// SPDX-License-Identifier: Apache-2.0
// Poly1305 kernel for AVX2: radix 2^26, four blocks per step. Four lanes
// each carry an accumulator that is multiplied by r^4 per step; at the end
// lane j is multiplied by r^(4-j) and the lanes are summed.
#include "detail/poly1305_core.hpp"

#include <immintrin.h>

namespace sealwire::crypto::detail {
namespace {

constexpr std::uint64_t mask26 = (1u << 26) - 1;

struct limbs26 {
  __m256i v[5];
};

// mul multiplies each lane's accumulator by the lane's power (limbs r[0..4],
// and s[k] = 5 * r[k] for the products that wrap past 2^130) and carries.
inline void mul(limbs26& a, const __m256i r[5], const __m256i s[5]) {
  const __m256i* x = a.v;
  auto m = [](__m256i p, __m256i q) { return _mm256_mul_epu32(p, q); };
  auto add = [](__m256i p, __m256i q) { return _mm256_add_epi64(p, q); };
  __m256i d0 = add(add(add(add(m(x[0], r[0]), m(x[1], s[4])), m(x[2], s[3])), m(x[3], s[2])), m(x[4], s[1]));
  __m256i d1 = add(add(add(add(m(x[0], r[1]), m(x[1], r[0])), m(x[2], s[4])), m(x[3], s[3])), m(x[4], s[2]));
  __m256i d2 = add(add(add(add(m(x[0], r[2]), m(x[1], r[1])), m(x[2], r[0])), m(x[3], s[4])), m(x[4], s[3]));
  __m256i d3 = add(add(add(add(m(x[0], r[3]), m(x[1], r[2])), m(x[2], r[1])), m(x[3], r[0])), m(x[4], s[4]));
  __m256i d4 = add(add(add(add(m(x[0], r[4]), m(x[1], r[3])), m(x[2], r[2])), m(x[3], r[1])), m(x[4], r[0]));
  // Two rounds of carries, each taking all five from the limbs at once
  // (a short dependency chain instead of a serial one). The products sum to
  // below 2^59; after one round limbs are below 2^26 + 2^36 (too big for the
  // 32-bit multiplier inputs), after two below 2^26 + 2^13.
  const __m256i mk = _mm256_set1_epi64x(mask26);
  for (int round = 0; round < 2; ++round) {
    const __m256i c0 = _mm256_srli_epi64(d0, 26), c1 = _mm256_srli_epi64(d1, 26), c2 = _mm256_srli_epi64(d2, 26);
    const __m256i c3 = _mm256_srli_epi64(d3, 26), c4 = _mm256_srli_epi64(d4, 26);
    d0 = add(_mm256_and_si256(d0, mk), add(c4, _mm256_slli_epi64(c4, 2)));  // 2^130 = 5
    d1 = add(_mm256_and_si256(d1, mk), c0);
    d2 = add(_mm256_and_si256(d2, mk), c1);
    d3 = add(_mm256_and_si256(d3, mk), c2);
    d4 = add(_mm256_and_si256(d4, mk), c3);
  }
  a.v[0] = d0;
  a.v[1] = d1;
  a.v[2] = d2;
  a.v[3] = d3;
  a.v[4] = d4;
}

// load4 splits four 16-byte blocks into 26-bit limbs, one block per lane.
inline limbs26 load4(const std::uint8_t* in, std::uint64_t hibit) {
  const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in));
  const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + 32));
  const __m256i lo = _mm256_permute4x64_epi64(_mm256_unpacklo_epi64(a, b), 0xd8);
  const __m256i hi = _mm256_permute4x64_epi64(_mm256_unpackhi_epi64(a, b), 0xd8);
  const __m256i mk = _mm256_set1_epi64x(mask26);
  limbs26 m;
  m.v[0] = _mm256_and_si256(lo, mk);
  m.v[1] = _mm256_and_si256(_mm256_srli_epi64(lo, 26), mk);
  m.v[2] = _mm256_and_si256(_mm256_or_si256(_mm256_srli_epi64(lo, 52), _mm256_slli_epi64(hi, 12)), mk);
  m.v[3] = _mm256_and_si256(_mm256_srli_epi64(hi, 14), mk);
  m.v[4] = _mm256_or_si256(_mm256_srli_epi64(hi, 40), _mm256_set1_epi64x(static_cast<long long>(hibit << 24)));
  return m;
}

inline std::uint64_t lane_sum(__m256i x) {
  const __m128i s = _mm_add_epi64(_mm256_castsi256_si128(x), _mm256_extracti128_si256(x, 1));
  return static_cast<std::uint64_t>(_mm_cvtsi128_si64(s)) + static_cast<std::uint64_t>(_mm_extract_epi64(s, 1));
}

// sum_lanes adds the (multiplied) lanes and returns h to radix 2^64.
inline void sum_lanes(const limbs26& a, poly1305_state& st) {
  u128 t = lane_sum(a.v[0]);
  t += static_cast<u128>(lane_sum(a.v[1])) << 26;
  t += static_cast<u128>(lane_sum(a.v[2])) << 52;
  const u128 t3 = static_cast<u128>(lane_sum(a.v[3])) << 78;  // below 2^107
  const u128 t4 = static_cast<u128>(lane_sum(a.v[4]));          // at 2^104
  t += t3;
  std::uint64_t r0 = static_cast<std::uint64_t>(t);
  u128 hi = (t >> 64) + (t4 << 40);  // bits 64 and up
  std::uint64_t r1 = static_cast<std::uint64_t>(hi);
  std::uint64_t r2 = static_cast<std::uint64_t>(hi >> 64);
  // Fold bits 130 and up (times 5) so h2 stays small.
  const std::uint64_t c = (r2 >> 2) * 5;
  r2 &= 3;
  u128 s = static_cast<u128>(r0) + c;
  r0 = static_cast<std::uint64_t>(s);
  s = static_cast<u128>(r1) + (s >> 64);
  r1 = static_cast<std::uint64_t>(s);
  r2 += static_cast<std::uint64_t>(s >> 64);
  st.h[0] = r0;
  st.h[1] = r1;
  st.h[2] = r2;
}

}  // namespace

// Requires st.powers == radix26x4 and nblocks >= 4; pw[k * 4 + j] holds limb k
// (k < 5) or 5 * limb (k - 4) (k >= 5) of r^(4 - j).
void poly1305_blocks_avx2(poly1305_state& st, const std::uint8_t* in, std::size_t nblocks,
                          std::uint64_t hibit) noexcept {
  __m256i lane_r[5], lane_s[5], step_r[5], step_s[5];
  for (int k = 0; k < 5; ++k) {
    lane_r[k] = _mm256_load_si256(reinterpret_cast<const __m256i*>(st.pw + 4 * k));
    step_r[k] = _mm256_set1_epi64x(static_cast<long long>(st.pw[4 * k]));
  }
  lane_s[0] = step_s[0] = _mm256_setzero_si256();  // unused
  for (int k = 1; k < 5; ++k) {
    lane_s[k] = _mm256_load_si256(reinterpret_cast<const __m256i*>(st.pw + 4 * (k + 4)));
    step_s[k] = _mm256_set1_epi64x(static_cast<long long>(st.pw[4 * (k + 4)]));
  }

  // h (radix 2^64) into 26-bit limbs, added to the first block's lane.
  const std::uint64_t h0 = st.h[0], h1 = st.h[1], h2 = st.h[2];
  const std::uint64_t hl[5] = {h0 & mask26, (h0 >> 26) & mask26, ((h0 >> 52) | (h1 << 12)) & mask26,
                               (h1 >> 14) & mask26, (h1 >> 40) | (h2 << 24)};
  limbs26 a = load4(in, hibit);
  for (int k = 0; k < 5; ++k) a.v[k] = _mm256_add_epi64(a.v[k], _mm256_set_epi64x(0, 0, 0, static_cast<long long>(hl[k])));
  in += 64;
  nblocks -= 4;
  for (; nblocks >= 4; nblocks -= 4, in += 64) {
    mul(a, step_r, step_s);
    const limbs26 m = load4(in, hibit);
    for (int k = 0; k < 5; ++k) a.v[k] = _mm256_add_epi64(a.v[k], m.v[k]);
  }
  mul(a, lane_r, lane_s);

  sum_lanes(a, st);

  if (nblocks != 0) poly1305_scalar_blocks(st, in, nblocks, hibit);
}

// ---- live lanes (poly1305.cpp keeps them between update calls) ----
//
// st.lanes[4 * k + j] holds limb k of lane j's accumulator, the last group
// added but not yet multiplied: the value is sum_j lane_j * r^(4 - j).

// Requires st.powers == radix26x4 and nblocks a non-zero multiple of 4.
// start: the lanes begin here, h joins lane 0; otherwise they continue.
void poly1305_lanes_avx2(poly1305_state& st, const std::uint8_t* in, std::size_t nblocks, bool start) noexcept {
  __m256i step_r[5], step_s[5];
  step_s[0] = _mm256_setzero_si256();  // unused
  for (int k = 0; k < 5; ++k) step_r[k] = _mm256_set1_epi64x(static_cast<long long>(st.pw[4 * k]));
  for (int k = 1; k < 5; ++k) step_s[k] = _mm256_set1_epi64x(static_cast<long long>(st.pw[4 * (k + 4)]));
  limbs26 a;
  if (start) {
    const std::uint64_t h0 = st.h[0], h1 = st.h[1], h2 = st.h[2];
    const std::uint64_t hl[5] = {h0 & mask26, (h0 >> 26) & mask26, ((h0 >> 52) | (h1 << 12)) & mask26,
                                 (h1 >> 14) & mask26, (h1 >> 40) | (h2 << 24)};
    a = load4(in, 1);
    for (int k = 0; k < 5; ++k)
      a.v[k] = _mm256_add_epi64(a.v[k], _mm256_set_epi64x(0, 0, 0, static_cast<long long>(hl[k])));
    in += 64;
    nblocks -= 4;
  } else {
    for (int k = 0; k < 5; ++k) a.v[k] = _mm256_load_si256(reinterpret_cast<const __m256i*>(st.lanes + 4 * k));
  }
  for (; nblocks != 0; nblocks -= 4, in += 64) {
    mul(a, step_r, step_s);
    const limbs26 m = load4(in, 1);
    for (int k = 0; k < 5; ++k) a.v[k] = _mm256_add_epi64(a.v[k], m.v[k]);
  }
  for (int k = 0; k < 5; ++k) _mm256_store_si256(reinterpret_cast<__m256i*>(st.lanes + 4 * k), a.v[k]);
}

// poly1305_collapse_avx2 multiplies lane j by r^(4 - j) and sums into h.
void poly1305_collapse_avx2(poly1305_state& st) noexcept {
  __m256i lane_r[5], lane_s[5];
  lane_s[0] = _mm256_setzero_si256();  // unused
  for (int k = 0; k < 5; ++k) lane_r[k] = _mm256_load_si256(reinterpret_cast<const __m256i*>(st.pw + 4 * k));
  for (int k = 1; k < 5; ++k) lane_s[k] = _mm256_load_si256(reinterpret_cast<const __m256i*>(st.pw + 4 * (k + 4)));
  limbs26 a;
  for (int k = 0; k < 5; ++k) a.v[k] = _mm256_load_si256(reinterpret_cast<const __m256i*>(st.lanes + 4 * k));
  mul(a, lane_r, lane_s);
  sum_lanes(a, st);
}

}  // namespace sealwire::crypto::detail
