// SPDX-License-Identifier: Apache-2.0
// ML-KEM encodings with AVX2 (FIPS 203 4.2.1): Compress_d and ByteEncode_d
// for the ciphertext (d = 4, 5, 10, 11) and the message (d = 1), the inverse
// ByteDecode_d and Decompress_d, and ByteEncode_12/ByteDecode_12 of keys.
// Constant time: the rounding division by q is a multiplication plus two
// masked corrections, never a division (KyberSlash). Bit-identical to the
// portable kernels (encode.cpp).
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

// compress_encode_10 packs in vectors: pairs become 20-bit values in 32-bit
// lanes (vpmaddwd by 1 and 2^10), pairs of those 40-bit values in 64-bit
// lanes, and a byte shuffle keeps ten bytes per 128-bit lane: sixteen
// coefficients, twenty bytes (ByteEncode_10, little-endian bit order).
void compress_encode_10(std::uint8_t* out, const std::int16_t* a) noexcept {
  const __m256i pair = _mm256_set1_epi32(0x04000001);  // 16-bit factors 1 and 2^10
  const __m256i low20 = _mm256_set1_epi64x(0xfffff);
  const __m256i gather = _mm256_setr_epi8(0, 1, 2, 3, 4, 8, 9, 10, 11, 12, -1, -1, -1, -1, -1, -1,  //
                                          0, 1, 2, 3, 4, 8, 9, 10, 11, 12, -1, -1, -1, -1, -1, -1);
  alignas(16) std::uint8_t buf[320 + 6];
  for (unsigned i = 0; i < n / 16; ++i) {
    const __m256i x = _mm256_madd_epi16(compress<10>(to_unsigned(load(a + 16 * i))), pair);
    const __m256i y = _mm256_or_si256(_mm256_and_si256(x, low20), _mm256_andnot_si256(low20, _mm256_srli_epi64(x, 12)));
    const __m256i z = _mm256_shuffle_epi8(y, gather);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(buf + 20 * i), _mm256_castsi256_si128(z));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(buf + 20 * i + 10), _mm256_extracti128_si256(z, 1));
  }
  __builtin_memcpy(out, buf, 320);
}

}  // namespace

void compress_encode_avx2(std::uint8_t* out, const std::int16_t* a, unsigned d) noexcept {
  switch (d) {
    case 4: compress_encode_d<4, 16, std::uint64_t>(out, a); return;
    case 5: compress_encode_d<5, 8, std::uint64_t>(out, a); return;
    case 10: compress_encode_10(out, a); return;
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

namespace {

inline void store(std::int16_t* p, __m256i x) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), x); }

// load24 reads 24 bytes as two 128-bit lanes, bytes 0..15 and 8..23 (so
// nothing past the 24 is read).
inline __m256i load24(const std::uint8_t* p) {
  return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))),
                                 _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 8)), 1);
}

// unpack12 spreads 24 bytes to sixteen 12-bit values (ByteDecode_12): value
// 2 i from bytes 3 i, 3 i + 1 (low 12 bits), 2 i + 1 from 3 i + 1, 3 i + 2
// (high 12 bits).
inline __m256i unpack12(const std::uint8_t* p) {
  const __m256i gather = _mm256_setr_epi8(0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11,  //
                                          4, 5, 5, 6, 7, 8, 8, 9, 10, 11, 11, 12, 13, 14, 14, 15);
  __m256i x = _mm256_shuffle_epi8(load24(p), gather);
  x = _mm256_blend_epi16(x, _mm256_srli_epi16(x, 4), 0xaa);
  return _mm256_and_si256(x, _mm256_set1_epi16(0x0fff));
}

// decode_table is, per d, the byte gather and right shift that put value j
// (bits d j .. d j + d - 1 of d bytes) in 32-bit lane j.
struct alignas(32) decode_rows {
  std::int8_t gather[32];
  std::int32_t shift[8];
};

constexpr decode_rows make_decode_rows(unsigned d) {
  decode_rows r{};
  for (unsigned j = 0; j < 8; ++j) {
    const unsigned bit = d * j, byte = bit / 8;
    for (unsigned b = 0; b < 4; ++b) {
      const unsigned src = byte + b;
      // Both 128-bit lanes hold the same 16 bytes (a broadcast load).
      r.gather[4 * j + b] = static_cast<std::int8_t>(src < 16 ? src : 0x80);
    }
    r.shift[j] = static_cast<std::int32_t>(bit % 8);
  }
  return r;
}

constexpr decode_rows decode4 = make_decode_rows(4), decode5 = make_decode_rows(5), decode10 = make_decode_rows(10),
                      decode11 = make_decode_rows(11);

