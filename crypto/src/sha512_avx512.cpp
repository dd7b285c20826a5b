// SPDX-License-Identifier: Apache-2.0
// SHA-512 compression (FIPS 180-4 6.4.2) with the message schedule in
// AVX-512VL registers, two blocks at a time: each 256-bit register holds a
// pair of schedule words of block A in its low half and the same pair of
// block B in its high half. While the scalar rounds of block A run, the
// vector unit computes W[t] + K[t] of both blocks, a pair per step; block B's
// rounds then read theirs with no vector work left. No block waits for a
// schedule computed before its rounds start, so a short call (a 1 KiB
// message, the padding block of finish) runs near the per-block speed of a
// long one. Over the AVX2 kernel (sha512_avx2.cpp), AVX-512VL brings native
// 64-bit rotates and three-way XOR, which shorten the schedule's serial
// chain, and 32 vector registers, so the schedule is never spilled.
// The scalar rounds want rorx (no flags dependency): the file is built at
// the avx512_bmi2 level, and the dispatcher requires BMI2 too.

#include "detail/sha2_core.hpp"

#include <immintrin.h>
#include <utility>

namespace sealwire::crypto::detail {
namespace {

// K with each pair of words repeated, so one 256-bit load adds K[2j],
// K[2j+1] to the pair of both blocks.
struct k_pairs {
  alignas(32) std::uint64_t w[160];
};
constexpr k_pairs make_k_pairs() noexcept {
  k_pairs k{};
  for (int j = 0; j < 40; ++j) {
    k.w[4 * j + 0] = sha512_k[2 * j];
    k.w[4 * j + 1] = sha512_k[2 * j + 1];
    k.w[4 * j + 2] = sha512_k[2 * j];
    k.w[4 * j + 3] = sha512_k[2 * j + 1];
  }
  return k;
}
alignas(32) constexpr k_pairs k2 = make_k_pairs();

// The schedule state: W[t-16..t-1] as eight pairs per block, x[j] holding
// W[2j], W[2j+1] (modulo the ring of sixteen) of block A low, block B high.
struct schedule {
  __m256i x[8];
};

// FIPS 180-4 4.1.3 (4.12), (4.13), four lanes at a time; 0x96 is the
// three-input XOR.
[[gnu::always_inline]] inline __m256i vsigma0(__m256i v) noexcept {
  return _mm256_ternarylogic_epi64(_mm256_ror_epi64(v, 1), _mm256_ror_epi64(v, 8), _mm256_srli_epi64(v, 7), 0x96);
}
[[gnu::always_inline]] inline __m256i vsigma1(__m256i v) noexcept {
  return _mm256_ternarylogic_epi64(_mm256_ror_epi64(v, 19), _mm256_ror_epi64(v, 61), _mm256_srli_epi64(v, 6), 0x96);
}

// Step I (0..39) of the two blocks' schedule: pair I of W (loaded for I < 8,
// FIPS 180-4 6.4.2 step 1 for I >= 8), and W + K stored at wk[4I].
template <int I>
[[gnu::always_inline]] inline void schedule_step(schedule& s, std::uint64_t* wk, const std::uint8_t* a,
                                                 const std::uint8_t* b) noexcept {
  constexpr int j = I & 7;
  if constexpr (I < 8) {
    const __m256i bswap = _mm256_set_epi8(8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                                          13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i m = _mm256_inserti128_si256(
        _mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a + 16 * I))),
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + 16 * I)), 1);
    s.x[j] = _mm256_shuffle_epi8(m, bswap);
  } else {
    // W[t-15], W[t-14] and W[t-7], W[t-6] straddle two pairs (alignr works
    // within each 128-bit half, so the blocks stay apart).
    const __m256i w15 = _mm256_alignr_epi8(s.x[(j + 1) & 7], s.x[j], 8);
    const __m256i w7 = _mm256_alignr_epi8(s.x[(j + 5) & 7], s.x[(j + 4) & 7], 8);
    s.x[j] = _mm256_add_epi64(_mm256_add_epi64(s.x[j], vsigma0(w15)), _mm256_add_epi64(w7, vsigma1(s.x[(j + 7) & 7])));
  }
  const __m256i k = _mm256_load_si256(reinterpret_cast<const __m256i*>(k2.w + 4 * I));
  _mm256_store_si256(reinterpret_cast<__m256i*>(wk + 4 * I), _mm256_add_epi64(s.x[j], k));
}

