// SPDX-License-Identifier: Apache-2.0
// BLAKE2b (RFC 7693): the compression function in 64-bit portable code with
// the state in locals and the rounds unrolled, and the keyed, incremental driver.
#include <sealwire/crypto/blake2b.hpp>
#include <sealwire/crypto/contract.hpp>
#include <sealwire/crypto/ct.hpp>

#include "detail/bytes.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace sealwire::crypto {
namespace {

// RFC 7693 2.6: SHA-512's initial value (FIPS 180-4 5.3.5).
constexpr std::uint64_t iv[8] = {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
                                 0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};

// RFC 7693 2.7: the message schedule; rounds 10 and 11 reuse rows 0 and 1.
constexpr std::uint8_t sigma[10][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4}, {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13}, {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11}, {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5}, {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0}};

constexpr int rounds = 12;

template <int N>
[[gnu::always_inline]] inline std::uint64_t rotr64(std::uint64_t x) noexcept {
  return (x >> N) | (x << (64 - N));
}

// RFC 7693 3.1. The message word joins `a` before `b` so that the load and
// add stay off the dependency chain through a, b, c and d.
[[gnu::always_inline]] inline void g(std::uint64_t& a, std::uint64_t& b, std::uint64_t& c, std::uint64_t& d,
                                     std::uint64_t x, std::uint64_t y) noexcept {
  a = a + x + b;
  d = rotr64<32>(d ^ a);
  c = c + d;
  b = rotr64<24>(b ^ c);
  a = a + y + b;
  d = rotr64<16>(d ^ a);
  c = c + d;
  b = rotr64<63>(b ^ c);
}

// One round (RFC 7693 3.2): columns, then diagonals. R is a template
// argument so that every schedule lookup is a constant.
template <int R>
[[gnu::always_inline]] inline void one_round(std::uint64_t (&v)[16], const std::uint64_t (&m)[16]) noexcept {
  constexpr const std::uint8_t* s = sigma[R % 10];
  g(v[0], v[4], v[8], v[12], m[s[0]], m[s[1]]);
  g(v[1], v[5], v[9], v[13], m[s[2]], m[s[3]]);
  g(v[2], v[6], v[10], v[14], m[s[4]], m[s[5]]);
  g(v[3], v[7], v[11], v[15], m[s[6]], m[s[7]]);
  g(v[0], v[5], v[10], v[15], m[s[8]], m[s[9]]);
  g(v[1], v[6], v[11], v[12], m[s[10]], m[s[11]]);
  g(v[2], v[7], v[8], v[13], m[s[12]], m[s[13]]);
  g(v[3], v[4], v[9], v[14], m[s[14]], m[s[15]]);
}

template <int... R>
[[gnu::always_inline]] inline void all_rounds(std::uint64_t (&v)[16], const std::uint64_t (&m)[16],
                                              std::integer_sequence<int, R...>) noexcept {
  (one_round<R>(v, m), ...);
}

// compress is F (RFC 7693 3.2) on nblocks consecutive blocks. The byte
// counter t advances by a block before each one, except that with `last` the
// single block is the final one, counted as `last_len` bytes.
void compress(std::uint64_t h[8], std::uint64_t t[2], const std::uint8_t* in, std::size_t nblocks, bool last,
              std::size_t last_len) noexcept {
  for (; nblocks > 0; --nblocks, in += blake2b::block_size) {
    const std::uint64_t add = last ? last_len : blake2b::block_size;
    t[0] += add;
    t[1] += t[0] < add ? 1 : 0;  // carry into the high word
    std::uint64_t m[16];
    for (int i = 0; i < 16; ++i) m[i] = detail::load64_le(in + 8 * i);
    std::uint64_t v[16] = {h[0],  h[1],  h[2],         h[3],         h[4],  h[5],  h[6],  h[7],
                           iv[0], iv[1], iv[2],        iv[3],        iv[4] ^ t[0], iv[5] ^ t[1],
                           last ? ~iv[6] : iv[6], iv[7]};
    all_rounds(v, m, std::make_integer_sequence<int, rounds>{});
    for (int i = 0; i < 8; ++i) h[i] ^= v[i] ^ v[i + 8];
  }
}

}  // namespace

blake2b::~blake2b() { ct::wipe_object(*this); }

result<void> blake2b::init(std::size_t out_size, std::span<const std::uint8_t> key) noexcept {
  ct::wipe_object(*this);
  if (out_size == 0 || out_size > max_out_size) return crypto_errc::invalid_argument;
  if (key.size() > max_key_size) return crypto_errc::invalid_key;
  // RFC 7693 2.5 and 3.3: the parameter block of the sequential mode is
  // digest length, key length, fanout 1 and depth 1, folded into h[0].
  std::memcpy(h_, iv, sizeof h_);
  h_[0] ^= 0x01010000 ^ (std::uint64_t{key.size()} << 8) ^ out_size;
  if (!key.empty()) {
    // The key, zero padded, is the first block (RFC 7693 3.3); like any
    // block it waits for more input or the end.
    std::memcpy(buf_, key.data(), key.size());
    buf_len_ = block_size;
  }
  out_size_ = out_size;
  return {};
}

void blake2b::update(std::span<const std::uint8_t> in) noexcept {
  SEALWIRE_EXPECTS(out_size_ != 0);
  const std::uint8_t* p = in.data();
  std::size_t n = in.size();
  if (n == 0) return;
  if (buf_len_ > 0) {
    const std::size_t take = std::min(block_size - buf_len_, n);
    std::memcpy(buf_ + buf_len_, p, take);
    buf_len_ += take;
    p += take;
    n -= take;
    if (n == 0) return;  // the buffered block may be the last
    compress(h_, t_, buf_, 1, false, 0);
    buf_len_ = 0;
  }
  // All whole blocks but the last, which may be the final one.
  const std::size_t whole = (n - 1) / block_size;
  compress(h_, t_, p, whole, false, 0);
  p += whole * block_size;
  n -= whole * block_size;
  std::memcpy(buf_, p, n);
  buf_len_ = n;
}

void blake2b::finish(std::span<std::uint8_t> out) noexcept {
  SEALWIRE_EXPECTS(out_size_ != 0 && out.size() == out_size_);
  std::memset(buf_ + buf_len_, 0, block_size - buf_len_);
  compress(h_, t_, buf_, 1, true, buf_len_);
  std::uint8_t digest[max_out_size];
  for (int i = 0; i < 8; ++i) detail::store64_le(digest + 8 * i, h_[i]);
  std::memcpy(out.data(), digest, out.size());
  ct::wipe(digest, sizeof digest);
  ct::wipe_object(*this);
}

result<void> blake2b::hash(std::span<std::uint8_t> out, std::span<const std::uint8_t> in,
                           std::span<const std::uint8_t> key) noexcept {
  blake2b b;
  if (auto r = b.init(out.size(), key); !r) return r;
  b.update(in);
  b.finish(out);
  return {};
}

std::string_view blake2b::provider() noexcept { return "portable"; }

}  // namespace sealwire::crypto
