// SPDX-License-Identifier: Apache-2.0
// Four SHAKE streams driven together (FIPS 202 SHAKE128/SHAKE256 as ML-KEM's
// XOF and PRF, FIPS 203 4.1): ML-KEM's matrix expansion and noise sampling
// make their SHAKE calls four at a time through these two entry points. When
// all four lanes are in use they run on the interleaved four-state sponge of
// crypto/shake_multi.hpp (one AVX2 or AVX-512 permutation for all four);
// a call with unused lanes runs the used ones on the sequential sponge
// (crypto/sha3.hpp), which costs less than permuting an unused state.
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

}  // namespace sealwire::crypto::mlkem
