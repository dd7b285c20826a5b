// SPDX-License-Identifier: Apache-2.0
// Keccak-f[1600] (FIPS 202 section 3) for AVX2: four interleaved states, the
// same lane of each in one 256-bit vector.
#include "detail/keccak.hpp"
#include "detail/keccak_round.hpp"

#include <immintrin.h>

namespace sealwire::crypto::detail {
namespace {

struct avx2_x4_ops {
  using lane = __m256i;
  static lane xor3(lane a, lane b, lane c) noexcept { return _mm256_xor_si256(a, _mm256_xor_si256(b, c)); }
  static lane xor5(lane a, lane b, lane c, lane d, lane e) noexcept {
    return _mm256_xor_si256(_mm256_xor_si256(_mm256_xor_si256(a, b), _mm256_xor_si256(c, d)), e);
  }
  // Rotations by whole bytes are one byte shuffle; the others two shifts.
  template <int N>
  static lane rol(lane x) noexcept {
    if constexpr (N == 0) {
      return x;
    } else if constexpr (N == 8) {
      return _mm256_shuffle_epi8(x, _mm256_setr_epi8(7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14, 7, 0, 1, 2,
                                                     3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14));
    } else if constexpr (N == 56) {
      return _mm256_shuffle_epi8(x, _mm256_setr_epi8(1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8, 1, 2, 3, 4,
                                                     5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8));
    } else {
      return _mm256_or_si256(_mm256_slli_epi64(x, N), _mm256_srli_epi64(x, 64 - N));
    }
  }
  static lane chi(lane a, lane b, lane c) noexcept { return _mm256_xor_si256(a, _mm256_andnot_si256(b, c)); }
  static lane xor_u64(lane a, std::uint64_t w) noexcept {
    return _mm256_xor_si256(a, _mm256_set1_epi64x(static_cast<long long>(w)));
  }
  static lane load(const std::uint64_t* p) noexcept { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
  static void store(std::uint64_t* p, lane v) noexcept { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
};

}  // namespace

void keccak_permute_x4_avx2(std::uint64_t* lanes, std::size_t stride) noexcept {
  keccak_permute_wide<avx2_x4_ops, 2>(lanes, stride);
}

}  // namespace sealwire::crypto::detail
