// SPDX-License-Identifier: Apache-2.0
// ChaCha kernel for AVX2: eight blocks in parallel.
#include "detail/chacha_core.hpp"
#include "detail/vec_avx2.hpp"

namespace sealwire::crypto::detail {

void chacha_blocks_x8_avx2(const std::uint32_t w[16], std::uint64_t counter, std::uint8_t* out,
                           const std::uint8_t* in, std::size_t nblocks, unsigned rounds) noexcept {
  blocks_x8<chacha_family>(w, counter, out, in, nblocks, rounds);
}

}  // namespace sealwire::crypto::detail
