// SPDX-License-Identifier: Apache-2.0
// ML-KEM NTT, inverse NTT, NTT-domain product, Barrett reduction and
// Montgomery scaling (FIPS 203 4.3, Algorithms 9-12) with AVX2: sixteen
// 16-bit coefficients per vector, Montgomery products with vpmullw/vpmulhw.
// Bit-identical to the portable kernels (poly.cpp), in the standard order.
#include "kernels.hpp"
#include "twiddles.hpp"

#include <immintrin.h>

namespace sealwire::crypto::mlkem {
namespace {

using twiddles::gammas;
using twiddles::q_inv;
using twiddles::zetas;

struct alignas(32) vec_table {
  std::int16_t v[16][16];
};

constexpr std::int16_t times_qinv(std::int16_t x) { return static_cast<std::int16_t>(x * q_inv); }

// The last three NTT layers (blocks of 16, 8 and 4 coefficients) run on a
// pair of vectors rearranged so that butterfly partners sit in the same lane
// of two vectors (see ntt_avx2). In the arrangement of layer `len`, lane i of
// pair p belongs to block 32 p / (2 len) + i / len of that layer. Row 2 p
// holds the twiddles, row 2 p + 1 the same times q^-1 (mod 2^16).
// Forward: block b of layer len uses zetas[128 / len + b] (Algorithm 9);
// inverse: zetas[256 / len - 1 - b] (Algorithm 10 counts down).
constexpr vec_table make_layer_table(unsigned len, bool inverse) {
  vec_table t{};
  for (unsigned p = 0; p < 8; ++p) {
    for (unsigned i = 0; i < 16; ++i) {
      const unsigned block = 32 * p / (2 * len) + i / len;
      const std::int16_t z = zetas.v[inverse ? 256 / len - 1 - block : 128 / len + block];
      t.v[2 * p][i] = z;
      t.v[2 * p + 1][i] = times_qinv(z);
    }
  }
  return t;
}

// gamma_table: row 2 v + ... for vector v (coefficients 16 v .. 16 v + 15,
// pairs 8 v .. 8 v + 7), gammas[8 v + j] in both lanes of pair j.
struct alignas(32) gamma_rows {
  std::int16_t g[16][16];
  std::int16_t gq[16][16];
};

constexpr gamma_rows make_gamma_table() {
  gamma_rows t{};
  for (unsigned v = 0; v < 16; ++v) {
    for (unsigned i = 0; i < 16; ++i) {
      t.g[v][i] = gammas.v[8 * v + i / 2];
      t.gq[v][i] = times_qinv(gammas.v[8 * v + i / 2]);
    }
  }
  return t;
}

constexpr vec_table fwd8 = make_layer_table(8, false);
constexpr vec_table fwd4 = make_layer_table(4, false);
constexpr vec_table fwd2 = make_layer_table(2, false);
constexpr vec_table inv8 = make_layer_table(8, true);
constexpr vec_table inv4 = make_layer_table(4, true);
constexpr vec_table inv2 = make_layer_table(2, true);
constexpr gamma_rows gamma_table = make_gamma_table();

inline __m256i load(const std::int16_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
inline void store(std::int16_t* p, __m256i x) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), x); }
inline __m256i splat(std::int16_t x) { return _mm256_set1_epi16(x); }

// fqmul returns a b 2^-16 mod q lane by lane, as the scalar fqmul: the low
// halves of a b and t q agree (t = a b q^-1 mod 2^16), so the high halves'
// difference is exactly (a b - t q) / 2^16. bq is b q^-1 mod 2^16.
inline __m256i fqmul(__m256i a, __m256i b, __m256i bq) {
  const __m256i hi = _mm256_mulhi_epi16(a, b);
  const __m256i t = _mm256_mullo_epi16(a, bq);
  return _mm256_sub_epi16(hi, _mm256_mulhi_epi16(t, splat(q)));
}

// barrett computes the scalar barrett_reduce: (v a + 2^25) >> 26 equals
// ((v a >> 16) + 2^9) >> 10 (nested floors), and vpmulhrsw by 2^5 computes
// (x 2^5 + 2^14) >> 15 = (x + 2^9) >> 10.
inline __m256i barrett(__m256i a) {
  constexpr std::int16_t v = ((1 << 26) + q / 2) / q;
  const __m256i t = _mm256_mulhrs_epi16(_mm256_mulhi_epi16(a, splat(v)), splat(32));
  return _mm256_sub_epi16(a, _mm256_mullo_epi16(t, splat(q)));
}

