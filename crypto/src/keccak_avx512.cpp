// SPDX-License-Identifier: Apache-2.0
// Keccak-f[1600] (FIPS 202 section 3) for AVX-512: theta's five-way XOR and
// chi are vpternlogq, the rotations vprolq. One state with a lane per 128-bit
// register (the ternary logic saves a third of the scalar operations), and
// four or eight interleaved states in 256- and 512-bit vectors.
#include "detail/keccak.hpp"
#include "detail/keccak_round.hpp"

#include <immintrin.h>

namespace sealwire::crypto::detail {
namespace {

// Truth tables for vpternlogq with a = 0xf0, b = 0xcc, c = 0xaa:
// a ^ b ^ c and a ^ (~b & c).
constexpr int ternlog_xor3 = 0x96;
constexpr int ternlog_chi = 0xd2;

struct avx512_x1_ops {
  using lane = __m128i;
  static lane xor3(lane a, lane b, lane c) noexcept { return _mm_ternarylogic_epi64(a, b, c, ternlog_xor3); }
  static lane xor5(lane a, lane b, lane c, lane d, lane e) noexcept { return xor3(xor3(a, b, c), d, e); }
  template <int N>
  static lane rol(lane x) noexcept {
    if constexpr (N == 0) {
      return x;
    } else {
      return _mm_rol_epi64(x, N);
    }
  }
  static lane chi(lane a, lane b, lane c) noexcept { return _mm_ternarylogic_epi64(a, b, c, ternlog_chi); }
  static lane xor_u64(lane a, std::uint64_t w) noexcept {
    return _mm_xor_si128(a, _mm_cvtsi64_si128(static_cast<long long>(w)));
  }
  static lane load1(std::uint64_t w) noexcept { return _mm_cvtsi64_si128(static_cast<long long>(w)); }
  static std::uint64_t store1(lane a) noexcept { return static_cast<std::uint64_t>(_mm_cvtsi128_si64(a)); }
};

struct avx512_x4_ops {
  using lane = __m256i;
  static lane xor3(lane a, lane b, lane c) noexcept { return _mm256_ternarylogic_epi64(a, b, c, ternlog_xor3); }
  static lane xor5(lane a, lane b, lane c, lane d, lane e) noexcept { return xor3(xor3(a, b, c), d, e); }
  template <int N>
  static lane rol(lane x) noexcept {
    if constexpr (N == 0) {
      return x;
    } else {
      return _mm256_rol_epi64(x, N);
    }
  }
  static lane chi(lane a, lane b, lane c) noexcept { return _mm256_ternarylogic_epi64(a, b, c, ternlog_chi); }
  static lane xor_u64(lane a, std::uint64_t w) noexcept {
    return _mm256_xor_si256(a, _mm256_set1_epi64x(static_cast<long long>(w)));
  }
  static lane load(const std::uint64_t* p) noexcept { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
  static void store(std::uint64_t* p, lane v) noexcept { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
};

struct avx512_x8_ops {
  using lane = __m512i;
  static lane xor3(lane a, lane b, lane c) noexcept { return _mm512_ternarylogic_epi64(a, b, c, ternlog_xor3); }
  static lane xor5(lane a, lane b, lane c, lane d, lane e) noexcept { return xor3(xor3(a, b, c), d, e); }
  template <int N>
  static lane rol(lane x) noexcept {
    if constexpr (N == 0) {
      return x;
    } else {
      return _mm512_rol_epi64(x, N);
    }
  }
  static lane chi(lane a, lane b, lane c) noexcept { return _mm512_ternarylogic_epi64(a, b, c, ternlog_chi); }
  static lane xor_u64(lane a, std::uint64_t w) noexcept {
    return _mm512_xor_si512(a, _mm512_set1_epi64(static_cast<long long>(w)));
  }
  static lane load(const std::uint64_t* p) noexcept { return _mm512_loadu_si512(p); }
  static void store(std::uint64_t* p, lane v) noexcept { _mm512_storeu_si512(p, v); }
};

}  // namespace

void keccak_permute_avx512(std::uint64_t* state) noexcept { keccak_permute_one<avx512_x1_ops, 4>(state); }

void keccak_absorb_avx512(std::uint64_t* state, const std::uint8_t* in, std::size_t nblocks,
                          std::size_t rate_lanes) noexcept {
  keccak_absorb_any<avx512_x1_ops, 4>(state, in, nblocks, rate_lanes);
}

void keccak_permute_x4_avx512(std::uint64_t* lanes, std::size_t stride) noexcept {
  keccak_permute_wide<avx512_x4_ops, 2>(lanes, stride);
}

void keccak_permute_x8_avx512(std::uint64_t* lanes, std::size_t stride) noexcept {
  keccak_permute_wide<avx512_x8_ops, 2>(lanes, stride);
}

}  // namespace sealwire::crypto::detail
