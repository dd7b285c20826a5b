// SPDX-License-Identifier: Apache-2.0
// The portable P-256 kernel (nist_scalar_mul.hpp over mont_field) and the
// run-time choice between it and the BMI2/ADX one (nist_p256_bmi2.cpp).
#include <sealwire/crypto/cpu.hpp>

#include "detail/nist_kernel.hpp"
#include "detail/nist_scalar_mul.hpp"

namespace sealwire::crypto::detail {
namespace {
using E = ec<p256_curve>;
}  // namespace

const nist_kernel p256_kernel_portable = {"portable", &E::shared, &E::base, &E::base_x, &E::verify_r_bytes};

const nist_kernel& p256_kernel_choice() noexcept {
#if SEALWIRE_X86_KERNELS
  if (cpu::has(cpu::avx2 | cpu::bmi2 | cpu::adx)) return p256_kernel_bmi2;
#endif
  return p256_kernel_portable;
}

}  // namespace sealwire::crypto::detail
