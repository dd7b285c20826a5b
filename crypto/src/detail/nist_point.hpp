// SPDX-License-Identifier: Apache-2.0
// Points of NIST P-256, P-384 and P-521 (a = -3): the complete projective
// formulas of Renes, Costello and Batina (2016, algorithms 4-6), Jacobian
// doublings for runs of doublings, inversion (divsteps for P-256, Fermat
// otherwise), affine conversion,
// constant-time table selection and SEC 1 point decoding, written once over
// the field. Scalar multiplication is in nist_scalar_mul.hpp.
#pragma once

#include <sealwire/crypto/ct.hpp>

#include "nist_curves.hpp"
#include "nist_field.hpp"
#include "nist_table_select.hpp"
#include "safegcd_inverse.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>

// The same code generation settings as nist_field.hpp (no vectorizer, see
// there), for the point formulas built on it.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("no-tree-vectorize")
#endif

namespace sealwire::crypto::detail {

namespace {

template <class Curve>
struct ec_point {
  using F = typename Curve::field;
  using fe = typename F::fe;
  static constexpr std::size_t L = Curve::bytes;

  // A projective point (X : Y : Z), x = X/Z, y = Y/Z; the identity is (0 : 1 : 0).
  struct point {
    fe x, y, z;
  };
  struct affine {
    fe x, y;
  };

  struct constants {
    fe b, one;
    affine g;
    constants() noexcept {
      const auto bb = from_hex<L>(Curve::b_hex);
      const auto gx = from_hex<L>(Curve::gx_hex);
      const auto gy = from_hex<L>(Curve::gy_hex);
      std::uint8_t one_be[L] = {};
      one_be[L - 1] = 1;
      static_cast<void>(F::from_bytes(b, bb.b));
      static_cast<void>(F::from_bytes(one, one_be));
      static_cast<void>(F::from_bytes(g.x, gx.b));
      static_cast<void>(F::from_bytes(g.y, gy.b));
    }
  };
  static const constants& k() noexcept {
    static const constants c;
    return c;
  }

  // temps holds the field temporaries of the point formulas below. During a
  // scalar multiplication by a secret scalar they are secret, so mul_var
  // and mul_base keep one in the state they wipe at their end: one wipe
  // per scalar multiplication instead of one per formula call. Callers on
  // public points pass a local one. `a` is the outer formula's, `b` the
  // tail's (add_tail, add_jacobian_tail), so that they never overlap.
  struct temps {
    fe a[7];
    fe b[8];
  };

  // cmov: r = a where mask is all ones, r kept where it is zero (mask is
  // 0 or all ones); the field's own cmov (cmov instructions) when it has one.
  static inline void cmov(fe& r, const fe& a, std::uint64_t mask) noexcept {
    if constexpr (requires(fe& x, const fe& y) { F::cmov(x, y, mask); }) {
      F::cmov(r, a, mask);
    } else {
      for (std::size_t i = 0; i < F::limbs; ++i) r.v[i] ^= mask & (r.v[i] ^ a.v[i]);
    }
  }

  // add: RCB 2016 algorithm 4 (complete, a = -3): any two points, including
  // equal ones, inverses and the identity. 12M + 2 multiplications by b.
  // out may alias either input.
  static void add(point& out, const point& p, const point& q, temps& w) noexcept {
    fe &t0 = w.a[0], &t1 = w.a[1], &t2 = w.a[2], &t3 = w.a[3], &t4 = w.a[4], &x3 = w.a[5], &y3 = w.a[6];
    F::mul(t0, p.x, q.x);
    F::mul(t1, p.y, q.y);
    F::mul(t2, p.z, q.z);
    F::add(t3, p.x, p.y);
    F::add(t4, q.x, q.y);
    F::mul(t3, t3, t4);
    F::add(t4, t0, t1);
    F::sub(t3, t3, t4);
    F::add(t4, p.y, p.z);
    F::add(x3, q.y, q.z);
    F::mul(t4, t4, x3);
    F::add(x3, t1, t2);
    F::sub(t4, t4, x3);
    F::add(x3, p.x, p.z);
    F::add(y3, q.x, q.z);
    F::mul(x3, x3, y3);
    F::add(y3, t0, t2);
    F::sub(y3, x3, y3);
    add_tail(out, t0, t1, t2, t3, t4, y3, w);
  }

