// SPDX-License-Identifier: Apache-2.0
// ML-KEM polynomial arithmetic in R_q = Z_q[X]/(X^256 + 1) (FIPS 203 section
// 4.3): Montgomery and Barrett reductions, the NTT and its inverse
// (Algorithms 9, 10) and the NTT-domain product (Algorithms 11, 12). Every
// operation is branch-free and division-free: the inputs are secret.
#pragma once

#include "params.hpp"

#include <sealwire/crypto/ml_kem.hpp>

#include <cstdint>

namespace sealwire::crypto::mlkem {

// poly holds 256 signed coefficients; functions state the range they keep.
// It is the public header's type, so the key objects hold polys directly.
using poly = detail::ml_kem_poly;

// montgomery_reduce returns a 2^-16 mod q in (-q, q) for |a| < q 2^15.
[[nodiscard]] inline std::int16_t montgomery_reduce(std::int32_t a) noexcept {
  // q^-1 mod 2^16 is 62209, i.e. -3327 as a signed 16-bit value.
  constexpr std::int32_t q_inv = -3327;
  const auto t = static_cast<std::int16_t>(static_cast<std::int16_t>(a) * q_inv);
  return static_cast<std::int16_t>((a - static_cast<std::int32_t>(t) * q) >> 16);
}

// barrett_reduce returns a value congruent to a mod q in [-(q-1)/2, (q-1)/2]:
// the quotient is estimated by a multiplication with round(2^26 / q) and a
// shift, never a division.
[[nodiscard]] inline std::int16_t barrett_reduce(std::int16_t a) noexcept {
  constexpr std::int32_t v = ((1 << 26) + q / 2) / q;
  const std::int32_t t = (v * a + (1 << 25)) >> 26;
  return static_cast<std::int16_t>(a - t * q);
}

// fqmul returns a b 2^-16 mod q in (-q, q).
[[nodiscard]] inline std::int16_t fqmul(std::int16_t a, std::int16_t b) noexcept {
  return montgomery_reduce(static_cast<std::int32_t>(a) * b);
}

// to_unsigned maps a value in (-q, q) to [0, q) without a branch.
[[nodiscard]] inline std::int16_t to_unsigned(std::int16_t a) noexcept {
  return static_cast<std::int16_t>(a + ((a >> 15) & q));
}

// poly_ntt computes the NTT in place (FIPS 203 Algorithm 9). Input
// coefficients |a| < q; output |a| < 8q, in the normal (not Montgomery) domain.
void poly_ntt(poly& a) noexcept;

// poly_invntt_tomont computes the inverse NTT (Algorithm 10) and multiplies
// by 2^16, cancelling the 2^-16 a poly_basemul_acc sum carries. Input
// |a| <= q/2 (poly_basemul_acc's output); output |a| < q.
void poly_invntt_tomont(poly& a) noexcept;

// poly_basemul_acc sets r = sum over i < k of a[i] o b[i] (the NTT-domain
// product, Algorithms 11 and 12) times 2^-16, Barrett-reduced. Inputs
// |coefficient| < 8q (within fqmul's bound), k <= 4 (the sum stays < 8q).
void poly_basemul_acc(poly& r, const poly* a, const poly* b, unsigned k) noexcept;

// poly_basemul_acc_strided is poly_basemul_acc with a's polynomials stride
// apart (a column of the matrix, for A^T).
void poly_basemul_acc_strided(poly& r, const poly* a, std::size_t stride, const poly* b, unsigned k) noexcept;

// poly_tomont multiplies by 2^16 mod q (undoes a Montgomery factor); |out| < q.
void poly_tomont(poly& a) noexcept;

// poly_reduce applies barrett_reduce to every coefficient.
void poly_reduce(poly& a) noexcept;

// poly_add sets r = a + b, poly_sub r = a - b, coefficient-wise, unreduced.
void poly_add(poly& r, const poly& a, const poly& b) noexcept;
void poly_sub(poly& r, const poly& a, const poly& b) noexcept;

}  // namespace sealwire::crypto::mlkem
