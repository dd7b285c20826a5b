// SPDX-License-Identifier: Apache-2.0
// Edwards448 (RFC 8032 5.2), the untwisted curve x^2 + y^2 = 1 + d x^2 y^2
// with d = -39081, in projective coordinates with the formulas of RFC 8032
// 5.2.4 (complete: d is not a square). Signing multiplies the base point by
// a secret with a comb of signed 4-bit digits over precomputed affine
// multiples, selected in constant time; verification uses wNAF in variable
// time.
#include "detail/ed448_group.hpp"

#include <sealwire/crypto/ct.hpp>

#include <cstring>

namespace sealwire::crypto::detail::ed448_group {
namespace {

using curve448::fe;
using curve448::mul;
using curve448::sqr;
using curve448::add;
using curve448::sub;
using curve448::neg;
using curve448::cmov;
using curve448::mul_small_add;
using curve448::invert;
using curve448::pow_p34;
using ed448_scalar::scalar;

// -d = 39081 (RFC 8032 5.2); the formulas multiply by it and flip signs.
constexpr std::uint64_t minus_d = 39081;
constexpr fe zero{};
constexpr fe one{{1, 0, 0, 0, 0, 0, 0, 0}};

// affine is a point with Z = 1, as the precomputed tables hold them.
struct affine {
  fe x, y;
};

// dbl: out = 2p (RFC 8032 5.2.4, doubling: 3M + 4S). out may alias p.
// Bounds: for tight inputs (or x negated, limbs below 2^58) every sum and
// difference stays below 2^59, what mul and sqr take.
void dbl(point& out, const point& p) noexcept {
  fe b, c, d, e, h, j, t;
  add(t, p.x, p.y);
  sqr(b, t);
  sqr(c, p.x);
  sqr(d, p.y);
  sqr(h, p.z);
  add(e, c, d);
  add(h, h, h);
  sub(j, e, h);  // J = E - 2H
  sub(t, b, e);
  mul(out.x, t, j);
  sub(t, c, d);
  mul(out.y, e, t);
  mul(out.z, e, j);
}

// add_to: out = p + q for q = (qx : qy : qz), or (qx, qy) affine when qz is
// null (RFC 8032 5.2.4, addition). With E' = -E = 39081 C D, F = B - E =
// B + E' and G = B + E = B - E'. out may alias p.
void add_to(point& out, const point& p, const fe& qx, const fe& qy, const fe* qz) noexcept {
  fe a, b, c, d, e, f, g, h, t, u;
  if (qz != nullptr) {
    mul(a, p.z, *qz);
  } else {
    a = p.z;
  }
  sqr(b, a);
  mul(c, p.x, qx);
  mul(d, p.y, qy);
  mul(e, c, d);
  mul_small_add(e, e, minus_d, zero);
  add(f, b, e);
  sub(g, b, e);
  add(t, p.x, p.y);
  add(u, qx, qy);
  mul(h, t, u);
  add(t, c, d);
  sub(h, h, t);  // H - C - D
  mul(t, a, f);
  mul(out.x, t, h);
  sub(u, d, c);
  mul(t, a, g);
  mul(out.y, t, u);
  mul(out.z, f, g);
}

void add_point(point& out, const point& p, const point& q) noexcept { add_to(out, p, q.x, q.y, &q.z); }

// normalize writes the affine forms of n projective points with one
// inversion (Montgomery's trick); for the public tables only.
template <std::size_t N>
void normalize(affine (&out)[N], const point (&in)[N]) noexcept {
  fe prefix[N];
  prefix[0] = in[0].z;
  for (std::size_t i = 1; i < N; ++i) mul(prefix[i], prefix[i - 1], in[i].z);
  fe inv;
  invert(inv, prefix[N - 1]);
  for (std::size_t i = N; i-- > 0;) {
    fe zi;
    if (i > 0) {
      mul(zi, inv, prefix[i - 1]);
      mul(inv, inv, in[i].z);
    } else {
      zi = inv;
    }
    mul(out[i].x, in[i].x, zi);
    mul(out[i].y, in[i].y, zi);
  }
}

// affine_cached is an affine addend with kt = -d x y = 39081 x y.
struct affine_cached {
  fe x, y, kt;
};

// base_tables: comb[i][j] = (j + 1) 256^i B for the constant-time comb
// (56 rows of 8), odd[i] = (2i + 1) B for verification's wNAF (width 8).
struct base_tables {
  affine comb[56][8];
  affine_cached odd[64];

