// SPDX-License-Identifier: Apache-2.0
// ChaCha kernel for SSSE3/SSE4.1: four blocks in parallel. (A single block
// with its four rows in four registers, quarter rounds side by side, was
// slower than the portable code: it is one serial dependency chain.)
#include "detail/chacha_core.hpp"
#include "detail/vec_sse41.hpp"

namespace sealwire::crypto::detail {

void chacha_blocks_x4_sse41(const std::uint32_t w[16], std::uint64_t counter, std::uint8_t* out,
                            const std::uint8_t* in, std::size_t nblocks, unsigned rounds) noexcept {
  blocks_x4<chacha_family>(w, counter, out, in, nblocks, rounds);
}

}  // namespace sealwire::crypto::detail
