// SPDX-License-Identifier: Apache-2.0
// SHA-256 compression with the SHA extensions (sha256rnds2, sha256msg1/2):
// the state lives as {A,B,E,F} and {C,D,G,H} in two registers; each
// sha256rnds2 does two rounds, the message schedule four words at a time.
#include "detail/sha2_core.hpp"

#include <immintrin.h>

namespace sealwire::crypto::detail {
namespace {

// Four rounds with message words w (W[t..t+3]) and constants K[t..t+3].
inline void four_rounds(__m128i& abef, __m128i& cdgh, __m128i w, int t) {
  const __m128i wk = _mm_add_epi32(w, _mm_load_si128(reinterpret_cast<const __m128i*>(sha256_k + t)));
  cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);  // after two rounds, the old abef is the new cdgh
  abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0e));
}

// W[t..t+3] from the four previous groups of four words.
inline __m128i schedule(__m128i w0, __m128i w1, __m128i w2, __m128i w3) {
  return _mm_sha256msg2_epu32(_mm_add_epi32(_mm_sha256msg1_epu32(w0, w1), _mm_alignr_epi8(w3, w2, 4)), w3);
}

}  // namespace

void sha256_compress_shani(std::uint32_t h[8], const std::uint8_t* in, std::size_t n) noexcept {
  const __m128i bswap = _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);
  // {A,B,C,D}, {E,F,G,H} in memory order -> {F,E,B,A} and {H,G,D,C} (low word first).
  const __m128i abcd = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(h)), 0x1b);
  const __m128i efgh = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(h + 4)), 0x1b);
  __m128i abef = _mm_unpackhi_epi64(efgh, abcd);
  __m128i cdgh = _mm_unpacklo_epi64(efgh, abcd);
  for (; n != 0; --n, in += 64) {
    const __m128i save_abef = abef, save_cdgh = cdgh;
    __m128i w0 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in)), bswap);
    __m128i w1 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 16)), bswap);
    __m128i w2 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 32)), bswap);
    __m128i w3 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 48)), bswap);
    four_rounds(abef, cdgh, w0, 0);
    four_rounds(abef, cdgh, w1, 4);
    four_rounds(abef, cdgh, w2, 8);
    four_rounds(abef, cdgh, w3, 12);
    for (int t = 16; t < 64; t += 16) {
      w0 = schedule(w0, w1, w2, w3);
      four_rounds(abef, cdgh, w0, t);
      w1 = schedule(w1, w2, w3, w0);
      four_rounds(abef, cdgh, w1, t + 4);
      w2 = schedule(w2, w3, w0, w1);
      four_rounds(abef, cdgh, w2, t + 8);
      w3 = schedule(w3, w0, w1, w2);
      four_rounds(abef, cdgh, w3, t + 12);
    }
    abef = _mm_add_epi32(abef, save_abef);
    cdgh = _mm_add_epi32(cdgh, save_cdgh);
  }
  _mm_storeu_si128(reinterpret_cast<__m128i*>(h), _mm_shuffle_epi32(_mm_unpackhi_epi64(cdgh, abef), 0x1b));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(h + 4), _mm_shuffle_epi32(_mm_unpacklo_epi64(cdgh, abef), 0x1b));
}

}  // namespace sealwire::crypto::detail
