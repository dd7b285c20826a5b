// SPDX-License-Identifier: Apache-2.0
// Keccak-f[1600] (FIPS 202 section 3) behind one entry point that permutes N
// independent states, so that wide kernels (several states per call) can be
// added behind the same dispatch; and the sponge's block absorption.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace sealwire::crypto::detail {

// keccak_lanes is the number of 64-bit lanes in a Keccak-f[1600] state.
inline constexpr std::size_t keccak_lanes = 25;

// A state is 25 lanes: lane (x, y) is a[x + 5 y], read from and written to
// bytes little-endian (FIPS 202 3.1.2, B.1).
using keccak_lanes_t = std::uint64_t[keccak_lanes];

// keccak_permute applies Keccak-f[1600] (24 rounds, FIPS 202 3.3) to each of
// n consecutive states; the kernel is chosen at run time (keccak_provider
// names it).
void keccak_permute(keccak_lanes_t* states, std::size_t n) noexcept;

// keccak_absorb_blocks XORs nblocks whole blocks of rate_lanes lanes (rate
// in bytes / 8) into the state, permuting after each.
void keccak_absorb_blocks(keccak_lanes_t& s, const std::uint8_t* in, std::size_t nblocks,
                          std::size_t rate_lanes) noexcept;

// keccak_provider names the permutation kernel keccak_permute runs.
std::string_view keccak_provider() noexcept;

}  // namespace sealwire::crypto::detail
