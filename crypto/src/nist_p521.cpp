// SPDX-License-Identifier: Apache-2.0
// The portable P-521 kernel (nist_scalar_mul.hpp over the 58-bit-limb
// p521_field) and the run-time choice between it and the AVX-512 IFMA one
// (nist_p521_ifma.cpp).
#include <sealwire/crypto/cpu.hpp>

#include "detail/nist_kernel.hpp"
#include "detail/nist_scalar_mul.hpp"

namespace sealwire::crypto::detail {
namespace {
using E = ec<p521_curve>;
}  // namespace

const nist_kernel p521_kernel_portable = {"portable", &E::shared, &E::base, &E::base_x, &E::verify_r_bytes};

const nist_kernel& p521_kernel_choice() noexcept {
#if SEALWIRE_X86_KERNELS
  // The features its file is built for (the ifma ISA flags).
  if (cpu::has(cpu::avx512f | cpu::avx512vl | cpu::avx512bw | cpu::avx512ifma | cpu::avx2)) return p521_kernel_ifma;
#endif
  return p521_kernel_portable;
}

}  // namespace sealwire::crypto::detail
