// SPDX-License-Identifier: Apache-2.0
// The P-521 field on AVX-512 IFMA (vpmadd52luq / vpmadd52huq): p = 2^521 - 1
// in eleven 48-bit limbs held in two zmm registers (limbs 0-7, and 8-10 in
// the low lanes of the second), for the avx512 level's P-521 kernel
// (nist_p521_ifma.cpp). The same interface as p521_field in nist_field.hpp,
// so the point formulas and scalar multiplications of nist_point.hpp and
// nist_scalar_mul.hpp run over it unchanged. Constant time: no branch or
// index depends on an element.
//
// Representation. An element is sum v_k 2^(48 k), k = 0..10, not reduced:
// 11 x 48 = 528 bits, and 2^528 = 2^7 2^521 = 2^7 (mod p). Bounds:
//   tight  every limb below 2^49: what mul, sqr, add, sub, half and
//          from_bytes return (mul, add and sub after one parallel carry
//          leave limbs below 2^48 + 2^22).
//   loose  every limb below 2^50: the sum of two tight elements
//          (add_lazy); accepted by mul, sqr and as sub's first operand.
// The twelfth 64-bit word of fe is zero padding, so the second register
// loads and stores as one 256-bit word.
//
// Product. IFMA multiplies the low 52 bits of two lanes and adds either the
// low or the high 52 bits of the 104-bit product to a 64-bit lane. With
// limbs below 2^50 the 52-bit split is exact for both operands, and a
// product x y = lo + hi 2^52 = lo + (16 hi) 2^48: the low halves of one
// column and sixteen times the high halves of the column below give every
// column, with no shift of the operands.
//
// a b = sum_j b_j (a 2^(48 j)), and a 2^(48 j) mod p is a's limbs moved up
// j places, the j limbs that pass 2^528 coming back at the bottom times 2^7.
// First a' = a with limb 10's bits from 2^41 up (weight 2^521 = 1) added to
// limb 0, so that a'_10 < 2^41 and a' 2^7 carries nothing past 2^528. The
// limbs coming back are then W_m = (a'_m 2^7 mod 2^48) + (a'_(m-1) >> 41),
// the limbs of a' 2^7 carried once (below 2^48 + 2^10). The limb that lands
// in place 10 (weight 2^480) keeps only its low 41 bits: its bits above
// have weight 2^521 = 1 and are the a'_(m-1) >> 41 of the W in place 0. So
// every multiple of a is a window of one 21-word array
//   X = [W_1 .. W_10, a'_0 .. a'_10]
// (multiple j is X[10 - j .. 20 - j], place 10 masked to 41 bits), taken
// with valignq, and the product is 11 broadcasts of b_j, 44 IFMA and one
// carry.
#pragma once

#include <sealwire/crypto/ct.hpp>

#include "nist_field.hpp"
#include "unroll.hpp"

#include <cstddef>
#include <cstdint>
#include <immintrin.h>
#include <utility>

#if !defined(__AVX512IFMA__) || !defined(__AVX512F__)
#error "p521_field_ifma.hpp is for translation units built for AVX-512 IFMA"
#endif

namespace sealwire::crypto::detail {

namespace {

struct p521_ifma_field {
  static constexpr std::size_t limbs = 12;  // eleven and the zero pad
  static constexpr std::size_t bytes = 66;
  struct alignas(32) fe {
    std::uint64_t v[12];
  };
  static constexpr std::uint64_t m48 = (std::uint64_t{1} << 48) - 1;
  static constexpr std::uint64_t m41 = (std::uint64_t{1} << 41) - 1;

  // An element in registers: limbs 0-7 and limbs 8-10 (lanes 3-7 zero).
  struct reg {
    __m512i lo, hi;
  };

