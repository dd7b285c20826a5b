// SPDX-License-Identifier: Apache-2.0
// BLAKE3 hash_many for AVX-512F/VL (the BLAKE3 specification, 2020): sixteen
// inputs at a time in 512-bit vectors (the block loop in
// blake3_avx512_x16.S), and eight and four in 256- and 128-bit ones for the
// remainder, all rotating with vprord.
#include <sealwire/crypto/ct.hpp>

#include "detail/blake3_core.hpp"
#include "detail/blake3_x86.hpp"

namespace sealwire::crypto::detail {
namespace {

struct vprord_rotate {
  template <int N>
  static __m128i rotr(__m128i x) {
    return _mm_ror_epi32(x, N);
  }
  template <int N>
  static __m256i rotr(__m256i x) {
    return _mm256_ror_epi32(x, N);
  }
};

// transpose16 turns sixteen rows of sixteen words into sixteen columns.
inline void transpose16(__m512i r[16]) {
  // Within each 128-bit lane L, 4x4 transposes of rows 4a..4a+3: u[a][k]
  // lane L then holds word 4L + k of those four rows.
  __m512i u[4][4];
  for (int a = 0; a < 4; ++a) {
    const __m512i t0 = _mm512_unpacklo_epi32(r[4 * a], r[4 * a + 1]);
    const __m512i t1 = _mm512_unpackhi_epi32(r[4 * a], r[4 * a + 1]);
    const __m512i t2 = _mm512_unpacklo_epi32(r[4 * a + 2], r[4 * a + 3]);
    const __m512i t3 = _mm512_unpackhi_epi32(r[4 * a + 2], r[4 * a + 3]);
    u[a][0] = _mm512_unpacklo_epi64(t0, t2);
    u[a][1] = _mm512_unpackhi_epi64(t0, t2);
    u[a][2] = _mm512_unpacklo_epi64(t1, t3);
    u[a][3] = _mm512_unpackhi_epi64(t1, t3);
  }
  // Then, for each k, a 4x4 transpose of 128-bit lanes across u[0..3][k].
  for (int k = 0; k < 4; ++k) {
    const __m512i x = _mm512_shuffle_i32x4(u[0][k], u[1][k], 0x44);  // lanes 0, 1 of each
    const __m512i y = _mm512_shuffle_i32x4(u[2][k], u[3][k], 0x44);
    const __m512i z = _mm512_shuffle_i32x4(u[0][k], u[1][k], 0xee);  // lanes 2, 3 of each
    const __m512i w = _mm512_shuffle_i32x4(u[2][k], u[3][k], 0xee);
    r[k] = _mm512_shuffle_i32x4(x, y, 0x88);
    r[4 + k] = _mm512_shuffle_i32x4(x, y, 0xdd);
    r[8 + k] = _mm512_shuffle_i32x4(z, w, 0x88);
    r[12 + k] = _mm512_shuffle_i32x4(z, w, 0xdd);
  }
}

// The sixteen lanes' counter words and the transposed store of their
// chaining values; the block loop itself is in assembly.
struct lanes16 {
  static void counters(std::uint64_t counter, bool increment, __m512i& lo, __m512i& hi) {
    alignas(64) std::uint32_t l[16], h[16];
    counter_words(counter, increment, 16, l, h);
    lo = _mm512_load_si512(l);
    hi = _mm512_load_si512(h);
  }

  // store_cvs writes lane l's eight chaining-value words to out + 32 * l.
  static void store_cvs(std::uint8_t* out, const __m512i cv[8]) {
    // Eight rows padded to sixteen: lane l's chaining value ends up in the
    // low half of row l.
    const __m512i zero = _mm512_setzero_si512();
    __m512i r[16] = {cv[0], cv[1], cv[2], cv[3], cv[4], cv[5], cv[6], cv[7],
                     zero,  zero,  zero,  zero,  zero,  zero,  zero,  zero};
    transpose16(r);
    for (std::size_t l = 0; l < 16; ++l) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 32 * l), _mm512_castsi512_si256(r[l]));
    }
  }
};

}  // namespace

// The sixteen-lane block loop is in assembly (blake3_avx512_x16.S, which
// says why); the lanes' setup and the transposed store stay here.
extern "C" void sealwire_blake3_x16_blocks_avx512(const std::uint8_t* in, std::size_t stride, std::size_t blocks,
                                                  __m512i cv[8], const __m512i counter[2],
                                                  const std::uint32_t flags[3]) noexcept;

void blake3_hash_many_x16_avx512(const std::uint8_t* in, std::size_t n_inputs, std::size_t blocks,
                                 const std::uint32_t key[8], std::uint64_t counter, bool increment,
                                 std::uint32_t flags, std::uint32_t flags_start, std::uint32_t flags_end,
                                 std::uint8_t* out) noexcept {
  const std::size_t stride = blocks * blake3_block_len;
  const std::uint32_t block_flags[3] = {flags, flags_start, flags_end};
  alignas(64) __m512i cv[8];
  for (; n_inputs >= 16; n_inputs -= 16, in += 16 * stride, out += 16 * blake3_cv_len) {
    for (int i = 0; i < 8; ++i) cv[i] = _mm512_set1_epi32(static_cast<int>(key[i]));
    alignas(64) __m512i counters[2];
    lanes16::counters(counter, increment, counters[0], counters[1]);
    sealwire_blake3_x16_blocks_avx512(in, stride, blocks, cv, counters, block_flags);
    lanes16::store_cvs(out, cv);
    if (increment) counter += 16;
  }
  // The chaining values (for a keyed hash, derived from the key).
  ct::wipe(cv, sizeof cv);
}

void blake3_hash_many_x8_avx512(const std::uint8_t* in, std::size_t n_inputs, std::size_t blocks,
                                const std::uint32_t key[8], std::uint64_t counter, bool increment, std::uint32_t flags,
                                std::uint32_t flags_start, std::uint32_t flags_end, std::uint8_t* out) noexcept {
  blake3_hash_many_lanes<lanes8<vprord_rotate>>(in, n_inputs, blocks, key, counter, increment, flags, flags_start,
                                                flags_end, out);
}

void blake3_hash_many_x4_avx512(const std::uint8_t* in, std::size_t n_inputs, std::size_t blocks,
                                const std::uint32_t key[8], std::uint64_t counter, bool increment, std::uint32_t flags,
                                std::uint32_t flags_start, std::uint32_t flags_end, std::uint8_t* out) noexcept {
  blake3_hash_many_lanes<lanes4<vprord_rotate>>(in, n_inputs, blocks, key, counter, increment, flags, flags_start,
                                                flags_end, out);
}

}  // namespace sealwire::crypto::detail
