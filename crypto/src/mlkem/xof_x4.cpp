// SPDX-License-Identifier: Apache-2.0
// The four-stream SHAKE entry points of xof_x4.hpp: the interleaved
// four-state sponge when every lane is used, lane by lane otherwise.
#include "xof_x4.hpp"

#include <span>

namespace sealwire::crypto::mlkem {
namespace {

bool all_of(const std::array<const std::uint8_t*, 4>& in) noexcept {
  return in[0] != nullptr && in[1] != nullptr && in[2] != nullptr && in[3] != nullptr;
}

}  // namespace

void shake128_x4::absorb(const std::array<const std::uint8_t*, 4>& in, std::size_t len) noexcept {
  all_active_ = all_of(in);
  if (all_active_) {
    const std::array<std::span<const std::uint8_t>, 4> pieces{
        std::span(in[0], len), std::span(in[1], len), std::span(in[2], len), std::span(in[3], len)};
    wide_.reset();
    wide_.update(pieces);
    return;
  }
  for (std::size_t l = 0; l < 4; ++l) {
    active_[l] = in[l] != nullptr;
    if (!active_[l]) continue;
    lanes_[l].reset();
    lanes_[l].update(std::span<const std::uint8_t>(in[l], len));
  }
}

void shake128_x4::squeeze_blocks(const std::array<std::uint8_t*, 4>& out, std::size_t nblocks) noexcept {
  const std::size_t n = nblocks * block_size;
  if (all_active_) {
    const std::array<std::span<std::uint8_t>, 4> blocks{std::span(out[0], n), std::span(out[1], n),
                                                        std::span(out[2], n), std::span(out[3], n)};
    wide_.squeeze(blocks);
    return;
  }
  for (std::size_t l = 0; l < 4; ++l)
    if (active_[l]) lanes_[l].squeeze(std::span<std::uint8_t>(out[l], n));
}

void shake256_x4(const std::array<std::uint8_t*, 4>& out, std::size_t out_len,
                 const std::array<const std::uint8_t*, 4>& in, std::size_t in_len) noexcept {
  if (all_of(in)) {
    const std::array<std::span<const std::uint8_t>, 4> pieces{std::span(in[0], in_len), std::span(in[1], in_len),
                                                              std::span(in[2], in_len), std::span(in[3], in_len)};
    const std::array<std::span<std::uint8_t>, 4> outputs{std::span(out[0], out_len), std::span(out[1], out_len),
                                                         std::span(out[2], out_len), std::span(out[3], out_len)};
    crypto::shake256_x4::hash(outputs, pieces);  // wipes the states (the inputs are secret)
    return;
  }
  for (std::size_t l = 0; l < 4; ++l)
    if (in[l] != nullptr) shake256::hash(std::span<std::uint8_t>(out[l], out_len), std::span<const std::uint8_t>(in[l], in_len));
}

}  // namespace sealwire::crypto::mlkem