  [[gnu::always_inline]] static inline reg load(const fe& a) noexcept {
    return {_mm512_loadu_si512(a.v), _mm512_zextsi256_si512(_mm256_load_si256(reinterpret_cast<const __m256i*>(a.v + 8)))};
  }
  [[gnu::always_inline]] static inline void store(fe& out, const reg& r) noexcept {
    _mm512_storeu_si512(out.v, r.lo);
    _mm256_store_si256(reinterpret_cast<__m256i*>(out.v + 8), _mm512_castsi512_si256(r.hi));
  }

  // up_one: the eleven lanes of (lo, hi) moved up one place, the top lane
  // wrapping to lane 0 (lanes 3-7 of hi are not read):
  // [x10, x0 .. x6] and [x7, x8, x9, ..].
  [[gnu::always_inline]] static inline reg up_one(const __m512i lo, const __m512i hi) noexcept {
    // One two-source permute for the low register: lane 0 from hi's lane 2.
    const __m512i idx = _mm512_set_epi64(6, 5, 4, 3, 2, 1, 0, 8 + 2);
    return {_mm512_permutex2var_epi64(lo, idx, hi), _mm512_alignr_epi64(hi, lo, 7)};
  }

  // carry: one parallel carry step. Each limb keeps its low 48 bits and
  // takes the carry of the limb below; limb 10's carry has weight
  // 2^528 = 2^7 and goes to limb 0 shifted by 7. For lanes below 2^63 the
  // carries are below 2^15 and the result is tight (below 2^48 + 2^22);
  // lanes 3-7 of hi are zeroed.
  [[gnu::always_inline]] static inline reg carry(const __m512i lo, const __m512i hi) noexcept {
    const __m512i mask = _mm512_set1_epi64(static_cast<long long>(m48));
    const reg c = up_one(_mm512_srli_epi64(lo, 48), _mm512_srli_epi64(hi, 48));
    const __m512i wrap = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, 7);
    return {_mm512_add_epi64(_mm512_and_si512(lo, mask), _mm512_sllv_epi64(c.lo, wrap)),
            _mm512_maskz_add_epi64(0x07, _mm512_and_si512(hi, mask), c.hi)};
  }

  // The product's accumulators: low and high halves for places 0-7 and
  // 8-10, two sets (even and odd j) to halve the IFMA dependency chains.
  struct acc {
    __m512i l0[2], h0[2], l1[2], h1[2];
  };

  // step<j>: multiple j of a (places 0-7 and 8-10, windows of X) times b_j.
  template <int j>
  [[gnu::always_inline]] static inline void step(acc& s, const __m512i x0, const __m512i x1, const __m512i x2,
                                                 const std::uint64_t* b) noexcept {
    constexpr int o = 10 - j;   // X[o .. o + 7]
    constexpr int o1 = 18 - j;  // X[o1 .. o1 + 2]
    const __m512i zero = _mm512_setzero_si512();
    // Place 10 (lane 2 of the second register) keeps 41 bits; lanes 3-7 zero.
    const __m512i top = _mm512_set_epi64(0, 0, 0, 0, 0, static_cast<long long>(m41), -1, -1);
    __m512i w0, w1;
    if constexpr (o == 0) {
      w0 = x0;
    } else if constexpr (o < 8) {
      w0 = _mm512_alignr_epi64(x1, x0, o);
    } else if constexpr (o == 8) {
      w0 = x1;
    } else {
      w0 = _mm512_alignr_epi64(x2, x1, o - 8);
    }
    if constexpr (o1 == 8) {
      w1 = x1;
    } else if constexpr (o1 < 16) {
      w1 = _mm512_alignr_epi64(x2, x1, o1 - 8);
    } else if constexpr (o1 == 16) {
      w1 = x2;
    } else {
      w1 = _mm512_alignr_epi64(zero, x2, o1 - 16);
    }
    w1 = _mm512_and_si512(w1, top);
    const __m512i bj = _mm512_set1_epi64(static_cast<long long>(b[j]));
    constexpr int k = j & 1;
    s.l0[k] = _mm512_madd52lo_epu64(s.l0[k], w0, bj);
    s.h0[k] = _mm512_madd52hi_epu64(s.h0[k], w0, bj);
    s.l1[k] = _mm512_madd52lo_epu64(s.l1[k], w1, bj);
    s.h1[k] = _mm512_madd52hi_epu64(s.h1[k], w1, bj);
  }