// ct_butterfly: a, b = a + z b, a - z b (Algorithm 9 lines 7-9).
inline void ct_butterfly(__m256i& a, __m256i& b, __m256i z, __m256i zq) {
  const __m256i t = fqmul(b, z, zq);
  b = _mm256_sub_epi16(a, t);
  a = _mm256_add_epi16(a, t);
}

// gs_butterfly: a, b = a + b, z (b - a) (Algorithm 10 lines 7-10).
inline void gs_butterfly(__m256i& a, __m256i& b, __m256i z, __m256i zq) {
  const __m256i t = a;
  a = barrett(_mm256_add_epi16(t, b));
  b = fqmul(_mm256_sub_epi16(b, t), z, zq);
}

inline void ct_scalar(__m256i& a, __m256i& b, unsigned k) {
  ct_butterfly(a, b, splat(zetas.v[k]), splat(times_qinv(zetas.v[k])));
}
inline void gs_scalar(__m256i& a, __m256i& b, unsigned k) {
  gs_butterfly(a, b, splat(zetas.v[k]), splat(times_qinv(zetas.v[k])));
}
inline void ct_table(__m256i& a, __m256i& b, const vec_table& t, unsigned p) {
  ct_butterfly(a, b, load(t.v[2 * p]), load(t.v[2 * p + 1]));
}
inline void gs_table(__m256i& a, __m256i& b, const vec_table& t, unsigned p) {
  gs_butterfly(a, b, load(t.v[2 * p]), load(t.v[2 * p + 1]));
}

// The three rearrangements of a vector pair; each is its own inverse.
// swap128: (a.lo, b.lo), (a.hi, b.hi) pairs coefficient i with i + 8.
inline void swap128(__m256i& a, __m256i& b) {
  const __m256i x = _mm256_permute2x128_si256(a, b, 0x20);
  const __m256i y = _mm256_permute2x128_si256(a, b, 0x31);
  a = x;
  b = y;
}
// swap64: 64-bit halves of each 128-bit lane, pairing i with i + 4.
inline void swap64(__m256i& a, __m256i& b) {
  const __m256i x = _mm256_unpacklo_epi64(a, b);
  const __m256i y = _mm256_unpackhi_epi64(a, b);
  a = x;
  b = y;
}
// swap32: odd and even 32-bit words, pairing i with i + 2.
inline void swap32(__m256i& a, __m256i& b) {
  const __m256i x = _mm256_blend_epi32(a, _mm256_slli_epi64(b, 32), 0xaa);
  const __m256i y = _mm256_blend_epi32(_mm256_srli_epi64(a, 32), b, 0xaa);
  a = x;
  b = y;
}

}  // namespace

void ntt_avx2(std::int16_t* c) noexcept {
  __m256i v[16];
  for (unsigned i = 0; i < 16; ++i) v[i] = load(c + 16 * i);
  // Layers len = 128, 64, 32, 16: partners are whole vectors apart.
  for (unsigned i = 0; i < 8; ++i) ct_scalar(v[i], v[i + 8], 1);
  for (unsigned i = 0; i < 4; ++i) {
    ct_scalar(v[i], v[i + 4], 2);
    ct_scalar(v[i + 8], v[i + 12], 3);
  }
  for (unsigned b = 0; b < 4; ++b) {
    ct_scalar(v[4 * b], v[4 * b + 2], 4 + b);
    ct_scalar(v[4 * b + 1], v[4 * b + 3], 4 + b);
  }
  for (unsigned b = 0; b < 8; ++b) ct_scalar(v[2 * b], v[2 * b + 1], 8 + b);
  // Layers len = 8, 4, 2 inside each pair of vectors, then back to the
  // standard order.
  for (unsigned p = 0; p < 8; ++p) {
    __m256i a = v[2 * p], b = v[2 * p + 1];
    swap128(a, b);
    ct_table(a, b, fwd8, p);
    swap64(a, b);
    ct_table(a, b, fwd4, p);
    swap32(a, b);
    ct_table(a, b, fwd2, p);
    swap32(a, b);
    swap64(a, b);
    swap128(a, b);
    store(c + 32 * p, a);
    store(c + 32 * p + 16, b);
  }
}

