// SPDX-License-Identifier: Apache-2.0
// Salsa20 kernel for AVX2: 8 blocks in parallel.
#include "detail/salsa_core.hpp"
#include "detail/vec_avx2.hpp"

namespace sealwire::crypto::detail {

void salsa_blocks_x8_avx2(const std::uint32_t w[16], std::uint64_t counter, std::uint8_t* out,
                           const std::uint8_t* in, std::size_t nblocks, unsigned rounds) noexcept {
  blocks_x8<salsa_family>(w, counter, out, in, nblocks, rounds);
}

}  // namespace sealwire::crypto::detail
