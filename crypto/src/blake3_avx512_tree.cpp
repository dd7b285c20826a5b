// SPDX-License-Identifier: Apache-2.0
// BLAKE3 for AVX-512F/VL: a subtree of many chunks (the BLAKE3
// specification, 2020, section 2.5) down to its sixteen nodes at one level,
// with every chaining value in between word-sliced (vector j: word j of
// sixteen adjacent nodes), as the 16-lane loop leaves them. A parent level
// then needs one permutation per message word instead of a transpose of
// the children in and of the parents out (and hash_many's stack frame):
// 1,024 chunks, TSC cycles per sixteen parents: 413 through
// blake3_hash_many_x16_avx512, the official BLAKE3's 360.
#include "detail/blake3_avx512.hpp"

#include <algorithm>
#include <bit>

namespace sealwire::crypto::detail {
namespace {

// The groups of sixteen nodes waiting for a sibling, at most one per level
// below the top, and the one being made.
constexpr std::size_t max_groups = blake3_wide16_max_chunks / 16;
constexpr std::size_t stack_groups = std::bit_width(max_groups);

}  // namespace

void blake3_wide16_avx512(const std::uint8_t* in, std::uint64_t chunks, std::uint64_t counter,
                          const std::uint32_t key[8], std::uint32_t flags, std::uint8_t* out) noexcept {
  alignas(64) lanes16 stack[stack_groups][8];
  alignas(64) lanes16 ctr[2];
  const std::uint32_t block_flags[3] = {flags, blake3_chunk_start, blake3_chunk_end};
  const auto groups = static_cast<std::size_t>(chunks / 16);
  std::size_t depth = 0, max_depth = 0;
  for (std::size_t g = 0; g < groups; ++g, in += 16 * blake3_chunk_len) {
    // Sixteen chunks; the loop reads and replaces the chaining value in place.
    for (int i = 0; i < 8; ++i) stack[depth][i] = lanes16::splat(key[i]);
    lanes16::counters(counter + 16 * g, true, ctr[0], ctr[1]);
    sealwire_blake3_x16_blocks_avx512(in, blake3_chunk_len, blake3_blocks_per_chunk, stack[depth], ctr,
                                      block_flags);
    max_depth = std::max(max_depth, ++depth);
    // After g + 1 groups, a subtree of 2^k groups is complete for each
    // trailing zero k of g + 1: the top two groups, adjacent on the stack,
    // are the children of the next one up.
    for (std::size_t done = g + 1; (done & 1) == 0; done >>= 1) {
      --depth;
      sealwire_blake3_x16_parents_sliced_avx512(stack[depth - 1], key, flags | blake3_parent, stack[depth - 1]);
    }
  }
  const lanes16* top = stack[0];
  lanes16::store_cvs(out, top[0], top[1], top[2], top[3], top[4], top[5], top[6], top[7]);
  // The chaining values (for a keyed hash, derived from the key).
  wipe_vectors(&stack[0][0], 8 * max_depth);
}

}  // namespace sealwire::crypto::detail
