// SPDX-License-Identifier: Apache-2.0
// ML-KEM encodings (FIPS 203 4.2.1): ByteEncode/ByteDecode (Algorithms 5, 6)
// and Compress/Decompress (equations 4.7, 4.8), constant time: rounding
// divisions by q are done by a multiplication and a shift (the "KyberSlash"
// timing leak came from compiling them to a division instruction).
#pragma once

#include "poly.hpp"

#include <cstdint>

namespace sealwire::crypto::mlkem {

// compress returns Compress_d(x) = round(2^d x / q) mod 2^d for x in [0, q),
// d <= 11, without a division.
[[nodiscard]] inline std::uint32_t compress(std::uint32_t x, unsigned d) noexcept {
  // floor(v / q) = (v * ceil(2^40 / q)) >> 40 for every v < 2^23 (checked
  // exhaustively for the inputs here by the tests).
  constexpr std::uint64_t m = ((std::uint64_t{1} << 40) + q - 1) / q;
  const std::uint64_t v = (std::uint64_t{x} << d) + q / 2;
  return static_cast<std::uint32_t>((v * m) >> 40) & ((1u << d) - 1);
}

// decompress returns Decompress_d(y) = round(q y / 2^d).
[[nodiscard]] inline std::int16_t decompress(std::uint32_t y, unsigned d) noexcept {
  return static_cast<std::int16_t>((y * static_cast<std::uint32_t>(q) + (1u << (d - 1))) >> d);
}

// encode12 writes ByteEncode_12(a) (384 bytes); coefficients |a| < q are
// first mapped to [0, q).
void encode12(std::uint8_t* out, const poly& a) noexcept;

// decode12_checked reads ByteDecode_12 and reports whether every coefficient
// was below q (the modulus check of FIPS 203 7.2; public data, may branch
// on the verdict).
[[nodiscard]] bool decode12_checked(poly& a, const std::uint8_t* in) noexcept;

// decode12_reduce reads ByteDecode_12 reducing each 12-bit value mod q
// (Algorithm 6 for d = 12) in constant time: for secret inputs (dk_PKE).
void decode12_reduce(poly& a, const std::uint8_t* in) noexcept;

// compress_encode writes ByteEncode_d(Compress_d(a)) (32 d bytes), d in
// {4, 5, 10, 11}; coefficients |a| < q.
void compress_encode(std::uint8_t* out, const poly& a, unsigned d) noexcept;

// decode_decompress reads Decompress_d(ByteDecode_d(in)), d in {4, 5, 10, 11}.
void decode_decompress(poly& a, const std::uint8_t* in, unsigned d) noexcept;

// poly_from_message sets a = Decompress_1(ByteDecode_1(m)) for a 32-byte m
// (FIPS 203 Algorithm 14 line 20), constant time.
void poly_from_message(poly& a, const std::uint8_t m[32]) noexcept;

// poly_to_message writes ByteEncode_1(Compress_1(a)) (Algorithm 15 line 7),
// constant time; coefficients |a| < q.
void poly_to_message(std::uint8_t m[32], const poly& a) noexcept;

}  // namespace sealwire::crypto::mlkem
