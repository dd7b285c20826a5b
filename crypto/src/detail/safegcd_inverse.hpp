// SPDX-License-Identifier: Apache-2.0
// Constant-time modular inversion by Bernstein and Yang's divsteps ("Fast
// constant-time gcd computation and modular inversion", 2019,
// https://eprint.iacr.org/2019/266, sections 8 and 11), for an odd modulus
// M < 2^256 (P-256's p and n): a fixed number of steps in batches of 59 on
// the low words, each batch's transition matrix applied to the full numbers.
// libsecp256k1's constant-time inversion (modinv64) takes the same route,
// batches of 59 steps on signed 62-bit limbs; this code is written from the
// paper, with its own batch split (two halves of packed rows) and reduction.
#pragma once

#include <sealwire/crypto/ct.hpp>

#include <cstddef>
#include <cstdint>

namespace sealwire::crypto::detail {
namespace {

// Numbers here are five signed 62-bit limbs, value = sum l_i 2^(62 i): l_0..l_3
// in [0, 2^62) between operations, l_4 signed and carrying the sign. That leaves
// room for the signed f and g and for the products of a batch's update.
struct safegcd_num {
  std::int64_t l[5];
};

// safegcd_modulus: M in limbs, and M^-1 mod 2^62 for the exact division of
// the d, e updates.
struct safegcd_modulus {
  safegcd_num m;
  std::uint64_t inverse_mod_2_62;
};

namespace safegcd {

__extension__ using i128 = __int128;
inline constexpr std::uint64_t mask62 = (std::uint64_t{1} << 62) - 1;

// The number of divsteps. The steps are the "half-delta" variant: divstep
// with delta starting at 1/2 instead of 1 (delta below is 2 delta, odd). For
// the original divstep the paper bounds the steps for 256-bit inputs at
// floor((49 * 256 + 57) / 17) = 741 (theorem 11.2); Pieter Wuille's convex
// hull analysis of the half-delta variant (github.com/sipa/safegcd-bounds,
// the bound libsecp256k1 relies on) shows that 590 steps bring g to 0 for
// every modulus f below 2^256 and every 0 <= g < f. Extra steps with g = 0
// change nothing (f stays, g stays 0, d stays), so 10 batches of 59 are
// exactly that bound.
inline constexpr int steps_per_batch = 59;
inline constexpr int batches = 10;
static_assert(steps_per_batch * batches >= 590);

// A batch's transition matrix, scaled by 2^62: after the batch
// 2^62 (f', g') = (u f + v g, q f + r g) exactly. |u| + |v| and |q| + |r| are
// at most 2^62 (divsteps).
struct matrix {
  std::int64_t u, v, q, r;
};

// from_words / to_words: four little-endian 64-bit words, below 2^256, to and
// from limbs (to_words wants the limbs normalized and the value in [0, 2^256)).
inline void from_words(safegcd_num& out, const std::uint64_t* w) noexcept {
  out.l[0] = static_cast<std::int64_t>(w[0] & mask62);
  out.l[1] = static_cast<std::int64_t>((w[0] >> 62 | w[1] << 2) & mask62);
  out.l[2] = static_cast<std::int64_t>((w[1] >> 60 | w[2] << 4) & mask62);
  out.l[3] = static_cast<std::int64_t>((w[2] >> 58 | w[3] << 6) & mask62);
  out.l[4] = static_cast<std::int64_t>(w[3] >> 56);
}

inline void to_words(std::uint64_t* w, const safegcd_num& a) noexcept {
  const auto l0 = static_cast<std::uint64_t>(a.l[0]), l1 = static_cast<std::uint64_t>(a.l[1]);
  const auto l2 = static_cast<std::uint64_t>(a.l[2]), l3 = static_cast<std::uint64_t>(a.l[3]);
  const auto l4 = static_cast<std::uint64_t>(a.l[4]);
  w[0] = l0 | l1 << 62;
  w[1] = l1 >> 2 | l2 << 60;
  w[2] = l2 >> 4 | l3 << 58;
  w[3] = l3 >> 6 | l4 << 56;
}

// divsteps_packed runs k <= 30 half-delta divsteps on the low words of f and
// g (the first k steps depend only on the low k bits: paper section 8) and
// writes their matrix, scaled by 2^k: 2^k (f_k, g_k) = (u f + v g, q f + r g).
// One step, with f odd:
//   delta > 0 and g odd: (delta, f, g) -> (1 - delta, g, (g - f) / 2)
//   g odd otherwise:     (delta, f, g) -> (1 + delta, f, (g + f) / 2)
//   g even:              (delta, f, g) -> (1 + delta, f, g / 2)
// without branches, by masks pos (delta > 0), odd (g odd) and swap = pos &
// odd (the first case): g' = (g + t) / 2 for t = -f, f or 0 (below), f' = g
// under swap, and delta' = (swap ? -delta : delta) + 1, kept as
// nd = -2 delta (odd, so the test delta > 0 is nd's sign, exact).
// The matrix rows follow f and g: instead of halving g's row, f's row
// doubles, so the rows hold 2^i (f_i, g_i) after i steps. Each step at most
// doubles |u| + |v| and |q| + |r| (the new g row is the old one plus or
// minus the f row, the new f row twice one of them), so after k <= 30 steps
// every entry is at most 2^30 in magnitude. That lets each row live in one
// word, u + v 2^32 and q + r 2^32 (mod 2^64): the steps are linear in the
// rows (select, add, negate, double), so the packed words follow them, and
// two entries cost the operations of one.
template <int k>
inline void divsteps_packed(std::uint64_t& nd, std::uint64_t f, std::uint64_t g, std::int64_t (&m)[4]) noexcept {
  static_assert(k >= 1 && k <= 30);
  std::uint64_t fr = 1, gr = std::uint64_t{1} << 32;  // the rows (u, v) = (1, 0), (q, r) = (0, 1)
  for (int i = 0; i < k; ++i) {
    const std::uint64_t odd = ct::value_barrier(0 - (g & 1));
    const std::uint64_t swap = static_cast<std::uint64_t>(static_cast<std::int64_t>(nd) >> 63) & odd;
    const std::uint64_t nf = f ^ ((f ^ g) & swap), nfr = fr ^ ((fr ^ gr) & swap);
    // (g + term) / 2 as (g >> 1) + (g & 1) + (((f >> 1) & odd) ^ swap): with
    // f and g odd, (g - f) / 2 = (g >> 1) - (f >> 1) and (g + f) / 2 =
    // (g >> 1) + (f >> 1) + 1 (~x + 1 = -x); shorter on g's path than the
    // halving after the sum.
    const auto fh = static_cast<std::uint64_t>(static_cast<std::int64_t>(f) >> 1);
    g = (static_cast<std::uint64_t>(static_cast<std::int64_t>(g) >> 1) + (g & 1)) + ((fh & odd) ^ swap);
    gr = (gr - swap) + ((fr & odd) ^ swap);
    nd = (nd ^ swap) + (swap | ~std::uint64_t{1});  // -swap - 2 is swap | -2 for swap 0 or -1
    f = nf;
    fr = nfr << 1;  // f's row doubles instead of g's halving
  }
  // Unpack: the low half sign-extended is u (|u| < 2^31), the rest v 2^32.
  const auto u = static_cast<std::int64_t>(fr << 32) >> 32, q = static_cast<std::int64_t>(gr << 32) >> 32;
  m[0] = u;
  m[1] = static_cast<std::int64_t>(fr - static_cast<std::uint64_t>(u)) >> 32;
  m[2] = q;
  m[3] = static_cast<std::int64_t>(gr - static_cast<std::uint64_t>(q)) >> 32;
}

// divsteps runs steps_per_batch = 30 + 29 steps on the low words of f and g
// and returns their matrix scaled by 2^62. The second half starts from the
// first half's f and g, 2^-30 (u1 f + v1 g, q1 f + r1 g): the words' top 30
// bits are lost to the shift, the 34 exact ones cover the 29 steps. The
// product M2 M1 of the halves (scaled by 2^59; the row sums of absolute
// values multiply, at most 2^29 2^30) is multiplied by 8: |u| + |v| and
// |q| + |r| at most 2^62, every entry an int64.
inline matrix divsteps(std::int64_t& delta2, std::uint64_t f, std::uint64_t g) noexcept {
  std::uint64_t nd = 0 - static_cast<std::uint64_t>(delta2);
  std::int64_t m1[4], m2[4];
  divsteps_packed<30>(nd, f, g, m1);
  const auto u1 = static_cast<std::uint64_t>(m1[0]), v1 = static_cast<std::uint64_t>(m1[1]);
  const auto q1 = static_cast<std::uint64_t>(m1[2]), r1 = static_cast<std::uint64_t>(m1[3]);
  const auto f30 = static_cast<std::uint64_t>(static_cast<std::int64_t>(u1 * f + v1 * g) >> 30);
  const auto g30 = static_cast<std::uint64_t>(static_cast<std::int64_t>(q1 * f + r1 * g) >> 30);
  divsteps_packed<steps_per_batch - 30>(nd, f30, g30, m2);
  delta2 = static_cast<std::int64_t>(0 - nd);
  return {8 * (m2[0] * m1[0] + m2[1] * m1[2]), 8 * (m2[0] * m1[1] + m2[1] * m1[3]),
          8 * (m2[2] * m1[0] + m2[3] * m1[2]), 8 * (m2[2] * m1[1] + m2[3] * m1[3])};
}

// update_fg: (f, g) = (u f + v g, q f + r g) / 2^62, exact (the batch made the
// low 62 bits zero). |u| + |v| <= 2^62, so |f'| <= max(|f|, |g|): f and g never
// leave [-M, M]. Each product is below 2^124 in magnitude and a limb's sum
// below 2^126: int128 holds it.
inline void update_fg(safegcd_num& f, safegcd_num& g, const matrix& t) noexcept {
  i128 acc_f = static_cast<i128>(t.u) * f.l[0] + static_cast<i128>(t.v) * g.l[0];
  i128 acc_g = static_cast<i128>(t.q) * f.l[0] + static_cast<i128>(t.r) * g.l[0];
  acc_f >>= 62;
  acc_g >>= 62;
  for (int i = 1; i < 5; ++i) {
    acc_f += static_cast<i128>(t.u) * f.l[i] + static_cast<i128>(t.v) * g.l[i];
    acc_g += static_cast<i128>(t.q) * f.l[i] + static_cast<i128>(t.r) * g.l[i];
    f.l[i - 1] = static_cast<std::int64_t>(static_cast<std::uint64_t>(acc_f) & mask62);
    g.l[i - 1] = static_cast<std::int64_t>(static_cast<std::uint64_t>(acc_g) & mask62);
    acc_f >>= 62;
    acc_g >>= 62;
  }
  f.l[4] = static_cast<std::int64_t>(acc_f);
  g.l[4] = static_cast<std::int64_t>(acc_g);
}

// add_masked: a += M & mask, limbs renormalized (a's top limb takes the carry).
inline void add_masked(safegcd_num& a, const safegcd_num& m, std::uint64_t mask) noexcept {
  std::int64_t c = 0;
  for (int i = 0; i < 4; ++i) {
    c += a.l[i] + static_cast<std::int64_t>(static_cast<std::uint64_t>(m.l[i]) & mask);
    a.l[i] = static_cast<std::int64_t>(static_cast<std::uint64_t>(c) & mask62);
    c >>= 62;
  }
  a.l[4] += c + static_cast<std::int64_t>(static_cast<std::uint64_t>(m.l[4]) & mask);
}

// sign_mask: all ones when a (normalized) is negative.
inline std::uint64_t sign_mask(const safegcd_num& a) noexcept {
  return static_cast<std::uint64_t>(a.l[4] >> 63);
}

// reduce: a in (-M, 2M) to [0, M): M added when negative, then M taken away
// and added back when that went negative.
inline void reduce(safegcd_num& a, const safegcd_modulus& mod) noexcept {
  add_masked(a, mod.m, sign_mask(a));
  safegcd_num neg_m;
  for (int i = 0; i < 5; ++i) neg_m.l[i] = -mod.m.l[i];
  add_masked(a, neg_m, ~std::uint64_t{0});
  add_masked(a, mod.m, sign_mask(a));
}

// update_de: (d, e) = (u d + v e, q d + r e) / 2^62 mod M for d, e in [0, M):
// the multiples kd M and ke M (kd, ke in [0, 2^62), from the low limbs and
// M^-1 mod 2^62) make the low 62 bits zero, so the division is exact. The
// quotients lie in (-M, 2M) (|u d + v e| < 2^62 M, kd M < 2^62 M) and are
// brought back to [0, M). Products below 2^124, three to a limb: int128.
inline void update_de(safegcd_num& d, safegcd_num& e, const matrix& t, const safegcd_modulus& mod) noexcept {
  const auto d0 = static_cast<std::uint64_t>(d.l[0]), e0 = static_cast<std::uint64_t>(e.l[0]);
  const auto u = static_cast<std::uint64_t>(t.u), v = static_cast<std::uint64_t>(t.v);
  const auto q = static_cast<std::uint64_t>(t.q), r = static_cast<std::uint64_t>(t.r);
  const std::uint64_t kd = (0 - (u * d0 + v * e0) * mod.inverse_mod_2_62) & mask62;
  const std::uint64_t ke = (0 - (q * d0 + r * e0) * mod.inverse_mod_2_62) & mask62;
  i128 acc_d = static_cast<i128>(t.u) * d.l[0] + static_cast<i128>(t.v) * e.l[0] +
            static_cast<i128>(static_cast<std::int64_t>(kd)) * mod.m.l[0];
  i128 acc_e = static_cast<i128>(t.q) * d.l[0] + static_cast<i128>(t.r) * e.l[0] +
            static_cast<i128>(static_cast<std::int64_t>(ke)) * mod.m.l[0];
  acc_d >>= 62;
  acc_e >>= 62;
  for (int i = 1; i < 5; ++i) {
    acc_d += static_cast<i128>(t.u) * d.l[i] + static_cast<i128>(t.v) * e.l[i] +
          static_cast<i128>(static_cast<std::int64_t>(kd)) * mod.m.l[i];
    acc_e += static_cast<i128>(t.q) * d.l[i] + static_cast<i128>(t.r) * e.l[i] +
          static_cast<i128>(static_cast<std::int64_t>(ke)) * mod.m.l[i];
    d.l[i - 1] = static_cast<std::int64_t>(static_cast<std::uint64_t>(acc_d) & mask62);
    e.l[i - 1] = static_cast<std::int64_t>(static_cast<std::uint64_t>(acc_e) & mask62);
    acc_d >>= 62;
    acc_e >>= 62;
  }
  d.l[4] = static_cast<std::int64_t>(acc_d);
  e.l[4] = static_cast<std::int64_t>(acc_e);
  reduce(d, mod);
  reduce(e, mod);
}

}  // namespace safegcd

// make_safegcd_modulus: the limbs of an odd M < 2^256 (four little-endian
// words) and M^-1 mod 2^62 by Newton's iteration (each step doubles the
// correct low bits: x = M is right mod 8 for odd M).
constexpr safegcd_modulus make_safegcd_modulus(const std::uint64_t (&w)[4]) noexcept {
  safegcd_modulus mod{};
  constexpr std::uint64_t mask62 = (std::uint64_t{1} << 62) - 1;
  mod.m.l[0] = static_cast<std::int64_t>(w[0] & mask62);
  mod.m.l[1] = static_cast<std::int64_t>((w[0] >> 62 | w[1] << 2) & mask62);
  mod.m.l[2] = static_cast<std::int64_t>((w[1] >> 60 | w[2] << 4) & mask62);
  mod.m.l[3] = static_cast<std::int64_t>((w[2] >> 58 | w[3] << 6) & mask62);
  mod.m.l[4] = static_cast<std::int64_t>(w[3] >> 56);
  std::uint64_t x = w[0];
  for (int i = 0; i < 5; ++i) x *= 2 - w[0] * x;
  mod.inverse_mod_2_62 = x & mask62;
  return mod;
}

// safegcd_invert: out = scale / x mod M, fully reduced, for x in [0, M) and
// scale in [1, M) (four little-endian words each; scale 0 could give M);
// 0 when x = 0. A field in Montgomery form passes R^2 mod M as scale:
// (a R)^-1 R^2 = a^-1 R. The same operations run for every x; the state (f,
// g, d, e, the matrix, delta) is wiped at the end, but, as elsewhere, not the
// inlined steps' registers and stack spill slots (which hold at most the
// last batch's words, when g is almost always 0 already).
//
// Starting from f = M, g = x, d = 0, e = scale, every batch applies its matrix
// to (f, g) and, mod M and divided by 2^62, to (d, e), so throughout
// d = T01 scale / 2^(62 k) and f = (T00 M + T01 x) / 2^(62 k) for the
// product T of the matrices so far: f = d x / scale (mod M). When g reaches 0,
// f = +-gcd(M, x) = +-1 (M prime, 0 < x < M), so scale / x = +-d, the sign
// that of f. For x = 0, g starts at 0: f stays M and d stays 0.
inline void safegcd_invert(std::uint64_t* out, const std::uint64_t* x, const std::uint64_t* scale,
                           const safegcd_modulus& mod) noexcept {
  struct state {
    safegcd_num f, g, d, e, t;
    safegcd::matrix m;
    std::int64_t delta2;
  } s;
  s.f = mod.m;
  safegcd::from_words(s.g, x);
  s.d = safegcd_num{};
  safegcd::from_words(s.e, scale);
  s.delta2 = 1;
  for (int b = 0; b < safegcd::batches; ++b) {
    // The low 64 bits of f and g (limbs 0 and 1, two's complement mod 2^64).
    const std::uint64_t f_lo = static_cast<std::uint64_t>(s.f.l[0]) | static_cast<std::uint64_t>(s.f.l[1]) << 62;
    const std::uint64_t g_lo = static_cast<std::uint64_t>(s.g.l[0]) | static_cast<std::uint64_t>(s.g.l[1]) << 62;
    s.m = safegcd::divsteps(s.delta2, f_lo, g_lo);
    safegcd::update_fg(s.f, s.g, s.m);
    safegcd::update_de(s.d, s.e, s.m, mod);
  }
  // out = d, or M - d when f = -1 (d is nonzero then: x was).
  const std::uint64_t neg = safegcd::sign_mask(s.f);
  for (int i = 0; i < 5; ++i) s.t.l[i] = mod.m.l[i] - s.d.l[i];
  safegcd::add_masked(s.t, safegcd_num{}, 0);  // renormalize the limbs
  for (int i = 0; i < 5; ++i) {
    const auto di = static_cast<std::uint64_t>(s.d.l[i]), ti = static_cast<std::uint64_t>(s.t.l[i]);
    s.d.l[i] = static_cast<std::int64_t>(di ^ ((di ^ ti) & neg));
  }
  safegcd::to_words(out, s.d);
  ct::wipe_object(s);
}

}  // namespace
}  // namespace sealwire::crypto::detail
