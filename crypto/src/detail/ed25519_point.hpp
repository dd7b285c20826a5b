// SPDX-License-Identifier: Apache-2.0
// Edwards25519 group arithmetic (RFC 8032 5.1) in extended coordinates
// (Hisil-Wong-Carter-Dawson), encoding and decoding, constant-time fixed-base
// multiplication and variable-time multi-scalar multiplication. Internal
// linkage, built once per instruction set (ed25519_point.cpp, *_bmi2.cpp).
#pragma once

#include <sealwire/crypto/ct.hpp>

#include "ed25519_kernels.hpp"
#include "fe25519.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace sealwire::crypto::detail {
namespace {

// d = -121665/121666, 2d and sqrt(-1) modulo p (RFC 8032 5.1).
constexpr fe ed_d{{0x34dca135978a3ULL, 0x1a8283b156ebdULL, 0x5e7a26001c029ULL, 0x739c663a03cbbULL, 0x52036cee2b6ffULL}};
constexpr fe ed_d2{{0x69b9426b2f159ULL, 0x35050762add7aULL, 0x3cf44c0038052ULL, 0x6738cc7407977ULL, 0x2406d9dc56dffULL}};
constexpr fe ed_sqrtm1{
    {0x61b274a0ea0b0ULL, 0xd5a5fc8f189dULL, 0x7ef5e9cbd0c60ULL, 0x78595a6804c9eULL, 0x2b8324804fc1dULL}};
constexpr fe fe_one{{1, 0, 0, 0, 0}};
constexpr fe fe_zero{{0, 0, 0, 0, 0}};

// ge_p3 is a point in extended coordinates: x = X/Z, y = Y/Z, xy = T/Z.
struct ge_p3 {
  fe X, Y, Z, T;
};
// ge_p2 is the projective part (X:Y:Z), enough for a doubling.
struct ge_p2 {
  fe X, Y, Z;
};
// ge_p1p1 is the "completed" result of RFC 8032 5.1.4's formulas before the
// last four products: x = X/Z, y = Y/T (X = E, Y = H, Z = G, T = F).
struct ge_p1p1 {
  fe X, Y, Z, T;
};
// ge_niels is an affine point ready for mixed addition: (y + x, y - x, 2dxy).
struct ge_niels {
  fe ypx, ymx, xy2d;
};
// ge_cached is a projective point ready for addition: (Y + X, Y - X, Z, 2dT).
struct ge_cached {
  fe ypx, ymx, Z, t2d;
};

static_assert(sizeof(ge_niels) == 15 * 8 && sizeof(ge_cached) == 20 * 8);

inline ge_p3 ge_identity() noexcept { return {fe_zero, fe_one, fe_one, fe_zero}; }

inline ge_p2 ge_to_p2(const ge_p1p1& r) noexcept {
  return {fe_mul(r.X, r.T), fe_mul(r.Y, r.Z), fe_mul(r.Z, r.T)};
}
inline ge_p3 ge_to_p3(const ge_p1p1& r) noexcept {
  return {fe_mul(r.X, r.T), fe_mul(r.Y, r.Z), fe_mul(r.Z, r.T), fe_mul(r.X, r.Y)};
}
inline ge_cached ge_to_cached(const ge_p3& p) noexcept {
  return {fe_add(p.Y, p.X), fe_sub(p.Y, p.X), p.Z, fe_mul(p.T, ed_d2)};
}

// ge_dbl: RFC 8032 5.1.4 doubling (a = -1): A = X^2, B = Y^2, C = 2Z^2,
// H = A + B, E = H - (X + Y)^2, G = A - B, F = C + G.
inline ge_p1p1 ge_dbl(const ge_p2& p) noexcept {
  const fe a = fe_sqr(p.X), b = fe_sqr(p.Y), zz = fe_sqr(p.Z);
  const fe c = fe_add(zz, zz);
  const fe h = fe_add(a, b);
  const fe e = fe_sub(h, fe_sqr(fe_add(p.X, p.Y)));
  const fe g = fe_sub(a, b);
  return {e, h, g, fe_add(c, g)};
}
inline ge_p1p1 ge_dbl(const ge_p3& p) noexcept { return ge_dbl(ge_p2{p.X, p.Y, p.Z}); }

// ge_add: RFC 8032 5.1.4 addition: A = (Y1 - X1)(Y2 - X2), B = (Y1 + X1)(Y2 + X2),
// C = T1 2d T2, D = 2 Z1 Z2, E = B - A, F = D - C, G = D + C, H = B + A.
// ge_sub adds the negation (-x, y): the y+x and y-x factors swap and C changes sign.
inline ge_p1p1 ge_add_sub(const ge_p3& p, const fe& ypx, const fe& ymx, const fe& t2d, const fe& z2,
                          bool negate) noexcept {
  const fe a = fe_mul(fe_sub(p.Y, p.X), negate ? ypx : ymx);
  const fe b = fe_mul(fe_add(p.Y, p.X), negate ? ymx : ypx);
  const fe c = fe_mul(p.T, t2d);
  const fe d = fe_add(z2, z2);
  const fe e = fe_sub(b, a), h = fe_add(b, a);
  if (negate) return {e, h, fe_sub(d, c), fe_add(d, c)};
  return {e, h, fe_add(d, c), fe_sub(d, c)};
}
inline ge_p1p1 ge_add(const ge_p3& p, const ge_cached& q) noexcept {
  return ge_add_sub(p, q.ypx, q.ymx, q.t2d, fe_mul(p.Z, q.Z), false);
}
inline ge_p1p1 ge_sub(const ge_p3& p, const ge_cached& q) noexcept {
  return ge_add_sub(p, q.ypx, q.ymx, q.t2d, fe_mul(p.Z, q.Z), true);
}
// Mixed addition with an affine point (Z2 = 1). negate is a public choice
// here; the constant-time path negates by selection before calling.
inline ge_p1p1 ge_madd(const ge_p3& p, const ge_niels& q, bool negate = false) noexcept {
  return ge_add_sub(p, q.ypx, q.ymx, q.xy2d, p.Z, negate);
}

// ge_encode writes y with the sign of x in the top bit (RFC 8032 5.1.2).
inline void ge_encode(std::uint8_t out[32], const ge_p3& p) noexcept {
  const fe zi = fe_invert(p.Z);
  const fe x = fe_mul(p.X, zi), y = fe_mul(p.Y, zi);
  fe_store(out, y);
  out[31] = static_cast<std::uint8_t>(out[31] | (fe_is_negative(x) << 7));
}

// ge_is_canonical reports whether the 255-bit y of an encoding is below p
// (public data: the early return is on the encoding, not on a secret).
inline bool ge_is_canonical(const std::uint8_t s[32]) noexcept {
  if ((s[31] & 0x7f) != 0x7f) return true;
  for (int i = 30; i >= 1; --i) {
    if (s[i] != 0xff) return true;
  }
  return s[0] < 0xed;  // y >= p exactly when y is 2^255 - 19 .. 2^255 - 1
}

// ge_decode_vartime decodes a point (RFC 8032 5.1.3): false when y >= p,
// when x^2 = (y^2 - 1)/(dy^2 + 1) has no root, or when x = 0 with the sign bit set.
inline bool ge_decode_vartime(ge_p3& out, const std::uint8_t s[32]) noexcept {
  if (!ge_is_canonical(s)) return false;
  const std::uint64_t sign = s[31] >> 7;
  const fe y = fe_load(s);
  const fe y2 = fe_sqr(y);
  fe u = fe_sub(y2, fe_one);
  carry(u);
  const fe v = fe_add(fe_mul(ed_d, y2), fe_one);
  // Step 2: x = u v^3 (u v^7)^((p-5)/8).
  const fe v3 = fe_mul(fe_sqr(v), v);
  const fe v7 = fe_mul(fe_sqr(v3), v);
  fe x = fe_mul(fe_mul(u, v3), fe_pow22523(fe_mul(u, v7)));
  // Step 3: v x^2 = u, or -u (then multiply by sqrt(-1)), or no root.
  const fe vx2 = fe_mul(v, fe_sqr(x));
  if (!fe_equal_vartime(vx2, u)) {
    if (!fe_is_zero_vartime(fe_add(vx2, u))) return false;
    x = fe_mul(x, ed_sqrtm1);
  }
  // Step 4: the sign bit picks the root; x = 0 has no negative form.
  const bool x_zero = fe_is_zero_vartime(x);
  if (x_zero && sign) return false;
  if (fe_is_negative(x) != sign) x = fe_neg(x);
  out = {x, y, fe_one, fe_mul(x, y)};
  return true;
}

// ge_is_small_multiple_zero_vartime reports [8]p == identity: the cofactored
// check of RFC 8032 5.1.7 (X = 0 and Y = Z after three doublings).
inline bool ge_cofactor_kills_vartime(const ge_p3& p) noexcept {
  ge_p2 q{p.X, p.Y, p.Z};
  for (int i = 0; i < 3; ++i) q = ge_to_p2(ge_dbl(q));
  return fe_is_zero_vartime(q.X) && fe_equal_vartime(q.Y, q.Z);
}

// ge_to_niels makes the affine form of p (one inversion; table building).
inline ge_niels ge_to_niels(const ge_p3& p) noexcept {
  const fe zi = fe_invert(p.Z);
  const fe x = fe_mul(p.X, zi), y = fe_mul(p.Y, zi);
  return {fe_add(y, x), fe_sub(y, x), fe_mul(fe_mul(x, y), ed_d2)};
}

inline ge_niels niels_from_limbs(const std::uint64_t w[15]) noexcept {
  ge_niels n;
  std::memcpy(&n, w, sizeof n);
  return n;
}

// ---- constant-time fixed-base multiplication ----------------------------------

// select_base returns digit * base[pos] for a digit in [-8, 8] by reading all
// eight entries and keeping one by mask, then negating by mask: neither the
// addresses read nor the branches depend on the digit.
inline ge_niels select_base(const ed25519_tables& t, int pos, std::int8_t digit) noexcept {
  const std::uint64_t neg = static_cast<std::uint64_t>(static_cast<std::uint8_t>(digit)) >> 7;
  const std::uint64_t abs = static_cast<std::uint64_t>(static_cast<std::uint8_t>(digit ^ -static_cast<std::int8_t>(neg))) +
                            neg;  // |digit| without a branch
  std::uint64_t acc[15] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};  // the identity (1, 1, 0)
  for (std::uint64_t j = 0; j < 8; ++j) {
    const std::uint64_t mask = ct::mask_if_zero((abs & 0xff) ^ (j + 1));
    const std::uint64_t* e = t.base[pos][j];
    for (int k = 0; k < 15; ++k) acc[k] ^= mask & (acc[k] ^ e[k]);
  }
  ge_niels n = niels_from_limbs(acc);
  // The negation (-x, y) swaps y + x and y - x and negates 2dxy.
  fe ypx = n.ypx;
  fe_cmov(n.ypx, n.ymx, neg);
  fe_cmov(n.ymx, ypx, neg);
  fe_cmov(n.xy2d, fe_neg(n.xy2d), neg);
  ct::wipe(acc, sizeof acc);
  return n;
}