  template <int... J>
  [[gnu::always_inline]] static inline void steps(acc& s, const __m512i x0, const __m512i x1, const __m512i x2,
                                                  const std::uint64_t* b, std::integer_sequence<int, J...>) noexcept {
    (step<J>(s, x0, x1, x2, b), ...);
  }

  // product: a b for loose a and b (limbs below 2^50), tight.
  [[gnu::always_inline]] static inline reg product(const reg& in, const std::uint64_t* b) noexcept {
    const __m512i zero = _mm512_setzero_si512();
    const __m512i m48v = _mm512_set1_epi64(static_cast<long long>(m48));
    // Place 10 (lane 2 of the second register) keeps 41 bits; lanes 3-7 zero.
    const __m512i top = _mm512_set_epi64(0, 0, 0, 0, 0, static_cast<long long>(m41), -1, -1);
    // a' = a with limb 10's bits from 2^41 up (weight 2^521 = 1) moved to
    // limb 0: the same value, limb 10 below 2^41, limb 0 below 2^50 + 2^9.
    const reg a{_mm512_add_epi64(in.lo, _mm512_alignr_epi64(zero, _mm512_srli_epi64(in.hi, 41), 2)),
                _mm512_and_si512(in.hi, top)};
    // X0 = X[0..7] = W_1 .. W_8; X1 = X[8..15] = W_9, W_10, a_0 .. a_5;
    // X2 = X[16..23] = a_6 .. a_10, 0, 0, 0 (of a').
    const __m512i sl0 = _mm512_and_si512(_mm512_slli_epi64(a.lo, 7), m48v);
    const __m512i sl1 = _mm512_and_si512(_mm512_slli_epi64(a.hi, 7), m48v);
    const __m512i sr0 = _mm512_srli_epi64(a.lo, 41);
    const __m512i sr1 = _mm512_srli_epi64(a.hi, 41);
    const __m512i x0 = _mm512_add_epi64(_mm512_alignr_epi64(sl1, sl0, 1), sr0);
    // [W_9, W_10, 0 ..] + [0, 0, a_0 .. a_5]
    const __m512i x1 = _mm512_add_epi64(_mm512_add_epi64(_mm512_alignr_epi64(zero, sl1, 1), sr1),
                                        _mm512_alignr_epi64(a.lo, zero, 6));
    const __m512i x2 = _mm512_alignr_epi64(a.hi, a.lo, 6);

    acc s{{zero, zero}, {zero, zero}, {zero, zero}, {zero, zero}};
    steps(s, x0, x1, x2, b, std::make_integer_sequence<int, 11>{});
    const __m512i lo0 = _mm512_add_epi64(s.l0[0], s.l0[1]);
    const __m512i lo1 = _mm512_add_epi64(s.l1[0], s.l1[1]);
    // The high halves go one column up, times 16; the top column's comes
    // back to column 0 times 2^7 more (2^528 = 2^7): 2^11.
    const reg h = up_one(_mm512_add_epi64(s.h0[0], s.h0[1]), _mm512_add_epi64(s.h1[0], s.h1[1]));
    const __m512i shift = _mm512_set_epi64(4, 4, 4, 4, 4, 4, 4, 11);
    return carry(_mm512_add_epi64(lo0, _mm512_sllv_epi64(h.lo, shift)),
                 _mm512_add_epi64(lo1, _mm512_slli_epi64(h.hi, 4)));
  }

