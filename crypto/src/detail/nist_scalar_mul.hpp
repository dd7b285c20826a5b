// SPDX-License-Identifier: Apache-2.0
// Scalar multiplication on NIST P-256, P-384 and P-521 over the formulas of
// nist_point.hpp: constant-time signed fixed windows for a variable base
// (ECDH), a constant-time precomputed table for the base point (key
// generation, ECDSA signing), and the variable-time u1 G + u2 Q of ECDSA
// verification (public inputs only).
#pragma once

#include <sealwire/crypto/ct.hpp>

#include "nist_point.hpp"

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
struct ec : ec_point<Curve> {
  using base_t = ec_point<Curve>;
  using typename base_t::F;
  using typename base_t::fe;
  using typename base_t::point;
  using typename base_t::affine;
  using typename base_t::temps;
  using base_t::L;
  using base_t::k;
  using base_t::cmov;
  using base_t::add;
  using base_t::add_affine;
  using base_t::dbl;
  using base_t::select;
  using base_t::to_affine;
  using base_t::to_jacobian;
  using base_t::from_jacobian;
  using base_t::dbl_jacobian;
  using base_t::decode_point;

  // Signed windows (Booth recoding): with B-bit windows, k = sum d_i 2^(B i)
  // with d_i in [-2^(B-1), 2^(B-1)],
  //   d_i = b(Bi - 1) + sum_{j < B-1} 2^j b(Bi + j) - 2^(B-1) b(Bi + B - 1)
  // (b(-1) = 0; the sum telescopes). One window past the top bit keeps the
  // last digit non-negative; scalars are below 2^bits (n < 2^bits).
  template <std::size_t B>
  static constexpr std::size_t signed_windows = (Curve::bits + 1 + B - 1) / B;

  // bit returns bit j (public) of the big-endian scalar, 0 beyond it.
  static inline std::uint64_t bit(const std::uint8_t* k_be, std::size_t j) noexcept {
    if (j >= 8 * L) return 0;  // j is public
    return static_cast<std::uint64_t>(k_be[L - 1 - j / 8] >> (j % 8)) & 1u;
  }

  // signed_digit returns |d_w| and sets neg to all ones when d_w < 0 (or
  // d_w = 0 reached as 2^(B-1) - 2^(B-1), whose negation is harmless).
  template <std::size_t B>
  static inline std::uint64_t signed_digit(std::uint64_t& neg, const std::uint8_t* k_be, std::size_t w) noexcept {
    constexpr std::uint64_t half = std::uint64_t{1} << (B - 1);
    const std::size_t lo = B * w;
    std::uint64_t v = lo == 0 ? 0 : bit(k_be, lo - 1);
    for (std::size_t j = 0; j < B; ++j) v |= bit(k_be, lo + j) << (j + 1);
    const std::uint64_t m = ((v & (2 * half - 1)) + 1) >> 1;  // 0 .. half
    neg = 0 - (v >> B);
    return (m & ~neg) | ((half - m) & neg);
  }

