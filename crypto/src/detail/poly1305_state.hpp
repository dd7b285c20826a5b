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

// poly1305_state is the accumulator h (radix 2^64, h[2] holds bits 128 and
// up) and the key halves r (clamped) and s. Every kernel leaves h in this
// form, so kernels can alternate within a message. The vector kernels also
// use powers of r, computed once a message is long enough. The driver
// buffers a partial block in buf.
struct poly1305_state {
  // Per-lane powers of r, limb by limb (see poly1305.cpp); wiped only when set.
  alignas(64) std::uint64_t pw[5 * 8];
  // From here to the end: what every message uses (one clear wipes it).
  std::uint64_t h[3];
  std::uint64_t r[2];
  std::uint64_t s[2];
  std::uint64_t absorbed;  // blocks absorbed with this key
  poly1305_powers powers;  // what pw holds
  std::uint8_t buf_len;
  std::uint8_t buf[16];
};

// The bytes from h to the end of the state.
inline constexpr std::size_t poly1305_message_offset = offsetof(poly1305_state, h);
inline constexpr std::size_t poly1305_message_bytes =
    offsetof(poly1305_state, buf) + sizeof(poly1305_state::buf) - poly1305_message_offset;

}  // namespace sealwire::crypto::detail
