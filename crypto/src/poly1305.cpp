// Poly1305 (RFC 8439 2.5): the portable driver (buffering of a partial block,
// padding, finalisation) and the portable radix-2^64 block kernel.
#include <sealwire/crypto/poly1305.hpp>

#include "detail/bytes.hpp"
#include "detail/kernels.hpp"

#include <algorithm>
#include <cstring>

namespace sealwire::crypto {
namespace detail {

// poly1305_absorb adds one 16-byte block (plus hibit * 2^128) to h and
// multiplies by r, keeping h partially reduced (below 2^131).
[[gnu::always_inline]] static inline void poly1305_absorb(std::uint64_t& h0, std::uint64_t& h1, std::uint64_t& h2,
                                                          std::uint64_t r0, std::uint64_t r1, std::uint64_t s1,
                                                          const std::uint8_t* in, std::uint64_t hibit) noexcept {
  // h += m
  u128 t = static_cast<u128>(h0) + load64_le(in);
  h0 = static_cast<std::uint64_t>(t);
  t = static_cast<u128>(h1) + load64_le(in + 8) + (t >> 64);
  h1 = static_cast<std::uint64_t>(t);
  h2 += static_cast<std::uint64_t>(t >> 64) + hibit;

  // h *= r, with products above 2^128 folded back through s1.
  const u128 d0 = static_cast<u128>(h0) * r0 + static_cast<u128>(h1) * s1;
  u128 d1 = static_cast<u128>(h0) * r1 + static_cast<u128>(h1) * r0 + static_cast<u128>(h2) * s1;
  std::uint64_t d2 = h2 * r0;
  d1 += d0 >> 64;
  d2 += static_cast<std::uint64_t>(d1 >> 64);
  h0 = static_cast<std::uint64_t>(d0);
  h1 = static_cast<std::uint64_t>(d1);

  // Partial reduction: bits 130 and up times 5 go back to the bottom.
  const std::uint64_t c = (d2 >> 2) + (d2 & ~std::uint64_t{3});
  h2 = d2 & 3;
  t = static_cast<u128>(h0) + c;
  h0 = static_cast<std::uint64_t>(t);
  t = static_cast<u128>(h1) + (t >> 64);
  h1 = static_cast<std::uint64_t>(t);
  h2 += static_cast<std::uint64_t>(t >> 64);
}

// Clamping clears the low two bits of r1, so r1 * 2^128 = (r1 / 4) * 2^130,
// which is (r1 / 4) * 5 modulo p = 2^130 - 5: s1 = 5 * r1 / 4.
static inline std::uint64_t fold(std::uint64_t r1) noexcept { return r1 + (r1 >> 2); }

void poly1305_blocks_portable(poly1305_state& st, const std::uint8_t* in, std::size_t nblocks,
                              std::uint64_t hibit) noexcept {
  const std::uint64_t r0 = st.r[0], r1 = st.r[1], s1 = fold(r1);
  std::uint64_t h0 = st.h[0], h1 = st.h[1], h2 = st.h[2];
  for (; nblocks != 0; --nblocks, in += 16) poly1305_absorb(h0, h1, h2, r0, r1, s1, in, hibit);
  st.h[0] = h0;
  st.h[1] = h1;
  st.h[2] = h2;
}

// absorb_one takes a single block in line: the buffered partial block costs
// no kernel call. The accumulator is in the same form for every kernel.
static inline void absorb_one(poly1305_state& st, const std::uint8_t* in, std::uint64_t hibit) noexcept {
  poly1305_absorb(st.h[0], st.h[1], st.h[2], st.r[0], st.r[1], fold(st.r[1]), in, hibit);
}

namespace {

poly1305_blocks_fn select_blocks() noexcept { return &poly1305_blocks_portable; }

// blocks runs the kernel for this CPU level. The portable loop is expanded in
// place rather than called, which matters for small pieces.
void blocks(poly1305_state& st, const std::uint8_t* in, std::size_t n, std::uint64_t hibit) noexcept {
  const poly1305_blocks_fn fn = select_blocks();
  if (fn == &poly1305_blocks_portable) {
    const std::uint64_t r0 = st.r[0], r1 = st.r[1], s1 = fold(r1);
    std::uint64_t h0 = st.h[0], h1 = st.h[1], h2 = st.h[2];
    for (; n != 0; --n, in += 16) poly1305_absorb(h0, h1, h2, r0, r1, s1, in, hibit);
    st.h[0] = h0;
    st.h[1] = h1;
    st.h[2] = h2;
    return;
  }
  fn(st, in, n, hibit);
}

}  // namespace
}  // namespace detail

void poly1305::init(std::span<const std::uint8_t, key_size> key) noexcept {
  // RFC 8439 2.5.1: clamp r.
  st_.r[0] = detail::load64_le(key.data()) & 0x0ffffffc0fffffffULL;
  st_.r[1] = detail::load64_le(key.data() + 8) & 0x0ffffffc0ffffffcULL;
  st_.s[0] = detail::load64_le(key.data() + 16);
  st_.s[1] = detail::load64_le(key.data() + 24);
  st_.h[0] = st_.h[1] = st_.h[2] = 0;
  buf_len_ = 0;
}

void poly1305::update(std::span<const std::uint8_t> in) noexcept {
  if (in.empty()) return;
  const std::uint8_t* p = in.data();
  std::size_t n = in.size();
  if (buf_len_ != 0) {
    const std::size_t take = std::min<std::size_t>(n, block_size - buf_len_);
    detail::copy_small(buf_ + buf_len_, p, take);
    buf_len_ = static_cast<std::uint8_t>(buf_len_ + take);
    p += take;
    n -= take;
    if (buf_len_ < block_size) return;
    detail::absorb_one(st_, buf_, 1);
    buf_len_ = 0;
  }
  if (n >= block_size) {
    const std::size_t whole = n / block_size;
    detail::blocks(st_, p, whole, 1);
    p += whole * block_size;
    n -= whole * block_size;
  }
  if (n != 0) {
    detail::copy_small(buf_, p, n);
    buf_len_ = static_cast<std::uint8_t>(n);
  }
}

void poly1305::pad16() noexcept {
  if (buf_len_ == 0) return;
  std::memset(buf_ + buf_len_, 0, block_size - buf_len_);
  detail::absorb_one(st_, buf_, 1);
  buf_len_ = 0;
}

void poly1305::finish(std::span<std::uint8_t, tag_size> tag) noexcept {
  if (buf_len_ != 0) {
    // RFC 8439 2.5.1: a final short block gets a 1 byte appended and no 2^128.
    buf_[buf_len_] = 1;
    std::memset(buf_ + buf_len_ + 1, 0, block_size - buf_len_ - 1);
    detail::absorb_one(st_, buf_, 0);
  }
  using detail::u128;
  std::uint64_t h0 = st_.h[0], h1 = st_.h[1];
  const std::uint64_t h2 = st_.h[2];
  // h < 2^131 after the kernel's partial reduction, so one conditional
  // subtraction of p gives h mod p: take h + 5 - 2^130 when it is non-negative.
  u128 t = static_cast<u128>(h0) + 5;
  const auto g0 = static_cast<std::uint64_t>(t);
  t = static_cast<u128>(h1) + (t >> 64);
  const auto g1 = static_cast<std::uint64_t>(t);
  const std::uint64_t g2 = h2 + static_cast<std::uint64_t>(t >> 64);
  const std::uint64_t use_g = ct::mask_from_bit(g2 >> 2);
  h0 = (h0 & ~use_g) | (g0 & use_g);
  h1 = (h1 & ~use_g) | (g1 & use_g);
  // tag = (h + s) mod 2^128
  t = static_cast<u128>(h0) + st_.s[0];
  h0 = static_cast<std::uint64_t>(t);
  h1 = h1 + st_.s[1] + static_cast<std::uint64_t>(t >> 64);
  detail::store64_le(tag.data(), h0);
  detail::store64_le(tag.data() + 8, h1);
  wipe();
}

bool poly1305::verify(std::span<const std::uint8_t, tag_size> expected) noexcept {
  std::uint8_t tag[tag_size];
  finish(tag);
  const bool ok = ct::equal(tag, expected);
  ct::wipe(tag, sizeof tag);
  return ok;
}

void poly1305::mac(std::span<std::uint8_t, tag_size> tag, std::span<const std::uint8_t> msg,
                   std::span<const std::uint8_t, key_size> key) noexcept {
  poly1305 p(key);
  p.update(msg);
  p.finish(tag);
}

std::string_view poly1305::provider() noexcept { return "portable"; }

}  // namespace sealwire::crypto
