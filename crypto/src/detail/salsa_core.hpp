// SPDX-License-Identifier: Apache-2.0
// The Salsa20 quarter round and double rounds, written once for any word type
// W with +, ^ and rotl<N> (see chacha_core.hpp). Internal linkage.
#pragma once

#include "bytes.hpp"

#include <cstdint>

namespace sealwire::crypto::detail {

// salsa_qr is the Salsa20 quarterround(y0, y1, y2, y3) of the specification.
template <class W>
[[gnu::always_inline]] static inline void salsa_qr(W& y0, W& y1, W& y2, W& y3) noexcept {
  y1 = y1 ^ rotl<7>(y0 + y3);
  y2 = y2 ^ rotl<9>(y1 + y0);
  y3 = y3 ^ rotl<13>(y2 + y1);
  y0 = y0 ^ rotl<18>(y3 + y2);
}

// salsa_rounds applies `rounds` rounds: a column round, then a row round.
template <class W>
[[gnu::always_inline]] static inline void salsa_rounds(W& x0, W& x1, W& x2, W& x3, W& x4, W& x5, W& x6, W& x7, W& x8,
                                                       W& x9, W& x10, W& x11, W& x12, W& x13, W& x14, W& x15,
                                                       unsigned rounds) noexcept {
  for (unsigned i = 0; i < rounds; i += 2) {
    salsa_qr(x0, x4, x8, x12);
    salsa_qr(x5, x9, x13, x1);
    salsa_qr(x10, x14, x2, x6);
    salsa_qr(x15, x3, x7, x11);
    salsa_qr(x0, x1, x2, x3);
    salsa_qr(x5, x6, x7, x4);
    salsa_qr(x10, x11, x8, x9);
    salsa_qr(x15, x12, x13, x14);
  }
}

namespace {  // internal linkage: instantiated per instruction-set file

// salsa_family: Salsa20 keeps its 64-bit block counter in words 8 and 9.
struct salsa_family {
  static constexpr int counter_lo = 8;
  static constexpr int counter_hi = 9;
  template <class W>
  static void rounds(W& x0, W& x1, W& x2, W& x3, W& x4, W& x5, W& x6, W& x7, W& x8, W& x9, W& x10, W& x11, W& x12,
                     W& x13, W& x14, W& x15, unsigned n) noexcept {
    salsa_rounds(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15, n);
  }
};

}  // namespace

}  // namespace sealwire::crypto::detail
