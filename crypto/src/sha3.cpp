// SPDX-License-Identifier: Apache-2.0
// SHA-3 and SHAKE (FIPS 202): the sponge driver. Whole blocks go from the
// input straight to the permutation; a partial block is XORed into the state
// in place, so the state is the only buffer.
#include <sealwire/crypto/contract.hpp>
#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/sha3.hpp>

#include "detail/bytes.hpp"
#include "detail/keccak.hpp"

#include <algorithm>
#include <cstring>

namespace sealwire::crypto::detail {
namespace {

// xor_into XORs n bytes into the state from byte offset pos (within a block).
void xor_into(std::uint64_t* a, std::size_t pos, const std::uint8_t* in, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i, ++pos) a[pos / 8] ^= std::uint64_t{in[i]} << (8 * (pos % 8));
}

// read_from copies n bytes of the state from byte offset pos.
void read_from(std::uint8_t* out, const std::uint64_t* a, std::size_t pos, std::size_t n) noexcept {
  // Whole lanes at a time once aligned; bytes at the edges.
  while (n > 0 && pos % 8 != 0) {
    *out++ = static_cast<std::uint8_t>(a[pos / 8] >> (8 * (pos % 8)));
    ++pos;
    --n;
  }
  for (; n >= 8; n -= 8, pos += 8, out += 8) store64_le(out, a[pos / 8]);
  for (; n > 0; --n, ++pos) *out++ = static_cast<std::uint8_t>(a[pos / 8] >> (8 * (pos % 8)));
}

}  // namespace

keccak_sponge::keccak_sponge(std::size_t rate, std::uint8_t pad) noexcept
    : rate_(static_cast<std::uint32_t>(rate)), pad_(pad) {
  reset();
}

keccak_sponge::~keccak_sponge() { wipe(); }

void keccak_sponge::reset() noexcept {
  std::fill(std::begin(a_), std::end(a_), std::uint64_t{0});
  pos_ = 0;
  squeezing_ = false;
}

void keccak_sponge::wipe() noexcept {
  ct::wipe_object(a_);
  pos_ = 0;
}

void keccak_sponge::absorb(std::span<const std::uint8_t> in) noexcept {
  SEALWIRE_EXPECTS(!squeezing_);
  const std::uint8_t* p = in.data();
  std::size_t n = in.size();
  if (pos_ != 0) {
    const std::size_t take = std::min<std::size_t>(n, rate_ - pos_);
    xor_into(a_, pos_, p, take);
    pos_ += static_cast<std::uint32_t>(take);
    p += take;
    n -= take;
    if (pos_ < rate_) return;
    keccak_permute(&a_, 1);
    pos_ = 0;
  }
  const std::size_t blocks = n / rate_;
  if (blocks > 0) {
    keccak_absorb_blocks(a_, p, blocks, rate_ / 8);
    p += blocks * rate_;
    n -= blocks * rate_;
  }
  xor_into(a_, 0, p, n);
  pos_ = static_cast<std::uint32_t>(n);
}

// pad_and_switch applies pad10*1 with the domain bits (FIPS 202 5.1, B.2):
// pad_ at the next byte and 0x80 at the block's last byte, then permutes.
void keccak_sponge::pad_and_switch() noexcept {
  a_[pos_ / 8] ^= std::uint64_t{pad_} << (8 * (pos_ % 8));
  a_[(rate_ - 1) / 8] ^= std::uint64_t{0x80} << (8 * ((rate_ - 1) % 8));
  keccak_permute(&a_, 1);
  pos_ = 0;
  squeezing_ = true;
}

void keccak_sponge::squeeze(std::span<std::uint8_t> out) noexcept {
  if (!squeezing_) pad_and_switch();
  std::uint8_t* p = out.data();
  std::size_t n = out.size();
  while (n > 0) {
    if (pos_ == rate_) {
      keccak_permute(&a_, 1);
      pos_ = 0;
    }
    const std::size_t take = std::min<std::size_t>(n, rate_ - pos_);
    read_from(p, a_, pos_, take);
    pos_ += static_cast<std::uint32_t>(take);
    p += take;
    n -= take;
  }
}

std::string_view keccak_provider_name() noexcept { return keccak_provider(); }

}  // namespace sealwire::crypto::detail
