// SPDX-License-Identifier: Apache-2.0
// ChaCha (original, IETF RFC 8439 2.3-2.4, XChaCha) and HChaCha: keying, the
// portable block function and the kernel table.
#include <sealwire/crypto/chacha.hpp>
#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/cpu.hpp>

#include "detail/bytes.hpp"
#include "detail/chacha_core.hpp"
#include "detail/cpu_features.hpp"
#include "detail/kernels.hpp"
#include "detail/stream_state.hpp"

namespace sealwire::crypto {
namespace detail {

void chacha_blocks_portable(const std::uint32_t w[16], std::uint64_t counter, std::uint8_t* out,
                            const std::uint8_t* in, std::size_t nblocks, unsigned rounds) noexcept {
  for (std::size_t b = 0; b < nblocks; ++b, ++counter, in += 64, out += 64) {
    const auto c0 = static_cast<std::uint32_t>(counter);
    const auto c1 = static_cast<std::uint32_t>(counter >> 32);
    std::uint32_t x0 = w[0], x1 = w[1], x2 = w[2], x3 = w[3], x4 = w[4], x5 = w[5], x6 = w[6], x7 = w[7];
    std::uint32_t x8 = w[8], x9 = w[9], x10 = w[10], x11 = w[11], x12 = c0, x13 = c1, x14 = w[14], x15 = w[15];
    chacha_rounds(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15, rounds);
    // RFC 8439 2.3: add the input block, then serialise little-endian.
    const std::uint32_t ks[16] = {x0 + w[0], x1 + w[1], x2 + w[2],   x3 + w[3],   x4 + w[4],   x5 + w[5],
                                  x6 + w[6], x7 + w[7], x8 + w[8],   x9 + w[9],   x10 + w[10], x11 + w[11],
                                  x12 + c0,  x13 + c1,  x14 + w[14], x15 + w[15]};
    for (int i = 0; i < 16; ++i) store32_le(out + 4 * i, load32_le(in + 4 * i) ^ ks[i]);
  }
}

namespace {

constexpr stream_kernels portable_kernels{
    "portable", {{1, &chacha_blocks_portable}, {0, nullptr}, {0, nullptr}, {0, nullptr}}, 4};
#if SEALWIRE_X86_KERNELS
// A lone block runs the portable code at every level: its four independent
// quarter-round chains beat any one-block vector layout (measured).
constexpr stream_kernels sse41_kernels{
    "sse41", {{4, &chacha_blocks_x4_sse41}, {1, &chacha_blocks_portable}, {0, nullptr}, {0, nullptr}}, 4};
constexpr stream_kernels avx2_kernels{
    "avx2", {{8, &chacha_blocks_x8_avx2}, {4, &chacha_blocks_x4_sse41}, {1, &chacha_blocks_portable}, {0, nullptr}}, 8};
constexpr stream_kernels avx512_kernels{"avx512",
                                        {{16, &chacha_blocks_x16_avx512},
                                         {8, &chacha_blocks_x8_avx2},
                                         {4, &chacha_blocks_x4_avx512},
                                         {1, &chacha_blocks_portable}},
                                        16,
                                        &xor_bytes_avx512};
#endif

}  // namespace

const stream_kernels& stream_kernels_for(const stream_kernels& portable, const stream_kernels& sse41,
                                         const stream_kernels& avx2, const stream_kernels& avx512) noexcept {
  const std::uint32_t f = detail::cpu_features();
  if ((f & (cpu::avx512f | cpu::avx2)) == (cpu::avx512f | cpu::avx2)) return avx512;
  if ((f & cpu::avx2) != 0) return avx2;
  if ((f & (cpu::sse41 | cpu::ssse3)) == (cpu::sse41 | cpu::ssse3)) return sse41;
  return portable;
}

const stream_kernels& chacha_kernels() noexcept {
#if SEALWIRE_X86_KERNELS
  return stream_kernels_for(portable_kernels, sse41_kernels, avx2_kernels, avx512_kernels);
#else
  return portable_kernels;
#endif
}

chacha_key_fn chacha_key_kernel() noexcept {
#if SEALWIRE_X86_KERNELS
  if (&chacha_kernels() == &avx512_kernels) return &chacha_x16_key_avx512;
#endif
  return nullptr;
}

chacha_poly_fn chacha_poly_kernel() noexcept {
#if SEALWIRE_X86_KERNELS
  // The levels at which chacha_kernels() picks AVX-512 and poly1305.cpp IFMA;
  // the opener's stage kernels also use AVX-512BW's byte masks.
  constexpr std::uint32_t need = cpu::avx512f | cpu::avx512bw | cpu::avx512vl | cpu::avx2 | cpu::avx512ifma |
                                 cpu::bmi2 | cpu::adx;
  if ((detail::cpu_features() & need) == need) return &chacha20_poly1305_x16_ifma;
#endif
  return nullptr;
}

}  // namespace detail

namespace {

using detail::sigma;
using detail::tau;
using detail::valid_rounds;

void set_key(std::uint32_t w[16], std::span<const std::uint8_t> key) noexcept {
  const std::uint32_t* c = key.size() == 32 ? sigma : tau;
  const std::uint8_t* k2 = key.size() == 32 ? key.data() + 16 : key.data();  // 128-bit keys repeat
  for (int i = 0; i < 4; ++i) {
    w[i] = c[i];
    w[4 + i] = detail::load32_le(key.data() + 4 * i);
    w[8 + i] = detail::load32_le(k2 + 4 * i);
  }
}

}  // namespace

void hchacha(std::span<std::uint8_t, 32> out, std::span<const std::uint8_t, 32> key,
             std::span<const std::uint8_t, 16> nonce, unsigned rounds) noexcept {
  SEALWIRE_EXPECTS(valid_rounds(rounds));
  std::uint32_t w[16];
  set_key(w, key);
  for (int i = 0; i < 4; ++i) w[12 + i] = detail::load32_le(nonce.data() + 4 * i);
  std::uint32_t x0 = w[0], x1 = w[1], x2 = w[2], x3 = w[3], x4 = w[4], x5 = w[5], x6 = w[6], x7 = w[7];
  std::uint32_t x8 = w[8], x9 = w[9], x10 = w[10], x11 = w[11], x12 = w[12], x13 = w[13], x14 = w[14], x15 = w[15];
  detail::chacha_rounds(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15, rounds);
  // draft-irtf-cfrg-xchacha 2.2: words 0-3 and 12-15, without the feed-forward.
  const std::uint32_t o[8] = {x0, x1, x2, x3, x12, x13, x14, x15};
  for (int i = 0; i < 8; ++i) detail::store32_le(out.data() + 4 * i, o[i]);
  ct::wipe(w, sizeof w);
}

result<void> detail::chacha_setup(detail::stream_state& st, std::span<const std::uint8_t> key,
                          std::span<const std::uint8_t> nonce, unsigned rounds) noexcept {
  if (!valid_rounds(rounds)) return crypto_errc::invalid_argument;
  if (nonce.size() != 8 && nonce.size() != 12 && nonce.size() != 24) return crypto_errc::invalid_nonce;
  if (key.size() != 32 && !(key.size() == 16 && nonce.size() == 8)) return crypto_errc::invalid_key;

  stream_wipe(st);
  st.family = detail::stream_family::chacha;
  st.rounds = static_cast<std::uint8_t>(rounds);
  if (nonce.size() == 24) {
    std::uint8_t subkey[32];
    hchacha(subkey, key.first<32>(), nonce.first<16>(), rounds);
    set_key(st.words, subkey);
    ct::wipe(subkey, sizeof subkey);
    nonce = nonce.subspan(16);
  } else {
    set_key(st.words, key);
  }
  if (nonce.size() == 8) {
    // Original layout: words 12-13 the 64-bit counter, 14-15 the nonce.
    st.words[14] = detail::load32_le(nonce.data());
    st.words[15] = detail::load32_le(nonce.data() + 4);
    st.counter_base = 0;
    st.last_counter = ~0ULL;
  } else {
    // RFC 8439 2.3: word 12 the 32-bit counter, 13-15 the nonce. The kernels
    // see words 12-13 as one 64-bit counter whose low half never wraps.
    st.words[13] = detail::load32_le(nonce.data());
    st.words[14] = detail::load32_le(nonce.data() + 4);
    st.words[15] = detail::load32_le(nonce.data() + 8);
    st.counter_base = static_cast<std::uint64_t>(st.words[13]) << 32;
    st.last_counter = st.counter_base | 0xffffffffULL;
  }
  detail::stream_start(st, st.counter_base);
  return {};
}

result<void> chacha::init(std::span<const std::uint8_t> key, std::span<const std::uint8_t> nonce,
                          unsigned rounds) noexcept {
  return detail::chacha_setup(state(), key, nonce, rounds);
}

}  // namespace sealwire::crypto
