// SPDX-License-Identifier: Apache-2.0
// The four-stream SHAKE entry points of xof_x4.hpp: the interleaved
// four-state sponge when every lane is used, lane by lane otherwise.
#include "xof_x4.hpp"

#include "../detail/bytes.hpp"
#include "../detail/keccak.hpp"

#include <sealwire/crypto/ct.hpp>

#include <cstring>

#include <span>
#include <string_view>

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
  unsigned used = 0;
  for (const auto* p : in) used += p != nullptr ? 1u : 0u;
  // With two or three lanes in use, one vector permutation of four states
  // (unused lanes fed a copy of a used input, their output dropped) costs
  // less than two or three sequential ones: only where a vector kernel runs
  // the interleaved states (elsewhere it permutes them one by one).
  const bool vector_kernel = keccak_lanes_x4::vector_kernel();
  constexpr std::size_t scratch_len = 192;  // ML-KEM's longest PRF output (eta = 3)
  if (used == 4 || (used >= 2 && vector_kernel && out_len <= scratch_len)) {
    std::uint8_t scratch[4][scratch_len];
    const std::uint8_t* some_input = in[0] != nullptr ? in[0] : in[1] != nullptr ? in[1] : in[2];
    std::array<std::span<const std::uint8_t>, 4> pieces;
    std::array<std::span<std::uint8_t>, 4> outputs;
    for (std::size_t l = 0; l < 4; ++l) {
      pieces[l] = std::span(in[l] != nullptr ? in[l] : some_input, in_len);
      outputs[l] = std::span(in[l] != nullptr ? out[l] : scratch[l], out_len);
    }
    crypto::shake256_x4::hash(outputs, pieces);  // wipes the states (the inputs are secret)
    if (used != 4) ct::wipe(scratch, sizeof scratch);
    return;
  }
  for (std::size_t l = 0; l < 4; ++l)
    if (in[l] != nullptr) shake256::hash(std::span<std::uint8_t>(out[l], out_len), std::span<const std::uint8_t>(in[l], in_len));
}

bool keccak_lanes_x4::vector_kernel() noexcept {
  const std::string_view wide = detail::keccak_wide_provider();
  return wide == "avx2" || wide == "avx512";
}

void keccak_lanes_x4::start(unsigned l, const std::uint8_t* in, std::size_t len, std::size_t rate) noexcept {
  // One padded block (SHAKE's domain bits 1111 then pad10*1, FIPS 202 6.2,
  // B.2) XORed into a zero state is the block itself.
  std::uint8_t block[168] = {};
  std::memcpy(block, in, len);
  block[len] ^= 0x1f;
  block[rate - 1] ^= 0x80;
  for (std::size_t w = 0; w < 25; ++w) s_[4 * w + l] = w < rate / 8 ? detail::load64_le(block + 8 * w) : 0;
  ct::wipe(block, sizeof block);
}

void keccak_lanes_x4::permute() noexcept { detail::keccak_permute_interleaved(s_, 4); }

void keccak_lanes_x4::read(unsigned l, std::uint8_t* out, std::size_t rate) const noexcept {
  for (std::size_t w = 0; w < rate / 8; ++w) detail::store64_le(out + 8 * w, s_[4 * w + l]);
}

void keccak_lanes_x4::wipe() noexcept { ct::wipe(s_, sizeof s_); }

}  // namespace sealwire::crypto::mlkem