// ge_base_mul_ct computes [a]B for a 32-byte scalar below 2^255 as the sum of
// 64 signed radix-16 digits e_i in [-8, 8]: the odd positions first, times
// 16, then the even ones, each a lookup in base[i/2] (256^(i/2) B multiples).
inline ge_p3 ge_base_mul_ct(const ed25519_tables& t, const std::uint8_t a[32]) noexcept {
  std::int8_t e[64];
  for (int i = 0; i < 32; ++i) {
    e[2 * i] = static_cast<std::int8_t>(a[i] & 15);
    e[2 * i + 1] = static_cast<std::int8_t>(a[i] >> 4);
  }
  // Recode to [-8, 7] with a carry into the next digit (arithmetic, no branch).
  std::int8_t c = 0;
  for (int i = 0; i < 63; ++i) {
    e[i] = static_cast<std::int8_t>(e[i] + c);
    c = static_cast<std::int8_t>((e[i] + 8) >> 4);
    e[i] = static_cast<std::int8_t>(e[i] - c * 16);
  }
  e[63] = static_cast<std::int8_t>(e[63] + c);  // at most 8: a < 2^255

  ge_p3 h = ge_identity();
  for (int i = 1; i < 64; i += 2) h = ge_to_p3(ge_madd(h, select_base(t, i / 2, e[i])));
  ge_p2 q = ge_to_p2(ge_dbl(h));
  q = ge_to_p2(ge_dbl(q));
  q = ge_to_p2(ge_dbl(q));
  h = ge_to_p3(ge_dbl(q));
  for (int i = 0; i < 64; i += 2) h = ge_to_p3(ge_madd(h, select_base(t, i / 2, e[i])));
  ct::wipe(e, sizeof e);
  ct::wipe_object(q);
  return h;
}