  base_tables() noexcept {
    point b;
    // RFC 8032 5.2: the base point B's encoding (its y; x is even).
    static constexpr std::uint8_t b_enc[57] = {
        0x14, 0xfa, 0x30, 0xf2, 0x5b, 0x79, 0x08, 0x98, 0xad, 0xc8, 0xd7, 0x4e, 0x2c, 0x13, 0xbd,
        0xfd, 0xc4, 0x39, 0x7c, 0xe6, 0x1c, 0xff, 0xd3, 0x3a, 0xd7, 0xc2, 0xa0, 0x05, 0x1e, 0x9c,
        0x78, 0x87, 0x40, 0x98, 0xa3, 0x6c, 0x73, 0x73, 0xea, 0x4b, 0x62, 0xc7, 0xc9, 0x56, 0x37,
        0x20, 0x76, 0x88, 0x24, 0xbc, 0xb6, 0x6e, 0x71, 0x46, 0x3f, 0x69, 0x00};
    const bool ok = decode(b, b_enc);
    (void)ok;
    point row[8];
    point p = b;
    for (int i = 0; i < 56; ++i) {
      row[0] = p;
      dbl(row[1], p);
      for (int j = 2; j < 8; ++j) add_point(row[j], row[j - 1], p);
      normalize(comb[i], row);
      for (int k = 0; k < 8; ++k) dbl(p, p);
    }
    point odd_p[64];
    point b2;
    dbl(b2, b);
    odd_p[0] = b;
    for (int i = 1; i < 64; ++i) add_point(odd_p[i], odd_p[i - 1], b2);
    affine odd_affine[64];
    normalize(odd_affine, odd_p);
    for (int i = 0; i < 64; ++i) {
      fe xy;
      odd[i].x = odd_affine[i].x;
      odd[i].y = odd_affine[i].y;
      mul(xy, odd[i].x, odd[i].y);
      mul_small_add(odd[i].kt, xy, minus_d, zero);
    }
  }
};

const base_tables& tables() noexcept {
  static const base_tables t;
  return t;
}

// select sets t to digit * row's point for a digit in [-8, 8], reading
// every entry of the row: the digit's absolute value picks by masks, its
// sign negates x by a mask.
void select(affine& t, const affine (&row)[8], std::int8_t digit) noexcept {
  const auto d = static_cast<std::uint64_t>(static_cast<std::int64_t>(digit));
  const std::uint64_t neg_mask = ct::value_barrier(0 - (d >> 63));
  const std::uint64_t abs_d = (d ^ neg_mask) - neg_mask;
  t.x = zero;
  t.y = one;
  for (std::uint64_t j = 0; j < 8; ++j) {
    const std::uint64_t m = ct::mask_if_zero(abs_d ^ (j + 1));
    cmov(t.x, row[j].x, m);
    cmov(t.y, row[j].y, m);
  }
  fe nx;
  neg(nx, t.x);
  cmov(t.x, nx, neg_mask);
}

// wnaf writes s in width-w non-adjacent form: digits odd, below 2^(w-1) in
// absolute value, each followed by at least w - 1 zeros. Public scalars only.
void wnaf(std::int8_t (&r)[449], const scalar& s, int w) noexcept {
  for (int i = 0; i < 448; ++i) r[i] = static_cast<std::int8_t>((s.w[i / 64] >> (i % 64)) & 1);
  r[448] = 0;
  const int max = (1 << (w - 1)) - 1;
  for (int i = 0; i < 449; ++i) {
    if (r[i] == 0) continue;
    for (int b = 1; b < w && i + b < 449; ++b) {
      if (r[i + b] == 0) continue;
      const int v = r[i + b] << b;
      if (r[i] + v <= max) {
        r[i] = static_cast<std::int8_t>(r[i] + v);
        r[i + b] = 0;
      } else if (r[i] - v >= -max) {
        r[i] = static_cast<std::int8_t>(r[i] - v);
        for (int k = i + b; k < 449; ++k) {
          if (r[k] == 0) {
            r[k] = 1;
            break;
          }
          r[k] = 0;
        }
      } else {
        break;
      }
    }
  }
}

// fe_is_zero reports whether a (limbs below 2^60) is 0 mod p: carried to a
// tight element, then encoded canonically.
bool fe_is_zero(const fe& a) noexcept {
  fe c;
  mul_small_add(c, a, 1, zero);
  std::uint8_t b[56];
  curve448::encode(b, c);
  std::uint8_t acc = 0;
  for (std::uint8_t v : b) acc |= v;
  return acc == 0;
}

// ext is (X : Y : Z : T) with T = XY/Z, the extended coordinates of
// Hisil, Wong, Carter and Dawson ("Twisted Edwards curves revisited", 2008),
// which verification's additions use.
struct ext {
  fe x, y, z, t;
};

// cached is an addend for add_ext: (X : Y : Z) and kt = -d T = 39081 T.
struct cached {
  fe x, y, z, kt;
};

// dbl_ext: out = 2p with RFC 8032's doubling (3M + 4S), its products
// regrouped as X3 = e f, Y3 = g h, Z3 = f g so that T3 = e h costs one more
// multiplication, made only when with_t (an addition follows). out may
// alias p.
void dbl_ext(ext& out, const ext& p, bool with_t) noexcept {
  fe b, c, d, e, h, j, t, u;
  add(t, p.x, p.y);
  sqr(b, t);
  sqr(c, p.x);
  sqr(d, p.y);
  sqr(h, p.z);
  add(e, c, d);
  add(h, h, h);
  sub(j, e, h);  // f = J = E - 2H
  sub(t, b, e);  // e = B - E
  sub(u, c, d);  // h = C - D
  mul(out.x, t, j);
  mul(out.y, e, u);
  mul(out.z, e, j);
  if (with_t) mul(out.t, t, u);
}

// add_ext: out = p + q (the unified addition of Hisil et al. for a = 1:
// A = X1 X2, B = Y1 Y2, C = d T1 T2, D = Z1 Z2, E = (X1 + Y1)(X2 + Y2) - A - B,
// F = D - C, G = D + C, H = B - A; X3 = E F, Y3 = G H, Z3 = F G, T3 = E H),
// complete because d is not a square. q's Z is qz, or 1 when null; T3 only
// when with_t. out may alias p.
void add_ext(ext& out, const ext& p, const cached& q, const fe* qz, bool with_t) noexcept {
  fe a, b, c, d, e, f, g, h, t, u;
  mul(a, p.x, q.x);
  mul(b, p.y, q.y);
  mul(c, p.t, q.kt);  // -C
  if (qz != nullptr) {
    mul(d, p.z, *qz);
  } else {
    d = p.z;
  }
  add(t, p.x, p.y);
  add(u, q.x, q.y);
  mul(e, t, u);
  add(t, a, b);
  sub(e, e, t);
  add(f, d, c);
  sub(g, d, c);
  sub(h, b, a);
  mul(out.x, e, f);
  mul(out.y, g, h);
  mul(out.z, f, g);
  if (with_t) mul(out.t, e, h);
}

// to_cached writes p = (X : Y : Z) as (XZ : YZ : Z^2) with T = XY.
void to_cached(cached& out, const point& p) noexcept {
  fe xy;
  mul(out.x, p.x, p.z);
  mul(out.y, p.y, p.z);
  sqr(out.z, p.z);
  mul(xy, p.x, p.y);
  mul_small_add(out.kt, xy, minus_d, zero);
}

// negate_cached: -(x, y) = (-x, y), so X and T change sign.
void negate_cached(cached& m) noexcept {
  neg(m.x, m.x);
  neg(m.kt, m.kt);
}

void select_cached(cached& out, const cached& in, bool negative) noexcept {
  out = in;
  if (negative) negate_cached(out);
}

}  // namespace

void base_mul(point& out, const scalar& s) noexcept {
  const base_tables& tab = tables();
  // Signed radix-16 digits e[i] in [-8, 8] with s = sum e[i] 16^i: the
  // nibbles, each >= 8 made negative with a carry into the next. s < L <
  // 2^446, so the top digit stays below 8.
  std::int8_t e[112];
  for (int i = 0; i < 56; ++i) {
    const auto byte = static_cast<std::uint8_t>(s.w[i / 8] >> (8 * (i % 8)));
    e[2 * i] = static_cast<std::int8_t>(byte & 15);
    e[2 * i + 1] = static_cast<std::int8_t>(byte >> 4);
  }
  std::int8_t carry = 0;
  for (int i = 0; i < 111; ++i) {
    e[i] = static_cast<std::int8_t>(e[i] + carry);
    carry = static_cast<std::int8_t>((e[i] + 8) >> 4);
    e[i] = static_cast<std::int8_t>(e[i] - (carry << 4));
  }
  e[111] = static_cast<std::int8_t>(e[111] + carry);
  // sum over odd digits, times 16, plus the even digits: row i holds the
  // multiples of 256^i B = 16^(2i) B.
  affine t;
  out.x = zero;
  out.y = one;
  out.z = one;
  for (int i = 0; i < 56; ++i) {
    select(t, tab.comb[i], e[2 * i + 1]);
    add_to(out, out, t.x, t.y, nullptr);
  }
  for (int k = 0; k < 4; ++k) dbl(out, out);
  for (int i = 0; i < 56; ++i) {
    select(t, tab.comb[i], e[2 * i]);
    add_to(out, out, t.x, t.y, nullptr);
  }
  ct::wipe_object(e);
  ct::wipe_object(t);
}

void encode(std::uint8_t* out, const point& p) noexcept {
  fe zi, x, y;
  invert(zi, p.z);
  mul(x, p.x, zi);
  mul(y, p.y, zi);
  curve448::encode(out, y);
  std::uint8_t xb[56];
  curve448::encode(xb, x);
  // RFC 8032 5.2.2: the last octet holds the least significant bit of x at its top.
  out[56] = static_cast<std::uint8_t>((xb[0] & 1) << 7);
  ct::wipe_object(xb);
  ct::wipe_object(x);
  ct::wipe_object(y);
  ct::wipe_object(zi);
}

bool decode(point& out, const std::uint8_t* in) noexcept {
  // RFC 8032 5.2.3 step 1: y is the low 455 bits and must be below p, so
  // the last octet's low seven bits are zero and the first 56 octets are
  // y's canonical encoding.
  if ((in[56] & 0x7f) != 0) return false;
  fe y;
  curve448::decode(y, in);
  std::uint8_t canon[56];
  curve448::encode(canon, y);
  if (std::memcmp(canon, in, 56) != 0) return false;
  // Step 2: x^2 = u / v with u = y^2 - 1 and v = d y^2 - 1, and the
  // candidate root x = u^3 v (u^5 v^3)^((p-3)/4).
  fe y2, u, v, t, u2, u3, u5, v3, w, x;
  sqr(y2, y);
  sub(t, y2, one);
  mul_small_add(u, t, 1, zero);  // carried to tight limbs, so it may be subtracted below
  mul_small_add(t, y2, minus_d, one);  // -v = 39081 y^2 + 1
  neg(v, t);
  sqr(u2, u);
  mul(u3, u2, u);
  mul(u5, u3, u2);
  sqr(t, v);
  mul(v3, t, v);
  mul(w, u5, v3);
  pow_p34(w, w);
  mul(t, u3, v);
  mul(x, t, w);
  // Step 3: v x^2 must equal u, else there is no square root.
  sqr(t, x);
  mul(t, t, v);
  sub(t, t, u);
  if (!fe_is_zero(t)) return false;
  // Step 4: x = 0 with the sign bit set is invalid; otherwise pick the root
  // whose least significant bit is the sign bit.
  std::uint8_t xb[56];
  curve448::encode(xb, x);
  const int x0 = in[56] >> 7;
  bool x_zero = true;
  for (std::uint8_t b : xb) x_zero = x_zero && b == 0;
  if (x_zero && x0 == 1) return false;
  if ((xb[0] & 1) != x0) {
    neg(t, x);
    mul_small_add(x, t, 1, zero);  // carried back to tight limbs
  }
  out.x = x;
  out.y = y;
  out.z = one;
  return true;
}

bool verify_equation(const scalar& s, const scalar& k, const point& a, const point& r) noexcept {
  const base_tables& tab = tables();
  // Odd multiples 1, 3, ..., 15 of -A for k's width-5 digits, in cached form.
  point na = a;
  neg(na.x, a.x);
  point at[8], a2;
  at[0] = na;
  dbl(a2, na);
  for (int i = 1; i < 8; ++i) add_point(at[i], at[i - 1], a2);
  cached ac[8];
  for (int i = 0; i < 8; ++i) to_cached(ac[i], at[i]);
  std::int8_t ds[449], dk[449];
  wnaf(ds, s, 8);
  wnaf(dk, k, 5);
  int top = 448;
  while (top >= 0 && ds[top] == 0 && dk[top] == 0) --top;
  // Q = [s]B + [k](-A), Straus's interleaving from the top digit down, in
  // extended coordinates; T is computed only when an addition follows.
  ext q{zero, one, one, zero};
  cached m;
  for (int i = top; i >= 0; --i) {
    const bool last = i == 0;
    dbl_ext(q, q, dk[i] != 0 || ds[i] != 0 || last);
    if (dk[i] != 0) {
      select_cached(m, ac[(dk[i] < 0 ? -dk[i] : dk[i]) / 2], dk[i] < 0);
      add_ext(q, q, m, &m.z, ds[i] != 0 || last);
    }
    if (ds[i] != 0) {
      const affine_cached& b = tab.odd[(ds[i] < 0 ? -ds[i] : ds[i]) / 2];
      m.x = b.x;
      m.y = b.y;
      m.kt = b.kt;
      if (ds[i] < 0) negate_cached(m);
      add_ext(q, q, m, nullptr, last);
    }
  }
  // [4](Q - R) must be the neutral element (0 : Z : Z).
  m.x = r.x;
  m.y = r.y;
  fe xy;
  mul(xy, r.x, r.y);
  mul_small_add(m.kt, xy, minus_d, zero);
  negate_cached(m);
  add_ext(q, q, m, nullptr, false);
  dbl_ext(q, q, false);
  dbl_ext(q, q, false);
  fe t;
  sub(t, q.y, q.z);
  return fe_is_zero(q.x) && fe_is_zero(t);
}

}  // namespace sealwire::crypto::detail::ed448_group
