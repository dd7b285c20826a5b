// SPDX-License-Identifier: Apache-2.0
// The state of a Poly1305 computation behind the public class's opaque
// storage: what the kernels read and write. Only <cstdint>-level headers:
// the instruction-set files include this one.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sealwire::crypto::detail {

// Which vector kernel's powers of r a state holds.
enum class poly1305_powers : std::uint8_t { none, radix26x4, radix44x8 };

// How many 16-byte blocks the driver buffers at most: one group of the
// widest vector kernel's lanes.
inline constexpr std::size_t poly1305_buffer_blocks = 8;

// poly1305_state is the accumulator h (radix 2^64, h[2] holds bits 128 and
// up) and the key halves r (clamped) and s. Every kernel leaves h in this
// form, so kernels can alternate within a message. The vector kernels also
// use powers of r, computed once a message is long enough.
//
// A message fed in pieces keeps the vector kernel's lane accumulators live
// in `lanes` between update calls (`live` names their kind; h is then
// folded into them) and collapses them into h only at finish, or when the
// CPU level changes its kernels: whole groups of lanes are absorbed at each
// call and buf holds the rest (fewer than a group of blocks, plus a partial
// block); small pieces collect in buf until the first group is complete.
// Otherwise buf holds a partial block only.
struct poly1305_state {
  // Per-lane powers of r, limb by limb (see poly1305.cpp); wiped only when set.
  alignas(64) std::uint64_t pw[5 * 8];
  // Live lane accumulators, limb by limb (see poly1305_avx2.cpp and
  // poly1305_ifma.cpp); wiped only when used.
  alignas(64) std::uint64_t lanes[3 * 8];
  // From here to the end: what every message uses (one clear wipes it).
  std::uint64_t h[3];
  std::uint64_t r[2];
  std::uint64_t s[2];
  std::uint64_t absorbed;  // blocks absorbed with this key
  poly1305_powers powers;  // what pw holds
  poly1305_powers live;    // the kind of the live lanes, or none
  bool started;            // live: the lanes hold blocks (else buf collects the first group)
  bool lanes_used;         // lanes has held a message's accumulators (wipe them)
  std::uint8_t buf_len;
  std::uint8_t buf[16 * poly1305_buffer_blocks];
};

// The bytes from h to the end of the state.
inline constexpr std::size_t poly1305_message_offset = offsetof(poly1305_state, h);
inline constexpr std::size_t poly1305_message_bytes =
    offsetof(poly1305_state, buf) + sizeof(poly1305_state::buf) - poly1305_message_offset;

}  // namespace sealwire::crypto::detail
