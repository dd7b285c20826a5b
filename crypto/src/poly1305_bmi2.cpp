// SPDX-License-Identifier: Apache-2.0
// Poly1305 scalar kernel built for BMI2/ADX: the portable radix-2^64 step,
// which the compiler turns into mulx-based multiplication here.
#include "detail/poly1305_core.hpp"

namespace sealwire::crypto::detail {

void poly1305_blocks_bmi2(poly1305_state& st, const std::uint8_t* in, std::size_t nblocks,
                          std::uint64_t hibit) noexcept {
  poly1305_scalar_blocks(st, in, nblocks, hibit);
}

}  // namespace sealwire::crypto::detail
