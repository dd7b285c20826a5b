// SPDX-License-Identifier: Apache-2.0
// Poly1305 kernel for AVX-512 IFMA: radix 2^44 (limbs of 44, 44 and 42
// bits), eight blocks per step with vpmadd52luq/vpmadd52huq. Eight lanes each
// carry an accumulator multiplied by r^8 per step; at the end lane j is
// multiplied by r^(8-j) and the lanes are summed. A count that is not a
// multiple of eight starts with a short group loaded into the top lanes, so
// any number of blocks takes one vector pass.
#include "detail/poly1305_core.hpp"
#include "detail/poly1305_ifma.hpp"

#include <immintrin.h>

namespace sealwire::crypto::detail {

// Requires st.powers == radix44x8 and nblocks >= 1; pw[8 * k + j] holds, for
// lane j and r^(8 - j): limb k (k = 0, 1, 2), or 20 * limb 1 (k = 3) and
// 20 * limb 2 (k = 4).
void poly1305_blocks_ifma(poly1305_state& st, const std::uint8_t* in, std::size_t nblocks,
                          std::uint64_t hibit) noexcept {
  const multiplier44 step = step_multipliers(st);
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
  add_h(acc, st, static_cast<__mmask8>(1u << (8 - first)));
  in += 16 * first;
  nblocks -= first;

  for (; nblocks != 0; nblocks -= 8, in += 128) {
    mul(acc, step);
    acc = add(acc, split(_mm512_loadu_si512(in), _mm512_loadu_si512(in + 64), top));
  }
  mul(acc, lane_multipliers(st));

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
  const multiplier44 step = step_multipliers(st);
  const __m512i top = _mm512_set1_epi64(static_cast<long long>(std::uint64_t{1} << 40));
  limbs44 acc;
  if (start) {
    acc = split(_mm512_loadu_si512(in), _mm512_loadu_si512(in + 64), top);
    add_h(acc, st, 1);
    in += 128;
    nblocks -= 8;
  } else {
    acc = load_lanes(st);
  }
  for (; nblocks != 0; nblocks -= 8, in += 128) {
    mul(acc, step);
    acc = add(acc, split(_mm512_loadu_si512(in), _mm512_loadu_si512(in + 64), top));
  }
  store_lanes(st, acc);
}

// poly1305_collapse_ifma multiplies lane j by r^(8 - j) and sums into h.
void poly1305_collapse_ifma(poly1305_state& st) noexcept {
  limbs44 acc = load_lanes(st);
  mul(acc, lane_multipliers(st));
  std::uint64_t l[3] = {static_cast<std::uint64_t>(_mm512_reduce_add_epi64(acc.l0)),
                        static_cast<std::uint64_t>(_mm512_reduce_add_epi64(acc.l1)),
                        static_cast<std::uint64_t>(_mm512_reduce_add_epi64(acc.l2))};
  carry44(l);
  from44(l, st.h);
}

}  // namespace sealwire::crypto::detail
