// SPDX-License-Identifier: Apache-2.0
// ChaCha kernels for AVX-512: sixteen blocks in parallel (one state word of
// sixteen blocks per register), and four blocks quarter-round parallel (one
// block per 128-bit lane, its four rows in four registers), for the runs of
// 4-15 blocks that are too short for the wide kernel.
#include "detail/bytes.hpp"
#include "detail/chacha_core.hpp"
#include "detail/kernels.hpp"
#include "detail/vec_avx512.hpp"

namespace sealwire::crypto::detail {

void chacha_blocks_x16_avx512(const std::uint32_t w[16], std::uint64_t counter, std::uint8_t* out,
                              const std::uint8_t* in, std::size_t nblocks, unsigned rounds) noexcept {
  blocks_x16<chacha_family>(w, counter, out, in, nblocks, rounds);
}

void chacha_blocks_x4_avx512(const std::uint32_t w[16], std::uint64_t counter, std::uint8_t* out,
                             const std::uint8_t* in, std::size_t nblocks, unsigned rounds) noexcept {
  const v16 r0 = {_mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w)))};
  const v16 r1 = {_mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w + 4)))};
  const v16 r2 = {_mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w + 8)))};
  const int w14 = static_cast<int>(w[14]), w15 = static_cast<int>(w[15]);
  for (; nblocks >= 4; nblocks -= 4, counter += 4, in += 256, out += 256) {
    // Row 3 of block L (lane L): its 64-bit counter, then words 14 and 15.
    auto lo = [&](std::uint64_t l) { return static_cast<int>(counter + l); };
    auto hi = [&](std::uint64_t l) { return static_cast<int>((counter + l) >> 32); };
    const v16 r3 = {_mm512_set_epi32(w15, w14, hi(3), lo(3), w15, w14, hi(2), lo(2), w15, w14, hi(1), lo(1), w15, w14,
                                     hi(0), lo(0))};
    v16 a = r0, b = r1, c = r2, d = r3;
    for (unsigned i = 0; i < rounds; i += 2) {
      chacha_qr(a, b, c, d);  // the column quarter rounds, in every lane
      // Rotate rows 1-3 within each lane so that each word column is a diagonal, and back.
      b.v = _mm512_shuffle_epi32(b.v, _MM_PERM_ADCB);
      c.v = _mm512_shuffle_epi32(c.v, _MM_PERM_BADC);
      d.v = _mm512_shuffle_epi32(d.v, _MM_PERM_CBAD);
      chacha_qr(a, b, c, d);
      b.v = _mm512_shuffle_epi32(b.v, _MM_PERM_CBAD);
      c.v = _mm512_shuffle_epi32(c.v, _MM_PERM_BADC);
      d.v = _mm512_shuffle_epi32(d.v, _MM_PERM_ADCB);
    }
    a = a + r0;
    b = b + r1;
    c = c + r2;
    d = d + r3;
    // Lane L of a, b, c, d are bytes 0-15, 16-31, 32-47, 48-63 of block L.
    const __m512i ab_lo = _mm512_shuffle_i32x4(a.v, b.v, 0x44), ab_hi = _mm512_shuffle_i32x4(a.v, b.v, 0xee);
    const __m512i cd_lo = _mm512_shuffle_i32x4(c.v, d.v, 0x44), cd_hi = _mm512_shuffle_i32x4(c.v, d.v, 0xee);
    const __m512i blk[4] = {_mm512_shuffle_i32x4(ab_lo, cd_lo, 0x88), _mm512_shuffle_i32x4(ab_lo, cd_lo, 0xdd),
                            _mm512_shuffle_i32x4(ab_hi, cd_hi, 0x88), _mm512_shuffle_i32x4(ab_hi, cd_hi, 0xdd)};
    for (int l = 0; l < 4; ++l) {
      _mm512_storeu_si512(out + 64 * l, _mm512_xor_si512(_mm512_loadu_si512(in + 64 * l), blk[l]));
    }
  }
}