// ---- variable-time multi-scalar multiplication --------------------------------

// naf_vartime writes the width-w non-adjacent form of a 32-byte scalar below
// 2^253: 256 digits, each zero or odd with |digit| < 2^(w-1), and any two
// non-zero digits at least w positions apart.
inline void naf_vartime(std::int8_t out[256], const std::uint8_t s[32], int w) noexcept {
  std::uint64_t x[5] = {load64_le(s), load64_le(s + 8), load64_le(s + 16), load64_le(s + 24), 0};
  std::memset(out, 0, 256);
  const std::uint64_t width = std::uint64_t{1} << w, mask = width - 1;
  std::uint64_t carry_in = 0;
  int pos = 0;
  while (pos < 256) {
    const int idx = pos / 64, bit = pos % 64;
    std::uint64_t buf = x[idx] >> bit;
    if (bit > 64 - w) buf |= x[idx + 1] << (64 - bit);
    const std::uint64_t window = carry_in + (buf & mask);
    if ((window & 1) == 0) {
      ++pos;
      continue;
    }
    if (window < width / 2) {
      carry_in = 0;
      out[pos] = static_cast<std::int8_t>(window);
    } else {
      carry_in = 1;
      out[pos] = static_cast<std::int8_t>(static_cast<std::int64_t>(window) - static_cast<std::int64_t>(width));
    }
    pos += w;
  }
}

