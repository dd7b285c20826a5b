// SPDX-License-Identifier: Apache-2.0
// The ChaCha quarter round and double rounds, written once for any word type
// W with +, ^ and rotl<N>: uint32_t for the portable code, a vector of lanes
// (one block per lane, or one row per lane) for the instruction-set kernels.
// Internal linkage (static), so each instruction-set file gets its own copy.
#pragma once

#include "bytes.hpp"

#include <cstdint>

namespace sealwire::crypto::detail {

template <class W>
[[gnu::always_inline]] static inline void chacha_qr(W& a, W& b, W& c, W& d) noexcept {
  // RFC 8439 2.1
  a = a + b; d = rotl<16>(d ^ a);
  c = c + d; b = rotl<12>(b ^ c);
  a = a + b; d = rotl<8>(d ^ a);
  c = c + d; b = rotl<7>(b ^ c);
}

// chacha_double_round: a column round then a diagonal round (RFC 8439 2.3)
// on sixteen words held in locals.
template <class W>
[[gnu::always_inline]] static inline void chacha_double_round(W& x0, W& x1, W& x2, W& x3, W& x4, W& x5, W& x6, W& x7,
                                                              W& x8, W& x9, W& x10, W& x11, W& x12, W& x13, W& x14,
                                                              W& x15) noexcept {
  chacha_qr(x0, x4, x8, x12);
  chacha_qr(x1, x5, x9, x13);
  chacha_qr(x2, x6, x10, x14);
  chacha_qr(x3, x7, x11, x15);
  chacha_qr(x0, x5, x10, x15);
  chacha_qr(x1, x6, x11, x12);
  chacha_qr(x2, x7, x8, x13);
  chacha_qr(x3, x4, x9, x14);
}

// chacha_rounds applies `rounds` rounds (an even number) to sixteen words
// held in locals.
template <class W>
[[gnu::always_inline]] static inline void chacha_rounds(W& x0, W& x1, W& x2, W& x3, W& x4, W& x5, W& x6, W& x7, W& x8,
                                                        W& x9, W& x10, W& x11, W& x12, W& x13, W& x14, W& x15,
                                                        unsigned rounds) noexcept {
  for (unsigned i = 0; i < rounds; i += 2)
    chacha_double_round(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15);
}

namespace {  // internal linkage: instantiated per instruction-set file

// chacha_family tells the block-parallel kernels where ChaCha keeps its
// 64-bit block counter (words 12 and 13) and how to run its rounds.
struct chacha_family {
  static constexpr int counter_lo = 12;
  static constexpr int counter_hi = 13;
  template <class W>
  static void rounds(W& x0, W& x1, W& x2, W& x3, W& x4, W& x5, W& x6, W& x7, W& x8, W& x9, W& x10, W& x11, W& x12,
                     W& x13, W& x14, W& x15, unsigned n) noexcept {
    chacha_rounds(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15, n);
  }
};

}  // namespace

}  // namespace sealwire::crypto::detail