// chacha_x16_key_avx512: the sixteen-block ChaCha20 kernel over blocks
// counter .. counter + 15, with block `lone` (an AEAD's Poly1305 key block,
// RFC 8439 2.6, or a sealer's last block) computed in general-purpose
// registers between the vector rounds: the lone block runs on the scalar
// ALUs while the vector units run the sixteen, so it costs next to nothing
// instead of a separate call.
void chacha_x16_key_avx512(const std::uint32_t w[16], std::uint64_t counter, std::uint8_t* out,
                           const std::uint8_t* in, std::uint64_t lone, std::uint8_t lone_block[64]) noexcept {
  v16 j[16];
  for (int i = 0; i < 16; ++i) j[i] = splat(w[i]);
  counter_lanes(counter, j[12], j[13]);
  v16 x0 = j[0], x1 = j[1], x2 = j[2], x3 = j[3], x4 = j[4], x5 = j[5], x6 = j[6], x7 = j[7];
  v16 x8 = j[8], x9 = j[9], x10 = j[10], x11 = j[11], x12 = j[12], x13 = j[13], x14 = j[14], x15 = j[15];
  const auto c0 = static_cast<std::uint32_t>(lone), c1 = static_cast<std::uint32_t>(lone >> 32);
  std::uint32_t y[16] = {w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8], w[9], w[10], w[11], c0, c1, w[14], w[15]};
  for (unsigned i = 0; i < 20; i += 2) {
    chacha_qr(x0, x4, x8, x12);
    chacha_qr(y[0], y[4], y[8], y[12]);
    chacha_qr(x1, x5, x9, x13);
    chacha_qr(y[1], y[5], y[9], y[13]);
    chacha_qr(x2, x6, x10, x14);
    chacha_qr(y[2], y[6], y[10], y[14]);
    chacha_qr(x3, x7, x11, x15);
    chacha_qr(y[3], y[7], y[11], y[15]);
    chacha_qr(x0, x5, x10, x15);
    chacha_qr(y[0], y[5], y[10], y[15]);
    chacha_qr(x1, x6, x11, x12);
    chacha_qr(y[1], y[6], y[11], y[12]);
    chacha_qr(x2, x7, x8, x13);
    chacha_qr(y[2], y[7], y[8], y[13]);
    chacha_qr(x3, x4, x9, x14);
    chacha_qr(y[3], y[4], y[9], y[14]);
  }
  const std::uint32_t in12[2] = {c0, c1};
  for (int i = 0; i < 16; ++i) store32_le(lone_block + 4 * i, y[i] + (i == 12 || i == 13 ? in12[i - 12] : w[i]));
  xor_keystream_x16(x0 + j[0], x1 + j[1], x2 + j[2], x3 + j[3], x4 + j[4], x5 + j[5], x6 + j[6], x7 + j[7],
                    x8 + j[8], x9 + j[9], x10 + j[10], x11 + j[11], x12 + j[12], x13 + j[13], x14 + j[14],
                    x15 + j[15], in, out);
  // The lone block's words held the key: clear them.
  for (std::uint32_t& v : y) v = 0;
  __asm__ __volatile__("" : : "r"(y) : "memory");
}

// Text XOR keystream generated ahead: whole 64-byte registers, the last 64
// bytes loaded before anything is stored and written last (they overlap the
// register before when n is not a multiple of 64), as bytes.hpp's xor_bytes
// does 16 bytes at a time.
void xor_bytes_avx512(std::uint8_t* out, const std::uint8_t* a, const std::uint8_t* b, std::size_t n) noexcept {
  if (n < 64) return xor_bytes(out, a, b, n);
  const __m512i last = _mm512_xor_si512(_mm512_loadu_si512(a + n - 64), _mm512_loadu_si512(b + n - 64));
  for (std::size_t i = 0; i + 64 <= n; i += 64)
    _mm512_storeu_si512(out + i, _mm512_xor_si512(_mm512_loadu_si512(a + i), _mm512_loadu_si512(b + i)));
  _mm512_storeu_si512(out + n - 64, last);
}

}  // namespace sealwire::crypto::detail
