// SPDX-License-Identifier: Apache-2.0
// ECDH on NIST P-256, P-384 and P-521 (FIPS 186-4 D.1.2, SEC 1 3.3.1): two
// field types (Montgomery form for P-256/P-384, a Mersenne reduction for
// P-521), the complete projective formulas of Renes, Costello and Batina
// (2016, algorithms 4-6, a = -3) with Jacobian doublings (a = -3) for the
// variable base, and constant-time signed fixed-window scalar
// multiplication, written once over the field. Internal linkage: one
// translation unit (ecdh_nist.cpp) uses it.
#pragma once

#include <sealwire/crypto/ct.hpp>

#include "bytes.hpp"

#include <cstddef>
#include <cstdint>
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

// Every limb loop has a constant trip count; unrolled, the limbs stay in
// registers and the modulus limbs become immediates.
#define SEALWIRE_UNROLL _Pragma("GCC unroll 16")

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

// ---- curve parameters (FIPS 186-4 D.1.2.3-5) ----

struct p256_params {
  static constexpr std::size_t limbs = 4;
  static constexpr std::size_t bytes = 32;
  static constexpr const char* p_hex = "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff";
};

struct p384_params {
  static constexpr std::size_t limbs = 6;
  static constexpr std::size_t bytes = 48;
  static constexpr const char* p_hex =
      "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff";
};

struct p256_curve {
  using field = mont_field<p256_params>;
  static constexpr std::size_t bytes = 32;
  static constexpr std::size_t bits = 256;  // scalars are below n < 2^bits
  static constexpr const char* n_hex = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551";
  static constexpr const char* p_minus_2_hex = "ffffffff00000001000000000000000000000000fffffffffffffffffffffffd";
  static constexpr const char* b_hex = "5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b";
  static constexpr const char* gx_hex = "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296";
  static constexpr const char* gy_hex = "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5";
};

struct p384_curve {
  using field = mont_field<p384_params>;
  static constexpr std::size_t bytes = 48;
  static constexpr std::size_t bits = 384;
  static constexpr const char* n_hex =
      "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973";
  static constexpr const char* p_minus_2_hex =
      "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000fffffffd";
  static constexpr const char* b_hex =
      "b3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aef";
  static constexpr const char* gx_hex =
      "aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7";
  static constexpr const char* gy_hex =
      "3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5f";
};

struct p521_curve {
  using field = p521_field;
  static constexpr std::size_t bytes = 66;
  static constexpr std::size_t bits = 521;
  static constexpr const char* n_hex =
      "01fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa51868783bf2f966b7fcc0148f709a5d03bb5c9b8"
      "899c47aebb6fb71e91386409";
  static constexpr const char* p_minus_2_hex =
      "01ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
      "fffffffffffffffffffffffffffffd";
  static constexpr const char* b_hex =
      "0051953eb9618e1c9a1f929a21a0b68540eea2da725b99b315f3b8b489918ef109e156193951ec7e937b1652c0bd3bb1bf0735"
      "73df883d2c34f1ef451fd46b503f00";
  static constexpr const char* gx_hex =
      "00c6858e06b70404e9cd9e3ecb662395b4429c648139053fb521f828af606b4d3dbaa14b5e77efe75928fe1dc127a2ffa8de33"
      "48b3c1856a429bf97e7e31c2e5bd66";
  static constexpr const char* gy_hex =
      "011839296a789a3bc0045c8a5fb42c7d1bd998f54449579b446817afbd17273e662c97ee72995ef42640c550b9013fad076135"
      "3c7086a272c24088be94769fd16650";
};

// ---- points ----

template <class Curve>
struct ec {
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

  static inline void cmov(fe& r, const fe& a, std::uint64_t mask) noexcept {
    for (std::size_t i = 0; i < F::limbs; ++i) r.v[i] ^= mask & (r.v[i] ^ a.v[i]);
  }

  // add: RCB 2016 algorithm 4 (complete, a = -3): any two points, including
  // equal ones, inverses and the identity. 12M + 2 multiplications by b.
  // out may alias either input.
  static void add(point& out, const point& p, const point& q) noexcept {
    fe t0, t1, t2, t3, t4, x3, y3;
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
    add_tail(out, t0, t1, t2, t3, t4, y3);
  }

  // add_tail is what RCB 2016 algorithms 4 and 5 share after their first
  // products: t0 = X1 X2, t1 = Y1 Y2, t3, t4 and y3 as the algorithms have
  // them, and zz = Z1 Z2 (Z1 for the mixed addition, where Z2 = 1).
  static void add_tail(point& out, fe& t0, fe& t1, const fe& zz, const fe& t3, const fe& t4, fe& y3) noexcept {
    const fe& b = k().b;
    fe t2, x3, z3;
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
  static void add_affine(point& out, const point& p, const affine& q) noexcept {
    fe t0, t1, t3, t4, y3;
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
    add_tail(out, t0, t1, p.z, t3, t4, y3);
  }

  // dbl: RCB 2016 algorithm 6 (doubling, a = -3), complete. 8M + 3S + 2
  // multiplications by b. out may alias p.
  static void dbl(point& out, const point& p) noexcept {
    const fe& b = k().b;
    fe t0, t1, t2, t3, x3, y3, z3;
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

  // invert: a^(p-2) (Fermat) with 4-bit windows over the public exponent;
  // the same operations for every a, and 0 maps to 0.
  static void invert(fe& out, const fe& a) noexcept {
    if constexpr (Curve::bits == 521) {
      invert_p521(out, a);
      return;
    }
    const auto e = from_hex<L>(Curve::p_minus_2_hex);
    fe pow[16];
    pow[0] = k().one;
    pow[1] = a;
    for (int i = 2; i < 16; ++i) F::mul(pow[i], pow[i - 1], a);
    fe r = pow[e.b[0] >> 4];
    for (std::size_t i = 1; i < 2 * L; ++i) {
      const unsigned nibble = (e.b[i / 2] >> (i % 2 == 0 ? 4 : 0)) & 15u;
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

  // select sets out = table[idx] reading every entry (idx < n is secret).
  // On x86-64 the masks run over 128-bit SSE2 words (part of the base ISA);
  // in 64-bit words the scans measured about a tenth of a P-521 shared
  // secret.
  template <class T>
  static inline void select(T& out, const T* table, std::size_t n, std::uint64_t idx) noexcept {
    constexpr std::size_t words = sizeof(T) / 8;
#if defined(__x86_64__)
    constexpr std::size_t vecs = words / 2;
    __m128i acc[vecs];
    std::uint64_t tail = 0;
    SEALWIRE_UNROLL
    for (std::size_t i = 0; i < vecs; ++i) acc[i] = _mm_setzero_si128();
    for (std::size_t j = 0; j < n; ++j) {
      const std::uint64_t mask = ct::mask_if_zero(idx ^ j);
      const __m128i m = _mm_set1_epi64x(static_cast<long long>(mask));
      const auto* src = reinterpret_cast<const unsigned char*>(&table[j]);
      SEALWIRE_UNROLL
      for (std::size_t i = 0; i < vecs; ++i) {
        const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 16 * i));
        acc[i] = _mm_or_si128(acc[i], _mm_and_si128(x, m));
      }
      if constexpr (words % 2 != 0) {
        std::uint64_t last;
        std::memcpy(&last, src + 16 * vecs, 8);
        tail |= last & mask;
      }
    }
    auto* dst = reinterpret_cast<unsigned char*>(&out);
    SEALWIRE_UNROLL
    for (std::size_t i = 0; i < vecs; ++i) _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + 16 * i), acc[i]);
    if constexpr (words % 2 != 0) std::memcpy(dst + 16 * vecs, &tail, 8);
    ct::wipe(acc, sizeof acc);
    ct::wipe_object(tail);
#else
    std::uint64_t acc[words] = {};
    for (std::size_t j = 0; j < n; ++j) {
      const std::uint64_t mask = ct::mask_if_zero(idx ^ j);
      const auto* src = reinterpret_cast<const std::uint64_t*>(&table[j]);
      for (std::size_t i = 0; i < words; ++i) acc[i] |= src[i] & mask;
    }
    std::memcpy(&out, acc, sizeof(T));
    ct::wipe(acc, sizeof acc);
#endif
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
  static void to_jacobian(point& out, const point& p) noexcept {
    fe zz;
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
  static void from_jacobian(point& out, const point& j) noexcept {
    fe zz;
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
  static void dbl_jacobian(point& out, const point& p) noexcept {
    fe delta, gamma, beta, alpha, t, u, z3;
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

  // mul_var: out = k * P with signed 5-bit windows: a table of 0P..16P,
  // then for every window five doublings and one complete addition of the
  // entry selected in constant time (entry 0, the identity, included) and
  // negated by a masked move when the digit is negative.
  // The doublings run in Jacobian coordinates (dbl_jacobian). That is
  // sound here because P was checked to be on the curve, whose order n is
  // prime: every accumulator is a multiple of P, so either the identity
  // (kept as (1 : 1 : 0) through the doublings) or a point with y != 0.
  // The additions stay complete (RCB algorithm 4), so equal points,
  // inverses and the identity need no case. Every scalar runs the same
  // operations, the identity fix-up being a masked move.
  static void mul_var(point& out, const std::uint8_t* k_be, const affine& p) noexcept {
    constexpr std::size_t SW = signed_windows<5>;
    struct state {
      point table[17];
      point r, t, j;
      fe ny;
      std::uint64_t neg, d;
    } s;
    s.table[0] = point{fe{}, k().one, fe{}};
    s.table[1] = point{p.x, p.y, k().one};
    dbl(s.table[2], s.table[1]);
    for (int j = 3; j < 17; ++j) add(s.table[j], s.table[j - 1], s.table[1]);
    s.d = signed_digit<5>(s.neg, k_be, SW - 1);  // the top digit is >= 0
    select(s.r, s.table, 17, s.d);
    for (std::size_t w = SW - 1; w-- > 0;) {
      to_jacobian(s.j, s.r);
      dbl_jacobian(s.j, s.j);
      dbl_jacobian(s.j, s.j);
      dbl_jacobian(s.j, s.j);
      dbl_jacobian(s.j, s.j);
      dbl_jacobian(s.j, s.j);
      from_jacobian(s.r, s.j);
      s.d = signed_digit<5>(s.neg, k_be, w);
      select(s.t, s.table, 17, s.d);
      F::sub(s.ny, fe{}, s.t.y);
      cmov(s.t.y, s.ny, s.neg);
      add(s.r, s.r, s.t);
    }
    out = s.r;
    ct::wipe_object(s);
  }

  // The base point table: entry [w][j - 1] = j 16^w G in affine form
  // (j = 1..8, for signed 4-bit digits), so k G is one mixed addition per
  // window and no doublings.
  static constexpr std::size_t BW = signed_windows<4>;
  struct base_table {
    affine e[BW][8];
    base_table() noexcept {
      point base{k().g.x, k().g.y, k().one};
      point row[8];
      for (std::size_t w = 0; w < BW; ++w) {
        row[0] = base;
        dbl(row[1], base);
        for (int j = 2; j < 8; ++j) add(row[j], row[j - 1], base);
        dbl(base, row[7]);  // 16 * base
        normalize(e[w], row);
      }
    }
    // normalize converts 8 points to affine with one inversion
    // (Montgomery's trick); none of them is the identity.
    static void normalize(affine* out, const point* in) noexcept {
      fe prefix[8], inv, t;
      prefix[0] = in[0].z;
      for (int j = 1; j < 8; ++j) F::mul(prefix[j], prefix[j - 1], in[j].z);
      invert(inv, prefix[7]);
      for (int j = 7; j >= 0; --j) {
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
  };
  static const base_table& table() noexcept {
    static const base_table t;
    return t;
  }

  // mul_base: out = k G with signed 4-bit digits. Window w adds the
  // selected entry of row w, negated by a masked move for a negative
  // digit; a zero digit selects nothing (all-zero limbs) and the sum is
  // discarded by mask.
  static void mul_base(point& out, const std::uint8_t* k_be) noexcept {
    const base_table& tb = table();
    struct state {
      point r, t;
      affine e;
      fe ny;
      std::uint64_t neg, d;
    } s;
    s.r = point{fe{}, k().one, fe{}};
    for (std::size_t w = 0; w < BW; ++w) {
      s.d = signed_digit<4>(s.neg, k_be, w);
      select(s.e, tb.e[w], 8, s.d - 1);  // d = 0 wraps to no entry
      F::sub(s.ny, fe{}, s.e.y);
      cmov(s.e.y, s.ny, s.neg);
      add_affine(s.t, s.r, s.e);
      const std::uint64_t keep = ct::mask_if_zero(s.d);
      cmov(s.t.x, s.r.x, keep);
      cmov(s.t.y, s.r.y, keep);
      cmov(s.t.z, s.r.z, keep);
      s.r = s.t;
    }
    out = s.r;
    ct::wipe_object(s);
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

#undef SEALWIRE_UNROLL
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif
