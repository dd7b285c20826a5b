// SPDX-License-Identifier: Apache-2.0
// The X25519 Montgomery ladder (RFC 7748 section 5) on the four-limb field of
// fe25519_4x64.hpp (mulx, adcx, adox), for CPUs with BMI2 and ADX; x25519.cpp
// chooses it at run time.
#include <sealwire/crypto/ct.hpp>

#include "detail/fe25519_4x64.hpp"

namespace sealwire::crypto::detail {
namespace {

// ladder computes out = X25519(k, u) with k already decoded (clamped). With
// base_point the caller passes u = 9 and the product by x1 becomes a product
// by the small constant 9 (u is public either way).
template <bool base_point>
void ladder(std::uint8_t out[32], const std::uint8_t k[32], const std::uint8_t u[32]) noexcept {
  const fe64 x1 = fe64_load(u);
  fe64 x2{{1, 0, 0, 0}}, z2{{0, 0, 0, 0}}, x3 = x1, z3{{1, 0, 0, 0}};
  std::uint64_t swap = 0;
  for (int t = 254; t >= 0; --t) {
    const std::uint64_t bit = static_cast<std::uint64_t>(k[t >> 3] >> (t & 7)) & 1u;  // index depends on t only
    swap ^= bit;
    fe64_cswap(x2, x3, swap);
    fe64_cswap(z2, z3, swap);
    swap = bit;
    // RFC 7748 5: one differential addition and one doubling.
    fe64 a, b, c, d, s, r;
    fe64_add_sub(x2, z2, a, b);
    fe64_add_sub(x3, z3, c, d);
    const fe64 aa = fe64_sqr(a), bb = fe64_sqr(b);
    const fe64 da = fe64_mul(d, a), cb = fe64_mul(c, b);
    const fe64 e = fe64_sub(aa, bb);
    fe64_add_sub(da, cb, s, r);
    x3 = fe64_sqr(s);
    if constexpr (base_point) {
      z3 = fe64_mul_small<9>(fe64_sqr(r));
    } else {
      z3 = fe64_mul(x1, fe64_sqr(r));
    }
    x2 = fe64_mul(aa, bb);
    z2 = fe64_mul(e, fe64_a24_add(e, aa));  // a24 = (486662 - 2) / 4
  }
  fe64_cswap(x2, x3, swap);
  fe64_cswap(z2, z3, swap);
  fe64_store(out, fe64_mul(x2, fe64_invert(z2)));
  ct::wipe_object(x2);
  ct::wipe_object(z2);
  ct::wipe_object(x3);
  ct::wipe_object(z3);
}

}  // namespace

void x25519_bmi2(std::uint8_t out[32], const std::uint8_t k[32], const std::uint8_t u[32]) noexcept {
  ladder<false>(out, k, u);
}

// x25519_bmi2_base is x25519_bmi2(out, k, 9), the public key of k.
void x25519_bmi2_base(std::uint8_t out[32], const std::uint8_t k[32]) noexcept {
  constexpr std::uint8_t nine[32] = {9};
  ladder<true>(out, k, nine);
}

}  // namespace sealwire::crypto::detail