// W[t] + K[t] as a memory operand: the compiler would otherwise move it out
// of the vector register with extracts (slower than a store and a load) or
// keep it in registers the rounds need.
[[gnu::always_inline]] inline std::uint64_t load_wk(const std::uint64_t* p) noexcept {
  std::uint64_t x;
  __asm__("movq %1, %0" : "=r"(x) : "m"(*p));
  return x;
}

// Eight rounds starting at T = 8G of block A (B = 0) or B (B = 2). Block A's
// rounds of G < 8 run four schedule steps (8 + 4G..), which produce
// W[16 + 8G..23 + 8G], fourteen rounds before their first use.
template <int G, int B>
[[gnu::always_inline]] inline void eight_rounds(std::uint64_t v[8], std::uint64_t* wk, schedule& s,
                                                const std::uint8_t* in_a, const std::uint8_t* in_b) noexcept {
  constexpr bool steps_here = B == 0 && G < 8;
  // Round t's word of block A (B = 0) or block B (B = 2) in the pair layout.
  sha2_eight_rounds<std::uint64_t, sha2_order::late>(
      v, 8 * G, [&](int t) __attribute__((always_inline)) { return load_wk(wk + 4 * (t / 2) + B + (t & 1)); },
      [&](auto k) __attribute__((always_inline)) {
        if constexpr (steps_here) schedule_step<8 + 4 * G + decltype(k)::value>(s, wk, in_a, in_b);
      });
}

template <int B, int... G>
[[gnu::always_inline]] inline void block_rounds(std::uint64_t v[8], std::uint64_t* wk, schedule& s,
                                                const std::uint8_t* in_a, const std::uint8_t* in_b,
                                                std::integer_sequence<int, G...>) noexcept {
  (eight_rounds<G, B>(v, wk, s, in_a, in_b), ...);
}

template <int... I>
[[gnu::always_inline]] inline void load_steps(schedule& s, std::uint64_t* wk, const std::uint8_t* a,
                                              const std::uint8_t* b, std::integer_sequence<int, I...>) noexcept {
  (schedule_step<I>(s, wk, a, b), ...);
}

}  // namespace

void sha512_compress_avx512(std::uint64_t h[8], const std::uint8_t* in, std::size_t n) noexcept {
  if (n == 0) return;
  alignas(32) std::uint64_t wk[160];
  schedule s;
  constexpr auto groups = std::make_integer_sequence<int, 10>{};
  std::uint64_t v[8] = {h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]};
  for (;;) {
    // An odd last block is scheduled twice rather than read past the input
    // (a public-length choice, no branch in the rounds).
    const std::uint8_t* in_b = n >= 2 ? in + 128 : in;
    load_steps(s, wk, in, in_b, std::make_integer_sequence<int, 8>{});
    block_rounds<0>(v, wk, s, in, in_b, groups);
    sha2_add_state(h, v);
    if (n < 2) break;
    block_rounds<2>(v, wk, s, in, in_b, groups);
    sha2_add_state(h, v);
    n -= 2;
    if (n == 0) break;
    in += 256;
  }
  // The schedule held message words (key material under HMAC): wipe it, as
  // ct::wipe does (not called here: no shared inline code in an ISA file).
  __builtin_memset(wk, 0, sizeof wk);
  __asm__ __volatile__("" : : "r"(wk) : "memory");
}

}  // namespace sealwire::crypto::detail