  // add_tail is what RCB 2016 algorithms 4 and 5 share after their first
  // products: t0 = X1 X2, t1 = Y1 Y2, t3, t4 and y3 as the algorithms have
  // them, and zz = Z1 Z2 (Z1 for the mixed addition, where Z2 = 1).
  // Its own temporaries are w.b.
  static void add_tail(point& out, fe& t0, fe& t1, const fe& zz, const fe& t3, const fe& t4, fe& y3,
                       temps& w) noexcept {
    const fe& b = k().b;
    fe &t2 = w.b[0], &x3 = w.b[1], &z3 = w.b[2];
    F::mul(z3, b, zz);
    F::sub(x3, y3, z3);
    F::add(z3, x3, x3);
    F::add(x3, x3, z3);
    F::sub(z3, t1, x3);
    F::add(x3, t1, x3);
    F::mul(y3, b, y3);
    F::add(t1, zz, zz);
    F::add(t2, t1, zz);
    F::sub(y3, y3, t2);
    F::sub(y3, y3, t0);
    F::add(t1, y3, y3);
    F::add(y3, t1, y3);
    F::add(t1, t0, t0);
    F::add(t0, t1, t0);
    F::sub(t0, t0, t2);
    F::mul(t1, t4, y3);
    F::mul(t2, t0, y3);
    F::mul(y3, x3, z3);
    F::add(y3, y3, t2);
    F::mul(x3, t3, x3);
    F::sub(x3, x3, t1);
    F::mul(z3, t4, z3);
    F::mul(t1, t3, t0);
    F::add(z3, z3, t1);
    out.x = x3;
    out.y = y3;
    out.z = z3;
  }

  // add_affine: RCB 2016 algorithm 5 (mixed, a = -3): p any point, q affine
  // and not the identity. 11M + 2 multiplications by b.
  static void add_affine(point& out, const point& p, const affine& q, temps& w) noexcept {
    fe &t0 = w.a[0], &t1 = w.a[1], &t3 = w.a[2], &t4 = w.a[3], &y3 = w.a[4];
    F::mul(t0, p.x, q.x);
    F::mul(t1, p.y, q.y);
    F::add(t3, q.x, q.y);
    F::add(t4, p.x, p.y);
    F::mul(t3, t3, t4);
    F::add(t4, t0, t1);
    F::sub(t3, t3, t4);
    F::mul(t4, q.y, p.z);
    F::add(t4, t4, p.y);
    F::mul(y3, q.x, p.z);
    F::add(y3, y3, p.x);
    add_tail(out, t0, t1, p.z, t3, t4, y3, w);
  }

  // dbl: RCB 2016 algorithm 6 (doubling, a = -3), complete. 8M + 3S + 2
  // multiplications by b. out may alias p.
  static void dbl(point& out, const point& p, temps& w) noexcept {
    const fe& b = k().b;
    fe &t0 = w.a[0], &t1 = w.a[1], &t2 = w.a[2], &t3 = w.a[3], &x3 = w.a[4], &y3 = w.a[5], &z3 = w.a[6];
    F::sqr(t0, p.x);
    F::sqr(t1, p.y);
    F::sqr(t2, p.z);
    F::mul(t3, p.x, p.y);
    F::add(t3, t3, t3);
    F::mul(z3, p.x, p.z);
    F::add(z3, z3, z3);
    F::mul(y3, b, t2);
    F::sub(y3, y3, z3);
    F::add(x3, y3, y3);
    F::add(y3, x3, y3);
    F::sub(x3, t1, y3);
    F::add(y3, t1, y3);
    F::mul(y3, x3, y3);
    F::mul(x3, x3, t3);
    F::add(t3, t2, t2);
    F::add(t2, t2, t3);
    F::mul(z3, b, z3);
    F::sub(z3, z3, t2);
    F::sub(z3, z3, t0);
    F::add(t3, z3, z3);
    F::add(z3, z3, t3);
    F::add(t3, t0, t0);
    F::add(t0, t3, t0);
    F::sub(t0, t0, t2);
    F::mul(t0, t0, z3);
    F::add(y3, y3, t0);
    F::mul(t0, p.y, p.z);
    F::add(t0, t0, t0);
    F::mul(z3, t0, z3);
    F::sub(x3, x3, z3);
    F::mul(z3, t0, t1);
    F::add(z3, z3, z3);
    F::add(z3, z3, z3);
    out.x = x3;
    out.y = y3;
    out.z = z3;
  }

