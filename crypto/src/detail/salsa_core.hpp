// The Salsa20 double round on sixteen words held in local variables.
#pragma once

#include "bytes.hpp"

#include <cstdint>

namespace sealwire::crypto::detail {

// salsa_qr is the Salsa20 quarterround(y0, y1, y2, y3) of the specification.
[[gnu::always_inline]] static inline void salsa_qr(std::uint32_t& y0, std::uint32_t& y1, std::uint32_t& y2,
                                                   std::uint32_t& y3) noexcept {
  y1 ^= rotl32(y0 + y3, 7);
  y2 ^= rotl32(y1 + y0, 9);
  y3 ^= rotl32(y2 + y1, 13);
  y0 ^= rotl32(y3 + y2, 18);
}

// salsa_rounds applies `rounds` rounds: a column round, then a row round.
[[gnu::always_inline]] static inline void salsa_rounds(std::uint32_t& x0, std::uint32_t& x1, std::uint32_t& x2,
                                                       std::uint32_t& x3, std::uint32_t& x4, std::uint32_t& x5,
                                                       std::uint32_t& x6, std::uint32_t& x7, std::uint32_t& x8,
                                                       std::uint32_t& x9, std::uint32_t& x10, std::uint32_t& x11,
                                                       std::uint32_t& x12, std::uint32_t& x13, std::uint32_t& x14,
                                                       std::uint32_t& x15, unsigned rounds) noexcept {
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

}  // namespace sealwire::crypto::detail
