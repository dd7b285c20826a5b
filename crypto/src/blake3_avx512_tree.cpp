// SPDX-License-Identifier: Apache-2.0
// BLAKE3 for AVX-512F/VL: a subtree of many chunks (the BLAKE3
// specification, 2020, section 2.5) down to its sixteen nodes at one level,
// with every chaining value in between word-sliced (vector j: word j of
// sixteen adjacent nodes), as the 16-lane loop leaves them. A parent level
// then needs one permutation per message word instead of a transpose of
// the children in and of the parents out (and hash_many's stack frame):
// 1,024 chunks, TSC cycles per sixteen parents: 413 through
// blake3_hash_many_x16_avx512, the official BLAKE3's 360.
#include <sealwire/crypto/contract.hpp>

#include "detail/blake3_avx512.hpp"

#include <algorithm>
#include <bit>

namespace sealwire::crypto::detail {
namespace {

// Groups of sixteen chunks per call of the 16-lane loop: one call runs
// from one group's last block into the next group's first, with the
// frame's setup and wipe once per call.
constexpr std::size_t batch_groups = 8;
// The batches' nodes waiting for a sibling, at most one per level below
// the top, and the one being made.
constexpr std::size_t max_batches = blake3_wide16_max_chunks / (16 * batch_groups);
constexpr std::size_t stack_groups = std::bit_width(max_batches);

}  // namespace

void blake3_wide16_avx512(const std::uint8_t* in, std::uint64_t chunks, std::uint64_t counter,
                          const std::uint32_t key[8], std::uint32_t flags, std::uint8_t* out) noexcept {
  alignas(64) lanes16 batch[batch_groups][8];
  alignas(64) lanes16 ctr[batch_groups][2];
  alignas(64) lanes16 stack[stack_groups][8];
  // Fewer chunks would leave the output unset, more overflow `stack`.
  SEALWIRE_EXPECTS(chunks >= 16 && chunks <= blake3_wide16_max_chunks && std::has_single_bit(chunks));
  const std::uint32_t block_flags[3] = {flags, blake3_chunk_start, blake3_chunk_end};
  const std::uint32_t parent_flags = flags | blake3_parent;
  const auto groups = static_cast<std::size_t>(chunks / 16);
  const std::size_t per_call = std::min(groups, batch_groups);
  std::size_t depth = 0, max_depth = 0;
  for (std::size_t g = 0; g < groups; g += per_call, in += per_call * 16 * blake3_chunk_len) {
    // The loop reads and replaces the chaining values in place.
    for (std::size_t i = 0; i < per_call; ++i) {
      for (int w = 0; w < 8; ++w) batch[i][w] = lanes16::splat(key[w]);
      lanes16::counters(counter + 16 * (g + i), true, ctr[i][0], ctr[i][1]);
    }
    sealwire_blake3_x16_groups_avx512(in, blake3_chunk_len, blake3_blocks_per_chunk, batch, ctr, block_flags,
                                      per_call);
    // The batch's levels, in place: parent group i is made from groups 2i
    // and 2i + 1, which no later parent of the level reads.
    for (std::size_t n = per_call; n > 1; n /= 2) {
      for (std::size_t i = 0; i < n / 2; ++i) {
        sealwire_blake3_x16_parents_sliced_avx512(batch[2 * i], key, parent_flags, batch[i]);
      }
    }
    if (per_call == groups) {
      const lanes16* top = batch[0];
      lanes16::store_cvs(out, top[0], top[1], top[2], top[3], top[4], top[5], top[6], top[7]);
      wipe_vectors(&batch[0][0], 8 * per_call);
      return;
    }
    std::copy(batch[0], batch[0] + 8, stack[depth]);
    max_depth = std::max(max_depth, ++depth);
    // After b batches, a subtree of 2^k batches is complete for each
    // trailing zero k of b: the top two nodes, adjacent on the stack, are
    // the children of the next one up.
    for (std::size_t done = g / per_call + 1; (done & 1) == 0; done >>= 1) {
      --depth;
      sealwire_blake3_x16_parents_sliced_avx512(stack[depth - 1], key, parent_flags, stack[depth - 1]);
    }
  }
  const lanes16* top = stack[0];
  lanes16::store_cvs(out, top[0], top[1], top[2], top[3], top[4], top[5], top[6], top[7]);
  // The chaining values (for a keyed hash, derived from the key).
  wipe_vectors(&batch[0][0], 8 * batch_groups);
  wipe_vectors(&stack[0][0], 8 * max_depth);
}

}  // namespace sealwire::crypto::detail