  // sqr_n: r = r^(2^n).
  static inline void sqr_n(fe& r, int n) noexcept {
    for (int i = 0; i < n; ++i) F::sqr(r, r);
  }

  // sqr_times: r = r^(2^n), by the field's own loop when it has one (the
  // P-256 mulx field's sqr_n keeps the value in registers), else sqr_n.
  template <int n>
  static inline void sqr_times(fe& r) noexcept {
    if constexpr (requires(fe& x) { F::template sqr_n<n>(x); }) {
      F::template sqr_n<n>(r);
    } else {
      sqr_n(r, n);
    }
  }

  // invert_p521: a^(p-2) for p = 2^521 - 1, by the chain of
  // x_k = a^(2^k - 1) (x_2k = x_k^(2^k) x_k): p - 2 = 4 (2^519 - 1) + 1, so
  // 13 multiplications where the 4-bit windows take about 130 (the
  // exponent is nearly all ones); the squarings are the same 521.
  static void invert_p521(fe& out, const fe& a) noexcept {
    struct state {
      fe x2, x3, x7, x8, t;
    } s;
    F::sqr(s.t, a);
    F::mul(s.x2, s.t, a);  // 2^2 - 1
    F::sqr(s.t, s.x2);
    F::mul(s.x3, s.t, a);  // 2^3 - 1
    s.t = s.x3;
    sqr_n(s.t, 1);
    F::mul(s.t, s.t, a);  // 2^4 - 1
    s.x8 = s.t;
    sqr_n(s.x8, 3);
    F::mul(s.x7, s.x8, s.x3);  // 2^7 - 1
    s.x8 = s.x7;
    sqr_n(s.x8, 1);
    F::mul(s.x8, s.x8, a);  // 2^8 - 1
    s.t = s.x8;
    for (int k = 8; k < 512; k *= 2) {
      fe u = s.t;
      sqr_n(u, k);
      F::mul(s.t, u, s.t);  // 2^(2k) - 1
      ct::wipe_object(u);
    }
    sqr_n(s.t, 7);
    F::mul(s.t, s.t, s.x7);  // 2^519 - 1
    sqr_n(s.t, 2);
    F::mul(out, s.t, a);  // 2^521 - 3
    ct::wipe_object(s);
  }

  // invert_p256: a^(p-2) for p = 2^256 - 2^224 + 2^192 + 2^96 - 1. In
  // 32-bit words p - 2 is ffffffff 00000001 0 0 0 ffffffff ffffffff
  // fffffffd, so with x_k = a^(2^k - 1) (x_(j+k) = x_j^(2^k) x_k) it is
  // x32, then a after 32 squarings, x32 after 128, x32 after 32, x30 after
  // 30 and a after 2: 255 squarings and 12 multiplications, where the 4-bit
  // windows take about 75 multiplications.
  static void invert_p256(fe& out, const fe& a) noexcept {
    struct state {
      fe x2, x3, x6, x12, x15, x30, x32, t;
    } s;
    F::sqr(s.t, a);
    F::mul(s.x2, s.t, a);
    F::sqr(s.t, s.x2);
    F::mul(s.x3, s.t, a);
    s.t = s.x3;
    sqr_times<3>(s.t);
    F::mul(s.x6, s.t, s.x3);
    s.t = s.x6;
    sqr_times<6>(s.t);
    F::mul(s.x12, s.t, s.x6);
    s.t = s.x12;
    sqr_times<3>(s.t);
    F::mul(s.x15, s.t, s.x3);
    s.t = s.x15;
    sqr_times<15>(s.t);
    F::mul(s.x30, s.t, s.x15);
    s.t = s.x30;
    sqr_times<2>(s.t);
    F::mul(s.x32, s.t, s.x2);
    s.t = s.x32;
    sqr_times<32>(s.t);
    F::mul(s.t, s.t, a);
    sqr_times<128>(s.t);
    F::mul(s.t, s.t, s.x32);
    sqr_times<32>(s.t);
    F::mul(s.t, s.t, s.x32);
    sqr_times<30>(s.t);
    F::mul(s.t, s.t, s.x30);
    sqr_times<2>(s.t);
    F::mul(out, s.t, a);
    ct::wipe_object(s);
  }