  // mul: out = a b; a and b loose, out tight. Bounds of the columns: the
  // IFMA inputs are below 2^52 (a'_0 below 2^50 + 2^9, the W below
  // 2^48 + 2^9), each column sums eleven low halves (below 2^52 each) and
  // sixteen times eleven high halves (below 2^48 + 2^7 each): below
  // 2^56.5; column 0 takes the top column's high halves times 2^11, and
  // those come from place 10's 41-bit limbs (below 2^39 each): below
  // 2^55.8. The carry's lanes are far from 2^63. out may alias a or b.
  [[gnu::always_inline]] static inline void mul(fe& out, const fe& a, const fe& b) noexcept {
    const reg r = product(load(a), b.v);
    store(out, r);
  }

  [[gnu::always_inline]] static inline void sqr(fe& out, const fe& a) noexcept {
    const reg r = product(load(a), a.v);
    store(out, r);
  }

  // add: a + b, carried (tight in, tight out).
  [[gnu::always_inline]] static inline void add(fe& out, const fe& a, const fe& b) noexcept {
    const reg x = load(a), y = load(b);
    store(out, carry(_mm512_add_epi64(x.lo, y.lo), _mm512_add_epi64(x.hi, y.hi)));
  }

  // add_lazy: a + b not carried, loose (two tight inputs); only for a
  // product's factor or sub's first operand (nist_point.hpp's add_for_product).
  [[gnu::always_inline]] static inline void add_lazy(fe& out, const fe& a, const fe& b) noexcept {
    const reg x = load(a), y = load(b);
    store(out, {_mm512_add_epi64(x.lo, y.lo), _mm512_add_epi64(x.hi, y.hi)});
  }

  // sub: a - b + 4 (2^528 - 2^7), a multiple of p (2^528 - 2^7 = 2^7 p)
  // whose limbs (2^50 - 2^9, then 2^50 - 4) exceed any tight limb, so no
  // lane goes negative; a loose, b tight; carried.
  [[gnu::always_inline]] static inline void sub(fe& out, const fe& a, const fe& b) noexcept {
    const reg x = load(a), y = load(b);
    constexpr long long k = (1LL << 50) - 4;
    const __m512i q0 = _mm512_set_epi64(k, k, k, k, k, k, k, (1LL << 50) - 512);
    const __m512i q1 = _mm512_set_epi64(0, 0, 0, 0, 0, k, k, k);
    store(out, carry(_mm512_sub_epi64(_mm512_add_epi64(x.lo, q0), y.lo),
                     _mm512_sub_epi64(_mm512_add_epi64(x.hi, q1), y.hi)));
  }

  // half: a / 2 for tight a. p is odd, so a + p (when a is odd) is even and
  // halves exactly: each limb shifted right by one takes the low bit of the
  // limb above as its bit 47. Limbs stay below (2^49 + 2^48) / 2 + 2^47 = 2^49.
  [[gnu::always_inline]] static inline void half(fe& out, const fe& a) noexcept {
    const reg x = load(a);
    const __m512i zero = _mm512_setzero_si512();
    const __m512i odd = _mm512_set1_epi64(-static_cast<long long>(a.v[0] & 1));
    const __m512i p0 = _mm512_and_si512(odd, _mm512_set1_epi64(static_cast<long long>(m48)));
    const __m512i p1 = _mm512_and_si512(
        odd, _mm512_set_epi64(0, 0, 0, 0, 0, static_cast<long long>(m41), static_cast<long long>(m48),
                              static_cast<long long>(m48)));
    const __m512i t0 = _mm512_add_epi64(x.lo, p0), t1 = _mm512_add_epi64(x.hi, p1);
    const __m512i one = _mm512_set1_epi64(1);
    const __m512i b0 = _mm512_and_si512(t0, one), b1 = _mm512_and_si512(t1, one);
    // [bit of limb 1 .. limb 8] and [limb 9, limb 10, 0 ..]
    const __m512i u0 = _mm512_alignr_epi64(b1, b0, 1), u1 = _mm512_alignr_epi64(zero, b1, 1);
    store(out, {_mm512_add_epi64(_mm512_srli_epi64(t0, 1), _mm512_slli_epi64(u0, 47)),
                _mm512_add_epi64(_mm512_srli_epi64(t1, 1), _mm512_slli_epi64(u1, 47))});
  }

