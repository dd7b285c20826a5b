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

// Requires st.powers == radix44x8 with the lanes live (poly1305.cpp's
// poly1305_direct_lanes) and rounds == 20. `start`: the lanes begin with
// this call's first group (h joins lane 0).
void chacha20_poly1305_x16_ifma(const std::uint32_t w[16], std::uint64_t counter, std::uint8_t* out,
                                const std::uint8_t* in, std::size_t steps, poly1305_state& st,
                                const std::uint8_t* mac, bool start) noexcept {
  const multiplier44 step = step_multipliers(st);
  const __m512i top = _mm512_set1_epi64(static_cast<long long>(std::uint64_t{1} << 40));
  limbs44 acc;
  if (start) {
    // The first group goes in without a multiplication; h joins lane 0
    // (as poly1305_lanes_ifma starts its lanes).
    acc = split(_mm512_loadu_si512(mac), _mm512_loadu_si512(mac + 64), top);
    add_h(acc, st, 1);
  } else {
    acc = load_lanes(st);
  }
  // The groups of 8 blocks of `mac` still to absorb in this step (the
  // started lanes took the first group already).
  unsigned g = start ? 1 : 0;
  auto absorb = [&](const std::uint8_t* p) {
    mul(acc, step);
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
      chacha_double_round(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15);
      if (i >= g && i < 8) absorb(mac + 128 * i);
    }
    g = 0;
    // The keystream: all of `mac` for this step was loaded above, so `out`
    // may be `mac` (an opener decrypting in place what it MACs).
    xor_keystream_x16(x0 + j[0], x1 + j[1], x2 + j[2], x3 + j[3], x4 + j[4], x5 + j[5], x6 + j[6], x7 + j[7],
                      x8 + j[8], x9 + j[9], x10 + j[10], x11 + j[11], x12 + j[12], x13 + j[13], x14 + j[14],
                      x15 + j[15], in, out);
  }
  store_lanes(st, acc);
}

}  // namespace sealwire::crypto::detail