  // invert_safegcd_p256: 1 / a for P-256 by Bernstein-Yang divsteps
  // (safegcd_inverse.hpp) on the Montgomery limbs a R (both P-256 fields hold
  // a R mod p fully reduced): scaled by R^2, (a R)^-1 R^2 = a^-1 R. About
  // 4.4k TSC cycles on either field, where invert_p256's chain takes 8.2k on
  // the mulx field and 12.5k on the portable one.
  static void invert_safegcd_p256(fe& out, const fe& a) noexcept {
    using M = mont_field<p256_params>;
    static constexpr safegcd_modulus mod = make_safegcd_modulus(M::p.v);
    safegcd_invert(out.v, a.v, M::r2.v, mod);
  }

  // invert: 1 / a, the same operations for every a, and 0 maps to 0: by
  // divsteps for P-256 (invert_safegcd_p256; invert_p256's Fermat chain
  // stays as the tests' reference), Fermat a^(p-2) otherwise: the addition
  // chain for P-521, 4-bit windows over the public exponent (pow_public)
  // for P-384.
  static void invert(fe& out, const fe& a) noexcept {
    if constexpr (Curve::bits == 521) {
      invert_p521(out, a);
    } else if constexpr (Curve::bits == 256) {
      invert_safegcd_p256(out, a);
    } else {
      static constexpr auto e = from_hex<L>(Curve::p_minus_2_hex);
      pow_public<F>(out, a, e.b, L, k().one);
    }
  }

  // select sets out = table[idx] reading every entry (idx < n is secret;
  // idx >= n gives all-zero limbs): nist_table_select.hpp, in the widest
  // vector words the including kernel is built for.
  template <class T>
  static inline void select(T& out, const T* table, std::size_t n, std::uint64_t idx) noexcept {
    table_select(out, table, n, idx);
  }

  // to_affine writes x (and y when wanted) as canonical big-endian bytes;
  // returns all ones when p is the identity (then the output is zero).
  static std::uint64_t to_affine(std::uint8_t* x_out, std::uint8_t* y_out, const point& p) noexcept {
    fe zi, t;
    invert(zi, p.z);
    F::mul(t, p.x, zi);
    F::to_bytes(x_out, t);
    if (y_out != nullptr) {
      F::mul(t, p.y, zi);
      F::to_bytes(y_out, t);
    }
    ct::wipe_object(zi);
    ct::wipe_object(t);
    return F::zero_mask(p.z);
  }

  // Jacobian coordinates (X : Y : Z), x = X/Z^2, y = Y/Z^3, serve only the
  // doublings of mul_var; the identity is kept as (1 : 1 : 0) there.
  //
  // to_jacobian: a projective (X : Y : Z) is (X Z : Y Z^2 : Z). That maps
  // the identity (0 : Y : 0) to (0 : 0 : 0), which is no point, so a masked
  // move puts (1 : 1 : 0) in its place. out must not alias p.
  static void to_jacobian(point& out, const point& p, temps& w) noexcept {
    fe& zz = w.a[0];
    F::sqr(zz, p.z);
    F::mul(out.x, p.x, p.z);
    F::mul(out.y, p.y, zz);
    out.z = p.z;
    const std::uint64_t inf = F::zero_mask(p.z);
    cmov(out.x, k().one, inf);
    cmov(out.y, k().one, inf);
  }

  // from_jacobian: (X : Y : Z) is the projective (X Z : Y : Z^3); the
  // identity (1 : 1 : 0) becomes (0 : 1 : 0). out must not alias j.
  static void from_jacobian(point& out, const point& j, temps& w) noexcept {
    fe& zz = w.a[0];
    F::sqr(zz, j.z);
    F::mul(out.x, j.x, j.z);
    F::mul(out.z, zz, j.z);
    out.y = j.y;
  }

