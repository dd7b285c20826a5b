// SPDX-License-Identifier: Apache-2.0
// Salsa20 and XSalsa20 (Bernstein) and HSalsa20: keying, the portable block
// function and the kernel table.
#include <sealwire/crypto/cpu.hpp>
#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/salsa20.hpp>

#include "detail/bytes.hpp"
#include "detail/kernels.hpp"
#include "detail/stream_state.hpp"
#include "detail/salsa_core.hpp"

namespace sealwire::crypto {
namespace detail {

void salsa_blocks_portable(const std::uint32_t w[16], std::uint64_t counter, std::uint8_t* out,
                           const std::uint8_t* in, std::size_t nblocks, unsigned rounds) noexcept {
  for (std::size_t b = 0; b < nblocks; ++b, ++counter, in += 64, out += 64) {
    const auto c0 = static_cast<std::uint32_t>(counter);
    const auto c1 = static_cast<std::uint32_t>(counter >> 32);
    std::uint32_t x0 = w[0], x1 = w[1], x2 = w[2], x3 = w[3], x4 = w[4], x5 = w[5], x6 = w[6], x7 = w[7];
    std::uint32_t x8 = c0, x9 = c1, x10 = w[10], x11 = w[11], x12 = w[12], x13 = w[13], x14 = w[14], x15 = w[15];
    salsa_rounds(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15, rounds);
    const std::uint32_t ks[16] = {x0 + w[0],   x1 + w[1],   x2 + w[2],   x3 + w[3],   x4 + w[4],   x5 + w[5],
                                  x6 + w[6],   x7 + w[7],   x8 + c0,     x9 + c1,     x10 + w[10], x11 + w[11],
                                  x12 + w[12], x13 + w[13], x14 + w[14], x15 + w[15]};
    for (int i = 0; i < 16; ++i) store32_le(out + 4 * i, load32_le(in + 4 * i) ^ ks[i]);
  }
}

namespace {

constexpr stream_kernels portable_kernels{
    "portable", {{1, &salsa_blocks_portable}, {0, nullptr}, {0, nullptr}, {0, nullptr}}, 4};
#if SEALWIRE_X86_KERNELS
constexpr stream_kernels sse41_kernels{
    "sse41", {{4, &salsa_blocks_x4_sse41}, {1, &salsa_blocks_portable}, {0, nullptr}, {0, nullptr}}, 4};
constexpr stream_kernels avx2_kernels{
    "avx2", {{8, &salsa_blocks_x8_avx2}, {4, &salsa_blocks_x4_sse41}, {1, &salsa_blocks_portable}, {0, nullptr}}, 8};
constexpr stream_kernels avx512_kernels{"avx512",
                                        {{16, &salsa_blocks_x16_avx512},
                                         {8, &salsa_blocks_x8_avx2},
                                         {4, &salsa_blocks_x4_sse41},
                                         {1, &salsa_blocks_portable}},
                                        16,
                                        &xor_bytes_avx512};
#endif

}  // namespace

const stream_kernels& salsa_kernels() noexcept {
#if SEALWIRE_X86_KERNELS
  return stream_kernels_for(portable_kernels, sse41_kernels, avx2_kernels, avx512_kernels);
#else
  return portable_kernels;
#endif
}

}  // namespace detail

namespace {

using detail::sigma;
using detail::tau;
using detail::valid_rounds;

// Salsa20 layout: constants on the diagonal (0, 5, 10, 15), key in 1-4 and
// 11-14, nonce in 6-7, counter in 8-9.
void set_key(std::uint32_t w[16], std::span<const std::uint8_t> key) noexcept {
  const std::uint32_t* c = key.size() == 32 ? sigma : tau;
  const std::uint8_t* k2 = key.size() == 32 ? key.data() + 16 : key.data();
  w[0] = c[0];
  w[5] = c[1];
  w[10] = c[2];
  w[15] = c[3];
  for (int i = 0; i < 4; ++i) {
    w[1 + i] = detail::load32_le(key.data() + 4 * i);
    w[11 + i] = detail::load32_le(k2 + 4 * i);
  }
}

}  // namespace

void hsalsa(std::span<std::uint8_t, 32> out, std::span<const std::uint8_t, 32> key,
            std::span<const std::uint8_t, 16> nonce, unsigned rounds) noexcept {
  SEALWIRE_EXPECTS(valid_rounds(rounds));
  std::uint32_t w[16];
  set_key(w, key);
  for (int i = 0; i < 4; ++i) w[6 + i] = detail::load32_le(nonce.data() + 4 * i);
  std::uint32_t x0 = w[0], x1 = w[1], x2 = w[2], x3 = w[3], x4 = w[4], x5 = w[5], x6 = w[6], x7 = w[7];
  std::uint32_t x8 = w[8], x9 = w[9], x10 = w[10], x11 = w[11], x12 = w[12], x13 = w[13], x14 = w[14], x15 = w[15];
  detail::salsa_rounds(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15, rounds);
  // XSalsa20 paper, section 2: the diagonal and the nonce positions, no feed-forward.
  const std::uint32_t o[8] = {x0, x5, x10, x15, x6, x7, x8, x9};
  for (int i = 0; i < 8; ++i) detail::store32_le(out.data() + 4 * i, o[i]);
  ct::wipe(w, sizeof w);
}

result<void> detail::salsa_setup(detail::stream_state& st, std::span<const std::uint8_t> key,
                          std::span<const std::uint8_t> nonce, unsigned rounds) noexcept {
  if (!valid_rounds(rounds)) return crypto_errc::invalid_argument;
  if (nonce.size() != 8 && nonce.size() != 24) return crypto_errc::invalid_nonce;
  if (key.size() != 32 && !(key.size() == 16 && nonce.size() == 8)) return crypto_errc::invalid_key;

  stream_wipe(st);
  st.family = detail::stream_family::salsa;
  st.rounds = static_cast<std::uint8_t>(rounds);
  if (nonce.size() == 24) {
    std::uint8_t subkey[32];
    hsalsa(subkey, key.first<32>(), nonce.first<16>(), rounds);
    set_key(st.words, subkey);
    ct::wipe(subkey, sizeof subkey);
    nonce = nonce.subspan(16);
  } else {
    set_key(st.words, key);
  }
  st.words[6] = detail::load32_le(nonce.data());
  st.words[7] = detail::load32_le(nonce.data() + 4);
  st.counter_base = 0;
  st.last_counter = ~0ULL;
  detail::stream_start(st, 0);
  return {};
}

result<void> salsa20::init(std::span<const std::uint8_t> key, std::span<const std::uint8_t> nonce,
                          unsigned rounds) noexcept {
  return detail::salsa_setup(state(), key, nonce, rounds);
}

}  // namespace sealwire::crypto
