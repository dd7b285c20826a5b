// SPDX-License-Identifier: Apache-2.0
// X448 (RFC 7748 section 5): the Montgomery ladder on Curve448 over
// GF(p), p = 2^448 - 2^224 - 1, in portable 64-bit code (eight 56-bit limbs).
#include <sealwire/crypto/x448.hpp>

#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/random.hpp>

#include "detail/curve448_field.hpp"

#include <cstddef>
#include <cstdint>
#include <system_error>

namespace sealwire::crypto {
namespace {

using namespace detail::curve448;

// cswap exchanges (x2, z2) and (x3, z3) when mask is all ones and leaves
// them when it is zero, with the same loads and stores either way.
inline void cswap(fe& x2, fe& z2, fe& x3, fe& z3, std::uint64_t mask) noexcept {
  limbwise([&](int i) {
    const std::uint64_t dx = mask & (x2.l[i] ^ x3.l[i]);
    const std::uint64_t dz = mask & (z2.l[i] ^ z3.l[i]);
    x2.l[i] ^= dx;
    x3.l[i] ^= dx;
    z2.l[i] ^= dz;
    z3.l[i] ^= dz;
  });
}

// ladder_state is everything the ladder derives from the scalar, kept
// together so that one wipe clears it.
struct ladder_state {
  std::uint8_t k[56];
  fe x1, x2, z2, x3, z3;
  fe a, aa, b, bb, e, c, d, da, cb;
};

// x448_raw computes the canonical encoding of X448(scalar, u) per RFC 7748
// section 5.
void x448_raw(std::uint8_t* out, const std::uint8_t* scalar, const std::uint8_t* u) noexcept {
  // a24 = (156326 - 2) / 4, RFC 7748 section 5.
  constexpr std::uint64_t a24 = 39081;
  ladder_state s;
  // decodeScalar448 (RFC 7748 section 5): clear the two low bits (a multiple
  // of the cofactor 4) and set bit 447 (a fixed ladder length).
  for (int i = 0; i < 56; ++i) s.k[i] = scalar[i];
  s.k[0] &= 252;
  s.k[55] |= 128;
  decode(s.x1, u);
  s.x2 = fe{{1, 0, 0, 0, 0, 0, 0, 0}};
  s.z2 = fe{};
  s.x3 = s.x1;
  s.z3 = fe{{1, 0, 0, 0, 0, 0, 0, 0}};
  std::uint64_t swap = 0;
  for (int t = 447; t >= 0; --t) {
    const std::uint64_t k_t = static_cast<std::uint64_t>(s.k[t >> 3] >> (t & 7)) & 1u;
    swap ^= k_t;
    cswap(s.x2, s.z2, s.x3, s.z3, ct::mask_from_bit(swap));
    swap = k_t;
    // The RFC 7748 section 5 step with its names, sums and differences
    // paired; x3 and z3 first hold DA + CB and DA - CB.
    add_sub(s.a, s.b, s.x2, s.z2);
    add_sub(s.c, s.d, s.x3, s.z3);
    sqr(s.aa, s.a);
    sqr(s.bb, s.b);
    mul(s.da, s.d, s.a);
    mul(s.cb, s.c, s.b);
    add_sub(s.x3, s.z3, s.da, s.cb);
    sqr(s.x3, s.x3);
    sqr(s.z3, s.z3);
    mul(s.z3, s.x1, s.z3);
    mul(s.x2, s.aa, s.bb);
    sub(s.e, s.aa, s.bb);
    mul_small_add(s.z2, s.e, a24, s.aa);
    mul(s.z2, s.e, s.z2);
  }
  cswap(s.x2, s.z2, s.x3, s.z3, ct::mask_from_bit(swap));
  // x2 * z2^(p-2); z2 = 0 (a low-order input) gives 0, caught by the caller.
  invert(s.z2, s.z2);
  mul(s.x2, s.x2, s.z2);
  encode(out, s.x2);
  ct::wipe_object(s);
}

}  // namespace

result<void> x448::shared_secret(std::span<std::uint8_t, 56> out, scalar_span scalar,
                                 std::span<const std::uint8_t> peer) noexcept {
  if (peer.size() != point_size) {
    ct::wipe(out);
    return crypto_errc::invalid_public_key;
  }
  x448_raw(out.data(), scalar.data(), peer.data());
  // RFC 7748 section 6.2: an all-zero result means a low-order peer point;
  // the check is constant time and only its verdict is branched on.
  if (ct::is_zero(out)) {
    ct::wipe(out);
    return crypto_errc::zero_shared_secret;
  }
  return {};
}

void x448::public_key(std::span<std::uint8_t, 56> out, scalar_span scalar) noexcept {
  // RFC 7748 section 4.2: the base point has u = 5.
  static constexpr std::uint8_t base[56] = {5};
  x448_raw(out.data(), scalar.data(), base);
}

result<void> x448::generate(std::span<std::uint8_t, 56> private_key, std::span<std::uint8_t, 56> public_key) noexcept {
  // RFC 7748 section 6.2: the private key is 56 random bytes; decoding
  // shapes it, so no rejection is needed.
  if (auto r = random_bytes(private_key); !r) {
    ct::wipe(private_key);
    ct::wipe(public_key);
    return r;
  }
  x448::public_key(public_key, private_key);
  return {};
}

std::string_view x448::provider() noexcept { return "portable"; }

}  // namespace sealwire::crypto