  // dbl_jacobian: doubling in Jacobian coordinates for a = -3
  // (Bernstein-Lange "dbl-2001-b": alpha = 3 (X - Z^2)(X + Z^2),
  // Z3 = (Y + Z)^2 - Y^2 - Z^2), 3M + 5S
  // against the complete formula's 8M + 3S + 2 multiplications by b. It is
  // not complete: it fails only for a point with y = 0, a point of order 2,
  // which a curve of prime order n (cofactor 1) does not have. It takes the
  // identity (1 : 1 : 0) to itself (alpha = 3, beta = 1: X3 = 9 - 8,
  // Y3 = 3 (4 - 1) - 8, Z3 = 1 - 1 - 0). out may alias p.
  static void dbl_jacobian(point& out, const point& p, temps& w) noexcept {
    if constexpr (requires(fe& r, const fe& a) { F::half(r, a); }) {
      dbl_jacobian_half(out, p, w);
      return;
    }
    fe &delta = w.a[0], &gamma = w.a[1], &beta = w.a[2], &alpha = w.a[3], &t = w.a[4], &u = w.a[5], &z3 = w.a[6];
    F::sqr(delta, p.z);
    F::sqr(gamma, p.y);
    F::mul(beta, p.x, gamma);
    F::sub(t, p.x, delta);
    F::add(u, p.x, delta);
    F::mul(alpha, t, u);
    F::add(t, alpha, alpha);
    F::add(alpha, t, alpha);
    F::add(z3, p.y, p.z);
    F::sqr(z3, z3);
    F::sub(z3, z3, gamma);
    F::sub(out.z, z3, delta);  // 2 Y Z as a square: cheaper than a product
    F::add(t, beta, beta);
    F::add(t, t, t);  // 4 beta
    F::add(u, t, t);  // 8 beta
    F::sqr(out.x, alpha);
    F::sub(out.x, out.x, u);
    F::sub(t, t, out.x);
    F::mul(out.y, alpha, t);
    F::sqr(u, gamma);
    F::add(u, u, u);
    F::add(u, u, u);
    F::add(u, u, u);  // 8 gamma^2
    F::sub(out.y, out.y, u);
  }

  // dbl_jacobian_half: the same doubling for a field with a halving (the
  // P-256 mulx field): with Y2 = 2Y, S = X Y2^2 = 4 X Y^2,
  // M = 3 (X - Z^2)(X + Z^2), X3 = M^2 - 2S, Y3 = M (S - X3) - Y2^4 / 2,
  // Z3 = Y2 Z. 4M + 4S and ten additions, against 3M + 5S and seventeen:
  // the additions cost about as much as a product here. The identity
  // (1 : 1 : 0) again maps to itself (Y2 = 2, S = 4, M = 3: X3 = 1,
  // Y3 = 3 (4 - 1) - 8, Z3 = 0). out may alias p.
  static void dbl_jacobian_half(point& out, const point& p, temps& w) noexcept {
    fe &y2 = w.a[0], &zz = w.a[1], &s = w.a[2], &m = w.a[3], &t = w.a[4], &u = w.a[5], &yy = w.a[6];
    F::add(y2, p.y, p.y);
    F::sqr(zz, p.z);
    F::sqr(yy, y2);       // 4 Y^2
    F::mul(s, p.x, yy);   // S = 4 X Y^2
    F::sub(t, p.x, zz);
    F::add(u, p.x, zz);
    F::mul(m, t, u);
    F::add(t, m, m);
    F::add(m, t, m);      // M = 3 (X - Z^2)(X + Z^2)
    F::mul(out.z, y2, p.z);  // 2 Y Z (p.z read before out.x, out.y change)
    F::sqr(yy, yy);       // 16 Y^4
    F::half(yy, yy);      // 8 Y^4
    F::sqr(t, m);
    F::add(u, s, s);
    F::sub(out.x, t, u);  // X3 = M^2 - 2S
    F::sub(t, s, out.x);
    F::mul(t, m, t);
    F::sub(out.y, t, yy);
  }

  // add_for_product: a + b where the sum (or the difference it is the first
  // operand of) only feeds products whose other factor is fully reduced:
  // the field's add_lazy (not fully reduced, see p256_field_adx.hpp) when it
  // has one. Never squared, never a subtraction's second operand, always a
  // product's second factor (F::mul(out, reduced, lazy)).
  static inline void add_for_product(fe& out, const fe& a, const fe& b) noexcept {
    if constexpr (requires(fe& r, const fe& x) { F::add_lazy(r, x, x); }) {
      F::add_lazy(out, a, b);
    } else {
      F::add(out, a, b);
    }
  }

