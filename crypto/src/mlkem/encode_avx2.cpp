// SPDX-License-Identifier: Apache-2.0
// ML-KEM Compress_d and ByteEncode_d (FIPS 203 4.2.1, equation 4.7,
// Algorithm 5) for the ciphertext (d = 4, 5, 10, 11) and the message
// (d = 1) with AVX2, constant time: the rounding division by q is a
// multiplication plus two masked corrections, never a division (KyberSlash).
// Bit-identical to the portable kernels (encode.cpp).
#include "kernels.hpp"
#include "params.hpp"

#include <immintrin.h>

namespace sealwire::crypto::mlkem {
namespace {

__extension__ typedef unsigned __int128 u128;  // d = 11: eight values are 88 bits

inline __m256i load(const std::int16_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }

// to_unsigned maps (-q, q) to [0, q): adds q where the sign bit is set.
inline __m256i to_unsigned(__m256i x) {
  return _mm256_add_epi16(x, _mm256_and_si256(_mm256_srai_epi16(x, 15), _mm256_set1_epi16(q)));
}

// compress returns Compress_d(x) = floor((2^d x + (q - 1) / 2) / q) mod 2^d
// for x in [0, q) (the portable compress's rounding). t0 = floor(x M / 2^12)
// with M = round(2^(12 + d) / q) is off the quotient t by at most 0.41 + the
// rounding term, so t - t0 is 0, 1 or 2: the remainder v - t0 q lies in
// [0, 3q), fits in 16 bits, and two masked steps correct t0.
template <unsigned D>
inline __m256i compress(__m256i x) {
  constexpr std::int32_t m = ((std::int32_t{1} << (12 + D)) + q / 2) / q;
  static_assert(m < 65536 && (std::int64_t{q} << 4) < 65536);
  __m256i t = _mm256_mulhi_epu16(_mm256_slli_epi16(x, 4), _mm256_set1_epi16(static_cast<std::int16_t>(m)));
  // r = 2^d x + (q - 1) / 2 - t0 q, computed mod 2^16 (exact: 0 <= r < 3q).
  __m256i r = _mm256_add_epi16(_mm256_slli_epi16(x, D), _mm256_set1_epi16(q / 2));
  r = _mm256_sub_epi16(r, _mm256_mullo_epi16(t, _mm256_set1_epi16(q)));
  const __m256i qv = _mm256_set1_epi16(q), qm1 = _mm256_set1_epi16(q - 1);
  for (int step = 0; step < 2; ++step) {
    const __m256i over = _mm256_cmpgt_epi16(r, qm1);  // all ones where r >= q
    t = _mm256_sub_epi16(t, over);
    r = _mm256_sub_epi16(r, _mm256_and_si256(over, qv));
  }
  return _mm256_and_si256(t, _mm256_set1_epi16((1 << D) - 1));
}

// pack writes ByteEncode_D of 256 values below 2^D: G values (G D bits,
// whole bytes) per little-endian word W.
template <unsigned D, unsigned G, class W>
void pack(std::uint8_t* out, const std::uint16_t* c) noexcept {
  std::uint8_t buf[32 * D + sizeof(W)];
  for (unsigned i = 0; i < n / G; ++i) {
    W w = 0;
    for (unsigned j = 0; j < G; ++j) w |= static_cast<W>(c[G * i + j]) << (D * j);
    __builtin_memcpy(buf + G * D / 8 * i, &w, sizeof w);  // x86-64 is little-endian
  }
  __builtin_memcpy(out, buf, 32 * D);
}

template <unsigned D, unsigned G, class W>
void compress_encode_d(std::uint8_t* out, const std::int16_t* a) noexcept {
  alignas(32) std::uint16_t c[n];
  for (unsigned i = 0; i < n / 16; ++i)
    _mm256_store_si256(reinterpret_cast<__m256i*>(c + 16 * i), compress<D>(to_unsigned(load(a + 16 * i))));
  pack<D, G, W>(out, c);
}

}  // namespace

void compress_encode_avx2(std::uint8_t* out, const std::int16_t* a, unsigned d) noexcept {
  switch (d) {
    case 4: compress_encode_d<4, 16, std::uint64_t>(out, a); return;
    case 5: compress_encode_d<5, 8, std::uint64_t>(out, a); return;
    case 10: compress_encode_d<10, 4, std::uint64_t>(out, a); return;
    default: compress_encode_d<11, 8, u128>(out, a); return;
  }
}

void to_message_avx2(std::uint8_t* m, const std::int16_t* a) noexcept {
  // Compress_1(x) = 1 exactly for x in [833, 2496] (round(2 x / q) = 1).
  const __m256i lo = _mm256_set1_epi16(832), hi = _mm256_set1_epi16(2497);
  for (unsigned i = 0; i < 8; ++i) {
    const __m256i x0 = to_unsigned(load(a + 32 * i)), x1 = to_unsigned(load(a + 32 * i + 16));
    const __m256i b0 = _mm256_and_si256(_mm256_cmpgt_epi16(x0, lo), _mm256_cmpgt_epi16(hi, x0));
    const __m256i b1 = _mm256_and_si256(_mm256_cmpgt_epi16(x1, lo), _mm256_cmpgt_epi16(hi, x1));
    // packs interleaves the 128-bit lanes; the permute restores the order.
    const __m256i bytes = _mm256_permute4x64_epi64(_mm256_packs_epi16(b0, b1), 0xd8);
    const auto bits = static_cast<std::uint32_t>(_mm256_movemask_epi8(bytes));
    __builtin_memcpy(m + 4 * i, &bits, 4);
  }
}

}  // namespace sealwire::crypto::mlkem
