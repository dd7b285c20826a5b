// SPDX-License-Identifier: Apache-2.0
// The prime fields of NIST P-256, P-384 and P-521 (FIPS 186-4 D.1.2): a
// Montgomery field over any odd modulus (P-256 and P-384's p, and the group
// orders n that ECDSA's scalars live in) and the Mersenne field of P-521,
// constant time. Header-only templates with internal linkage: each curve
// translation unit (ecdh_nist.cpp, ecdsa.cpp) instantiates what it uses.
#pragma once

#include <sealwire/crypto/ct.hpp>

#include "bytes.hpp"
#include "unroll.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#if defined(__x86_64__)
#include <immintrin.h>  // _addcarry_u64, _subborrow_u64: plain adc/sbb, no extension needed
#endif

// Limb loops here are short and end in masked selections; GCC's vectorizer
// turns those into 128-bit loads of values just stored as two 64-bit words,
// which stall on store forwarding (measured: a third of the field time).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("no-tree-vectorize")
#endif

// Every limb loop has a constant trip count; unrolled (SEALWIRE_UNROLL,
// unroll.hpp), the limbs stay in registers and the modulus limbs become
// immediates.

namespace sealwire::crypto::detail {

namespace {

// ---- constants from their hex spelling ----

template <std::size_t N>
struct be_bytes {
  std::uint8_t b[N];
};

constexpr std::uint8_t hex_value(char c) noexcept {
  return static_cast<std::uint8_t>(c <= '9' ? c - '0' : c - 'a' + 10);
}

// from_hex reads 2N lower-case hex digits (a big-endian number).
template <std::size_t N>
constexpr be_bytes<N> from_hex(const char* s) noexcept {
  be_bytes<N> out{};
  for (std::size_t i = 0; i < N; ++i) {
    out.b[i] = static_cast<std::uint8_t>(hex_value(s[2 * i]) << 4 | hex_value(s[2 * i + 1]));
  }
  return out;
}

// be_to_limbs reads a big-endian byte string into little-endian 64-bit limbs.
template <std::size_t L, std::size_t N>
constexpr void be_to_limbs(std::uint64_t (&out)[L], const std::uint8_t* in) noexcept {
  for (std::size_t i = 0; i < L; ++i) out[i] = 0;
  for (std::size_t i = 0; i < N; ++i) {
    const std::size_t bit = 8 * (N - 1 - i);
    out[bit / 64] |= static_cast<std::uint64_t>(in[i]) << (bit % 64);
  }
}

// be_less_than_mask is all ones when the big-endian a < b (both n bytes),
// in constant time: the borrow out of a - b.
inline std::uint64_t be_less_than_mask(const std::uint8_t* a, const std::uint8_t* b, std::size_t n) noexcept {
  std::uint64_t borrow = 0;
  for (std::size_t i = n; i-- > 0;) borrow = (static_cast<std::uint64_t>(a[i]) - b[i] - borrow) >> 63;
  return 0 - borrow;
}

// addc and subb are one step of a carry (borrow) chain; on x86-64 the
// intrinsics become adc/sbb chains, where 128-bit arithmetic made GCC
// rebuild each carry with several instructions.
inline std::uint64_t addc(std::uint64_t a, std::uint64_t b, std::uint8_t& carry) noexcept {
#if defined(__x86_64__)
  unsigned long long out;
  carry = _addcarry_u64(carry, a, b, &out);
  return out;
#else
  const u128 t = static_cast<u128>(a) + b + carry;
  carry = static_cast<std::uint8_t>(t >> 64);
  return static_cast<std::uint64_t>(t);
#endif
}

inline std::uint64_t subb(std::uint64_t a, std::uint64_t b, std::uint8_t& borrow) noexcept {
#if defined(__x86_64__)
  unsigned long long out;
  borrow = _subborrow_u64(borrow, a, b, &out);
  return out;
#else
  const u128 t = static_cast<u128>(a) - b - borrow;
  borrow = static_cast<std::uint8_t>((t >> 64) & 1);
  return static_cast<std::uint64_t>(t);
#endif
}

// ---- the Montgomery field (P-256, P-384) ----
//
// Elements are fully reduced (0 <= a < p) in N 64-bit limbs, held as
// a R mod p with R = 2^(64 N). Every operation ends with a conditional
// subtraction by mask, so the sequence of instructions never depends on
// the values.

// Constants of a Montgomery field, computed at compile time (outside the
// class: a static constexpr member cannot call the class's own functions).
template <class Params, class Fe>
constexpr Fe mont_modulus() noexcept {
  Fe p{};
  const auto pb = from_hex<Params::bytes>(Params::p_hex);
  be_to_limbs<Params::limbs, Params::bytes>(p.v, pb.b);
  return p;
}

// mont_n0 = -p^-1 mod 2^64 (each Newton step doubles the correct bits).
constexpr std::uint64_t mont_n0(std::uint64_t p0) noexcept {
  std::uint64_t inv = 1;
  SEALWIRE_UNROLL
  for (int i = 0; i < 6; ++i) inv *= 2 - p0 * inv;
  return 0 - inv;
}

// mont_r2 = R^2 mod p, R = 2^(64 N), by doubling 1 modulo p 2 * 64 * N times.
template <std::size_t N, class Fe>
constexpr Fe mont_r2(const Fe& p) noexcept {
  Fe x{};
  x.v[0] = 1;
  SEALWIRE_UNROLL
  for (std::size_t k = 0; k < 2 * 64 * N; ++k) {
    const std::uint64_t top = x.v[N - 1] >> 63;
    SEALWIRE_UNROLL
    for (std::size_t i = N; i-- > 1;) x.v[i] = x.v[i] << 1 | x.v[i - 1] >> 63;
    x.v[0] <<= 1;
    Fe d{};
    std::uint64_t borrow = 0;
    SEALWIRE_UNROLL
    for (std::size_t i = 0; i < N; ++i) {
      const u128 t = static_cast<u128>(x.v[i]) - p.v[i] - borrow;
      d.v[i] = static_cast<std::uint64_t>(t);
      borrow = static_cast<std::uint64_t>(t >> 64) & 1;
    }
    if (top != 0 || borrow == 0) x = d;  // 2x >= p: compile time only
  }
  return x;
}

template <class Params>
struct mont_field {
  static constexpr std::size_t limbs = Params::limbs;
  static constexpr std::size_t bytes = Params::bytes;
  struct fe {
    std::uint64_t v[limbs];
  };