  // dbl_jacobian_n: j = 2^n j, n doublings in a row (mul_var's windows).
  // With a halving field the run keeps 2Y between its doublings (Y2 = 2Y,
  // doubled once before and halved once after), so that each doubling's
  // last subtraction gives the next one's 2Y directly: Z3 = Y2 Z,
  // S = X Y2^2, M = 3 (X - Z^2)(X + Z^2), X3 = M^2 - 2S and
  // 2 Y3 = 2M (3S - M^2) - Y2^4 (3S - M^2 = S - X3 taken from M^2 and 3S,
  // not from X3). The same 4M + 4S as dbl_jacobian_half and ten additions
  // without its halving, and one addition fewer on each of the two chains
  // from one doubling to the next (X through M^2, 2Y through S): the runs
  // are latency-bound chains of dependent products. The identity (1 : 1 : 0)
  // stays itself (Y2 = 2: S = 4, M = 3, X3 = 9 - 8, 2 Y3 = 6 (12 - 9) - 16).
  // Without a halving it is n dbl_jacobian calls.
  template <std::size_t n>
  static void dbl_jacobian_n(point& j, temps& w) noexcept {
    if constexpr (requires(fe& r, const fe& a) { F::half(r, a); }) {
      fe &y2 = w.a[0], &zz = w.a[1], &yy = w.a[2], &s = w.a[3], &t = w.a[4], &u = w.a[5], &m = w.a[6];
      fe &msq = w.b[0], &u2 = w.b[1], &s3 = w.b[2];
      F::add(y2, j.y, j.y);
      for (std::size_t i = 0; i < n; ++i) {
        F::sqr(zz, j.z);
        F::sqr(yy, y2);       // 4 Y^2
        F::mul(s, j.x, yy);   // S = 4 X Y^2
        F::sub(t, j.x, zz);
        add_for_product(u, j.x, zz);  // only into the product
        F::mul(m, t, u);
        F::mul(j.z, y2, j.z);  // Z3 = 2 Y Z (zz already taken)
        F::add(t, m, m);
        F::add(m, t, m);       // M = 3 (X - Z^2)(X + Z^2)
        F::sqr(yy, yy);        // 16 Y^4
        F::sqr(msq, m);
        F::add(u2, s, s);
        F::sub(j.x, msq, u2);  // X3 = M^2 - 2S (X read above for the last time)
        add_for_product(s3, u2, s);
        F::sub(t, s3, msq);    // S - X3 = 3S - M^2, only into the product
        F::add(u, m, m);       // reduced: t above may not be
        F::mul(t, u, t);       // 2M (S - X3)
        F::sub(y2, t, yy);     // 2 Y3
      }
      F::half(j.y, y2);
    } else {
      for (std::size_t i = 0; i < n; ++i) dbl_jacobian(j, j, w);
    }
  }

  // add_mixed_jacobian: j += q for affine q, in Jacobian coordinates
  // (Bernstein-Lange "madd-2007-bl", 7M + 4S, against the complete mixed
  // addition's 11M + 2 multiplications by b and twice the additions), in
  // constant time. Not complete: the caller guarantees that j is neither q
  // nor -q unless j is the identity, which takes q by a masked move (the
  // formula's output is discarded then). mul_base shows why its sums never
  // meet those cases.
  static void add_mixed_jacobian(point& j, const affine& q, temps& w) noexcept {
    const std::uint64_t inf = F::zero_mask(j.z);
    fe &z1z1 = w.a[0], &u2 = w.a[1], &s2 = w.a[2], &h = w.a[3], &r = w.a[4];
    F::sqr(z1z1, j.z);
    F::mul(u2, q.x, z1z1);
    F::mul(s2, q.y, j.z);
    F::mul(s2, s2, z1z1);
    F::sub(h, u2, j.x);
    F::sub(r, s2, j.y);
    add_jacobian_tail(j, z1z1, h, r, j.x, j.y, nullptr, nullptr, w);
    cmov(j.x, q.x, inf);
    cmov(j.y, q.y, inf);
    cmov(j.z, k().one, inf);
  }

  // A Jacobian point with Z^2 and Z^3 kept beside it: the entries of
  // mul_var's table, which every window adds, so their two powers of Z are
  // computed once (cache_entry) instead of once per addition.
  struct jentry {
    fe x, y, z, zz, zzz;
  };

  // cache_entry: e = p with Z^2 and Z^3.
  static void cache_entry(jentry& e, const point& p) noexcept {
    e.x = p.x;
    e.y = p.y;
    e.z = p.z;
    F::sqr(e.zz, p.z);
    F::mul(e.zzz, e.zz, p.z);
  }

