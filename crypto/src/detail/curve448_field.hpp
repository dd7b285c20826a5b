// SPDX-License-Identifier: Apache-2.0
// The Curve448 field GF(p), p = 2^448 - 2^224 - 1 (RFC 7748 section 4.2), in
// portable 64-bit code (eight 56-bit limbs): shared by X448 (x448.cpp) and
// Ed448 (ed448.cpp). Inline, so each curve's formulas compile with the
// arithmetic in line.
#pragma once

#include <sealwire/crypto/ct.hpp>

#include "bytes.hpp"

#include <cstdint>

namespace sealwire::crypto::detail::curve448 {

constexpr std::uint64_t mask56 = (std::uint64_t{1} << 56) - 1;

// fe is a field element sum(l[i] * 2^(56 i)), not necessarily reduced. Limb
// 4 starts at bit 224, so the halves of p's "Goldilocks" shape are limbs
// 0-3 and 4-7. Bounds: mul, sqr and mul_small_add return "tight" elements
// (limbs below 2^56, limbs 1 and 5 below 2^56 + 2^14); sums and differences
// of tight elements have limbs below 2^59, which mul and sqr accept. The
// eight bits of headroom per limb are what let the ladder skip carrying
// after additions.
struct fe {
  std::uint64_t l[8];
};

inline u128 wide(std::uint64_t a, std::uint64_t b) noexcept { return static_cast<u128>(a) * b; }
inline std::uint64_t lo56(u128 x) noexcept { return static_cast<std::uint64_t>(x) & mask56; }

// Multiplication is Karatsuba over the 224-bit halves. With a = a0 + a1 t,
// b = b0 + b1 t, t = 2^224 and t^2 = t + 1 (mod p):
//   a b = (a0 b0 + a1 b1) + ((a0 + a1)(b0 + b1) - a0 b0) t  (mod p),
// three 4x4 half products (p0 = a0 b0, p1 = a1 b1, s = (a0 + a1)(b0 + b1),
// seven columns each) instead of one 8x8. Columns 4-6 of the t-term pass
// 2^448 and come back at columns 0-2 and 4-6, so output column j (j < 4)
// and column j + 4 need the same six half-product columns j and j + 4:
//   c[j]     = p0[j] + p1[j] + s[j+4] - p0[j+4]
//   c[j + 4] = p1[j+4] + s[j] - p0[j] + s[j+4]      (p0[7] = p1[7] = s[7] = 0)
// Each term of s dominates the matching term of p0, so every column is
// non-negative; with input limbs below 2^59 it is below 2^123. The columns
// are built a pair at a time and carried at once, which keeps few
// double-width sums alive.

// add_dot<K, I, Last> adds (Sign > 0) or subtracts the column sum
// x[i] y[K - i], i = I..Last, into acc, unrolled. Accumulating in place
// rather than summing each half-product column apart saves register moves.
template <int Sign, int K, int I, int Last>
inline void add_dot(u128& acc, const std::uint64_t* x, const std::uint64_t* y) noexcept {
  if constexpr (I <= Last) {
    if constexpr (Sign > 0) {
      acc += wide(x[I], y[K - I]);
    } else {
      acc -= wide(x[I], y[K - I]);
    }
    add_dot<Sign, K, I + 1, Last>(acc, x, y);
  }
}

// add_sq_dot is add_dot for y = x with each cross product taken once, from
// the doubled limbs d = 2x.
template <int Sign, int K, int I, int Last>
inline void add_sq_dot(u128& acc, const std::uint64_t* x, const std::uint64_t* d) noexcept {
  if constexpr (I <= Last && 2 * I <= K) {
    const u128 term = 2 * I == K ? wide(x[I], x[I]) : wide(d[I], x[K - I]);
    if constexpr (Sign > 0) {
      acc += term;
    } else {
      acc -= term;
    }
    add_sq_dot<Sign, K, I + 1, Last>(acc, x, d);
  }
}

// carry holds the running carries of the two column chains (limbs 0-3 and
// 4-7), which run side by side to halve the dependency.
struct carry {
  u128 lo = 0, hi = 0;
};

// put stores column pair j of the product and passes its carries on.
inline void put(std::uint64_t (&r)[8], carry& c, int j, u128 col_lo, u128 col_hi) noexcept {
  c.lo += col_lo;
  c.hi += col_hi;
  r[j] = lo56(c.lo);
  r[j + 4] = lo56(c.hi);
  c.lo >>= 56;
  c.hi >>= 56;
}

// finish places the carries out of limbs 3 (weight 2^224: limb 4) and 7
// (weight 2^448 = 2^224 + 1: limbs 4 and 0). Columns plus carries stay
// below 2^124, so the carries are below 2^68 and limbs 1 and 5 end below
// 2^56 + 2^14.
inline void finish(fe& out, std::uint64_t (&r)[8], const carry& c) noexcept {
  const u128 x0 = r[0] + c.hi;
  const u128 x4 = r[4] + c.lo + c.hi;
  out.l[0] = lo56(x0);
  out.l[1] = r[1] + static_cast<std::uint64_t>(x0 >> 56);
  out.l[2] = r[2];
  out.l[3] = r[3];
  out.l[4] = lo56(x4);
  out.l[5] = r[5] + static_cast<std::uint64_t>(x4 >> 56);
  out.l[6] = r[6];
  out.l[7] = r[7];
}

// mul_pair computes output columns j and j + 4 of a b. p0[j] and s[j+4]
// appear in both; the other half-product columns go straight into the two
// sums. Intermediate values may wrap modulo 2^128; the final columns are
// the non-negative sums above, so the wrap cancels.
template <int J>
inline void mul_pair(std::uint64_t (&r)[8], carry& c, const std::uint64_t* x, const std::uint64_t* y,
                     const std::uint64_t* xs, const std::uint64_t* ys) noexcept {
  u128 p0_j = 0, s_j4 = 0;
  add_dot<1, J, 0, J>(p0_j, x, y);
  add_dot<1, J + 4, J + 1, 3>(s_j4, xs, ys);
  u128 lo = p0_j + s_j4, hi = s_j4 - p0_j;
  add_dot<1, J, 0, J>(lo, x + 4, y + 4);          // p1[j]
  add_dot<-1, J + 4, J + 1, 3>(lo, x, y);         // p0[j+4]
  add_dot<1, J + 4, J + 1, 3>(hi, x + 4, y + 4);  // p1[j+4]
  add_dot<1, J, 0, J>(hi, xs, ys);                // s[j]
  put(r, c, J, lo, hi);
}

// sqr_pair is mul_pair for a a.
template <int J>
inline void sqr_pair(std::uint64_t (&r)[8], carry& c, const std::uint64_t* x, const std::uint64_t* d,
                     const std::uint64_t* xs, const std::uint64_t* ds) noexcept {
  u128 p0_j = 0, s_j4 = 0;
  add_sq_dot<1, J, 0, J>(p0_j, x, d);
  add_sq_dot<1, J + 4, J + 1, 3>(s_j4, xs, ds);
  u128 lo = p0_j + s_j4, hi = s_j4 - p0_j;
  add_sq_dot<1, J, 0, J>(lo, x + 4, d + 4);
  add_sq_dot<-1, J + 4, J + 1, 3>(lo, x, d);
  add_sq_dot<1, J + 4, J + 1, 3>(hi, x + 4, d + 4);
  add_sq_dot<1, J, 0, J>(hi, xs, ds);
  put(r, c, J, lo, hi);
}

// mul: out = a * b (48 products) for limbs below 2^59; out may alias a or b.
inline void mul(fe& out, const fe& a, const fe& b) noexcept {
  const std::uint64_t* x = a.l;
  const std::uint64_t* y = b.l;
  const std::uint64_t xs[4] = {x[0] + x[4], x[1] + x[5], x[2] + x[6], x[3] + x[7]};
  const std::uint64_t ys[4] = {y[0] + y[4], y[1] + y[5], y[2] + y[6], y[3] + y[7]};
  std::uint64_t r[8];
  carry c;
  mul_pair<0>(r, c, x, y, xs, ys);
  mul_pair<1>(r, c, x, y, xs, ys);
  mul_pair<2>(r, c, x, y, xs, ys);
  mul_pair<3>(r, c, x, y, xs, ys);
  finish(out, r, c);
}

// sqr: out = a^2 (30 products), with the bounds of mul.
inline void sqr(fe& out, const fe& a) noexcept {
  const std::uint64_t* x = a.l;
  const std::uint64_t d[8] = {2 * x[0], 2 * x[1], 2 * x[2], 2 * x[3], 2 * x[4], 2 * x[5], 2 * x[6], 2 * x[7]};
  const std::uint64_t xs[4] = {x[0] + x[4], x[1] + x[5], x[2] + x[6], x[3] + x[7]};
  const std::uint64_t ds[4] = {2 * xs[0], 2 * xs[1], 2 * xs[2], 2 * xs[3]};
  std::uint64_t r[8];
  carry c;
  sqr_pair<0>(r, c, x, d, xs, ds);
  sqr_pair<1>(r, c, x, d, xs, ds);
  sqr_pair<2>(r, c, x, d, xs, ds);
  sqr_pair<3>(r, c, x, d, xs, ds);
  finish(out, r, c);
}

// sqr_n: out = a^(2^n); n is public (the inversion chain).
inline void sqr_n(fe& out, const fe& a, int n) noexcept {
  sqr(out, a);
  for (int i = 1; i < n; ++i) sqr(out, out);
}

// limbwise runs f(0) ... f(7) in line: GCC keeps short loops rolled at
// -O2, and the ladder's limb-wise steps are too small to pay for a loop.
template <class F>
inline void limbwise(F&& f) noexcept {
  f(0);
  f(1);
  f(2);
  f(3);
  f(4);
  f(5);
  f(6);
  f(7);
}

// Limb i of 4p, which a subtraction adds so that no limb of a - b goes
// negative: 2^58 - 4, and 2^58 - 8 in limb 4 (from the -2^224 term of p),
// above any limb of a tight b.
constexpr std::uint64_t four_p(int i) noexcept { return i == 4 ? 4 * (mask56 - 1) : 4 * mask56; }

// add_sub: sum = a + b and diff = a - b of tight a and b (limbs below 2^58
// and 2^59); the outputs may alias the inputs.
inline void add_sub(fe& sum, fe& diff, const fe& a, const fe& b) noexcept {
  limbwise([&](int i) {
    const std::uint64_t x = a.l[i], y = b.l[i];
    sum.l[i] = x + y;
    diff.l[i] = x + four_p(i) - y;
  });
}

inline void sub(fe& out, const fe& a, const fe& b) noexcept {
  limbwise([&](int i) { out.l[i] = a.l[i] + four_p(i) - b.l[i]; });
}

// add: out = a + b limb by limb, without carrying: tight inputs give limbs
// below 2^58, which mul, sqr and the subtrahend of sub accept.
inline void add(fe& out, const fe& a, const fe& b) noexcept {
  limbwise([&](int i) { out.l[i] = a.l[i] + b.l[i]; });
}

// neg: out = 4p - a = -a (mod p) for limbs of a no larger than 4p's
// (below 2^58 - 8); the result's limbs are below 2^58.
inline void neg(fe& out, const fe& a) noexcept {
  limbwise([&](int i) { out.l[i] = four_p(i) - a.l[i]; });
}

// cmov: out = a when mask is all ones and unchanged when it is zero, with
// the same loads and stores either way.
inline void cmov(fe& out, const fe& a, std::uint64_t mask) noexcept {
  limbwise([&](int i) { out.l[i] ^= mask & (out.l[i] ^ a.l[i]); });
}

// mul_small_add: out = a * k + b for a constant k < 2^16 (columns below 2^76).
// Folding the addition in saves a pass over the limbs.
inline void mul_small_add(fe& out, const fe& a, std::uint64_t k, const fe& b) noexcept {
  std::uint64_t r[8];
  carry c;
  put(r, c, 0, wide(a.l[0], k) + b.l[0], wide(a.l[4], k) + b.l[4]);
  put(r, c, 1, wide(a.l[1], k) + b.l[1], wide(a.l[5], k) + b.l[5]);
  put(r, c, 2, wide(a.l[2], k) + b.l[2], wide(a.l[6], k) + b.l[6]);
  put(r, c, 3, wide(a.l[3], k) + b.l[3], wide(a.l[7], k) + b.l[7]);
  finish(out, r, c);
}

// pow_p34: out = a^((p-3)/4), the exponent of the square root in RFC 8032
// 5.2.3 and, squared twice and times a, of the inverse: p - 2 is, from the
// top, 223 ones, a zero, 222 ones, a zero and a one, and (p-3)/4 is its
// first 446 bits. The chain builds r_n = a^(2^n - 1) for the runs of ones:
// 451 squarings and 12 multiplications, the same sequence for every input.
inline void pow_p34(fe& out, const fe& a) noexcept {
  fe r3, r6, r30, r, t;
  sqr(t, a);
  mul(t, t, a);  // r2
  sqr(t, t);
  mul(r3, t, a);
  sqr_n(t, r3, 3);
  mul(r6, t, r3);
  sqr_n(t, r6, 6);
  mul(r, t, r6);  // r12
  sqr_n(t, r, 12);
  mul(r, t, r);  // r24
  sqr_n(t, r, 6);
  mul(r30, t, r6);
  sqr_n(t, r, 24);
  mul(r, t, r);  // r48
  sqr_n(t, r, 48);
  mul(r, t, r);  // r96
  sqr_n(t, r, 96);
  mul(r, t, r);  // r192
  sqr_n(t, r, 30);
  mul(r, t, r30);  // r222
  sqr(t, r);
  mul(t, t, a);  // r223
  sqr_n(t, t, 223);
  mul(out, t, r);  // exponent: 223 ones, a zero, 222 ones
  ct::wipe_object(r3);
  ct::wipe_object(r6);
  ct::wipe_object(r30);
  ct::wipe_object(r);
  ct::wipe_object(t);
}

// invert: out = a^(p-2) = a^-1 (Fermat; RFC 7748 section 5 computes z^-1
// this way), 0 for 0.
inline void invert(fe& out, const fe& a) noexcept {
  fe t;
  pow_p34(t, a);
  sqr_n(t, t, 2);
  mul(out, t, a);
  ct::wipe_object(t);
}

// decode reads 56 little-endian bytes as eight 56-bit limbs. Every value
// below 2^448 is taken as is: RFC 7748 section 5 has non-canonical
// u-coordinates (p <= u < 2^448) reduced modulo p, which the arithmetic does.
inline void decode(fe& out, const std::uint8_t* in) noexcept {
  for (int i = 0; i < 7; ++i) out.l[i] = detail::load64_le(in + 7 * i) & mask56;
  out.l[7] = detail::load64_le(in + 48) >> 8;
}

// encode writes the canonical value (0 <= a < p) of a tight element, as
// RFC 7748 section 5 requires of the output. A tight element is below
// 2^448 + 2^295 < 2p, so one conditional subtraction of p suffices.
inline void encode(std::uint8_t* out, const fe& a) noexcept {
  std::uint64_t l[8];
  for (int i = 0; i < 8; ++i) l[i] = a.l[i];
  // Subtract p with a signed borrow chain: the borrow out of the top is -1
  // exactly when the value was below p.
  std::int64_t borrow = 0;
  for (int i = 0; i < 8; ++i) {
    const std::uint64_t p_limb = i == 4 ? mask56 - 1 : mask56;
    borrow += static_cast<std::int64_t>(l[i]) - static_cast<std::int64_t>(p_limb);
    l[i] = static_cast<std::uint64_t>(borrow) & mask56;
    borrow >>= 56;  // arithmetic shift (C++20)
  }
  // Add p back when the subtraction went negative; the carry out of the
  // top is the 2^448 the borrow took, and is dropped.
  const std::uint64_t add_back = static_cast<std::uint64_t>(borrow);  // 0 or all ones
  std::uint64_t carry = 0;
  for (int i = 0; i < 8; ++i) {
    const std::uint64_t p_limb = i == 4 ? mask56 - 1 : mask56;
    carry += l[i] + (p_limb & add_back);
    l[i] = carry & mask56;
    carry >>= 56;
  }
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 7; ++j) out[7 * i + j] = static_cast<std::uint8_t>(l[i] >> (8 * j));
  }
  ct::wipe(l, sizeof l);
}

}  // namespace sealwire::crypto::detail::curve448
