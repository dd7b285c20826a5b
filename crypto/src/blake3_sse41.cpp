// SPDX-License-Identifier: Apache-2.0
// BLAKE3 hash_many for SSSE3/SSE4.1 (the BLAKE3 specification, 2020): four
// inputs at a time, one per 32-bit lane.
#include "detail/blake3_core.hpp"
#include "detail/blake3_x86.hpp"

namespace sealwire::crypto::detail {

void blake3_hash_many_x4_sse41(const std::uint8_t* in, std::size_t n_inputs, std::size_t blocks,
                               const std::uint32_t key[8], std::uint64_t counter, bool increment, std::uint32_t flags,
                               std::uint32_t flags_start, std::uint32_t flags_end, std::uint8_t* out) noexcept {
  blake3_hash_many_lanes<lanes4<shuffle_rotate>>(in, n_inputs, blocks, key, counter, increment, flags, flags_start,
                                                 flags_end, out);
}

}  // namespace sealwire::crypto::detail