  // mul_var: out = k * P (projective) with signed 5-bit windows: a table
  // of P..16P in Jacobian coordinates (with their Z^2 and Z^3, jentry),
  // then for every window five doublings and one addition of the entry
  // selected in constant time,
  // negated by a masked move when the digit is negative; a zero digit
  // selects nothing (all-zero limbs) and its sum is discarded by mask.
  //
  // The accumulator stays in Jacobian coordinates and the additions are the
  // incomplete add_jacobian, except the last. That is sound because P was
  // checked to be on the curve, whose order n is prime (so no point has
  // y = 0 and the doublings are exact, the identity kept as (1 : 1 : 0)),
  // and because of the sizes: before window w >= 1 the accumulator is
  // 32 V P with V = sum_{i>w} d_i 32^(i-w-1), the scalar's digits so far,
  // and 0 <= V <= k / 32^(w+1) + 1, so 32 V < n - 16 (k < n) and the entry
  // d P has 1 <= |d| <= 16: 32 V = +-d (mod n) would need 32 V = +-d or
  // 32 V = n +- d, and neither can hold when V > 0 (32 V >= 32 > 16), while
  // V = 0 is the identity, which takes the entry by mask. The last window
  // (w = 0), where 32 V may reach n - 16 (k = n - 2|d| makes the
  // accumulator equal the entry), uses the complete projective addition
  // (RCB algorithm 4) instead. The table itself holds j P for
  // j = 1..16, never equal or opposite to the P or jP/2 combined there.
  // Every scalar runs the same operations.
  static void mul_var(point& out, const std::uint8_t* k_be, const affine& p) noexcept {
    constexpr std::size_t SW = signed_windows<5>;
    static_assert(SW >= 2);
    using jentry = typename base_t::jentry;
    struct state {
      point table[16];  // Jacobian (j + 1) P
      jentry cached[16];  // the same with Z^2 and Z^3
      jentry t;
      point j, tp, keep, r;
      fe ny;
      temps w;  // the formulas' temporaries, wiped with the rest
      std::uint64_t neg, d, zero;
    } s;
    s.table[0] = point{p.x, p.y, k().one};
    for (std::size_t i = 1; i < 16; ++i) {
      if (i % 2 == 1) {
        dbl_jacobian(s.table[i], s.table[i / 2], s.w);  // (i + 1) P = 2 ((i + 1) / 2) P
      } else {
        s.table[i] = s.table[i - 1];
        base_t::add_mixed_jacobian(s.table[i], p, s.w);  // (i + 1) P = i P + P
      }
    }
    for (std::size_t i = 0; i < 16; ++i) base_t::cache_entry(s.cached[i], s.table[i]);
    // The top digit is >= 0; zero selects nothing, made the identity.
    s.d = signed_digit<5>(s.neg, k_be, SW - 1);
    select(s.j, s.table, 16, s.d - 1);
    s.zero = ct::mask_if_zero(s.d);
    cmov(s.j.x, k().one, s.zero);
    cmov(s.j.y, k().one, s.zero);
    for (std::size_t w = SW - 1; w-- > 0;) {
      base_t::template dbl_jacobian_n<5>(s.j, s.w);
      s.d = signed_digit<5>(s.neg, k_be, w);
      select(s.t, s.cached, 16, s.d - 1);  // d = 0 wraps to no entry
      F::sub(s.ny, fe{}, s.t.y);
      cmov(s.t.y, s.ny, s.neg);
      s.zero = ct::mask_if_zero(s.d);
      if (w > 0) {  // w is public
        s.keep = s.j;
        base_t::add_jacobian(s.j, s.t, s.w);
        cmov(s.j.x, s.keep.x, s.zero);
        cmov(s.j.y, s.keep.y, s.zero);
        cmov(s.j.z, s.keep.z, s.zero);
      } else {
        // Both to projective: (X Z : Y : Z^3); a zero digit's entry becomes
        // (0 : 1 : 0), the identity, which the complete addition takes.
        from_jacobian(s.r, s.j, s.w);
        s.tp = point{s.t.x, s.t.y, s.t.z};
        from_jacobian(s.keep, s.tp, s.w);
        cmov(s.keep.y, k().one, s.zero);
        add(s.r, s.r, s.keep, s.w);
      }
    }
    out = s.r;
    ct::wipe_object(s);
  }

  // The base point table: entry [w][j - 1] = j 2^(BB w) G in affine form
  // (j = 1..2^(BB-1), for signed BB-bit digits), so k G is one mixed
  // addition per window and no doublings. P-256 takes 6-bit windows (43
  // rows of 32 entries, 88 KiB): 22 fewer additions than 4-bit ones for a
  // select over 32 entries instead of 8, which measured the faster; P-384
  // and P-521 keep 4 bits.
  static constexpr std::size_t BB = Curve::bits == 256 ? 6 : 4;
  static constexpr std::size_t BW = signed_windows<BB>;
  static constexpr std::size_t BE = std::size_t{1} << (BB - 1);
  struct base_table {
    affine e[BW][BE];
    base_table() noexcept {
      point base{k().g.x, k().g.y, k().one};
      point row[BE];
      temps tmp;  // public points
      for (std::size_t w = 0; w < BW; ++w) {
        row[0] = base;
        dbl(row[1], base, tmp);
        for (std::size_t j = 2; j < BE; ++j) add(row[j], row[j - 1], base, tmp);
        dbl(base, row[BE - 1], tmp);  // 2^BB base
        base_t::template normalize<BE>(e[w], row);
      }
    }

  };
  static const base_table& table() noexcept {
    static const base_table t;
    return t;
  }

