// SPDX-License-Identifier: Apache-2.0
// Four SHAKE streams driven together (FIPS 202 SHAKE128/SHAKE256 as ML-KEM's
// XOF and PRF, FIPS 203 4.1): ML-KEM's matrix expansion and noise sampling
// make their SHAKE calls four at a time through these two entry points. When
// all four lanes are in use they run on the interleaved four-state sponge of
// crypto/shake_multi.hpp (one AVX2 or AVX-512 permutation for all four);
// a call with one lane in use runs it on the sequential sponge
// (crypto/sha3.hpp), which costs less than permuting unused states. For
// SHAKE256 with two or three lanes in use, one vector permutation of four
// costs less than two sequential ones, so it runs interleaved where a vector
// kernel exists.
#pragma once

#include <sealwire/crypto/sha3.hpp>
#include <sealwire/crypto/shake_multi.hpp>

#include <array>
#include <cstddef>
#include <cstdint>

namespace sealwire::crypto::mlkem {

// shake128_x4 is four SHAKE128 instances absorbing one input each, then
// squeezing whole 168-byte blocks from all four in step.
class shake128_x4 {
 public:
  // block_size is SHAKE128's rate.
  static constexpr std::size_t block_size = 168;

  // absorb takes the four inputs (all len bytes: ML-KEM's rho || j || i).
  // A null input marks an unused lane: its output pointers must be null too
  // and it is not computed (a 4-way kernel may compute it and drop it).
  void absorb(const std::array<const std::uint8_t*, 4>& in, std::size_t len) noexcept;
  // squeeze_blocks writes the next nblocks blocks of each stream to out[lane].
  void squeeze_blocks(const std::array<std::uint8_t*, 4>& out, std::size_t nblocks) noexcept;

 private:
  crypto::shake128_x4 wide_;  // all four lanes in use
  std::array<shake128, 4> lanes_;  // otherwise, lane by lane
  std::array<bool, 4> active_{};
  bool all_active_ = false;
};

// shake256_x4 writes out_len bytes of SHAKE256(in[lane]) to out[lane] for the
// four lanes (ML-KEM's PRF_eta(s, b) = SHAKE256(s || b), FIPS 203 4.1), and
// wipes its state (the inputs are secret). Null lanes are skipped.
void shake256_x4(const std::array<std::uint8_t*, 4>& out, std::size_t out_len,
                 const std::array<const std::uint8_t*, 4>& in, std::size_t in_len) noexcept;

// keccak_lanes_x4 is four Keccak-f[1600] states side by side, each its own
// SHAKE instance (SHAKE128 or SHAKE256, FIPS 202 6.2) with one input shorter
// than its rate, squeezed one block per permutation: lanes of different
// rates share each four-state permutation (ML-KEM KeyGen's matrix and noise
// streams). Only worth it where a vector kernel permutes the four states at
// once (vector_kernel()).
class keccak_lanes_x4 {
 public:
  // vector_kernel tells whether the level's four-state permutation is a
  // vector kernel (not four sequential permutations).
  [[nodiscard]] static bool vector_kernel() noexcept;
  // start makes lane l a fresh SHAKE instance of `rate` bytes (168 or 136)
  // that absorbed in[0..len), len < rate.
  void start(unsigned l, const std::uint8_t* in, std::size_t len, std::size_t rate) noexcept;
  // permute applies Keccak-f[1600] to the four states.
  void permute() noexcept;
  // read copies the first `rate` bytes of lane l (its next output block).
  void read(unsigned l, std::uint8_t* out, std::size_t rate) const noexcept;
  void wipe() noexcept;

 private:
  alignas(64) std::uint64_t s_[25 * 4] = {};
};

}  // namespace sealwire::crypto::mlkem
