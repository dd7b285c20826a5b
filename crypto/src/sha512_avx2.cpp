// SPDX-License-Identifier: Apache-2.0
// SHA-512 compression (FIPS 180-4 6.4.2) with the message schedule in vector
// registers: while the scalar rounds of one block run, AVX2 computes the next
// block's 80 words W[t] + K[t] two at a time, so the rounds read one
// precomputed word each and the schedule's shifts run on the vector ports.
// Short calls (up to eight blocks) skip that pipeline's start-up: each block
// schedules itself during its own rounds.
#include "detail/sha2_core.hpp"

#include <immintrin.h>
#include <utility>

namespace sealwire::crypto::detail {
namespace {

// The schedule state: W[t-16..t-1] as eight pairs, x[j] = W[2j], W[2j+1]
// modulo the ring of sixteen.
struct schedule {
  __m128i x[8];
};

template <int N>
[[gnu::always_inline]] inline __m128i rotr64(__m128i v) noexcept {
  return _mm_or_si128(_mm_srli_epi64(v, N), _mm_slli_epi64(v, 64 - N));
}

// FIPS 180-4 4.1.3 (4.12), (4.13), two lanes at a time.
[[gnu::always_inline]] inline __m128i vsigma0(__m128i v) noexcept {
  return _mm_xor_si128(_mm_xor_si128(rotr64<1>(v), rotr64<8>(v)), _mm_srli_epi64(v, 7));
}
[[gnu::always_inline]] inline __m128i vsigma1(__m128i v) noexcept {
  return _mm_xor_si128(_mm_xor_si128(rotr64<19>(v), rotr64<61>(v)), _mm_srli_epi64(v, 6));
}

// step I (0..39) of one block's schedule: pair I of W (loaded for I < 8,
// FIPS 180-4 6.4.2 step 1 for I >= 8) and W + K stored at wk[2I].
template <int I>
[[gnu::always_inline]] inline void schedule_step(schedule& s, std::uint64_t* wk, const std::uint8_t* in) noexcept {
  constexpr int j = I & 7;
  if constexpr (I < 8) {
    const __m128i bswap = _mm_set_epi8(8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
    s.x[j] = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 16 * I)), bswap);
  } else {
    // W[t-15], W[t-14] and W[t-7], W[t-6] straddle two pairs.
    const __m128i w15 = _mm_alignr_epi8(s.x[(j + 1) & 7], s.x[j], 8);
    const __m128i w7 = _mm_alignr_epi8(s.x[(j + 5) & 7], s.x[(j + 4) & 7], 8);
    s.x[j] = _mm_add_epi64(_mm_add_epi64(s.x[j], vsigma0(w15)), _mm_add_epi64(w7, vsigma1(s.x[(j + 7) & 7])));
  }
  const __m128i k = _mm_load_si128(reinterpret_cast<const __m128i*>(sha512_k + 2 * I));
  _mm_store_si128(reinterpret_cast<__m128i*>(wk + 2 * I), _mm_add_epi64(s.x[j], k));
}

// Eight rounds starting at T = 8G. With Next, four schedule steps of the
// next block (steps 4G..4G+3) run between them; with Own (the first block of
// a call), for G < 8, also four steps of this block's own schedule (steps
// 8 + 4G..), which produce W[16 + 8G..23 + 8G], sixteen rounds before use.
template <int G, bool Own, bool Next>
[[gnu::always_inline]] inline void eight_rounds(std::uint64_t v[8], std::uint64_t* cur, schedule& own,
                                                const std::uint8_t* in, schedule& s, std::uint64_t* next,
                                                const std::uint8_t* next_in) noexcept {
  constexpr bool own_steps = Own && G < 8;
  sha2_eight_rounds<std::uint64_t>(
      v, 8 * G, [&](int t) __attribute__((always_inline)) { return cur[t]; },
      [&](auto k) __attribute__((always_inline)) {
        if constexpr (own_steps) schedule_step<8 + 4 * G + decltype(k)::value>(own, cur, in);
        if constexpr (Next) schedule_step<4 * G + decltype(k)::value>(s, next, next_in);
      });
}

template <bool Own, bool Next, int... G>
[[gnu::always_inline]] inline void block_rounds(std::uint64_t v[8], std::uint64_t* cur, schedule& own,
                                                const std::uint8_t* in, schedule& s, std::uint64_t* next,
                                                const std::uint8_t* next_in, std::integer_sequence<int, G...>) noexcept {
  (eight_rounds<G, Own, Next>(v, cur, own, in, s, next, next_in), ...);
}

template <int... I>
[[gnu::always_inline]] inline void load_steps(schedule& s, std::uint64_t* wk, const std::uint8_t* in,
                                              std::integer_sequence<int, I...>) noexcept {
  (schedule_step<I>(s, wk, in), ...);
}

// Calls of up to this many blocks take the self-scheduling path.
constexpr std::size_t short_blocks = 8;

}  // namespace

void sha512_compress_avx2(std::uint64_t h[8], const std::uint8_t* in, std::size_t n) noexcept {
  if (n == 0) return;
  alignas(16) std::uint64_t wk[2][80];
  schedule own, s;
  constexpr auto groups = std::make_integer_sequence<int, 10>{};
  std::uint64_t v[8] = {h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]};
  if (n <= short_blocks) {
    // Short inputs (a 1 KiB message, the padding block of finish): each
    // block loads its sixteen words and schedules the rest of itself during
    // its own rounds, so no round waits for a whole schedule's serial chain,
    // which costs about a block's time before the pipeline below starts.
    for (std::size_t i = 0; i < n; ++i, in += 128) {
      load_steps(own, wk[0], in, std::make_integer_sequence<int, 8>{});
      block_rounds<true, false>(v, wk[0], own, in, s, wk[1], in, groups);
      sha2_add_state(h, v);
    }
  } else {
    // Long inputs: while one block's rounds run, the next block's whole
    // schedule is computed; the first block's is computed up front.
    load_steps(s, wk[0], in, std::make_integer_sequence<int, 40>{});
    for (std::size_t i = 0; i < n; ++i, in += 128) {
      // The last block schedules itself again rather than read past the
      // input (a public-length choice, no branch in the rounds).
      const std::uint8_t* next_in = (i + 1 < n) ? in + 128 : in;
      block_rounds<false, true>(v, wk[i & 1], own, in, s, wk[(i + 1) & 1], next_in, groups);
      sha2_add_state(h, v);
    }
  }
  // The schedule held message words (key material under HMAC): wipe it, as
  // ct::wipe does (not called here: no shared inline code in an ISA file).
  __builtin_memset(wk, 0, sizeof wk);
  __asm__ __volatile__("" : : "r"(wk) : "memory");
}

}  // namespace sealwire::crypto::detail