  // mul_base: out = k G with signed BB-bit digits, k in [1, n-1]. Window w
  // adds the selected entry of row w, negated by a masked move for a
  // negative digit; a zero digit selects nothing (all-zero limbs) and the
  // sum is discarded by mask. Window 0's entry starts the sum (no addition).
  //
  // The sum runs in Jacobian coordinates with the incomplete mixed addition
  // (add_mixed_jacobian), which is sound because the accumulator is never
  // the entry or its negation unless it is the identity. With h = 2^(BB-1)
  // and W = 2^(BB w): before window w the accumulator is A G with
  // A = sum_{i<w} d_i 2^(BB i), so |A| <= h (W - 1) / (2^BB - 1) < W, and
  // the entry is d W G with 1 <= |d| <= h. Below the top window,
  // W <= 2^(bits-BB) and |A -+ d W| < (h + 1) W < n, so A = +-d W (mod n)
  // would need A = +-d W exactly, which |A| < W rules out. In the top
  // window k = A + d W itself (d > 0 there: k < 2^bits): A = -d W (mod n)
  // means k = 0 (mod n), and A = d W (mod n) means k = 2 d W mod n, whose
  // own top digit is not d. For 4 bits (P-384, P-521) 2 d W mod n is
  // 2^385 - 2n (about 2^191) or d (2^521 - n) (below 2^263): top digit 0.
  // For P-256's 6 bits W = 2^252, the top digit of k is b(251) + k / 2^252
  // (at most 16) and 2 d W = d 2^253: for d <= 7 that is k itself, top
  // digit 2d; for 8 <= d <= 15 it is (d - 8) 2^253 + (2^256 - n), below
  // 2^224 apart from the first term, top digit 2 (d - 8); for d = 16 it is
  // 2 (2^256 - n), top digit 0; never d. (The tests run these scalars.)
  // The identity itself (every digit so far zero) takes the entry by mask.
  static void mul_base(point& out, const std::uint8_t* k_be) noexcept {
    const base_table& tb = table();
    struct state {
      point j, t;
      affine e, e_next;
      fe ny;
      temps w;  // the formulas' temporaries, wiped with the rest
      std::uint64_t neg, d, neg_next, d_next;
    } s;
    // Window 0 starts the sum with its entry itself (Z = 1), negated for a
    // negative digit, or with the Jacobian identity (1 : 1 : 0) for a zero
    // digit: the mixed addition to the identity it replaces would only have
    // taken the entry by mask.
    s.d = signed_digit<BB>(s.neg, k_be, 0);
    select(s.e, tb.e[0], BE, s.d - 1);
    F::sub(s.ny, fe{}, s.e.y);
    cmov(s.e.y, s.ny, s.neg);
    s.j = point{s.e.x, s.e.y, k().one};
    {
      const std::uint64_t zero = ct::mask_if_zero(s.d);
      cmov(s.j.x, k().one, zero);
      cmov(s.j.y, k().one, zero);
      cmov(s.j.z, fe{}, zero);
    }
    // Each window's entry is selected one window ahead, before the previous
    // window's addition: the addition does not depend on it, so the scan's
    // loads (the rows come from L2) overlap the addition's arithmetic
    // instead of waiting for it.
    s.d_next = signed_digit<BB>(s.neg_next, k_be, 1);
    select(s.e_next, tb.e[1], BE, s.d_next - 1);  // d = 0 wraps to no entry
    for (std::size_t w = 1; w < BW; ++w) {
      s.e = s.e_next;
      s.d = s.d_next;
      s.neg = s.neg_next;
      if (w + 1 < BW) {  // w is public
        s.d_next = signed_digit<BB>(s.neg_next, k_be, w + 1);
        select(s.e_next, tb.e[w + 1], BE, s.d_next - 1);
      }
      F::sub(s.ny, fe{}, s.e.y);
      cmov(s.e.y, s.ny, s.neg);
      s.t = s.j;
      base_t::add_mixed_jacobian(s.t, s.e, s.w);
      const std::uint64_t keep = ct::mask_if_zero(s.d);
      cmov(s.t.x, s.j.x, keep);
      cmov(s.t.y, s.j.y, keep);
      cmov(s.t.z, s.j.z, keep);
      s.j = s.t;
    }
    from_jacobian(out, s.j, s.w);
    ct::wipe_object(s);
  }

