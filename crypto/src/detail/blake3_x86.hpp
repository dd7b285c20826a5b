// SPDX-License-Identifier: Apache-2.0
// BLAKE3 lane types for the x86 hash_many kernels: four and eight inputs side
// by side in 128- and 256-bit vectors, with the transposes between an input's
// words and the lanes. The rotation is a parameter (byte shuffles and shifts
// for SSSE3 and AVX2), so one layout serves the SSE4.1 and AVX2 files; the
// AVX-512 file uses only their setup and stores (its rounds are assembly).
// Include only from those files, which are compiled with the flags these
// need; everything here has internal linkage.
#pragma once

#include "blake3_core.hpp"

#include <cstddef>
#include <cstdint>
#include <immintrin.h>

namespace sealwire::crypto::detail {
namespace {

// shuffle_rotate rotates each 32-bit word right: by whole bytes (16, 8) with
// pshufb, otherwise with two shifts.
struct shuffle_rotate {
  template <int N>
  static __m128i rotr(__m128i x) {
    if constexpr (N == 16) {
      return _mm_shuffle_epi8(x, _mm_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13));
    } else if constexpr (N == 8) {
      return _mm_shuffle_epi8(x, _mm_setr_epi8(1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12));
    } else {
      return _mm_or_si128(_mm_srli_epi32(x, N), _mm_slli_epi32(x, 32 - N));
    }
  }
  template <int N>
  static __m256i rotr(__m256i x) {
    if constexpr (N == 16) {
      return _mm256_shuffle_epi8(x, _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0,
                                                     1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13));
    } else if constexpr (N == 8) {
      return _mm256_shuffle_epi8(x, _mm256_setr_epi8(1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12, 1, 2, 3,
                                                     0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12));
    } else {
      return _mm256_or_si256(_mm256_srli_epi32(x, N), _mm256_slli_epi32(x, 32 - N));
    }
  }
};

// transpose4 turns four rows of four words into four columns.
inline void transpose4(__m128i& a, __m128i& b, __m128i& c, __m128i& d) {
  const __m128i ab_lo = _mm_unpacklo_epi32(a, b), ab_hi = _mm_unpackhi_epi32(a, b);
  const __m128i cd_lo = _mm_unpacklo_epi32(c, d), cd_hi = _mm_unpackhi_epi32(c, d);
  a = _mm_unpacklo_epi64(ab_lo, cd_lo);
  b = _mm_unpackhi_epi64(ab_lo, cd_lo);
  c = _mm_unpacklo_epi64(ab_hi, cd_hi);
  d = _mm_unpackhi_epi64(ab_hi, cd_hi);
}

template <class Rot>
struct lanes4 {
  static constexpr std::size_t width = 4;
  __m128i v;

  static lanes4 splat(std::uint32_t w) { return {_mm_set1_epi32(static_cast<int>(w))}; }

  // counters as lanes16::counters (blake3_avx512.cpp), in vector
  // registers: words stored one by one and loaded as a vector would wait
  // for the stores to retire (no store-to-load forwarding from several
  // stores), on the path to the kernel's first round. The carry is a low
  // word below its starting value, compared signed with the top bits
  // flipped (SSE2 has no unsigned compare); it is -1, so it is subtracted.
  static void counters(std::uint64_t counter, bool increment, lanes4& lo, lanes4& hi) {
    const __m128i base_lo = _mm_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(counter)));
    const __m128i base_hi = _mm_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(counter >> 32)));
    const __m128i step = increment ? _mm_setr_epi32(0, 1, 2, 3) : _mm_setzero_si128();
    const __m128i top = _mm_set1_epi32(static_cast<int>(0x80000000u));
    lo.v = _mm_add_epi32(base_lo, step);
    const __m128i carry = _mm_cmpgt_epi32(_mm_xor_si128(base_lo, top), _mm_xor_si128(lo.v, top));
    hi.v = _mm_sub_epi32(base_hi, carry);
  }

  // load_words: m[j] lane l = word j of the block at in + l * stride.
  static void load_words(const std::uint8_t* in, std::size_t stride, lanes4 m[16]) {
    for (std::size_t g = 0; g < 4; ++g) {
      __m128i r[4];
      for (std::size_t l = 0; l < 4; ++l) {
        r[l] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + l * stride + 16 * g));
      }
      transpose4(r[0], r[1], r[2], r[3]);
      for (std::size_t k = 0; k < 4; ++k) m[4 * g + k].v = r[k];
    }
  }

  // store_cvs writes lane l's eight words to out + 32 * l.
  static void store_cvs(std::uint8_t* out, lanes4 h0, lanes4 h1, lanes4 h2, lanes4 h3, lanes4 h4, lanes4 h5,
                        lanes4 h6, lanes4 h7) {
    transpose4(h0.v, h1.v, h2.v, h3.v);
    transpose4(h4.v, h5.v, h6.v, h7.v);
    const __m128i lo[4] = {h0.v, h1.v, h2.v, h3.v}, hi[4] = {h4.v, h5.v, h6.v, h7.v};
    for (std::size_t l = 0; l < 4; ++l) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 32 * l), lo[l]);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 32 * l + 16), hi[l]);
    }
  }
};