// odd_multiples fills table[j] = (2j + 1) p for j < 8 (width-5 digits).
inline void odd_multiples(ge_cached table[8], const ge_p3& p) noexcept {
  const ge_p3 p2 = ge_to_p3(ge_dbl(p));
  table[0] = ge_to_cached(p);
  ge_p3 acc = p;
  for (int j = 1; j < 8; ++j) {
    acc = ge_to_p3(ge_add(p2, table[j - 1]));
    table[j] = ge_to_cached(acc);
  }
}

// add_digit adds digit * P from its odd-multiple table (digit odd or zero).
inline ge_p1p1 add_cached_digit(const ge_p3& r, const ge_cached table[], int digit) noexcept {
  return digit > 0 ? ge_add(r, table[digit / 2]) : ge_sub(r, table[(-digit) / 2]);
}
inline ge_p1p1 add_base_digit(const ed25519_tables& t, const ge_p3& r, int digit) noexcept {
  return digit > 0 ? ge_madd(r, niels_from_limbs(t.odd[digit / 2])) : ge_madd(r, niels_from_limbs(t.odd[(-digit) / 2]), true);
}

// straus_vartime computes [b]B + sum [s_i]P_i by interleaved width-NAF
// (Straus): one shared chain of doublings, an addition wherever any digit is
// non-zero. nafs[i] and tables[i] describe P_i; b_naf is width 8.
inline ge_p3 straus_vartime(const ed25519_tables& t_tables, const std::int8_t* b_naf, const std::int8_t (*nafs)[256],
                            const ge_cached (*tables)[8], std::size_t n) noexcept {
  int top = 255;
  for (; top >= 0; --top) {
    bool any = b_naf != nullptr && b_naf[top] != 0;
    for (std::size_t i = 0; i < n && !any; ++i) any = nafs[i][top] != 0;
    if (any) break;
  }
  // Between positions the sum stays in the completed form: the doubling
  // reads only X, Y, Z (ge_to_p2), and T is computed (ge_to_p3) only where an
  // addition follows.
  ge_p1p1 t{fe_zero, fe_one, fe_one, fe_one};  // the identity: x = 0/1, y = 1/1
  for (int pos = top; pos >= 0; --pos) {
    t = ge_dbl(ge_to_p2(t));
    if (b_naf != nullptr && b_naf[pos] != 0) t = add_base_digit(t_tables, ge_to_p3(t), b_naf[pos]);
    for (std::size_t i = 0; i < n; ++i) {
      if (nafs[i][pos] != 0) t = add_cached_digit(ge_to_p3(t), tables[i], nafs[i][pos]);
    }
  }
  return ge_to_p3(t);
}