  // add_jacobian: j += q for Jacobian q, in constant time (Cohen-Miyaji-Ono
  // "add-1998-cmo-2" in the Explicit-Formulas Database: H = U2 - U1,
  // R = S2 - S1, X3 = R^2 - H^3 - 2 U1 H^2, Y3 = R (U1 H^2 - X3) - S1 H^3,
  // Z3 = Z1 Z2 H), with q's Z^2 and Z^3 given (jentry): 11M + 3S, against
  // 12M + 4S with them computed and 11M + 5S for "add-2007-bl", and seven
  // additions instead of thirteen. Not complete, like add_mixed_jacobian:
  // the caller guarantees that j is neither q nor -q, and that q is not the
  // identity, unless j is the identity, which takes q by a masked move.
  // mul_var shows why its sums never meet those cases. q must not alias j.
  static void add_jacobian(point& j, const jentry& q, temps& w) noexcept {
    const std::uint64_t inf = F::zero_mask(j.z);
    fe &z1z1 = w.a[0], &u1 = w.a[2], &u2 = w.a[3], &s1 = w.a[4], &s2 = w.a[5], &t = w.a[6];
    fe &hh = w.b[0], &hhh = w.b[1], &v = w.b[2];
    F::sqr(z1z1, j.z);
    F::mul(u1, j.x, q.zz);
    F::mul(u2, q.x, z1z1);
    F::mul(s1, j.y, q.zzz);
    F::mul(t, j.z, z1z1);
    F::mul(s2, q.y, t);
    F::sub(u2, u2, u1);  // H
    F::sub(s2, s2, s1);  // R
    F::sqr(hh, u2);
    F::mul(hhh, u2, hh);
    F::mul(v, u1, hh);
    F::mul(t, j.z, q.z);
    F::mul(j.z, t, u2);  // Z3 = Z1 Z2 H (j.z not read below)
    F::sqr(t, s2);
    F::sub(t, t, hhh);
    F::add(u1, v, v);
    F::sub(j.x, t, u1);  // X3 = R^2 - H^3 - 2V
    F::sub(t, v, j.x);
    F::mul(t, s2, t);
    F::mul(s1, s1, hhh);
    F::sub(j.y, t, s1);  // Y3 = R (V - X3) - S1 H^3
    cmov(j.x, q.x, inf);
    cmov(j.y, q.y, inf);
    cmov(j.z, q.z, inf);
  }

  // ---- variable time: public points only (ECDSA verification) ----
  //
  // Jacobian additions (Bernstein-Lange "madd-2007-bl", 7M + 4S, and
  // "add-2007-bl", 11M + 5S). They are not complete: equal inputs
  // (H = 0, r = 0) go to dbl_jacobian, inverse ones (H = 0, r != 0) give
  // the identity (1 : 1 : 0), and an identity accumulator takes the other
  // input. Those branches depend on the points, so only public points may
  // come here.

  // add_mixed_jacobian_vartime: j += q for affine q (not the identity).
  static void add_mixed_jacobian_vartime(point& j, const affine& q, temps& w) noexcept {
    if (F::zero_mask(j.z) != 0) {
      j = point{q.x, q.y, k().one};
      return;
    }
    fe z1z1, u2, s2, h, r;
    F::sqr(z1z1, j.z);
    F::mul(u2, q.x, z1z1);
    F::mul(s2, q.y, j.z);
    F::mul(s2, s2, z1z1);
    F::sub(h, u2, j.x);
    F::sub(r, s2, j.y);
    if (F::zero_mask(h) != 0) {
      if (F::zero_mask(r) != 0) {
        dbl_jacobian(j, j, w);
      } else {
        j = point{k().one, k().one, fe{}};
      }
      return;
    }
    add_jacobian_tail(j, z1z1, h, r, j.x, j.y, nullptr, nullptr, w);
  }

  // add_jacobian_vartime: j += q for Jacobian q (not the identity).
  static void add_jacobian_vartime(point& j, const point& q, temps& w) noexcept {
    if (F::zero_mask(j.z) != 0) {
      j = q;
      return;
    }
    fe z1z1, z2z2, u1, u2, s1, s2, h, r;
    F::sqr(z1z1, j.z);
    F::sqr(z2z2, q.z);
    F::mul(u1, j.x, z2z2);
    F::mul(u2, q.x, z1z1);
    F::mul(s1, j.y, q.z);
    F::mul(s1, s1, z2z2);
    F::mul(s2, q.y, j.z);
    F::mul(s2, s2, z1z1);
    F::sub(h, u2, u1);
    F::sub(r, s2, s1);
    if (F::zero_mask(h) != 0) {
      if (F::zero_mask(r) != 0) {
        dbl_jacobian(j, j, w);
      } else {
        j = point{k().one, k().one, fe{}};
      }
      return;
    }
    add_jacobian_tail(j, z1z1, h, r, u1, s1, &q.z, &z2z2, w);
  }

