// SPDX-License-Identifier: Apache-2.0
// Field arithmetic modulo p = 2^255 - 19 in five 51-bit limbs, shared by
// X25519 (x25519_ladder.hpp) and Ed25519 (ed25519_point.hpp). Internal
// linkage, so each instruction-set build (the BMI2/ADX files) gets its own
// copy compiled with its own flags.
#pragma once

#include <sealwire/crypto/ct.hpp>

#include "bytes.hpp"

#include <cstdint>

namespace sealwire::crypto::detail {
namespace {

constexpr std::uint64_t m51 = (std::uint64_t{1} << 51) - 1;

struct fe {
  std::uint64_t v[5];
};

inline fe fe_load(const std::uint8_t in[32]) noexcept {
  // Limb k holds bits 51k..51k+50; bit 255 is dropped (RFC 7748 5).
  return {{load64_le(in) & m51, (load64_le(in + 6) >> 3) & m51, (load64_le(in + 12) >> 6) & m51,
           (load64_le(in + 19) >> 1) & m51, (load64_le(in + 24) >> 12) & m51}};
}

// carry brings every limb below 2^51 + 2^13 (the top carry returns times 19).
inline void carry(fe& a) noexcept {
  for (int i = 0; i < 4; ++i) {
    a.v[i + 1] += a.v[i] >> 51;
    a.v[i] &= m51;
  }
  a.v[0] += 19 * (a.v[4] >> 51);
  a.v[4] &= m51;
}

// fe_store writes the canonical value (fully reduced below p).
inline void fe_store(std::uint8_t out[32], fe a) noexcept {
  carry(a);
  carry(a);
  // Now a < 2^255 + small; a >= p exactly when a + 19 reaches 2^255.
  fe t = a;
  t.v[0] += 19;
  for (int i = 0; i < 4; ++i) {
    t.v[i + 1] += t.v[i] >> 51;
    t.v[i] &= m51;
  }
  const std::uint64_t q = t.v[4] >> 51;  // 1 when a >= p
  a.v[0] += 19 * q;
  for (int i = 0; i < 4; ++i) {
    a.v[i + 1] += a.v[i] >> 51;
    a.v[i] &= m51;
  }
  a.v[4] &= m51;  // drops the 2^255 that a + 19q produced when q = 1
  store64_le(out, a.v[0] | (a.v[1] << 51));
  store64_le(out + 8, (a.v[1] >> 13) | (a.v[2] << 38));
  store64_le(out + 16, (a.v[2] >> 26) | (a.v[3] << 25));
  store64_le(out + 24, (a.v[3] >> 39) | (a.v[4] << 12));
}

inline fe fe_add(const fe& a, const fe& b) noexcept {
  return {{a.v[0] + b.v[0], a.v[1] + b.v[1], a.v[2] + b.v[2], a.v[3] + b.v[3], a.v[4] + b.v[4]}};
}

// fe_sub adds 2p first so that no limb goes negative (b must be carried).
inline fe fe_sub(const fe& a, const fe& b) noexcept {
  return {{a.v[0] + 0xfffffffffffdaULL - b.v[0], a.v[1] + 0xffffffffffffeULL - b.v[1],
           a.v[2] + 0xffffffffffffeULL - b.v[2], a.v[3] + 0xffffffffffffeULL - b.v[3],
           a.v[4] + 0xffffffffffffeULL - b.v[4]}};
}

// reduce_wide carries five 128-bit column sums into a carried element.
inline fe reduce_wide(u128 r0, u128 r1, u128 r2, u128 r3, u128 r4) noexcept {
  r1 += static_cast<std::uint64_t>(r0 >> 51);
  r2 += static_cast<std::uint64_t>(r1 >> 51);
  r3 += static_cast<std::uint64_t>(r2 >> 51);
  r4 += static_cast<std::uint64_t>(r3 >> 51);
  fe out{{static_cast<std::uint64_t>(r0) & m51, static_cast<std::uint64_t>(r1) & m51,
          static_cast<std::uint64_t>(r2) & m51, static_cast<std::uint64_t>(r3) & m51,
          static_cast<std::uint64_t>(r4) & m51}};
  // 2^255 = 19 modulo p: the part above limb 4 comes back times 19.
  out.v[0] += 19 * static_cast<std::uint64_t>(r4 >> 51);
  out.v[1] += out.v[0] >> 51;
  out.v[0] &= m51;
  return out;
}

// fe_mul: schoolbook product; terms at 2^255 and up fold back times 19.
// Inputs below 2^54 per limb keep every column below 2^115.
inline fe fe_mul(const fe& a, const fe& b) noexcept {
  const std::uint64_t b1 = 19 * b.v[1], b2 = 19 * b.v[2], b3 = 19 * b.v[3], b4 = 19 * b.v[4];
  auto m = [](std::uint64_t x, std::uint64_t y) { return static_cast<u128>(x) * y; };
  const u128 r0 = m(a.v[0], b.v[0]) + m(a.v[1], b4) + m(a.v[2], b3) + m(a.v[3], b2) + m(a.v[4], b1);
  const u128 r1 = m(a.v[0], b.v[1]) + m(a.v[1], b.v[0]) + m(a.v[2], b4) + m(a.v[3], b3) + m(a.v[4], b2);
  const u128 r2 = m(a.v[0], b.v[2]) + m(a.v[1], b.v[1]) + m(a.v[2], b.v[0]) + m(a.v[3], b4) + m(a.v[4], b3);
  const u128 r3 = m(a.v[0], b.v[3]) + m(a.v[1], b.v[2]) + m(a.v[2], b.v[1]) + m(a.v[3], b.v[0]) + m(a.v[4], b4);
  const u128 r4 = m(a.v[0], b.v[4]) + m(a.v[1], b.v[3]) + m(a.v[2], b.v[2]) + m(a.v[3], b.v[1]) + m(a.v[4], b.v[0]);
  return reduce_wide(r0, r1, r2, r3, r4);
}

// fe_sqr: the square, with the symmetric products doubled.
inline fe fe_sqr(const fe& a) noexcept {
  const std::uint64_t d0 = 2 * a.v[0], d1 = 2 * a.v[1], d2 = 2 * a.v[2], d3 = 2 * a.v[3];
  const std::uint64_t f3 = 19 * a.v[3], f4 = 19 * a.v[4];
  auto m = [](std::uint64_t x, std::uint64_t y) { return static_cast<u128>(x) * y; };
  const u128 r0 = m(a.v[0], a.v[0]) + m(d1, f4) + m(d2, f3);
  const u128 r1 = m(d0, a.v[1]) + m(d2, f4) + m(a.v[3], f3);
  const u128 r2 = m(d0, a.v[2]) + m(a.v[1], a.v[1]) + m(d3, f4);
  const u128 r3 = m(d0, a.v[3]) + m(d1, a.v[2]) + m(a.v[4], f4);
  const u128 r4 = m(d0, a.v[4]) + m(d1, a.v[3]) + m(a.v[2], a.v[2]);
  return reduce_wide(r0, r1, r2, r3, r4);
}

inline fe fe_sqr_n(fe a, int n) noexcept {
  for (int i = 0; i < n; ++i) a = fe_sqr(a);
  return a;
}

inline fe fe_mul_small(const fe& a, std::uint64_t k) noexcept {
  auto m = [k](std::uint64_t x) { return static_cast<u128>(x) * k; };
  return reduce_wide(m(a.v[0]), m(a.v[1]), m(a.v[2]), m(a.v[3]), m(a.v[4]));
}

// fe_pow_2_250_1 computes z^(2^250 - 1) and z^11 by a fixed addition chain:
// the common start of the inversion and square-root exponents (public, so
// their shape leaks nothing).
inline fe fe_pow_2_250_1(const fe& z, fe& z11) noexcept {
  const fe z2 = fe_sqr(z);                                // 2
  const fe z9 = fe_mul(fe_sqr_n(z2, 2), z);               // 9
  z11 = fe_mul(z9, z2);                                   // 11
  const fe z_5 = fe_mul(fe_sqr(z11), z9);                 // 2^5 - 1
  const fe z_10 = fe_mul(fe_sqr_n(z_5, 5), z_5);          // 2^10 - 1
  const fe z_20 = fe_mul(fe_sqr_n(z_10, 10), z_10);       // 2^20 - 1
  const fe z_40 = fe_mul(fe_sqr_n(z_20, 20), z_20);       // 2^40 - 1
  const fe z_50 = fe_mul(fe_sqr_n(z_40, 10), z_10);       // 2^50 - 1
  const fe z_100 = fe_mul(fe_sqr_n(z_50, 50), z_50);      // 2^100 - 1
  const fe z_200 = fe_mul(fe_sqr_n(z_100, 100), z_100);   // 2^200 - 1
  return fe_mul(fe_sqr_n(z_200, 50), z_50);               // 2^250 - 1
}

// fe_invert computes z^(p-2) = z^(2^255 - 21).
inline fe fe_invert(const fe& z) noexcept {
  fe z11;
  const fe z_250 = fe_pow_2_250_1(z, z11);
  return fe_mul(fe_sqr_n(z_250, 5), z11);  // 2^255 - 32 + 11
}

// cswap exchanges a and b when swap is 1, by mask, whatever its value.
inline void cswap(fe& a, fe& b, std::uint64_t swap) noexcept {
  const std::uint64_t mask = ct::mask_from_bit(swap);
  for (int i = 0; i < 5; ++i) {
    const std::uint64_t x = mask & (a.v[i] ^ b.v[i]);
    a.v[i] ^= x;
    b.v[i] ^= x;
  }
}


// fe_cmov sets a to b when bit is 1, by mask (constant time).
inline void fe_cmov(fe& a, const fe& b, std::uint64_t bit) noexcept {
  const std::uint64_t mask = ct::mask_from_bit(bit);
  for (int i = 0; i < 5; ++i) a.v[i] ^= mask & (a.v[i] ^ b.v[i]);
}

// fe_neg is -a (a must be carried, as every product is).
inline fe fe_neg(const fe& a) noexcept { return fe_sub(fe{{0, 0, 0, 0, 0}}, a); }

// fe_pow22523 computes z^((p-5)/8) = z^(2^252 - 3), the exponent of the square
// root in RFC 8032 5.1.3.
inline fe fe_pow22523(const fe& z) noexcept {
  fe z11;
  const fe z_250 = fe_pow_2_250_1(z, z11);
  return fe_mul(fe_sqr_n(z_250, 2), z);  // 2^252 - 4 + 1
}

// fe_is_negative is the low bit of the canonical value: the "sign" of x in
// RFC 8032 5.1.2.
inline std::uint64_t fe_is_negative(const fe& a) noexcept {
  std::uint8_t s[32];
  fe_store(s, a);
  return s[0] & 1u;
}

// fe_is_zero_vartime reports a == 0 modulo p; for public values only.
inline bool fe_is_zero_vartime(const fe& a) noexcept {
  std::uint8_t s[32];
  fe_store(s, a);
  std::uint8_t acc = 0;
  for (const std::uint8_t b : s) acc |= b;
  return acc == 0;
}

// fe_equal_vartime reports a == b modulo p; for public values only.
inline bool fe_equal_vartime(const fe& a, const fe& b) noexcept { return fe_is_zero_vartime(fe_sub(a, b)); }

}  // namespace
}  // namespace sealwire::crypto::detail
