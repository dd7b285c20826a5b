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

// chacha_qr_x4: four independent quarter rounds (RFC 8439 2.1), each step
// of the four in turn (breadth first) instead of one quarter round after
// another. Each quarter round is a chain of twelve dependent operations;
// issued in this order, an out-of-order core sees four ready operations at
// every point of the chain, which the sixteen-block vector kernels need
// to keep two vector ports busy (their rounds in zmm registers, measured on
// the Intel host 2026-12-04: 5.9-6.3 -> 6.5-6.6 operations per ns).
template <class W>
[[gnu::always_inline]] static inline void chacha_qr_x4(W& a0, W& b0, W& c0, W& d0, W& a1, W& b1, W& c1, W& d1, W& a2,
                                                       W& b2, W& c2, W& d2, W& a3, W& b3, W& c3, W& d3) noexcept {
  const auto half = [&]<int R1, int R2>() {
    a0 = a0 + b0; a1 = a1 + b1; a2 = a2 + b2; a3 = a3 + b3;
    d0 = d0 ^ a0; d1 = d1 ^ a1; d2 = d2 ^ a2; d3 = d3 ^ a3;
    d0 = rotl<R1>(d0); d1 = rotl<R1>(d1); d2 = rotl<R1>(d2); d3 = rotl<R1>(d3);
    c0 = c0 + d0; c1 = c1 + d1; c2 = c2 + d2; c3 = c3 + d3;
    b0 = b0 ^ c0; b1 = b1 ^ c1; b2 = b2 ^ c2; b3 = b3 ^ c3;
    b0 = rotl<R2>(b0); b1 = rotl<R2>(b1); b2 = rotl<R2>(b2); b3 = rotl<R2>(b3);
  };
  half.template operator()<16, 12>();
  half.template operator()<8, 7>();
}

// chacha_double_round_x4: chacha_double_round with each round's four
// quarter rounds breadth first (chacha_qr_x4).
template <class W>
[[gnu::always_inline]] static inline void chacha_double_round_x4(W& x0, W& x1, W& x2, W& x3, W& x4, W& x5, W& x6,
                                                                 W& x7, W& x8, W& x9, W& x10, W& x11, W& x12, W& x13,
                                                                 W& x14, W& x15) noexcept {
  chacha_qr_x4(x0, x4, x8, x12, x1, x5, x9, x13, x2, x6, x10, x14, x3, x7, x11, x15);
  chacha_qr_x4(x0, x5, x10, x15, x1, x6, x11, x12, x2, x7, x8, x13, x3, x4, x9, x14);
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
