// SPDX-License-Identifier: Apache-2.0
// Scalars modulo the Ed25519 group order L = 2^252 + 27742317777372353535851937790883648493
// (RFC 8032 5.1): reduction of a 512-bit hash, multiply-add, canonical check.
// Inputs and outputs are 32-byte little-endian strings; constant time except
// where named _vartime.
#pragma once

#include <cstdint>

namespace sealwire::crypto::detail {

// sc_reduce64 writes in mod L for a 64-byte in (a SHA-512 output, RFC 8032 5.1.6 and 5.1.7).
void sc_reduce64(std::uint8_t out[32], const std::uint8_t in[64]) noexcept;

// sc_muladd writes (a * b + c) mod L for any 32-byte a, b, c (RFC 8032 5.1.6 step 5).
void sc_muladd(std::uint8_t out[32], const std::uint8_t a[32], const std::uint8_t b[32],
               const std::uint8_t c[32]) noexcept;

// sc_is_canonical_vartime reports s < L (RFC 8032 5.1.7 step 1); for public s.
bool sc_is_canonical_vartime(const std::uint8_t s[32]) noexcept;

}  // namespace sealwire::crypto::detail
