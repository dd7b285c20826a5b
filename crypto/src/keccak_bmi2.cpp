// SPDX-License-Identifier: Apache-2.0
// Keccak-f[1600] (FIPS 202 section 3) on 64-bit scalars built for BMI1/BMI2:
// chi's ~b & c is one andn and the rotations may use rorx.
#include "detail/keccak.hpp"
#include "detail/keccak_round.hpp"

namespace sealwire::crypto::detail {

[[gnu::target("bmi,bmi2")]] void keccak_permute_bmi2(std::uint64_t* state) noexcept {
  keccak_permute_one<keccak_scalar_ops, 2>(state);
}

[[gnu::target("bmi,bmi2")]] void keccak_absorb_bmi2(std::uint64_t* state, const std::uint8_t* in,
                                                   std::size_t nblocks, std::size_t rate_lanes) noexcept {
  keccak_absorb_any<keccak_scalar_ops, 2>(state, in, nblocks, rate_lanes);
}

}  // namespace sealwire::crypto::detail
