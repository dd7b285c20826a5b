// SPDX-License-Identifier: Apache-2.0
// ML-KEM sampling with AVX2. SampleNTT's rejection step (FIPS 203
// Algorithm 7 lines 5-13): sixteen 12-bit candidates per 24 bytes, the
// accepted ones packed to the front by a byte shuffle chosen by the
// comparison mask; the matrix is public (expanded from rho), so indexing a
// table by the mask leaks nothing. SamplePolyCBD (Algorithm 8) on secret
// bytes: masks, shifts and additions only.
#include "kernels.hpp"
#include "params.hpp"

#include <immintrin.h>

namespace sealwire::crypto::mlkem {
namespace {

// compact_table[m] moves the 16-bit lanes whose bit is set in the 8-bit mask
// m to the front of a 128-bit lane, in order; compact_count[m] counts them.
struct alignas(16) compact_rows {
  std::uint8_t shuffle[256][16];
  std::uint8_t count[256];
};

constexpr compact_rows make_compact_table() {
  compact_rows t{};
  for (unsigned m = 0; m < 256; ++m) {
    unsigned out = 0;
    for (unsigned lane = 0; lane < 8; ++lane) {
      if (((m >> lane) & 1u) == 0) continue;
      t.shuffle[m][2 * out] = static_cast<std::uint8_t>(2 * lane);
      t.shuffle[m][2 * out + 1] = static_cast<std::uint8_t>(2 * lane + 1);
      ++out;
    }
    t.count[m] = static_cast<std::uint8_t>(out);
    for (unsigned i = 2 * out; i < 16; ++i) t.shuffle[m][i] = 0x80;  // zero the rest
  }
  return t;
}

constexpr compact_rows compact = make_compact_table();

}  // namespace

unsigned rej_uniform_avx2(std::int16_t* out, unsigned filled, const std::uint8_t* buf, std::size_t len) noexcept {
  // Candidate 2 i is bytes 3 i, 3 i + 1 (low 12 bits), candidate 2 i + 1 is
  // bytes 3 i + 1, 3 i + 2 (high 12 bits). The 128-bit lanes take bytes
  // 0..11 and 12..23 of the 24; the load puts bytes 8..23 in the high lane.
  const __m256i gather = _mm256_setr_epi8(0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11,  //
                                          4, 5, 5, 6, 7, 8, 8, 9, 10, 11, 11, 12, 13, 14, 14, 15);
  const __m256i low12 = _mm256_set1_epi16(0x0fff);
  const __m256i bound = _mm256_set1_epi16(q);
  std::size_t pos = 0;
  // Each step reads 32 bytes (uses 24) and writes up to 16 coefficients.
  while (pos + 32 <= len && filled + 16 <= n) {
    __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(buf + pos));
    x = _mm256_permute4x64_epi64(x, 0x94);  // 64-bit words 0, 1, 1, 2
    x = _mm256_shuffle_epi8(x, gather);
    x = _mm256_blend_epi16(x, _mm256_srli_epi16(x, 4), 0xaa);
    x = _mm256_and_si256(x, low12);
    const __m256i keep = _mm256_cmpgt_epi16(bound, x);
    const auto bits = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_packs_epi16(keep, keep)));
    const unsigned m0 = bits & 0xffu, m1 = (bits >> 16) & 0xffu;
    const __m128i lo = _mm_shuffle_epi8(_mm256_castsi256_si128(x),
                                        _mm_load_si128(reinterpret_cast<const __m128i*>(compact.shuffle[m0])));
    const __m128i hi = _mm_shuffle_epi8(_mm256_extracti128_si256(x, 1),
                                        _mm_load_si128(reinterpret_cast<const __m128i*>(compact.shuffle[m1])));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + filled), lo);
    filled += compact.count[m0];
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + filled), hi);
    filled += compact.count[m1];
    pos += 24;
  }
  // The rest three bytes at a time, as the portable kernel.
  return rej_uniform_portable(out, filled, buf + pos, len - pos);
}

}  // namespace sealwire::crypto::mlkem

namespace sealwire::crypto::mlkem {
namespace {

inline void store16(std::int16_t* p, __m256i x) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), x); }

