// SPDX-License-Identifier: Apache-2.0
// ML-KEM sampling (FIPS 203 4.2.2): the matrix A-hat by rejection sampling
// from SHAKE128 (SampleNTT, Algorithm 7) and the noise polynomials from the
// centred binomial distribution over SHAKE256 (SamplePolyCBD, Algorithm 8),
// four SHAKE streams at a time.
#pragma once

#include "poly.hpp"

#include <cstddef>
#include <cstdint>

namespace sealwire::crypto::mlkem {

// expand_matrix fills a[i k + j] = SampleNTT(rho || j || i) for i, j < k
// (FIPS 203 Algorithm 13 lines 3-7); coefficients in [0, q). rho is public,
// so the rejection loop may branch on it.
void expand_matrix(poly* a, const std::uint8_t rho[32], unsigned k) noexcept;

// sample_noise sets out[i] = SamplePolyCBD_eta(PRF_eta(sigma, nonce + i)) for
// i < count (Algorithm 13 lines 8-15, Algorithm 14 lines 9-17), with eta 2
// or 3; constant time in sigma. Coefficients in [-eta, eta].
void sample_noise(poly* const* out, unsigned count, unsigned eta, const std::uint8_t sigma[32],
                  std::uint8_t nonce) noexcept;

// sample_matrix_and_noise is expand_matrix(a, rho, k) followed by
// sample_noise(noise, count, eta, sigma, 0) (K-PKE.KeyGen, Algorithm 13 lines
// 3-15), with the SHAKE128 and SHAKE256 streams sharing four-lane
// permutations where a vector kernel runs them; the same results.
void sample_matrix_and_noise(poly* a, const std::uint8_t rho[32], unsigned k, poly* const* noise, unsigned count,
                             unsigned eta, const std::uint8_t sigma[32]) noexcept;

}  // namespace sealwire::crypto::mlkem