  static constexpr fe p = mont_modulus<Params, fe>();
  static constexpr std::uint64_t n0 = mont_n0(p.v[0]);
  static constexpr fe r2 = mont_r2<limbs>(p);

  // P-256's p = 2^256 - 2^224 + 2^192 + 2^96 - 1 has p = -1 mod 2^64, so
  // n0 = 1 and m is the low word itself, and
  //   t + m p = (t - m) + m 2^96 + m p3 2^192   (p3 = 2^64 - 2^32 + 1,
  // the top limb): t - m only clears the low word, m 2^96 is two shifts,
  // and one product remains of the four in a general row.
  static constexpr bool p256_shape = limbs == 4 && p.v[0] == ~std::uint64_t{0} &&
                                     p.v[1] == 0xffffffffu && p.v[2] == 0;

  // reduce_row_p256 adds m p for m = t[0] to the words t[0..4] and returns
  // the carry out of t[4]; t[0] becomes 0. `in4` (below 3) is added at
  // t[4] in the same chain (redc's pending carry).
  static inline std::uint8_t reduce_row_p256(std::uint64_t* t, std::uint64_t in4) noexcept {
    const std::uint64_t m = t[0];
    const u128 pr = static_cast<u128>(m) * p.v[3];
    // pr >> 64 <= 2^64 - 2^32, so adding in4 < 3 cannot wrap.
    std::uint8_t c = 0;
    t[1] = addc(t[1], m << 32, c);
    t[2] = addc(t[2], m >> 32, c);
    t[3] = addc(t[3], static_cast<std::uint64_t>(pr), c);
    t[4] = addc(t[4], static_cast<std::uint64_t>(pr >> 64) + in4, c);
    t[0] = 0;
    return c;
  }