  // shared checks that peer_xy (X || Y, 2L bytes) is a point on the curve
  // with coordinates below p and writes the X coordinate of scalar * peer;
  // false (out untouched) for an invalid point. The scalar is in [1, n-1].
  static bool shared(std::uint8_t* out, const std::uint8_t* scalar, const std::uint8_t* peer_xy) noexcept {
    affine p;
    if (!decode_point(p, peer_xy)) return false;
    point r;
    mul_var(r, scalar, p);
    std::uint8_t x[L];
    const bool infinity = to_affine(x, nullptr, r) != 0;
    ct::declassify(&infinity, sizeof infinity);
    ct::wipe_object(r);
    // With a valid point (order n) and 0 < k < n this never happens; the
    // verdict is the only thing branched on.
    if (infinity) {
      ct::wipe(x, L);
      return false;
    }
    std::memcpy(out, x, L);
    ct::wipe(x, L);
    return true;
  }

  // ---- variable time: public scalars and points only (ECDSA verification) ----

  // wnaf writes the width-W non-adjacent form of a public big-endian scalar
  // (L bytes): k = sum d_i 2^i with every nonzero digit odd, below 2^(W-1)
  // in magnitude and followed by at least W - 1 zero digits. Returns the
  // number of digits (at most 8 L + 1).
  template <int W>
  static std::size_t wnaf(std::int8_t* d, const std::uint8_t* k_be) noexcept {
    constexpr std::size_t words = L / 8 + 2;
    std::uint64_t k[words] = {};
    for (std::size_t i = 0; i < L; ++i) {
      const std::size_t bit = 8 * (L - 1 - i);
      k[bit / 64] |= static_cast<std::uint64_t>(k_be[i]) << (bit % 64);
    }
    std::size_t n = 0;
    for (;;) {
      std::uint64_t any = 0;
      for (std::size_t i = 0; i < words; ++i) any |= k[i];
      if (any == 0) break;
      int digit = 0;
      if ((k[0] & 1) != 0) {
        digit = static_cast<int>(k[0] & ((1u << W) - 1));
        if (digit >= (1 << (W - 1))) digit -= 1 << W;
        // k -= digit leaves k divisible by 2^W.
        std::uint8_t c = 0;
        if (digit > 0) {
          k[0] = subb(k[0], static_cast<std::uint64_t>(digit), c);
          for (std::size_t i = 1; i < words; ++i) k[i] = subb(k[i], 0, c);
        } else {
          k[0] = addc(k[0], static_cast<std::uint64_t>(-digit), c);
          for (std::size_t i = 1; i < words; ++i) k[i] = addc(k[i], 0, c);
        }
      }
      d[n++] = static_cast<std::int8_t>(digit);
      for (std::size_t i = 0; i + 1 < words; ++i) k[i] = k[i] >> 1 | k[i + 1] << 63;
      k[words - 1] >>= 1;
    }
    return n;
  }

  // Window widths of mul_double_var: 7 bits for G (a table of 32 odd
  // multiples built once), 5 for Q (8 odd multiples built per call).
  static constexpr int g_window = 7, q_window = 5;

  // g_odd_table holds G, 3G, ..., 63G in affine form.
  struct g_odd_table {
    static constexpr std::size_t size = std::size_t{1} << (g_window - 2);
    affine e[size];
    g_odd_table() noexcept {
      point pts[size], g2;
      temps tmp;  // public points
      pts[0] = point{k().g.x, k().g.y, k().one};
      dbl(g2, pts[0], tmp);
      for (std::size_t j = 1; j < size; ++j) add(pts[j], pts[j - 1], g2, tmp);
      base_t::template normalize<size>(e, pts);
    }
  };
  static const g_odd_table& g_odd() noexcept {
    static const g_odd_table t;
    return t;
  }