// cbd2: 32 bytes give 64 coefficients. Each byte's bit pairs are summed
// (2-bit sums a, b per nibble), the nibbles spread to bytes in coefficient
// order, and a - b widened to 16 bits (Algorithm 8, eta = 2).
void cbd2(std::int16_t* c, const std::uint8_t* buf) noexcept {
  const __m256i m55 = _mm256_set1_epi8(0x55), m0f = _mm256_set1_epi8(0x0f), m03 = _mm256_set1_epi8(0x03);
  for (unsigned i = 0; i < 4; ++i) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(buf + 32 * i));
    const __m256i s = _mm256_add_epi8(_mm256_and_si256(x, m55), _mm256_and_si256(_mm256_srli_epi16(x, 1), m55));
    const __m256i lo = _mm256_and_si256(s, m0f), hi = _mm256_and_si256(_mm256_srli_epi16(s, 4), m0f);
    // e0: coefficients 0-15 | 32-47, e1: 16-31 | 48-63 of this block.
    const __m256i e0 = _mm256_unpacklo_epi8(lo, hi), e1 = _mm256_unpackhi_epi8(lo, hi);
    const __m256i d0 = _mm256_sub_epi8(_mm256_and_si256(e0, m03), _mm256_and_si256(_mm256_srli_epi16(e0, 2), m03));
    const __m256i d1 = _mm256_sub_epi8(_mm256_and_si256(e1, m03), _mm256_and_si256(_mm256_srli_epi16(e1, 2), m03));
    std::int16_t* out = c + 64 * i;
    store16(out, _mm256_cvtepi8_epi16(_mm256_castsi256_si128(d0)));
    store16(out + 16, _mm256_cvtepi8_epi16(_mm256_castsi256_si128(d1)));
    store16(out + 32, _mm256_cvtepi8_epi16(_mm256_extracti128_si256(d0, 1)));
    store16(out + 48, _mm256_cvtepi8_epi16(_mm256_extracti128_si256(d1, 1)));
  }
}

// cbd3: 24 bytes give 32 coefficients, three bytes (four coefficients of
// two 3-bit sums each) per 32-bit lane (Algorithm 8, eta = 3).
void cbd3(std::int16_t* c, const std::uint8_t* buf) noexcept {
  // The high 128-bit lane is loaded from byte 8, so its bytes 12.. sit at 4..
  const __m256i gather = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,  //
                                          4, 5, 6, -1, 7, 8, 9, -1, 10, 11, 12, -1, 13, 14, 15, -1);
  const __m256i m249 = _mm256_set1_epi32(0x249249), m7 = _mm256_set1_epi32(7), m70000 = _mm256_set1_epi32(0x70000);
  for (unsigned i = 0; i < 8; ++i) {
    const std::uint8_t* p = buf + 24 * i;
    __m256i w = _mm256_inserti128_si256(
        _mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))),
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 8)), 1);
    w = _mm256_shuffle_epi8(w, gather);
    const __m256i s = _mm256_add_epi32(
        _mm256_add_epi32(_mm256_and_si256(w, m249), _mm256_and_si256(_mm256_srli_epi32(w, 1), m249)),
        _mm256_and_si256(_mm256_srli_epi32(w, 2), m249));
    // Per lane: (c0, c1) and (c2, c3) as 16-bit halves, a part minus b part.
    const auto pair = [&](__m256i t) {
      const __m256i a = _mm256_or_si256(_mm256_and_si256(t, m7), _mm256_and_si256(_mm256_slli_epi32(t, 10), m70000));
      const __m256i b = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi32(t, 3), m7),
                                        _mm256_and_si256(_mm256_slli_epi32(t, 7), m70000));
      return _mm256_sub_epi16(a, b);
    };
    const __m256i x = pair(s), y = pair(_mm256_srli_epi32(s, 12));
    const __m256i lo = _mm256_unpacklo_epi32(x, y), hi = _mm256_unpackhi_epi32(x, y);
    store16(c + 32 * i, _mm256_permute2x128_si256(lo, hi, 0x20));
    store16(c + 32 * i + 16, _mm256_permute2x128_si256(lo, hi, 0x31));
  }
}

}  // namespace

void cbd_avx2(std::int16_t* c, const std::uint8_t* buf, unsigned eta) noexcept {
  if (eta == 2)
    cbd2(c, buf);
  else
    cbd3(c, buf);
}

}  // namespace sealwire::crypto::mlkem
