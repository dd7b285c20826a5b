// SPDX-License-Identifier: Apache-2.0
// The IFMA Poly1305 step of the stitched kernel (poly1305_ifma.hpp's
// split_bare and mul_add) behind a plain function on arrays, so that
// test_poly1305_ifma_bounds.cpp, built for any CPU, can reach it and skip
// where the CPU has no IFMA. This file alone is built with the IFMA flags
// (tests/CMakeLists.txt).
#include "poly1305_ifma_probe.hpp"

#include "detail/poly1305_ifma.hpp"

namespace sealwire::test::poly1305_ifma {

void mul_add(std::uint64_t acc[24], const std::uint64_t m[40], const std::uint8_t blocks[128]) {
  using namespace crypto::detail;
  limbs44 a = {_mm512_loadu_si512(acc), _mm512_loadu_si512(acc + 8), _mm512_loadu_si512(acc + 16)};
  const multiplier44 mm = {_mm512_loadu_si512(m), _mm512_loadu_si512(m + 8), _mm512_loadu_si512(m + 16),
                           _mm512_loadu_si512(m + 24), _mm512_loadu_si512(m + 32)};
  crypto::detail::mul_add(a, mm, split_bare(_mm512_loadu_si512(blocks), _mm512_loadu_si512(blocks + 64)));
  _mm512_storeu_si512(acc, a.l0);
  _mm512_storeu_si512(acc + 8, a.l1);
  _mm512_storeu_si512(acc + 16, a.l2);
}

}  // namespace sealwire::test::poly1305_ifma
