// SPDX-License-Identifier: Apache-2.0
// ML-KEM twiddle factors (FIPS 203 4.3), computed at compile time from their
// definition, for the portable and the vector NTTs. Plain arrays only: the
// header is included by instruction-set files (no std template code).
#pragma once

#include "params.hpp"

#include <cstdint>

namespace sealwire::crypto::mlkem::twiddles {

constexpr unsigned bitrev7(unsigned i) {
  unsigned r = 0;
  for (int b = 0; b < 7; ++b) r |= ((i >> b) & 1u) << (6 - b);
  return r;
}

constexpr std::int32_t pow_mod(std::int32_t base, unsigned e) {
  std::int64_t r = 1, b = base;
  while (e != 0) {
    if (e & 1u) r = r * b % q;
    b = b * b % q;
    e >>= 1;
  }
  return static_cast<std::int32_t>(r);
}

// to_mont_centred returns x 2^16 mod q in [-(q-1)/2, (q-1)/2].
constexpr std::int16_t to_mont_centred(std::int32_t x) {
  std::int64_t m = (static_cast<std::int64_t>(x) << 16) % q;
  if (m > q / 2) m -= q;
  return static_cast<std::int16_t>(m);
}

struct table128 {
  std::int16_t v[128];
};

// zetas[i] = zeta^BitRev7(i) (Algorithms 9, 10) and gammas[i] =
// zeta^(2 BitRev7(i) + 1) (Algorithm 11), zeta = 17 the primitive 256th root
// of unity mod q, in Montgomery form, centred, so one fqmul applies them.
constexpr table128 make_zetas() {
  table128 z{};
  for (unsigned i = 0; i < 128; ++i) z.v[i] = to_mont_centred(pow_mod(17, bitrev7(i)));
  return z;
}

constexpr table128 make_gammas() {
  table128 g{};
  for (unsigned i = 0; i < 128; ++i) g.v[i] = to_mont_centred(pow_mod(17, 2 * bitrev7(i) + 1));
  return g;
}

inline constexpr table128 zetas = make_zetas();
inline constexpr table128 gammas = make_gammas();

// The inverse NTT's final scaling: 128^-1 (Algorithm 10, line 14) times 2^32
// (so the result leaves Montgomery form after one fqmul), i.e. 2^25 mod q,
// centred.
inline constexpr std::int16_t invntt_scale = [] {
  std::int64_t m = (std::int64_t{1} << 25) % q;
  if (m > q / 2) m -= q;
  return static_cast<std::int16_t>(m);
}();

// 2^32 mod q, for poly_tomont.
inline constexpr std::int16_t mont_squared = static_cast<std::int16_t>((std::int64_t{1} << 32) % q);

// q^-1 mod 2^16 as a signed 16-bit value (Montgomery reduction).
inline constexpr std::int16_t q_inv = -3327;
static_assert(static_cast<std::int16_t>(q * q_inv) == 1);

// Sanity checks on the derived constants (FIPS 203: zeta^128 = -1 mod q).
static_assert(pow_mod(17, 128) == q - 1);
static_assert(zetas.v[0] == to_mont_centred(1));

}  // namespace sealwire::crypto::mlkem::twiddles