  // reduce_once: out = t - p when (top:t) >= p, else t; top is 0 or 1 and
  // (top:t) < 2p.
  [[gnu::always_inline]] static inline void reduce_once(fe& out, const std::uint64_t* t, std::uint64_t top) noexcept {
    std::uint64_t d[limbs];
    std::uint8_t borrow = 0;
    SEALWIRE_UNROLL
    for (std::size_t i = 0; i < limbs; ++i) d[i] = subb(t[i], p.v[i], borrow);
    // (top:t) - p is negative exactly when top - borrow is -1: keep t then.
    const std::uint64_t keep = 0 - ((top - borrow) >> 63);
    SEALWIRE_UNROLL
    for (std::size_t i = 0; i < limbs; ++i) out.v[i] = (t[i] & keep) | (d[i] & ~keep);
  }

  // Squares are formed column by column (product scanning) in a
  // three-word accumulator, each cross product once, then reduced word by
  // word (Montgomery's REDC): with a < p the 2N-word square is below p^2, so
  // (T + m p) / R is below 2p and one conditional subtraction ends it.
  // Products interleave multiplication and reduction instead (CIOS), which
  // measured a little faster here than the same split.

  // acc3 is the column accumulator (c0, c1, c2).
  struct acc3 {
    std::uint64_t c0 = 0, c1 = 0, c2 = 0;
    inline void add(u128 x) noexcept {
      std::uint8_t cf = 0;
      c0 = addc(c0, static_cast<std::uint64_t>(x), cf);
      c1 = addc(c1, static_cast<std::uint64_t>(x >> 64), cf);
      c2 += cf;
    }
    // shift out the finished column word.
    inline std::uint64_t take() noexcept {
      const std::uint64_t w = c0;
      c0 = c1;
      c1 = c2;
      c2 = 0;
      return w;
    }
  };

  // redc: out = t / R mod p for t < p R (2N words). Row i adds m p at word
  // i with the two carry chains of mul_add_row; the carries out of the row
  // wait in `top` for the next row's chain.
  static inline void redc(fe& out, std::uint64_t* t) noexcept {
    std::uint8_t top = 0;  // pending carry (0 to 2) into word i + N
    SEALWIRE_UNROLL
    for (std::size_t i = 0; i < limbs; ++i) {
      if constexpr (p256_shape) {
        top = reduce_row_p256(t + i, top);
        continue;
      }
      const std::uint64_t m = t[i] * n0;
      std::uint64_t lo[limbs], hi[limbs];
      SEALWIRE_UNROLL
      for (std::size_t j = 0; j < limbs; ++j) {
        const u128 pr = static_cast<u128>(m) * p.v[j];
        lo[j] = static_cast<std::uint64_t>(pr);
        hi[j] = static_cast<std::uint64_t>(pr >> 64);
      }
      std::uint8_t ca = 0, cb = 0;
      SEALWIRE_UNROLL
      for (std::size_t j = 0; j < limbs; ++j) t[i + j] = addc(t[i + j], lo[j], ca);
      t[i + limbs] = addc(t[i + limbs], top, ca);
      SEALWIRE_UNROLL
      for (std::size_t j = 0; j < limbs; ++j) t[i + 1 + j] = addc(t[i + 1 + j], hi[j], cb);
      top = static_cast<std::uint8_t>(ca + cb);
    }
    reduce_once(out, t + limbs, top);
  }

  // mul_add_row: t += x y for an N-word x and one word y, with t N + 2
  // words. Two plain carry chains, the low halves of the products first and
  // then the high halves one word up: on x86-64 each is a run of adc, where
  // 128-bit accumulators made GCC emit three times the instructions.
  static inline void mul_add_row(std::uint64_t* t, const std::uint64_t* x, std::uint64_t y) noexcept {
    // All products first: mul clobbers the flags a chain runs on.
    std::uint64_t lo[limbs], hi[limbs];
    SEALWIRE_UNROLL
    for (std::size_t j = 0; j < limbs; ++j) {
      const u128 pr = static_cast<u128>(x[j]) * y;
      lo[j] = static_cast<std::uint64_t>(pr);
      hi[j] = static_cast<std::uint64_t>(pr >> 64);
    }
    std::uint8_t c = 0;
    SEALWIRE_UNROLL
    for (std::size_t j = 0; j < limbs; ++j) t[j] = addc(t[j], lo[j], c);
    t[limbs] = addc(t[limbs], 0, c);
    t[limbs + 1] += c;
    c = 0;
    SEALWIRE_UNROLL
    for (std::size_t j = 0; j < limbs; ++j) t[j + 1] = addc(t[j + 1], hi[j], c);
    t[limbs + 1] += c;
  }

  // mul: out = a b / R mod p (coarsely integrated operand scanning): per
  // word of b, t += a b_i, then t += m p with m chosen to clear t's low
  // word, and a shift by one word. t stays below 2p between rows (and below
  // 2^65 p within one), so one conditional subtraction ends it.
  // Out of line: inlined into the point formulas the unrolled code spilled
  // heavily (a P-384 key generation took three times as long).
  [[gnu::noinline]] static void mul(fe& out, const fe& a, const fe& b) noexcept {
    std::uint64_t t[limbs + 2] = {};
    SEALWIRE_UNROLL
    for (std::size_t i = 0; i < limbs; ++i) {
      mul_add_row(t, a.v, b.v[i]);
      if constexpr (p256_shape) {
        t[limbs + 1] += reduce_row_p256(t, 0);
      } else {
        mul_add_row(t, p.v, t[0] * n0);  // t[0] becomes 0
      }
      SEALWIRE_UNROLL
      for (std::size_t j = 0; j <= limbs; ++j) t[j] = t[j + 1];
      t[limbs + 1] = 0;
    }
    reduce_once(out, t, t[limbs]);
  }

  // sqr: out = a^2 / R mod p, each cross product taken once and doubled.
  [[gnu::noinline]] static void sqr(fe& out, const fe& a) noexcept {
    std::uint64_t t[2 * limbs];
    // The cross products sum_{i<j} a_i a_j, column by column.
    acc3 acc;
    t[0] = 0;
    SEALWIRE_UNROLL
    for (std::size_t k = 1; k < 2 * limbs - 2; ++k) {
      SEALWIRE_UNROLL
      for (std::size_t i = (k < limbs ? 0 : k - limbs + 1); 2 * i < k; ++i) {
        acc.add(static_cast<u128>(a.v[i]) * a.v[k - i]);
      }
      t[k] = acc.take();
    }
    t[2 * limbs - 2] = acc.c0;
    t[2 * limbs - 1] = acc.c1;
    // Double them (below 2^(128 N - 1), so no bit is lost) and add the squares.
    SEALWIRE_UNROLL
    for (std::size_t k = 2 * limbs - 1; k > 0; --k) t[k] = t[k] << 1 | t[k - 1] >> 63;
    std::uint8_t cf = 0;
    SEALWIRE_UNROLL
    for (std::size_t i = 0; i < limbs; ++i) {
      const u128 sq = static_cast<u128>(a.v[i]) * a.v[i];
      t[2 * i] = addc(t[2 * i], static_cast<std::uint64_t>(sq), cf);
      t[2 * i + 1] = addc(t[2 * i + 1], static_cast<std::uint64_t>(sq >> 64), cf);
    }
    redc(out, t);
  }

  // add and sub are forced inline, as in the P-521 field: GCC had put
  // them out of line, a quarter of a P-256 shared secret's profile.
  [[gnu::always_inline]] static inline void add(fe& out, const fe& a, const fe& b) noexcept {
    std::uint64_t t[limbs];
    std::uint8_t carry = 0;
    SEALWIRE_UNROLL
    for (std::size_t i = 0; i < limbs; ++i) t[i] = addc(a.v[i], b.v[i], carry);
    reduce_once(out, t, carry);
  }

  [[gnu::always_inline]] static inline void sub(fe& out, const fe& a, const fe& b) noexcept {
    std::uint64_t t[limbs];
    std::uint8_t borrow = 0;
    SEALWIRE_UNROLL
    for (std::size_t i = 0; i < limbs; ++i) t[i] = subb(a.v[i], b.v[i], borrow);
    // Add p back when the difference went negative.
    const std::uint64_t mask = 0 - static_cast<std::uint64_t>(borrow);
    std::uint8_t carry = 0;
    SEALWIRE_UNROLL
    for (std::size_t i = 0; i < limbs; ++i) out.v[i] = addc(t[i], p.v[i] & mask, carry);
  }

  // from_bytes reads a big-endian value; false (public inputs only) when it
  // is not below p.
  static inline bool from_bytes(fe& out, const std::uint8_t* in) noexcept {
    const auto pb = from_hex<bytes>(Params::p_hex);
    const bool below = be_less_than_mask(in, pb.b, bytes) != 0;
    fe x;
    be_to_limbs<limbs, bytes>(x.v, in);
    mul(out, x, r2);
    return below;
  }

  // to_bytes writes the canonical big-endian value.
  static inline void to_bytes(std::uint8_t* out, const fe& a) noexcept {
    fe one{}, x;
    one.v[0] = 1;
    mul(x, a, one);
    SEALWIRE_UNROLL
    for (std::size_t i = 0; i < bytes; ++i) {
      const std::size_t bit = 8 * (bytes - 1 - i);
      out[i] = static_cast<std::uint8_t>(x.v[bit / 64] >> (bit % 64));
    }
  }

  // zero_mask is all ones when a = 0 (elements are fully reduced).
  static inline std::uint64_t zero_mask(const fe& a) noexcept {
    std::uint64_t acc = 0;
    SEALWIRE_UNROLL
    for (std::size_t i = 0; i < limbs; ++i) acc |= a.v[i];
    return ct::mask_if_zero(acc);
  }

  // invert_vartime: out = a^-1 (Montgomery form in and out), 0 for a = 0,
  // by the binary extended Euclidean algorithm on the representative
  // A = a R (Hankerson-Menezes-Vanstone, Guide to ECC, algorithm 2.22),
  // then a product with R^3: A^-1 R^3 / R = a^-1 R. Variable time: for
  // public values only (ECDSA verification's s), and p must be prime.
  static void invert_vartime(fe& out, const fe& a) noexcept {
    if (zero_mask(a) != 0) {
      out = fe{};
      return;
    }
    static const fe r3 = [] {
      fe t;
      mul(t, r2, r2);
      return t;
    }();
    fe u = a, v = p, x1{}, x2{};
    x1.v[0] = 1;
    const auto is_one = [](const fe& w) {
      std::uint64_t rest = w.v[0] ^ 1;
      for (std::size_t i = 1; i < limbs; ++i) rest |= w.v[i];
      return rest == 0;
    };
    const auto shift_right = [](fe& w, std::uint64_t top) {
      for (std::size_t i = 0; i + 1 < limbs; ++i) w.v[i] = w.v[i] >> 1 | w.v[i + 1] << 63;
      w.v[limbs - 1] = w.v[limbs - 1] >> 1 | top << 63;
    };
    // halve: x / 2 mod p (x + p is even when x is odd; its carry comes back in).
    const auto halve = [&](fe& x) {
      std::uint8_t c = 0;
      if ((x.v[0] & 1) != 0) {
        for (std::size_t i = 0; i < limbs; ++i) x.v[i] = addc(x.v[i], p.v[i], c);
      }
      shift_right(x, c);
    };
    const auto at_least = [](const fe& x, const fe& y) {
      for (std::size_t i = limbs; i-- > 0;) {
        if (x.v[i] != y.v[i]) return x.v[i] > y.v[i];
      }
      return true;
    };
    const auto sub_in_place = [](fe& x, const fe& y) {
      std::uint8_t b = 0;
      for (std::size_t i = 0; i < limbs; ++i) x.v[i] = subb(x.v[i], y.v[i], b);
      return b;
    };
    // sub_mod: x = x - y mod p for x, y below p (p added back on a borrow;
    // its carry out cancels the borrow).
    const auto sub_mod = [&](fe& x, const fe& y) {
      if (sub_in_place(x, y) == 0) return;
      std::uint8_t c = 0;
      for (std::size_t i = 0; i < limbs; ++i) x.v[i] = addc(x.v[i], p.v[i], c);
    };
    while (!is_one(u) && !is_one(v)) {
      while ((u.v[0] & 1) == 0) {
        shift_right(u, 0);
        halve(x1);
      }
      while ((v.v[0] & 1) == 0) {
        shift_right(v, 0);
        halve(x2);
      }
      if (at_least(u, v)) {
        sub_in_place(u, v);
        sub_mod(x1, x2);
      } else {
        sub_in_place(v, u);
        sub_mod(x2, x1);
      }
    }
    mul(out, is_one(u) ? x1 : x2, r3);
  }
};

// ---- the P-521 field ----
//
// p = 2^521 - 1 in nine 58-bit limbs (522 bits): limb i has weight 2^(58 i),
// and 2^522 = 2 (mod p) folds the upper half of a product back with a
// doubling. "Tight" elements, which every operation returns and accepts,
// have limbs 0-7 below 2^58 + 2^10 and limb 8 below 2^57 + 2^10; they are
// below 2^521 + 2^475, not necessarily below p.
struct p521_field {
  static constexpr std::size_t limbs = 9;
  static constexpr std::size_t bytes = 66;
  struct fe {
    std::uint64_t v[9];
  };
  static constexpr std::uint64_t m58 = (std::uint64_t{1} << 58) - 1;
  static constexpr std::uint64_t m57 = (std::uint64_t{1} << 57) - 1;

  // carry_parallel makes any limbs tight in one step without a chain: each
  // limb keeps its low bits and takes the carry (below 2^7) of the limb
  // below; limb 8's carry (weight 2^521 = 1) goes to limb 0.
  [[gnu::always_inline]] static inline void carry_parallel(fe& out, const std::uint64_t* x) noexcept {
    out.v[0] = (x[0] & m58) + (x[8] >> 57);
    SEALWIRE_UNROLL
    for (int i = 1; i < 8; ++i) out.v[i] = (x[i] & m58) + (x[i - 1] >> 58);
    out.v[8] = (x[8] & m57) + (x[7] >> 58);
  }

  // carry_wide turns nine column sums into a tight element with two
  // parallel steps instead of a nine-long chain. Columns are below 2^121
  // and column 8 (no folded products) below 2^120, so the first step's
  // carries are below 2^63 and every limb fits 64 bits; the second is
  // carry_parallel.
  [[gnu::always_inline]] static inline void carry_wide(fe& out, const u128* c) noexcept {
    std::uint64_t x[9];
    x[0] = (static_cast<std::uint64_t>(c[0]) & m58) + static_cast<std::uint64_t>(c[8] >> 57);
    SEALWIRE_UNROLL
    for (int i = 1; i < 8; ++i) {
      x[i] = (static_cast<std::uint64_t>(c[i]) & m58) + static_cast<std::uint64_t>(c[i - 1] >> 58);
    }
    x[8] = (static_cast<std::uint64_t>(c[8]) & m57) + static_cast<std::uint64_t>(c[7] >> 58);
    carry_parallel(out, x);
  }

  // carry: a full carry chain for limbs below 2^63, ending with limbs 0
  // and 2-8 exact (58 and 57 bits) and limb 1 at most 2^12 above 2^58.
  static inline void carry(fe& out, const std::uint64_t* x) noexcept {
    std::uint64_t c = 0;
    std::uint64_t r[9];
    SEALWIRE_UNROLL
    for (int i = 0; i < 8; ++i) {
      c += x[i];
      r[i] = c & m58;
      c >>= 58;
    }
    c += x[8];
    r[8] = c & m57;
    c = (c >> 57) + r[0];
    out.v[0] = c & m58;
    out.v[1] = r[1] + (c >> 58);
    SEALWIRE_UNROLL
    for (int i = 2; i < 9; ++i) out.v[i] = r[i];
  }

  // mul: columns k and k + 9 meet at k (2^522 = 2), so the products that
  // wrap use 2 b. Tight inputs give products below 2^117.01 and columns of
  // nine of them below 2^121.
  [[gnu::noinline]] static void mul(fe& out, const fe& a, const fe& b) noexcept {
    std::uint64_t b2[9];
    SEALWIRE_UNROLL
    for (int i = 0; i < 9; ++i) b2[i] = 2 * b.v[i];
    u128 c[9];
    SEALWIRE_UNROLL
    for (int k = 0; k < 9; ++k) {
      u128 s = 0;
      SEALWIRE_UNROLL
      for (int i = 0; i <= k; ++i) s += static_cast<u128>(a.v[i]) * b.v[k - i];
      SEALWIRE_UNROLL
      for (int i = k + 1; i < 9; ++i) s += static_cast<u128>(a.v[i]) * b2[9 + k - i];
      c[k] = s;
    }
    carry_wide(out, c);
  }

  // sqr: mul with each cross product taken once, doubled.
  [[gnu::noinline]] static void sqr(fe& out, const fe& a) noexcept {
    std::uint64_t d[9];
    SEALWIRE_UNROLL
    for (int i = 0; i < 9; ++i) d[i] = 2 * a.v[i];
    u128 c[9];
    SEALWIRE_UNROLL
    for (int k = 0; k < 9; ++k) {
      u128 s = 0;
      // Pairs (i, k - i) below the fold, i < k - i.
      SEALWIRE_UNROLL
      for (int i = 0; 2 * i < k; ++i) s += static_cast<u128>(d[i]) * a.v[k - i];
      if (k % 2 == 0) s += static_cast<u128>(a.v[k / 2]) * a.v[k / 2];
      // Pairs (i, 9 + k - i) above it, i < 9 + k - i, times 2 (the fold)
      // times 2 (the pair).
      SEALWIRE_UNROLL
      for (int i = k + 1; 2 * i < 9 + k; ++i) s += static_cast<u128>(d[i]) * (2 * a.v[9 + k - i]);
      if ((9 + k) % 2 == 0) s += static_cast<u128>(a.v[(9 + k) / 2]) * (2 * a.v[(9 + k) / 2]);
      c[k] = s;
    }
    carry_wide(out, c);
  }

  // add and sub (and the carry steps) are forced inline: GCC had put them
  // out of line, a call for a dozen instructions, 14% of a P-521 shared
  // secret's profile.
  [[gnu::always_inline]] static inline void add(fe& out, const fe& a, const fe& b) noexcept {
    std::uint64_t x[9];
    SEALWIRE_UNROLL
    for (int i = 0; i < 9; ++i) x[i] = a.v[i] + b.v[i];
    carry_parallel(out, x);
  }

  // sub adds 4p (limbs 2^60 - 4, and 2^59 - 4 at the top), above any limb
  // of a tight element, so nothing goes negative; limbs stay below 2^61.
  [[gnu::always_inline]] static inline void sub(fe& out, const fe& a, const fe& b) noexcept {
    std::uint64_t x[9];
    SEALWIRE_UNROLL
    for (int i = 0; i < 8; ++i) x[i] = a.v[i] + 4 * m58 - b.v[i];
    x[8] = a.v[8] + 4 * m57 - b.v[8];
    carry_parallel(out, x);
  }

  // canonical returns the value modulo p, fully reduced. A tight element
  // after a full carry is below 2^521 (a carry out of the top leaves a
  // remainder below 2^475), so it is p itself or below it, and it is p
  // exactly when adding 1 reaches 2^521. The last chain also absorbs limb
  // 1's possible excess.
  static inline fe canonical(const fe& a) noexcept {
    fe x;
    carry(x, a.v);
    std::uint64_t c = 1;
    SEALWIRE_UNROLL
    for (int i = 0; i < 8; ++i) c = (x.v[i] + c) >> 58;
    const std::uint64_t is_p = (x.v[8] + c) >> 57;  // 0 or 1
    c = is_p;
    SEALWIRE_UNROLL
    for (int i = 0; i < 8; ++i) {
      c += x.v[i];
      x.v[i] = c & m58;
      c >>= 58;
    }
    x.v[8] = (x.v[8] + c) & m57;
    return x;
  }

  // from_bytes reads 66 big-endian bytes; false (public inputs only) unless
  // the value is below p.
  static inline bool from_bytes(fe& out, const std::uint8_t* in) noexcept {
    // Below p = 2^521 - 1: the top 7 bits clear and not all 521 bits set.
    std::uint64_t w[9];
    be_to_limbs<9, 66>(w, in);
    SEALWIRE_UNROLL
    for (int i = 0; i < 9; ++i) {
      const int bit = 58 * i;
      const int word = bit / 64, shift = bit % 64;
      std::uint64_t v = w[word] >> shift;
      if (shift > 6 && word + 1 < 9) v |= w[word + 1] << (64 - shift);
      out.v[i] = v & (i == 8 ? m57 : m58);
    }
    std::uint64_t all = 0x1ff;
    SEALWIRE_UNROLL
    for (int i = 0; i < 8; ++i) all &= w[i] == ~std::uint64_t{0} ? 0x1ff : 0;
    const bool is_p = (w[8] & all) == 0x1ff;
    return w[8] <= 0x1ff && !is_p;
  }

  static inline void to_bytes(std::uint8_t* out, const fe& a) noexcept {
    const fe x = canonical(a);
    SEALWIRE_UNROLL
    for (std::size_t i = 0; i < bytes; ++i) {
      const std::size_t bit = 8 * (bytes - 1 - i);
      const std::size_t limb = bit / 58, shift = bit % 58;
      std::uint64_t v = x.v[limb] >> shift;
      if (shift > 50 && limb + 1 < 9) v |= x.v[limb + 1] << (58 - shift);
      out[i] = static_cast<std::uint8_t>(v);
    }
  }

  static inline std::uint64_t zero_mask(const fe& a) noexcept {
    const fe x = canonical(a);
    std::uint64_t acc = 0;
    SEALWIRE_UNROLL
    for (int i = 0; i < 9; ++i) acc |= x.v[i];
    return ct::mask_if_zero(acc);
  }
};

// pow_public: out = a^e for a public big-endian exponent e (e_len bytes),
// 4-bit fixed windows, `one` the field's 1. The operations depend only on
// e, so a secret a is safe; Fermat inversion (e = modulus - 2) in the
// Montgomery fields and in ECDSA's scalar field uses it, and 0 maps to 0.
template <class F>
void pow_public(typename F::fe& out, const typename F::fe& a, const std::uint8_t* e, std::size_t e_len,
                const typename F::fe& one) noexcept {
  using element = typename F::fe;
  element pow[16];
  pow[0] = one;
  pow[1] = a;
  for (int i = 2; i < 16; ++i) F::mul(pow[i], pow[i - 1], a);
  element r = pow[e[0] >> 4];
  for (std::size_t i = 1; i < 2 * e_len; ++i) {
    const unsigned nibble = (static_cast<unsigned>(e[i / 2]) >> (i % 2 == 0 ? 4 : 0)) & 15u;
    F::sqr(r, r);
    F::sqr(r, r);
    F::sqr(r, r);
    F::sqr(r, r);
    if (nibble != 0) F::mul(r, r, pow[nibble]);  // the exponent is public
  }
  out = r;
  ct::wipe(pow, sizeof pow);
  ct::wipe_object(r);
}

}  // namespace
}  // namespace sealwire::crypto::detail

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif
