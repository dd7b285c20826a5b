// SPDX-License-Identifier: Apache-2.0
// Scalars modulo the Ed448 group order L = 2^446 - c (RFC 8032 5.2), in
// constant time: reduction of SHAKE256 outputs and of r + k s (5.2.6).
#pragma once

#include <cstddef>
#include <cstdint>

namespace sealwire::crypto::detail::ed448_scalar {

// scalar is a value below L in seven 64-bit words, least significant first.
struct scalar {
  std::uint64_t w[7];
};

// reduce_bytes sets out = n little-endian bytes (n <= 120; 114 for a
// SHAKE256 output, 57 for a clamped secret) modulo L, in time that depends
// only on n.
void reduce_bytes(scalar& out, const std::uint8_t* in, std::size_t n) noexcept;

// mul_add sets out = (a + b c) mod L in constant time.
void mul_add(scalar& out, const scalar& a, const scalar& b, const scalar& c) noexcept;

// store writes a scalar as 57 little-endian bytes (RFC 8032 5.2.6 step 6).
void store(std::uint8_t* out, const scalar& s) noexcept;

// load_canonical reads 57 little-endian bytes and reports whether the value
// is below L (RFC 8032 5.2.7 step 1); variable time, for public S only.
[[nodiscard]] bool load_canonical(scalar& out, const std::uint8_t* in) noexcept;

}  // namespace sealwire::crypto::detail::ed448_scalar
