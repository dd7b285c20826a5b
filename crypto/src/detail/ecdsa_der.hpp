// SPDX-License-Identifier: Apache-2.0
// The DER form of an ECDSA signature, SEQUENCE { INTEGER r, INTEGER s }
// (RFC 5480 2.2.3 / SEC 1 C.8, X.690 8.3 and 10.1): strict encoding and
// decoding for fixed-width unsigned r and s.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace sealwire::crypto::detail {

// der_signature_max is the longest DER signature for width-byte r and s.
constexpr std::size_t der_signature_max(std::size_t width) noexcept {
  const std::size_t body = 2 * (2 + width + 1);
  return (body < 128 ? 2 : 3) + body;
}

// der_encode_signature writes the DER signature of the big-endian r and s
// (width bytes each, width + 1 below 128) to out, which holds at least
// der_signature_max(width) bytes, and returns its length. Values are public.
std::size_t der_encode_signature(std::uint8_t* out, const std::uint8_t* r, const std::uint8_t* s,
                                 std::size_t width) noexcept;

// der_decode_signature reads a strict DER signature into big-endian r and s
// of width bytes each. False for anything but one SEQUENCE holding exactly
// two non-negative INTEGERs in minimal form with definite minimal lengths
// and nothing after it, or an INTEGER wider than width bytes. Range checks
// against the group order are the caller's.
bool der_decode_signature(std::uint8_t* r, std::uint8_t* s, std::span<const std::uint8_t> der,
                          std::size_t width) noexcept;

}  // namespace sealwire::crypto::detail