// ge_verify_vartime: RFC 8032 5.1.7 with the cofactored equation,
// checked as [8]([s]B - [k]A - R) == identity.
inline ed25519_verdict ge_verify_vartime(const ed25519_tables& t, const std::uint8_t a_enc[32],
                                         const std::uint8_t r_enc[32], const std::uint8_t s[32],
                                         const std::uint8_t k[32]) noexcept {
  ge_p3 a, r;
  if (!ge_decode_vartime(a, a_enc)) return ed25519_bad_key;
  if (!ge_decode_vartime(r, r_enc)) return ed25519_bad_encoding;
  const ge_p3 neg_a{fe_neg(a.X), a.Y, a.Z, fe_neg(a.T)};
  std::int8_t s_naf[256];
  std::int8_t k_digits[1][256];
  naf_vartime(s_naf, s, 8);
  naf_vartime(k_digits[0], k, 5);
  ge_cached table[1][8];
  odd_multiples(table[0], neg_a);
  const ge_p3 sum = straus_vartime(t, s_naf, k_digits, table, 1);
  const ge_p3 diff = ge_to_p3(ge_sub(sum, ge_to_cached(r)));
  return ge_cofactor_kills_vartime(diff) ? ed25519_ok : ed25519_equation_fails;
}

// ge_batch_vartime checks [8]([-b]B + sum (r_i R_i + a_i A_i)) == identity
// (the batch form of the cofactored equation, with b = sum z_i s_i).
inline bool ge_batch_vartime(const ed25519_tables& t, const ed25519_batch_item* items, std::size_t n,
                             const std::uint8_t b[32], void* scratch) noexcept {
  const std::size_t m = 2 * n;
  auto* tables = static_cast<ge_cached(*)[8]>(scratch);
  auto* nafs = reinterpret_cast<std::int8_t(*)[256]>(static_cast<std::uint8_t*>(scratch) + m * sizeof(ge_cached[8]));
  for (std::size_t i = 0; i < n; ++i) {
    ge_p3 a, r;
    if (!ge_decode_vartime(a, items[i].a) || !ge_decode_vartime(r, items[i].r)) return false;
    odd_multiples(tables[2 * i], a);
    odd_multiples(tables[2 * i + 1], r);
    naf_vartime(nafs[2 * i], items[i].a_scalar, 5);
    naf_vartime(nafs[2 * i + 1], items[i].r_scalar, 5);
  }
  // -b B: negate every digit of b's NAF.
  std::int8_t b_naf[256];
  naf_vartime(b_naf, b, 8);
  for (auto& d : b_naf) d = static_cast<std::int8_t>(-d);
  return ge_cofactor_kills_vartime(straus_vartime(t, b_naf, nafs, tables, m));
}

// ---- the kernel entry points (ed25519_kernel), one set per build ----------------

inline void kernel_base_mul(std::uint8_t out[32], const std::uint8_t scalar[32]) noexcept {
  ge_p3 p = ge_base_mul_ct(ed25519_precomputed(), scalar);
  ge_encode(out, p);
  ct::wipe_object(p);
}

inline ed25519_verdict kernel_verify(const std::uint8_t a[32], const std::uint8_t r[32], const std::uint8_t s[32],
                                     const std::uint8_t k[32]) noexcept {
  return ge_verify_vartime(ed25519_precomputed(), a, r, s, k);
}

inline bool kernel_batch(const ed25519_batch_item* items, std::size_t n, const std::uint8_t b[32],
                         void* scratch) noexcept {
  return ge_batch_vartime(ed25519_precomputed(), items, n, b, scratch);
}

inline bool kernel_is_point(const std::uint8_t enc[32]) noexcept {
  ge_p3 p;
  return ge_decode_vartime(p, enc);
}

}  // namespace
}  // namespace sealwire::crypto::detail
