// SPDX-License-Identifier: Apache-2.0
// Ed25519 group kernels built for BMI2/ADX: the same radix-2^51 arithmetic
// (fe25519.hpp), which the compiler schedules with mulx. The base-point
// tables come from the portable build.
#include "detail/ed25519_point.hpp"

namespace sealwire::crypto::detail {

const ed25519_kernel ed25519_kernel_bmi2 = {&kernel_base_mul, &kernel_verify, &kernel_batch, &kernel_is_point};

}  // namespace sealwire::crypto::detail