template <unsigned D>
void decode_decompress_d(std::int16_t* a, const std::uint8_t* in, const decode_rows& rows) noexcept {
  // A copy with 16 bytes of slack, so every 16-byte load stays inside it.
  alignas(16) std::uint8_t buf[32 * D + 16] = {};
  __builtin_memcpy(buf, in, 32 * D);
  const __m256i gather = _mm256_load_si256(reinterpret_cast<const __m256i*>(rows.gather));
  const __m256i shift = _mm256_load_si256(reinterpret_cast<const __m256i*>(rows.shift));
  const __m256i mask = _mm256_set1_epi32((1 << D) - 1);
  const __m256i qv = _mm256_set1_epi32(q), half = _mm256_set1_epi32(1 << (D - 1));
  const auto eight = [&](unsigned g) {
    const __m256i bytes =
        _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(buf + D * g)));
    const __m256i y = _mm256_and_si256(_mm256_srlv_epi32(_mm256_shuffle_epi8(bytes, gather), shift), mask);
    // Decompress_d(y) = (q y + 2^(d-1)) >> d (equation 4.8).
    return _mm256_srli_epi32(_mm256_add_epi32(_mm256_mullo_epi32(y, qv), half), D);
  };
  for (unsigned i = 0; i < n / 16; ++i) {
    const __m256i lo = eight(2 * i), hi = eight(2 * i + 1);
    store(a + 16 * i, _mm256_permute4x64_epi64(_mm256_packus_epi32(lo, hi), 0xd8));
  }
}

}  // namespace

void encode12_avx2(std::uint8_t* out, const std::int16_t* a) noexcept {
  // Pairs (x, y) become x + 2^12 y in 32-bit lanes; their low three bytes
  // are gathered to twelve bytes per 128-bit lane.
  const __m256i pair = _mm256_set1_epi32(0x10000001);  // 16-bit factors 1 and 2^12
  const __m256i gather = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,  //
                                          0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
  alignas(16) std::uint8_t buf[384 + 4];
  for (unsigned i = 0; i < n / 16; ++i) {
    const __m256i x = _mm256_shuffle_epi8(_mm256_madd_epi16(to_unsigned(load(a + 16 * i)), pair), gather);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(buf + 24 * i), _mm256_castsi256_si128(x));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(buf + 24 * i + 12), _mm256_extracti128_si256(x, 1));
  }
  __builtin_memcpy(out, buf, 384);
}

bool decode12_checked_avx2(std::int16_t* a, const std::uint8_t* in) noexcept {
  const __m256i qm1 = _mm256_set1_epi16(q - 1);
  __m256i bad = _mm256_setzero_si256();
  for (unsigned i = 0; i < n / 16; ++i) {
    const __m256i x = unpack12(in + 24 * i);
    bad = _mm256_or_si256(bad, _mm256_cmpgt_epi16(x, qm1));
    store(a + 16 * i, x);
  }
  return _mm256_testz_si256(bad, bad) != 0;  // a public verdict (ek)
}

void decode12_reduce_avx2(std::int16_t* a, const std::uint8_t* in) noexcept {
  // x mod q for x < 2^12 < 2q: subtract q, add it back where negative.
  const __m256i qv = _mm256_set1_epi16(q);
  for (unsigned i = 0; i < n / 16; ++i) {
    const __m256i t = _mm256_sub_epi16(unpack12(in + 24 * i), qv);
    store(a + 16 * i, _mm256_add_epi16(t, _mm256_and_si256(_mm256_srai_epi16(t, 15), qv)));
  }
}

void decode_decompress_avx2(std::int16_t* a, const std::uint8_t* in, unsigned d) noexcept {
  switch (d) {
    case 4: decode_decompress_d<4>(a, in, decode4); return;
    case 5: decode_decompress_d<5>(a, in, decode5); return;
    case 10: decode_decompress_d<10>(a, in, decode10); return;
    default: decode_decompress_d<11>(a, in, decode11); return;
  }
}

void from_message_avx2(std::int16_t* a, const std::uint8_t* m) noexcept {
  // Decompress_1(bit) = bit (q + 1) / 2 (Algorithm 14 line 20): lane j of
  // step i tests bit j of the 16-bit word m[2 i] | m[2 i + 1] << 8.
  const __m256i bits = _mm256_setr_epi16(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384,
                                         static_cast<std::int16_t>(-32768));
  const __m256i half = _mm256_set1_epi16((q + 1) / 2);
  for (unsigned i = 0; i < n / 16; ++i) {
    const auto w = static_cast<std::int16_t>(m[2 * i] | (m[2 * i + 1] << 8));
    const __m256i set = _mm256_cmpeq_epi16(_mm256_and_si256(_mm256_set1_epi16(w), bits), bits);
    store(a + 16 * i, _mm256_and_si256(set, half));
  }
}

}  // namespace sealwire::crypto::mlkem
