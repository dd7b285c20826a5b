// SPDX-License-Identifier: Apache-2.0
// SHAKE on 4 or 8 interleaved streams (FIPS 202 6.2): the sponge driver over
// the wide Keccak-f[1600] kernels. Every stream is at the same position, so
// one position and one permutation call serve them all; the input and output
// move between bytes and the interleaved lanes a whole lane at a time once
// aligned.
#include <sealwire/crypto/contract.hpp>
#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/shake_multi.hpp>

#include "detail/bytes.hpp"
#include "detail/keccak.hpp"

#include <algorithm>

namespace sealwire::crypto::detail {
namespace {

// xor_stream XORs n bytes of in into stream k's lanes from byte offset pos.
void xor_stream(std::uint64_t* a, std::size_t ways, std::size_t k, std::size_t pos, const std::uint8_t* in,
                std::size_t n) noexcept {
  for (; n > 0 && pos % 8 != 0; --n, ++pos) a[(pos / 8) * ways + k] ^= std::uint64_t{*in++} << (8 * (pos % 8));
  for (; n >= 8; n -= 8, pos += 8, in += 8) a[(pos / 8) * ways + k] ^= load64_le(in);
  for (; n > 0; --n, ++pos) a[(pos / 8) * ways + k] ^= std::uint64_t{*in++} << (8 * (pos % 8));
}

// read_stream copies n bytes of stream k's lanes from byte offset pos.
void read_stream(std::uint8_t* out, const std::uint64_t* a, std::size_t ways, std::size_t k, std::size_t pos,
                 std::size_t n) noexcept {
  for (; n > 0 && pos % 8 != 0; --n, ++pos) {
    *out++ = static_cast<std::uint8_t>(a[(pos / 8) * ways + k] >> (8 * (pos % 8)));
  }
  for (; n >= 8; n -= 8, pos += 8, out += 8) store64_le(out, a[(pos / 8) * ways + k]);
  for (; n > 0; --n, ++pos) *out++ = static_cast<std::uint8_t>(a[(pos / 8) * ways + k] >> (8 * (pos % 8)));
}

}  // namespace

keccak_multi_sponge::keccak_multi_sponge(std::size_t ways, std::size_t rate, std::uint8_t pad) noexcept
    : ways_(static_cast<std::uint32_t>(ways)), rate_(static_cast<std::uint32_t>(rate)), pad_(pad) {
  SEALWIRE_EXPECTS(ways == 4 || ways == 8);
  SEALWIRE_EXPECTS(rate % 8 == 0 && rate > 0 && rate < 200);
  reset();
}

keccak_multi_sponge::~keccak_multi_sponge() { wipe(); }

void keccak_multi_sponge::reset() noexcept {
  std::fill(std::begin(a_), std::end(a_), std::uint64_t{0});
  pos_ = 0;
  squeezing_ = false;
}

void keccak_multi_sponge::wipe() noexcept {
  ct::wipe_object(a_);
  pos_ = 0;
}

void keccak_multi_sponge::absorb(std::span<const std::span<const std::uint8_t>> in) noexcept {
  SEALWIRE_EXPECTS(!squeezing_);
  SEALWIRE_EXPECTS(in.size() == ways_);
  const std::size_t n = in[0].size();
  for (const auto& piece : in) SEALWIRE_EXPECTS(piece.size() == n);
  for (std::size_t off = 0; off < n;) {
    const std::size_t take = std::min<std::size_t>(n - off, rate_ - pos_);
    for (std::size_t k = 0; k < ways_; ++k) xor_stream(a_, ways_, k, pos_, in[k].data() + off, take);
    pos_ += static_cast<std::uint32_t>(take);
    off += take;
    if (pos_ == rate_) {
      keccak_permute_interleaved(a_, ways_);
      pos_ = 0;
    }
  }
}

// pad_and_switch applies pad10*1 with the domain bits to every stream (FIPS
// 202 5.1, B.2), then permutes.
void keccak_multi_sponge::pad_and_switch() noexcept {
  for (std::size_t k = 0; k < ways_; ++k) {
    a_[(pos_ / 8) * ways_ + k] ^= std::uint64_t{pad_} << (8 * (pos_ % 8));
    a_[((rate_ - 1) / 8) * ways_ + k] ^= std::uint64_t{0x80} << (8 * ((rate_ - 1) % 8));
  }
  keccak_permute_interleaved(a_, ways_);
  pos_ = 0;
  squeezing_ = true;
}

void keccak_multi_sponge::squeeze(std::span<const std::span<std::uint8_t>> out) noexcept {
  SEALWIRE_EXPECTS(out.size() == ways_);
  const std::size_t n = out[0].size();
  for (const auto& piece : out) SEALWIRE_EXPECTS(piece.size() == n);
  if (!squeezing_) pad_and_switch();
  for (std::size_t off = 0; off < n;) {
    if (pos_ == rate_) {
      keccak_permute_interleaved(a_, ways_);
      pos_ = 0;
    }
    const std::size_t take = std::min<std::size_t>(n - off, rate_ - pos_);
    for (std::size_t k = 0; k < ways_; ++k) read_stream(out[k].data() + off, a_, ways_, k, pos_, take);
    pos_ += static_cast<std::uint32_t>(take);
    off += take;
  }
}

std::string_view keccak_wide_provider_name() noexcept { return keccak_wide_provider(); }

}  // namespace sealwire::crypto::detail
