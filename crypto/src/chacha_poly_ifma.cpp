// SPDX-License-Identifier: Apache-2.0
// The stitched ChaCha20-Poly1305 kernel for AVX-512 with IFMA: each step
// runs the sixteen-block ChaCha kernel over 1024 bytes and, between its
// double rounds, eight steps of the eight-lane IFMA Poly1305 over another
// 1024 bytes. ChaCha's sixteen independent blocks keep the vector units busy
// while Poly1305's lanes wait out the latency of their multiply-carry chain,
// so the two overlap instead of running one after the other (RFC 8439 2.8
// fixes what is MACed, not in which order the work is done).
#include "detail/chacha_core.hpp"
#include "detail/kernels.hpp"
#include "detail/poly1305_ifma.hpp"
#include "detail/vec_avx512.hpp"

namespace sealwire::crypto::detail {
namespace {

// ChaCha's double round on the sixteen block-parallel state words.
[[gnu::always_inline]] inline void double_round(v16& x0, v16& x1, v16& x2, v16& x3, v16& x4, v16& x5, v16& x6,
                                                v16& x7, v16& x8, v16& x9, v16& x10, v16& x11, v16& x12, v16& x13,
                                                v16& x14, v16& x15) {
  chacha_qr(x0, x4, x8, x12);
  chacha_qr(x1, x5, x9, x13);
  chacha_qr(x2, x6, x10, x14);
  chacha_qr(x3, x7, x11, x15);
  chacha_qr(x0, x5, x10, x15);
  chacha_qr(x1, x6, x11, x12);
  chacha_qr(x2, x7, x8, x13);
  chacha_qr(x3, x4, x9, x14);
}

}  // namespace

// Requires st.powers == radix44x8 with the lanes live (poly1305.cpp's
// poly1305_direct_lanes) and rounds == 20. `start`: the lanes begin with
// this call's first group (h joins lane 0).
void chacha20_poly1305_x16_ifma(const std::uint32_t w[16], std::uint64_t counter, std::uint8_t* out,
                                const std::uint8_t* in, std::size_t steps, poly1305_state& st,
                                const std::uint8_t* mac, bool start) noexcept {
  const __m512i step_r0 = _mm512_set1_epi64(static_cast<long long>(st.pw[0]));
  const __m512i step_r1 = _mm512_set1_epi64(static_cast<long long>(st.pw[8]));
  const __m512i step_r2 = _mm512_set1_epi64(static_cast<long long>(st.pw[16]));
  const __m512i step_s1 = _mm512_set1_epi64(static_cast<long long>(st.pw[24]));
  const __m512i step_s2 = _mm512_set1_epi64(static_cast<long long>(st.pw[32]));
  const __m512i top = _mm512_set1_epi64(static_cast<long long>(std::uint64_t{1} << 40));
  limbs44 acc;
  if (start) {
    // The first group goes in without a multiplication; h joins lane 0
    // (as poly1305_lanes_ifma starts its lanes).
    acc = split(_mm512_loadu_si512(mac), _mm512_loadu_si512(mac + 64), top);
    std::uint64_t hl[3];
    to44(st.h[0], st.h[1], st.h[2], hl);
    acc.l0 = _mm512_mask_add_epi64(acc.l0, 1, acc.l0, _mm512_set1_epi64(static_cast<long long>(hl[0])));
    acc.l1 = _mm512_mask_add_epi64(acc.l1, 1, acc.l1, _mm512_set1_epi64(static_cast<long long>(hl[1])));
    acc.l2 = _mm512_mask_add_epi64(acc.l2, 1, acc.l2, _mm512_set1_epi64(static_cast<long long>(hl[2])));
  } else {
    acc = {_mm512_load_si512(st.lanes), _mm512_load_si512(st.lanes + 8), _mm512_load_si512(st.lanes + 16)};
  }
  // The groups of 8 blocks of `mac` still to absorb in this step (the
  // started lanes took the first group already).
  unsigned g = start ? 1 : 0;
  auto absorb = [&](const std::uint8_t* p) {
    mul(acc, step_r0, step_r1, step_r2, step_s1, step_s2);
    acc = add(acc, split(_mm512_loadu_si512(p), _mm512_loadu_si512(p + 64), top));
  };

  for (; steps != 0; --steps, counter += 16, in += 1024, out += 1024, mac += 1024) {
    v16 j[16];
    for (int i = 0; i < 16; ++i) j[i] = splat(w[i]);
    counter_lanes(counter, j[12], j[13]);
    v16 x0 = j[0], x1 = j[1], x2 = j[2], x3 = j[3], x4 = j[4], x5 = j[5], x6 = j[6], x7 = j[7];
    v16 x8 = j[8], x9 = j[9], x10 = j[10], x11 = j[11], x12 = j[12], x13 = j[13], x14 = j[14], x15 = j[15];
    // Ten double rounds with a Poly1305 step after each of the first eight
    // (the started lanes skip the group they began with).
#pragma GCC unroll 10
    for (unsigned i = 0; i < 10; ++i) {
      double_round(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15);
      if (i >= g && i < 8) absorb(mac + 128 * i);
    }
    g = 0;
    // The keystream: all of `mac` for this step was loaded above, so `out`
    // may be `mac` (an opener decrypting in place what it MACs).
    __m512i t[4][4];
    transpose4(x0 + j[0], x1 + j[1], x2 + j[2], x3 + j[3], t[0]);
    transpose4(x4 + j[4], x5 + j[5], x6 + j[6], x7 + j[7], t[1]);
    transpose4(x8 + j[8], x9 + j[9], x10 + j[10], x11 + j[11], t[2]);
    transpose4(x12 + j[12], x13 + j[13], x14 + j[14], x15 + j[15], t[3]);
    for (int k = 0; k < 4; ++k) {
      const __m512i a = _mm512_shuffle_i32x4(t[0][k], t[1][k], 0x44);
      const __m512i b = _mm512_shuffle_i32x4(t[0][k], t[1][k], 0xee);
      const __m512i c = _mm512_shuffle_i32x4(t[2][k], t[3][k], 0x44);
      const __m512i d = _mm512_shuffle_i32x4(t[2][k], t[3][k], 0xee);
      const __m512i blk[4] = {_mm512_shuffle_i32x4(a, c, 0x88), _mm512_shuffle_i32x4(a, c, 0xdd),
                              _mm512_shuffle_i32x4(b, d, 0x88), _mm512_shuffle_i32x4(b, d, 0xdd)};
      for (int l = 0; l < 4; ++l) {
        const std::size_t off = static_cast<std::size_t>(64 * (4 * l + k));
        _mm512_storeu_si512(out + off, _mm512_xor_si512(_mm512_loadu_si512(in + off), blk[l]));
      }
    }
  }
  _mm512_store_si512(st.lanes, acc.l0);
  _mm512_store_si512(st.lanes + 8, acc.l1);
  _mm512_store_si512(st.lanes + 16, acc.l2);
}

}  // namespace sealwire::crypto::detail