  // mul_double_var: out = u1 G + u2 Q (projective) for public big-endian
  // scalars (below 2^bits) and a point Q on the curve, in variable time
  // (Straus-Shamir interleaving over the two wNAF digit strings), with the
  // accumulator in Jacobian coordinates throughout: mixed additions of the
  // affine G multiples, general additions of the Q multiples (converted to
  // Jacobian once), and the incomplete-case branches of the _vartime
  // formulas, sound here because every input is public.
  static void mul_double_var(point& out, const std::uint8_t* u1, const std::uint8_t* u2, const affine& q) noexcept {
    std::int8_t d1[8 * L + 1], d2[8 * L + 1];
    const std::size_t n1 = wnaf<g_window>(d1, u1);
    const std::size_t n2 = wnaf<q_window>(d2, u2);
    constexpr std::size_t qn = std::size_t{1} << (q_window - 2);
    point qp[qn], qj[qn], q2;
    temps tmp;  // public points and scalars: not wiped
    qp[0] = point{q.x, q.y, k().one};
    dbl(q2, qp[0], tmp);
    for (std::size_t j = 1; j < qn; ++j) add(qp[j], qp[j - 1], q2, tmp);
    for (std::size_t j = 0; j < qn; ++j) to_jacobian(qj[j], qp[j], tmp);
    const g_odd_table& gt = g_odd();

    point j{k().one, k().one, fe{}};
    for (std::size_t i = (n1 > n2 ? n1 : n2); i-- > 0;) {
      if (F::zero_mask(j.z) == 0) dbl_jacobian(j, j, tmp);
      const int a = i < n1 ? d1[i] : 0;
      const int b = i < n2 ? d2[i] : 0;
      if (a != 0) {
        affine e = gt.e[(a < 0 ? -a : a) / 2];
        if (a < 0) F::sub(e.y, fe{}, e.y);
        base_t::add_mixed_jacobian_vartime(j, e, tmp);
      }
      if (b != 0) {
        point t = qj[(b < 0 ? -b : b) / 2];
        if (b < 0) F::sub(t.y, fe{}, t.y);
        base_t::add_jacobian_vartime(j, t, tmp);
      }
    }
    from_jacobian(out, j, tmp);
  }

  // x_matches: X = x Z for the big-endian x, false when x is not below p
  // (public values only).
  static bool x_matches(const point& p, const std::uint8_t* x) noexcept {
    fe xf, t;
    if (!F::from_bytes(xf, x)) return false;
    F::mul(t, xf, p.z);
    F::sub(t, t, p.x);
    return F::zero_mask(t) != 0;
  }

  // verify_r: whether R = u1 G + u2 Q is not the identity and x(R) mod n =
  // r (FIPS 186-5 6.4.2 steps 5-7), for public scalars, point and r (in
  // [1, n-1]), in variable time. x(R) = X / Z is below p, and n < p < 2n,
  // so x mod n = r means X = r' Z for r' = r or, when r + n is still below
  // p, r' = r + n.
  static bool verify_r(const std::uint8_t* u1, const std::uint8_t* u2, const affine& q,
                       const std::uint8_t* r) noexcept {
    point p;
    mul_double_var(p, u1, u2, q);
    if (F::zero_mask(p.z) != 0) return false;  // the point at infinity
    if (x_matches(p, r)) return true;
    static constexpr auto n = from_hex<L>(Curve::n_hex);
    std::uint8_t rn[L];
    unsigned carry = 0;
    for (std::size_t i = L; i-- > 0;) {
      carry += unsigned{r[i]} + n.b[i];
      rn[i] = static_cast<std::uint8_t>(carry);
      carry >>= 8;
    }
    return carry == 0 && x_matches(p, rn);
  }

  // verify_r_bytes is verify_r for Q as X || Y, false when Q is not a
  // point of the curve (SEC 1 3.2.2.1).
  static bool verify_r_bytes(const std::uint8_t* u1, const std::uint8_t* u2, const std::uint8_t* q_xy,
                             const std::uint8_t* r) noexcept {
    affine q;
    return decode_point(q, q_xy) && verify_r(u1, u2, q, r);
  }

  // base_x writes the X coordinate of scalar * G (L bytes); the scalar is
  // in [1, n-1] (ECDSA's nonce), secret.
  static void base_x(std::uint8_t* x_out, const std::uint8_t* scalar) noexcept {
    point r;
    mul_base(r, scalar);
    static_cast<void>(to_affine(x_out, nullptr, r));
    ct::wipe_object(r);
  }

  // base writes scalar * G as X || Y (2L bytes); the scalar is in [1, n-1].
  static void base(std::uint8_t* out_xy, const std::uint8_t* scalar) noexcept {
    point r;
    mul_base(r, scalar);
    static_cast<void>(to_affine(out_xy, out_xy + L, r));
    ct::wipe_object(r);
  }
};

}  // namespace
}  // namespace sealwire::crypto::detail

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif
