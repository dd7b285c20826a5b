// SPDX-License-Identifier: Apache-2.0
// The Edwards448 group (RFC 8032 5.2: x^2 + y^2 = 1 + d x^2 y^2, d = -39081,
// over the Curve448 field) for Ed448: point encoding (5.2.2) and decoding
// (5.2.3), constant-time fixed-base multiplication for signing, and the
// variable-time verification equation.
#pragma once

#include "curve448_field.hpp"
#include "ed448_scalar.hpp"

#include <cstdint>

namespace sealwire::crypto::detail::ed448_group {

// point is (X : Y : Z), the affine point (X/Z, Y/Z) (RFC 8032 5.2.4).
struct point {
  curve448::fe x, y, z;
};

// base_mul sets out = [s]B for the base point B, in constant time (the
// table lookups read every entry of a row).
void base_mul(point& out, const ed448_scalar::scalar& s) noexcept;

// encode writes the 57-byte encoding of p (RFC 8032 5.2.2), in constant time.
void encode(std::uint8_t* out, const point& p) noexcept;

// decode reads a 57-byte encoding (RFC 8032 5.2.3) and reports whether it is
// canonical (y < p, the unused bits of the last byte zero) and on the curve
// (not x = 0 with the sign bit set). Variable time: for public points.
[[nodiscard]] bool decode(point& out, const std::uint8_t* in) noexcept;

// verify_equation reports whether [4][s]B = [4]R + [4][k]A, the group
// equation of RFC 8032 5.2.7 step 3, for decoded A and R. Variable time.
[[nodiscard]] bool verify_equation(const ed448_scalar::scalar& s, const ed448_scalar::scalar& k, const point& a,
                                   const point& r) noexcept;

}  // namespace sealwire::crypto::detail::ed448_group
