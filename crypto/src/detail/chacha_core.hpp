// The ChaCha double round on sixteen words held in local variables.
#pragma once

#include "bytes.hpp"

#include <cstdint>

namespace sealwire::crypto::detail {

[[gnu::always_inline]] static inline void chacha_qr(std::uint32_t& a, std::uint32_t& b, std::uint32_t& c,
                                                    std::uint32_t& d) noexcept {
  // RFC 8439 2.1
  a += b; d ^= a; d = rotl32(d, 16);
  c += d; b ^= c; b = rotl32(b, 12);
  a += b; d ^= a; d = rotl32(d, 8);
  c += d; b ^= c; b = rotl32(b, 7);
}

// chacha_rounds applies `rounds` rounds (column then diagonal, RFC 8439 2.3).
[[gnu::always_inline]] static inline void chacha_rounds(std::uint32_t& x0, std::uint32_t& x1, std::uint32_t& x2,
                                                        std::uint32_t& x3, std::uint32_t& x4, std::uint32_t& x5,
                                                        std::uint32_t& x6, std::uint32_t& x7, std::uint32_t& x8,
                                                        std::uint32_t& x9, std::uint32_t& x10, std::uint32_t& x11,
                                                        std::uint32_t& x12, std::uint32_t& x13, std::uint32_t& x14,
                                                        std::uint32_t& x15, unsigned rounds) noexcept {
  for (unsigned i = 0; i < rounds; i += 2) {
    chacha_qr(x0, x4, x8, x12);
    chacha_qr(x1, x5, x9, x13);
    chacha_qr(x2, x6, x10, x14);
    chacha_qr(x3, x7, x11, x15);
    chacha_qr(x0, x5, x10, x15);
    chacha_qr(x1, x6, x11, x12);
    chacha_qr(x2, x7, x8, x13);
    chacha_qr(x3, x4, x9, x14);
  }
}

}  // namespace sealwire::crypto::detail
