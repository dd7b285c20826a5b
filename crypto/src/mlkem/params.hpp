// SPDX-License-Identifier: Apache-2.0
// ML-KEM (FIPS 203) constants and the parameter sets of FIPS 203 section 8,
// shared by the polynomial arithmetic, sampling, encoding and K-PKE files.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sealwire::crypto::mlkem {

// n is the polynomial degree and q the prime modulus (FIPS 203 section 2.4).
inline constexpr std::size_t n = 256;
inline constexpr std::int16_t q = 3329;
// max_k is the largest module rank (ML-KEM-1024).
inline constexpr std::size_t max_k = 4;
// poly_bytes is the 12-bit encoding of one polynomial (ByteEncode_12).
inline constexpr std::size_t poly_bytes = 384;
// sym_bytes is the size of seeds, messages, hashes and shared secrets.
inline constexpr std::size_t sym_bytes = 32;

// params is one parameter set (FIPS 203 Table 2): rank k, noise widths
// eta1/eta2 and the ciphertext compression widths du/dv.
struct params {
  unsigned k, eta1, eta2, du, dv;

  [[nodiscard]] constexpr std::size_t ek_bytes() const noexcept { return poly_bytes * k + sym_bytes; }
  [[nodiscard]] constexpr std::size_t dk_pke_bytes() const noexcept { return poly_bytes * k; }
  // The expanded decapsulation key dk_PKE || ek || H(ek) || z (FIPS 203 Alg 16).
  [[nodiscard]] constexpr std::size_t dk_bytes() const noexcept { return 768 * k + 96; }
  [[nodiscard]] constexpr std::size_t u_bytes() const noexcept { return 32 * du * k; }
  [[nodiscard]] constexpr std::size_t ct_bytes() const noexcept { return 32 * (du * k + dv); }
};

// params_for returns the parameter set of rank k (2, 3 or 4).
[[nodiscard]] constexpr params params_for(std::size_t k) noexcept {
  if (k == 2) return {2, 3, 2, 10, 4};
  if (k == 3) return {3, 2, 2, 10, 4};
  return {4, 2, 2, 11, 5};
}

}  // namespace sealwire::crypto::mlkem
