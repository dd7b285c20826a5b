// SPDX-License-Identifier: Apache-2.0
// X25519 ladder built for BMI2/ADX: the same radix-2^51 arithmetic, which the
// compiler schedules with mulx (no flag dependencies between products).
#include "detail/x25519_ladder.hpp"

namespace sealwire::crypto::detail {

void x25519_bmi2(std::uint8_t out[32], const std::uint8_t k[32], const std::uint8_t u[32]) noexcept {
  x25519_ladder(out, k, u);
}

}  // namespace sealwire::crypto::detail