  // cmov: out = a where mask is all ones, kept where it is zero.
  [[gnu::always_inline]] static inline void cmov(fe& out, const fe& a, std::uint64_t mask) noexcept {
    const __mmask8 m = static_cast<__mmask8>(mask);
    const reg x = load(out), y = load(a);
    store(out, {_mm512_mask_blend_epi64(m, x.lo, y.lo), _mm512_mask_blend_epi64(m, x.hi, y.hi)});
  }

  // canonical: the value mod p in limbs of 48 bits (41 at the top), for
  // limbs below 2^52. A carry chain leaves c 2^528 = c 2^7 above 48-bit
  // limbs and limb 10's bits from 2^41 up (weight 2^521 = 1): both go back
  // to the bottom, the second chain's value is below 2^521 + 2^13, and a
  // carry out of it (weight 1) finds limb 0 below 2^13. The result is below
  // 2^521, so p itself is the one value to map to 0: when adding 1 carries
  // out of bit 520.
  static inline void canonical(std::uint64_t (&r)[11], const fe& a) noexcept {
    std::uint64_t c = 0;
    SEALWIRE_UNROLL
    for (int k = 0; k < 11; ++k) {
      c += a.v[k];
      r[k] = c & m48;
      c >>= 48;
    }
    c = (c << 7) + (r[10] >> 41);
    r[10] &= m41;
    SEALWIRE_UNROLL
    for (int k = 0; k < 10; ++k) {
      c += r[k];
      r[k] = c & m48;
      c >>= 48;
    }
    c += r[10];
    r[10] = c & m41;
    r[0] += c >> 41;
    c = 1;
    SEALWIRE_UNROLL
    for (int k = 0; k < 10; ++k) c = (r[k] + c) >> 48;
    const std::uint64_t keep = ((r[10] + c) >> 41) - 1;  // 0 when the value is p
    SEALWIRE_UNROLL
    for (int k = 0; k < 11; ++k) r[k] &= keep;
  }

  // from_bytes reads 66 big-endian bytes (six to a limb); false (public
  // inputs only) unless the value is below p.
  static inline bool from_bytes(fe& out, const std::uint8_t* in) noexcept {
    std::uint64_t all = 0x1ff;
    SEALWIRE_UNROLL
    for (int k = 0; k < 11; ++k) {
      std::uint64_t v = 0;
      for (int i = 0; i < 6; ++i) v = v << 8 | in[66 - 6 * (k + 1) + i];
      out.v[k] = v;
      if (k < 10 && v != m48) all = 0;
    }
    out.v[11] = 0;
    return out.v[10] <= 0x1ffffffffffULL && !(all != 0 && out.v[10] == m41);
  }

  static inline void to_bytes(std::uint8_t* out, const fe& a) noexcept {
    std::uint64_t r[11];
    canonical(r, a);
    SEALWIRE_UNROLL
    for (int k = 0; k < 11; ++k) {
      for (int i = 0; i < 6; ++i) out[66 - 6 * k - 1 - i] = static_cast<std::uint8_t>(r[k] >> (8 * i));
    }
    ct::wipe(r, sizeof r);
  }

  static inline std::uint64_t zero_mask(const fe& a) noexcept {
    std::uint64_t r[11];
    canonical(r, a);
    std::uint64_t acc = 0;
    SEALWIRE_UNROLL
    for (int k = 0; k < 11; ++k) acc |= r[k];
    ct::wipe(r, sizeof r);
    return ct::mask_if_zero(acc);
  }
};

}  // namespace
}  // namespace sealwire::crypto::detail