  // add_jacobian_tail finishes both additions from H = U2 - U1 and
  // r = S2 - S1 (halved; doubled here): I = 4 H^2, J = H I, V = U1 I,
  // X3 = (2r)^2 - J - 2V, Y3 = 2r (V - X3) - 2 S1 J, and Z3 =
  // (Z1 + H)^2 - Z1Z1 - H^2 for the mixed case (q2 null) or
  // ((Z1 + Z2)^2 - Z1Z1 - Z2Z2) H otherwise (z2 and z2z2 = Z2^2 given).
  // r is doubled in place; the temporaries are w.b (the callers' are w.a
  // or their own).
  static void add_jacobian_tail(point& j, const fe& z1z1, const fe& h, fe& r, const fe& u1, const fe& s1,
                                const fe* z2, const fe* z2z2, temps& w) noexcept {
    fe &hh = w.b[0], &i = w.b[1], &jj = w.b[2], &v = w.b[3], &t = w.b[4], &u1c = w.b[5], &s1c = w.b[6];
    // u1 and s1 may be j.x and j.y (the mixed case): copied before j changes.
    u1c = u1;
    s1c = s1;
    F::add(r, r, r);  // squared below: a lazy sum may not be
    F::sqr(hh, h);
    F::add(i, hh, hh);
    add_for_product(i, i, i);  // 4 H^2, only into products
    F::mul(jj, h, i);
    F::mul(v, u1c, i);
    if (z2 == nullptr) {
      F::add(t, j.z, h);
      F::sqr(t, t);
      F::sub(t, t, z1z1);
      F::sub(j.z, t, hh);
    } else {
      F::add(t, j.z, *z2);
      F::sqr(t, t);
      F::sub(t, t, z1z1);
      F::sub(t, t, *z2z2);
      F::mul(j.z, t, h);
    }
    F::sqr(t, r);
    F::sub(t, t, jj);
    F::sub(t, t, v);
    F::sub(j.x, t, v);
    F::sub(t, v, j.x);
    F::mul(t, r, t);
    F::mul(jj, s1c, jj);
    F::add(jj, jj, jj);
    F::sub(j.y, t, jj);
  }

  // normalize converts N points to affine with one inversion (Montgomery's
  // trick); none of them may be the identity.
  template <std::size_t N>
  static void normalize(affine* out, const point* in) noexcept {
    fe prefix[N], inv, t;
    prefix[0] = in[0].z;
    for (std::size_t j = 1; j < N; ++j) F::mul(prefix[j], prefix[j - 1], in[j].z);
    invert(inv, prefix[N - 1]);
    for (std::size_t j = N; j-- > 0;) {
      if (j > 0) {
        F::mul(t, inv, prefix[j - 1]);  // 1 / z_j
        F::mul(inv, inv, in[j].z);
      } else {
        t = inv;
      }
      F::mul(out[j].x, in[j].x, t);
      F::mul(out[j].y, in[j].y, t);
    }
  }

  // decode_point reads X || Y (public) and checks coordinates below p and
  // y^2 = x^3 - 3x + b (SEC 1 3.2.2.1). No affine point is the identity.
  static bool decode_point(affine& out, const std::uint8_t* xy) noexcept {
    if (!F::from_bytes(out.x, xy) || !F::from_bytes(out.y, xy + L)) return false;
    fe lhs, rhs, t;
    F::sqr(lhs, out.y);
    F::sqr(rhs, out.x);
    F::mul(rhs, rhs, out.x);
    F::add(t, out.x, out.x);
    F::add(t, t, out.x);
    F::sub(rhs, rhs, t);
    F::add(rhs, rhs, k().b);
    F::sub(t, lhs, rhs);
    return F::zero_mask(t) != 0;
  }
};

}  // namespace
}  // namespace sealwire::crypto::detail

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif
