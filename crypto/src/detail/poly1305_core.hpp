// SPDX-License-Identifier: Apache-2.0
// The scalar Poly1305 step (radix 2^64) and radix-2^44 helpers, shared by the
// portable driver and the instruction-set files. Internal linkage.
#pragma once

#include "bytes.hpp"
#include "poly1305_state.hpp"

#include <cstdint>

namespace sealwire::crypto::detail {

// poly1305_absorb adds one 16-byte block (plus hibit * 2^128) to h and
// multiplies by r (clamped), keeping h partially reduced (below 2^131).
[[gnu::always_inline]] static inline void poly1305_absorb(std::uint64_t& h0, std::uint64_t& h1, std::uint64_t& h2,
                                                          std::uint64_t r0, std::uint64_t r1, std::uint64_t s1,
                                                          const std::uint8_t* in, std::uint64_t hibit) noexcept {
  // h += m
  u128 t = static_cast<u128>(h0) + load64_le(in);
  h0 = static_cast<std::uint64_t>(t);
  t = static_cast<u128>(h1) + load64_le(in + 8) + (t >> 64);
  h1 = static_cast<std::uint64_t>(t);
  h2 += static_cast<std::uint64_t>(t >> 64) + hibit;

  // h *= r, with products above 2^128 folded back through s1.
  const u128 d0 = static_cast<u128>(h0) * r0 + static_cast<u128>(h1) * s1;
  u128 d1 = static_cast<u128>(h0) * r1 + static_cast<u128>(h1) * r0 + static_cast<u128>(h2) * s1;
  std::uint64_t d2 = h2 * r0;
  d1 += d0 >> 64;
  d2 += static_cast<std::uint64_t>(d1 >> 64);
  h0 = static_cast<std::uint64_t>(d0);
  h1 = static_cast<std::uint64_t>(d1);

  // Partial reduction: bits 130 and up times 5 go back to the bottom.
  const std::uint64_t c = (d2 >> 2) + (d2 & ~std::uint64_t{3});
  h2 = d2 & 3;
  t = static_cast<u128>(h0) + c;
  h0 = static_cast<std::uint64_t>(t);
  t = static_cast<u128>(h1) + (t >> 64);
  h1 = static_cast<std::uint64_t>(t);
  h2 += static_cast<std::uint64_t>(t >> 64);
}

// Clamping clears the low two bits of r1, so r1 * 2^128 = (r1 / 4) * 2^130,
// which is (r1 / 4) * 5 modulo p = 2^130 - 5: s1 = 5 * r1 / 4.
static inline std::uint64_t poly1305_fold(std::uint64_t r1) noexcept { return r1 + (r1 >> 2); }

// poly1305_scalar_blocks is the whole scalar loop.
[[gnu::always_inline]] static inline void poly1305_scalar_blocks(poly1305_state& st, const std::uint8_t* in,
                                                                 std::size_t n, std::uint64_t hibit) noexcept {
  const std::uint64_t r0 = st.r[0], r1 = st.r[1], s1 = poly1305_fold(r1);
  std::uint64_t h0 = st.h[0], h1 = st.h[1], h2 = st.h[2];
  for (; n != 0; --n, in += 16) poly1305_absorb(h0, h1, h2, r0, r1, s1, in, hibit);
  st.h[0] = h0;
  st.h[1] = h1;
  st.h[2] = h2;
}

// ---- radix 2^44 (three limbs: 44, 44 and 42 bits) ----

inline constexpr std::uint64_t mask44 = (std::uint64_t{1} << 44) - 1;
inline constexpr std::uint64_t mask42 = (std::uint64_t{1} << 42) - 1;

// to44 splits a value below 2^131 given in radix 2^64 into 44-bit limbs.
static inline void to44(std::uint64_t lo, std::uint64_t hi, std::uint64_t top, std::uint64_t l[3]) noexcept {
  l[0] = lo & mask44;
  l[1] = ((lo >> 44) | (hi << 20)) & mask44;
  l[2] = (hi >> 24) | (top << 40);
}

// carry44 propagates carries and folds bits 130 and up (times 5) to the
// bottom, twice, so that l0, l1 < 2^44 and l2 < 2^42 + 1: the value is below
// 2^130 + 2^88, congruent to the input modulo p.
static inline void carry44(std::uint64_t l[3]) noexcept {
  for (int pass = 0; pass < 2; ++pass) {
    l[1] += l[0] >> 44;
    l[0] &= mask44;
    l[2] += l[1] >> 44;
    l[1] &= mask44;
    l[0] += (l[2] >> 42) * 5;
    l[2] &= mask42;
  }
  l[1] += l[0] >> 44;
  l[0] &= mask44;
}

// from44 turns carried limbs back into radix 2^64 (h2 at most 4).
static inline void from44(const std::uint64_t l[3], std::uint64_t h[3]) noexcept {
  h[0] = l[0] | (l[1] << 44);
  h[1] = (l[1] >> 20) | (l[2] << 24);
  h[2] = l[2] >> 40;
}

// mul44 multiplies two values in 44-bit limbs modulo p: products at 2^132
// and up come back times 20, since 2^132 = 4 * 2^130 = 20. With inputs below
// 2^45 the sums stay below 2^92; one carry pass and a last carry out of l0
// leave l0 < 2^44, l1 < 2^44 + 2^9 and l2 < 2^42, good inputs again.
static inline void mul44(const std::uint64_t a[3], const std::uint64_t b[3], std::uint64_t out[3]) noexcept {
  const std::uint64_t s1 = 20 * b[1], s2 = 20 * b[2];
  const u128 d0 = static_cast<u128>(a[0]) * b[0] + static_cast<u128>(a[1]) * s2 + static_cast<u128>(a[2]) * s1;
  u128 d1 = static_cast<u128>(a[0]) * b[1] + static_cast<u128>(a[1]) * b[0] + static_cast<u128>(a[2]) * s2;
  u128 d2 = static_cast<u128>(a[0]) * b[2] + static_cast<u128>(a[1]) * b[1] + static_cast<u128>(a[2]) * b[0];
  d1 += d0 >> 44;
  d2 += d1 >> 44;
  const std::uint64_t l0 = (static_cast<std::uint64_t>(d0) & mask44) + static_cast<std::uint64_t>(d2 >> 42) * 5;
  out[0] = l0 & mask44;
  out[1] = (static_cast<std::uint64_t>(d1) & mask44) + (l0 >> 44);
  out[2] = static_cast<std::uint64_t>(d2) & mask42;
}

}  // namespace sealwire::crypto::detail
