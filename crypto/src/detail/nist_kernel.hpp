// SPDX-License-Identifier: Apache-2.0
// The point operations of the NIST curves that have more than one build, as
// kernel tables chosen at run time:
//   P-256: the portable build over mont_field (nist_p256.cpp) and the
//          BMI2/ADX build over the mulx field of p256_field_adx.hpp
//          (nist_p256_bmi2.cpp), by p256_kernel_choice();
//   P-521: the portable build over p521_field (nist_p521.cpp) and the
//          AVX-512 IFMA build over p521_field_ifma.hpp (nist_p521_ifma.cpp),
//          by p521_kernel_choice().
// P-384 has one portable build (ecdh_nist.cpp and ecdsa.cpp call it
// directly). Byte strings are big-endian, L bytes a coordinate (32 or 66).
#pragma once

#include <sealwire/crypto/ecdh_nist.hpp>

#include <cstdint>
#include <string_view>

namespace sealwire::crypto::detail {

struct nist_kernel {
  std::string_view name;
  // shared: X of scalar * peer (peer_xy = X || Y, checked on the curve);
  // false for an invalid point. scalar in [1, n-1], secret.
  bool (*shared)(std::uint8_t* out_x, const std::uint8_t* scalar, const std::uint8_t* peer_xy) noexcept;
  // base: scalar * G as X || Y. scalar in [1, n-1], secret.
  void (*base)(std::uint8_t* out_xy, const std::uint8_t* scalar) noexcept;
  // base_x: X of scalar * G (ECDSA's r before reduction mod n).
  void (*base_x)(std::uint8_t* out_x, const std::uint8_t* scalar) noexcept;
  // verify_r: whether q_xy is on the curve, u1 G + u2 Q is not the
  // identity and its x mod n equals r (FIPS 186-5 6.4.2 steps 5-7).
  // Variable time: public inputs only.
  bool (*verify_r)(const std::uint8_t* u1, const std::uint8_t* u2, const std::uint8_t* q_xy,
                   const std::uint8_t* r) noexcept;
};

extern const nist_kernel p256_kernel_portable;
extern const nist_kernel p521_kernel_portable;
#if SEALWIRE_X86_KERNELS
extern const nist_kernel p256_kernel_bmi2;
extern const nist_kernel p521_kernel_ifma;
#endif

// p256_kernel_choice: the BMI2/ADX kernel when the enabled CPU level has
// AVX2, BMI2 and ADX (its tables are scanned in AVX2 words), else the
// portable one. p521_kernel_choice: the IFMA kernel when the enabled level
// has AVX-512F/VL/BW, IFMA and AVX2 (the avx512 level; the features its file
// is built for), else the portable one. Both are asked on every call, so a
// forced level in the tests takes effect at once.
const nist_kernel& p256_kernel_choice() noexcept;
const nist_kernel& p521_kernel_choice() noexcept;

// has_kernels: whether curve C goes through a kernel table (P-256, P-521);
// kernel_of<C>() is its choice.
template <nist_curve C>
inline constexpr bool has_kernels = C == nist_curve::p256 || C == nist_curve::p521;

template <nist_curve C>
  requires has_kernels<C>
inline const nist_kernel& kernel_of() noexcept {
  if constexpr (C == nist_curve::p256) {
    return p256_kernel_choice();
  } else {
    return p521_kernel_choice();
  }
}

}  // namespace sealwire::crypto::detail
