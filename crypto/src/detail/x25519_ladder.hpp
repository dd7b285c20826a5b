// SPDX-License-Identifier: Apache-2.0
// The X25519 Montgomery ladder (RFC 7748 section 5) over the Curve25519 field
// of fe25519.hpp. Internal linkage, so a BMI2/ADX build of the same code
// (mulx) can sit beside the portable one.
#pragma once

#include <sealwire/crypto/ct.hpp>

#include "fe25519.hpp"

#include <cstdint>

namespace sealwire::crypto::detail {
namespace {

// x25519_ladder computes out = X25519(k, u) with k already decoded (clamped).
inline void x25519_ladder(std::uint8_t out[32], const std::uint8_t k[32], const std::uint8_t u[32]) noexcept {
  const fe x1 = fe_load(u);
  fe x2{{1, 0, 0, 0, 0}}, z2{{0, 0, 0, 0, 0}}, x3 = x1, z3{{1, 0, 0, 0, 0}};
  std::uint64_t swap = 0;
  for (int t = 254; t >= 0; --t) {
    const std::uint64_t bit = static_cast<std::uint64_t>(k[t >> 3] >> (t & 7)) & 1u;  // index depends on t only
    swap ^= bit;
    cswap(x2, x3, swap);
    cswap(z2, z3, swap);
    swap = bit;
    // RFC 7748 5: one differential addition and one doubling.
    const fe a = fe_add(x2, z2), b = fe_sub(x2, z2), c = fe_add(x3, z3), d = fe_sub(x3, z3);
    const fe aa = fe_sqr(a), bb = fe_sqr(b);
    const fe da = fe_mul(d, a), cb = fe_mul(c, b);
    const fe e = fe_sub(aa, bb);
    x3 = fe_sqr(fe_add(da, cb));
    z3 = fe_mul(x1, fe_sqr(fe_sub(da, cb)));
    x2 = fe_mul(aa, bb);
    z2 = fe_mul(e, fe_add(aa, fe_mul_small(e, 121665)));  // a24 = (486662 - 2) / 4
  }
  cswap(x2, x3, swap);
  cswap(z2, z3, swap);
  fe_store(out, fe_mul(x2, fe_invert(z2)));
  ct::wipe_object(x2);
  ct::wipe_object(z2);
  ct::wipe_object(x3);
  ct::wipe_object(z3);
}

}  // namespace
}  // namespace sealwire::crypto::detail
