// SPDX-License-Identifier: Apache-2.0
// The four-stream SHAKE entry points of xof_x4.hpp, lane by lane over the
// sequential sponge; a 4-way Keccak kernel replaces the loops.
#include "xof_x4.hpp"

#include <span>

namespace sealwire::crypto::mlkem {

void shake128_x4::absorb(const std::array<const std::uint8_t*, 4>& in, std::size_t len) noexcept {
  for (std::size_t l = 0; l < 4; ++l) {
    active_[l] = in[l] != nullptr;
    if (!active_[l]) continue;
    lanes_[l].reset();
    lanes_[l].update(std::span<const std::uint8_t>(in[l], len));
  }
}

void shake128_x4::squeeze_blocks(const std::array<std::uint8_t*, 4>& out, std::size_t nblocks) noexcept {
  for (std::size_t l = 0; l < 4; ++l)
    if (active_[l]) lanes_[l].squeeze(std::span<std::uint8_t>(out[l], nblocks * block_size));
}

void shake256_x4(const std::array<std::uint8_t*, 4>& out, std::size_t out_len,
                 const std::array<const std::uint8_t*, 4>& in, std::size_t in_len) noexcept {
  for (std::size_t l = 0; l < 4; ++l)
    if (in[l] != nullptr) shake256::hash(std::span<std::uint8_t>(out[l], out_len), std::span<const std::uint8_t>(in[l], in_len));
}

}  // namespace sealwire::crypto::mlkem