void invntt_avx2(std::int16_t* c) noexcept {
  __m256i v[16];
  for (unsigned p = 0; p < 8; ++p) {
    __m256i a = load(c + 32 * p), b = load(c + 32 * p + 16);
    swap128(a, b);
    swap64(a, b);
    swap32(a, b);
    gs_table(a, b, inv2, p);
    swap32(a, b);
    gs_table(a, b, inv4, p);
    swap64(a, b);
    gs_table(a, b, inv8, p);
    swap128(a, b);
    v[2 * p] = a;
    v[2 * p + 1] = b;
  }
  for (unsigned b = 0; b < 8; ++b) gs_scalar(v[2 * b], v[2 * b + 1], 15 - b);
  for (unsigned b = 0; b < 4; ++b) {
    gs_scalar(v[4 * b], v[4 * b + 2], 7 - b);
    gs_scalar(v[4 * b + 1], v[4 * b + 3], 7 - b);
  }
  for (unsigned i = 0; i < 4; ++i) {
    gs_scalar(v[i], v[i + 4], 3);
    gs_scalar(v[i + 8], v[i + 12], 2);
  }
  for (unsigned i = 0; i < 8; ++i) gs_scalar(v[i], v[i + 8], 1);
  const __m256i s = splat(twiddles::invntt_scale), sq = splat(times_qinv(twiddles::invntt_scale));
  for (unsigned i = 0; i < 16; ++i) store(c + 16 * i, fqmul(v[i], s, sq));
}

void basemul_acc_avx2(std::int16_t* r, const std::int16_t* a, std::size_t a_stride, const std::int16_t* b,
                      unsigned k) noexcept {
  // Pairs (x0, x1) sit in adjacent lanes. Per pair, r0 = x0 y0 + gamma x1 y1
  // and r1 = x0 y1 + x1 y0 (Algorithm 12), each product an fqmul as in the
  // portable code: s holds (x0 y0, gamma x1 y1), t holds (x0 y1, x1 y0); the
  // sums over j run separately and the pairs are added up at the end.
  const __m256i swap_pairs = _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7,
                                              4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
  for (unsigned i = 0; i < 16; ++i) {
    const __m256i g = load(gamma_table.g[i]), gq = load(gamma_table.gq[i]);
    __m256i s = _mm256_setzero_si256(), t = _mm256_setzero_si256();
    for (unsigned j = 0; j < k; ++j) {
      const __m256i x = load(a + j * a_stride + 16 * i);
      const __m256i y = load(b + j * n + 16 * i);
      const __m256i yq = _mm256_mullo_epi16(y, splat(q_inv));
      const __m256i prod = fqmul(x, y, yq);
      const __m256i scaled = fqmul(prod, g, gq);
      s = _mm256_add_epi16(s, _mm256_blend_epi16(prod, scaled, 0xaa));
      const __m256i ys = _mm256_shuffle_epi8(y, swap_pairs), yqs = _mm256_shuffle_epi8(yq, swap_pairs);
      t = _mm256_add_epi16(t, fqmul(x, ys, yqs));
    }
    const __m256i even = _mm256_add_epi16(s, _mm256_shuffle_epi8(s, swap_pairs));
    const __m256i odd = _mm256_add_epi16(t, _mm256_shuffle_epi8(t, swap_pairs));
    store(r + 16 * i, barrett(_mm256_blend_epi16(even, odd, 0xaa)));
  }
}

void reduce_avx2(std::int16_t* c) noexcept {
  for (unsigned i = 0; i < 16; ++i) store(c + 16 * i, barrett(load(c + 16 * i)));
}

void tomont_avx2(std::int16_t* c) noexcept {
  const __m256i m = splat(twiddles::mont_squared), mq = splat(times_qinv(twiddles::mont_squared));
  for (unsigned i = 0; i < 16; ++i) store(c + 16 * i, fqmul(load(c + 16 * i), m, mq));
}

}  // namespace sealwire::crypto::mlkem
