// SPDX-License-Identifier: Apache-2.0
// The P-256 point operations as a kernel table: the portable build over
// mont_field (nist_p256.cpp) and the BMI2/ADX build over the mulx field of
// p256_field_adx.hpp (nist_p256_bmi2.cpp), chosen at run time by
// p256_kernel_choice(). Byte strings are big-endian, 32 bytes a coordinate.
#pragma once

#include <cstdint>
#include <string_view>

namespace sealwire::crypto::detail {

struct p256_kernel {
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

extern const p256_kernel p256_kernel_portable;
#if SEALWIRE_X86_KERNELS
extern const p256_kernel p256_kernel_bmi2;
#endif

// p256_kernel_choice: the BMI2/ADX kernel when the enabled CPU level has
// AVX2, BMI2 and ADX (its tables are scanned in AVX2 words), else the portable one (asked on every call, so a forced level in
// the tests takes effect at once).
const p256_kernel& p256_kernel_choice() noexcept;

}  // namespace sealwire::crypto::detail
