// SPDX-License-Identifier: Apache-2.0
// Keccak-f[1600] (FIPS 202 section 3): the kernel table (one state, and 4 or
// 8 interleaved states for the multi-stream sponges), chosen at run time, and
// the sponge's block absorption.
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

// An interleaved group of W states keeps lane i of state k at
// lanes[i * stride + k] (stride >= W), so that one vector load fetches the
// same lane of W states.

// A single-state kernel permutes one state; its absorb XORs nblocks whole
// blocks of rate_lanes lanes (rate in bytes / 8) from in, permuting after
// each. A wide kernel permutes W interleaved states at `lanes` with the
// given stride (a multiple of W, lanes aligned to 8 W bytes).
using keccak_permute_fn = void (*)(std::uint64_t* state) noexcept;
using keccak_absorb_fn = void (*)(std::uint64_t* state, const std::uint8_t* in, std::size_t nblocks,
                                  std::size_t rate_lanes) noexcept;
using keccak_permute_wide_fn = void (*)(std::uint64_t* lanes, std::size_t stride) noexcept;

// keccak_kernels is one CPU level's kernels. x4 is always set (a loop of
// the single-state kernel where no vector kernel exists); x8 may be null.
struct keccak_kernels {
  std::string_view name;     // single-state kernel
  std::string_view wide_name;  // x4 / x8 kernels
  keccak_permute_fn permute;
  keccak_absorb_fn absorb;
  keccak_permute_wide_fn x4;
  keccak_permute_wide_fn x8;
};

// keccak_kernels_now returns the kernels for the CPU level enabled now.
const keccak_kernels& keccak_kernels_now() noexcept;

// keccak_permute applies Keccak-f[1600] (24 rounds, FIPS 202 3.3) to each of
// n consecutive states (not interleaved), eight or four at a time where a
// wide kernel exists.
void keccak_permute(keccak_lanes_t* states, std::size_t n) noexcept;

// keccak_absorb_blocks XORs nblocks whole blocks of rate_lanes lanes into the
// state, permuting after each.
void keccak_absorb_blocks(keccak_lanes_t& s, const std::uint8_t* in, std::size_t nblocks,
                          std::size_t rate_lanes) noexcept;

// keccak_permute_interleaved permutes W (4 or 8) interleaved states with
// stride W.
void keccak_permute_interleaved(std::uint64_t* lanes, std::size_t ways) noexcept;

// keccak_provider names the single-state kernel; keccak_wide_provider the
// kernel the interleaved (multi-stream) permutation runs.
std::string_view keccak_provider() noexcept;
std::string_view keccak_wide_provider() noexcept;

// Instruction-set kernels (x86-64), in their own files.
void keccak_permute_bmi2(std::uint64_t* state) noexcept;
void keccak_absorb_bmi2(std::uint64_t* state, const std::uint8_t* in, std::size_t nblocks,
                        std::size_t rate_lanes) noexcept;
void keccak_permute_x4_avx2(std::uint64_t* lanes, std::size_t stride) noexcept;
void keccak_permute_avx512(std::uint64_t* state) noexcept;
void keccak_absorb_avx512(std::uint64_t* state, const std::uint8_t* in, std::size_t nblocks,
                          std::size_t rate_lanes) noexcept;
void keccak_permute_x4_avx512(std::uint64_t* lanes, std::size_t stride) noexcept;
void keccak_permute_x8_avx512(std::uint64_t* lanes, std::size_t stride) noexcept;

}  // namespace sealwire::crypto::detail
