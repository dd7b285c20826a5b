// SPDX-License-Identifier: Apache-2.0
// Constant-time table lookup for the NIST curves' scalar multiplications
// (nist_point.hpp's select): out = table[idx] for a secret idx, reading
// every byte of every entry and keeping the wanted one by mask, with no
// branch or address depending on idx.
//
// Three builds of the same scan, chosen by the instruction set the including
// file is compiled for: 256-bit AVX2 words (the P-256 mulx kernel,
// nist_p256_bmi2.cpp, is built for the avx2 level), 128-bit SSE2 words (any
// other x86-64 build) and 64-bit words elsewhere. In the AVX2 build the
// entry mask comes from a vector compare of a running counter with the
// broadcast index, so no scalar mask crosses into a vector register per
// entry.
#pragma once

#include <sealwire/crypto/ct.hpp>

#include "unroll.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace sealwire::crypto::detail {
namespace {

// table_select: out = table[idx]; idx >= n selects nothing (all-zero
// bytes). T is a plain struct of 64-bit words.
template <class T>
inline void table_select(T& out, const T* table, std::size_t n, std::uint64_t idx) noexcept {
  static_assert(sizeof(T) % 8 == 0);
#if defined(__x86_64__) && defined(__AVX2__)
  // 32-byte words, then a 16-byte and an 8-byte tail as the size needs.
  constexpr std::size_t v32 = sizeof(T) / 32;
  constexpr bool t16 = (sizeof(T) % 32) >= 16;
  constexpr bool t8 = (sizeof(T) % 16) != 0;
  __m256i acc[v32 > 0 ? v32 : 1];
  __m128i acc16 = _mm_setzero_si128();
  std::uint64_t acc8 = 0;
  SEALWIRE_UNROLL
  for (std::size_t i = 0; i < v32; ++i) acc[i] = _mm256_setzero_si256();
  __m256i want = _mm256_set1_epi64x(static_cast<long long>(idx));
  // The vector counterpart of ct::value_barrier: the compiler may not see
  // that every lane holds idx, so the unrolled compares cannot become a
  // scalar test of idx and a branch.
  __asm__("" : "+x"(want));
  const __m256i one = _mm256_set1_epi64x(1);
  __m256i j_vec = _mm256_setzero_si256();
  for (std::size_t j = 0; j < n; ++j) {
    const __m256i m = _mm256_cmpeq_epi64(j_vec, want);
    j_vec = _mm256_add_epi64(j_vec, one);
    const auto* src = reinterpret_cast<const unsigned char*>(&table[j]);
    SEALWIRE_UNROLL
    for (std::size_t i = 0; i < v32; ++i) {
      const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + 32 * i));
      acc[i] = _mm256_or_si256(acc[i], _mm256_and_si256(x, m));
    }
    if constexpr (t16) {
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 32 * v32));
      acc16 = _mm_or_si128(acc16, _mm_and_si128(x, _mm256_castsi256_si128(m)));
    }
    if constexpr (t8) {
      std::uint64_t last;
      std::memcpy(&last, src + sizeof(T) - 8, 8);
      acc8 |= last & static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm256_castsi256_si128(m)));
    }
  }
  auto* dst = reinterpret_cast<unsigned char*>(&out);
  SEALWIRE_UNROLL
  for (std::size_t i = 0; i < v32; ++i) _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + 32 * i), acc[i]);
  if constexpr (t16) _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + 32 * v32), acc16);
  if constexpr (t8) std::memcpy(dst + sizeof(T) - 8, &acc8, 8);
  // ct::wipe (a memset call whatever the file's flags), not a new
  // wipe_object<__m128i> instance, which only this AVX2 file would emit.
  ct::wipe(acc, sizeof acc);
  ct::wipe(&acc16, sizeof acc16);
  ct::wipe(&acc8, sizeof acc8);
#elif defined(__x86_64__)
  constexpr std::size_t words = sizeof(T) / 8;
  constexpr std::size_t vecs = words / 2;
  __m128i acc[vecs];
  std::uint64_t tail = 0;
  SEALWIRE_UNROLL
  for (std::size_t i = 0; i < vecs; ++i) acc[i] = _mm_setzero_si128();
  for (std::size_t j = 0; j < n; ++j) {
    const std::uint64_t mask = ct::mask_if_zero(idx ^ j);
    const __m128i m = _mm_set1_epi64x(static_cast<long long>(mask));
    const auto* src = reinterpret_cast<const unsigned char*>(&table[j]);
    SEALWIRE_UNROLL
    for (std::size_t i = 0; i < vecs; ++i) {
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 16 * i));
      acc[i] = _mm_or_si128(acc[i], _mm_and_si128(x, m));
    }
    if constexpr (words % 2 != 0) {
      std::uint64_t last;
      std::memcpy(&last, src + 16 * vecs, 8);
      tail |= last & mask;
    }
  }
  auto* dst = reinterpret_cast<unsigned char*>(&out);
  SEALWIRE_UNROLL
  for (std::size_t i = 0; i < vecs; ++i) _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + 16 * i), acc[i]);
  if constexpr (words % 2 != 0) std::memcpy(dst + 16 * vecs, &tail, 8);
  ct::wipe(acc, sizeof acc);
  ct::wipe_object(tail);
#else
  constexpr std::size_t words = sizeof(T) / 8;
  std::uint64_t acc[words] = {};
  for (std::size_t j = 0; j < n; ++j) {
    const std::uint64_t mask = ct::mask_if_zero(idx ^ j);
    const auto* src = reinterpret_cast<const std::uint64_t*>(&table[j]);
    for (std::size_t i = 0; i < words; ++i) acc[i] |= src[i] & mask;
  }
  std::memcpy(&out, acc, sizeof(T));
  ct::wipe(acc, sizeof acc);
#endif
}

}  // namespace
}  // namespace sealwire::crypto::detail