template <class Rot>
inline lanes4<Rot> operator+(lanes4<Rot> a, lanes4<Rot> b) {
  return {_mm_add_epi32(a.v, b.v)};
}
template <class Rot>
inline lanes4<Rot> operator^(lanes4<Rot> a, lanes4<Rot> b) {
  return {_mm_xor_si128(a.v, b.v)};
}
template <int N, class Rot>
inline lanes4<Rot> rotr(lanes4<Rot> x) {
  return {Rot::template rotr<N>(x.v)};
}

template <class Rot>
struct lanes8 {
  static constexpr std::size_t width = 8;
  __m256i v;

  static lanes8 splat(std::uint32_t w) { return {_mm256_set1_epi32(static_cast<int>(w))}; }

  // transpose8 turns eight rows of eight words into eight columns.
  static void transpose8(__m256i r[8]) {
    // Within each 128-bit half, 4x4 transposes of rows 0-3 and 4-7 ...
    const __m256i t0 = _mm256_unpacklo_epi32(r[0], r[1]), t1 = _mm256_unpackhi_epi32(r[0], r[1]);
    const __m256i t2 = _mm256_unpacklo_epi32(r[2], r[3]), t3 = _mm256_unpackhi_epi32(r[2], r[3]);
    const __m256i t4 = _mm256_unpacklo_epi32(r[4], r[5]), t5 = _mm256_unpackhi_epi32(r[4], r[5]);
    const __m256i t6 = _mm256_unpacklo_epi32(r[6], r[7]), t7 = _mm256_unpackhi_epi32(r[6], r[7]);
    // ... so that u0-u3 hold words k (low half) and k + 4 (high half) of rows 0-3, u4-u7 of rows 4-7 ...
    const __m256i u0 = _mm256_unpacklo_epi64(t0, t2), u1 = _mm256_unpackhi_epi64(t0, t2);
    const __m256i u2 = _mm256_unpacklo_epi64(t1, t3), u3 = _mm256_unpackhi_epi64(t1, t3);
    const __m256i u4 = _mm256_unpacklo_epi64(t4, t6), u5 = _mm256_unpackhi_epi64(t4, t6);
    const __m256i u6 = _mm256_unpacklo_epi64(t5, t7), u7 = _mm256_unpackhi_epi64(t5, t7);
    // ... then the halves are exchanged.
    r[0] = _mm256_permute2x128_si256(u0, u4, 0x20);
    r[1] = _mm256_permute2x128_si256(u1, u5, 0x20);
    r[2] = _mm256_permute2x128_si256(u2, u6, 0x20);
    r[3] = _mm256_permute2x128_si256(u3, u7, 0x20);
    r[4] = _mm256_permute2x128_si256(u0, u4, 0x31);
    r[5] = _mm256_permute2x128_si256(u1, u5, 0x31);
    r[6] = _mm256_permute2x128_si256(u2, u6, 0x31);
    r[7] = _mm256_permute2x128_si256(u3, u7, 0x31);
  }

  // counters as lanes4's, eight lanes wide.
  static void counters(std::uint64_t counter, bool increment, lanes8& lo, lanes8& hi) {
    const __m256i base_lo = _mm256_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(counter)));
    const __m256i base_hi = _mm256_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(counter >> 32)));
    const __m256i step = increment ? _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7) : _mm256_setzero_si256();
    const __m256i top = _mm256_set1_epi32(static_cast<int>(0x80000000u));
    lo.v = _mm256_add_epi32(base_lo, step);
    const __m256i carry = _mm256_cmpgt_epi32(_mm256_xor_si256(base_lo, top), _mm256_xor_si256(lo.v, top));
    hi.v = _mm256_sub_epi32(base_hi, carry);
  }

  static void load_words(const std::uint8_t* in, std::size_t stride, lanes8 m[16]) {
    for (std::size_t g = 0; g < 2; ++g) {
      __m256i r[8];
      for (std::size_t l = 0; l < 8; ++l) {
        r[l] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + l * stride + 32 * g));
      }
      transpose8(r);
      for (std::size_t k = 0; k < 8; ++k) m[8 * g + k].v = r[k];
    }
  }

  static void store_cvs(std::uint8_t* out, lanes8 h0, lanes8 h1, lanes8 h2, lanes8 h3, lanes8 h4, lanes8 h5,
                        lanes8 h6, lanes8 h7) {
    __m256i r[8] = {h0.v, h1.v, h2.v, h3.v, h4.v, h5.v, h6.v, h7.v};
    transpose8(r);
    for (std::size_t l = 0; l < 8; ++l) _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 32 * l), r[l]);
  }
};

template <class Rot>
inline lanes8<Rot> operator+(lanes8<Rot> a, lanes8<Rot> b) {
  return {_mm256_add_epi32(a.v, b.v)};
}
template <class Rot>
inline lanes8<Rot> operator^(lanes8<Rot> a, lanes8<Rot> b) {
  return {_mm256_xor_si256(a.v, b.v)};
}
template <int N, class Rot>
inline lanes8<Rot> rotr(lanes8<Rot> x) {
  return {Rot::template rotr<N>(x.v)};
}

}  // namespace
}  // namespace sealwire::crypto::detail
