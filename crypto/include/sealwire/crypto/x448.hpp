// SPDX-License-Identifier: Apache-2.0
// X448 (RFC 7748 section 5): Diffie-Hellman on Curve448 with the Montgomery
// ladder, as used by HPKE's DHKEM(X448, HKDF-SHA512). For public-key
// encryption start from hpke/single_shot.hpp.
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/result.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace sealwire::crypto {

// x448 is the X448 function of RFC 7748 section 5 (Curve448, Montgomery ladder).
struct SEALWIRE_API x448 {
  // scalar_size is the length of a private key (a scalar) in bytes.
  static constexpr std::size_t scalar_size = 56;
  // point_size is the length of a public key (a u-coordinate) in bytes.
  static constexpr std::size_t point_size = 56;
  // scalar_span is a private key of exactly 56 bytes.
  using scalar_span = std::span<const std::uint8_t, 56>;
  // point_span is a public key of exactly 56 bytes.
  using point_span = std::span<const std::uint8_t, 56>;

  // shared_secret computes X448(scalar, peer) into out. Any 56-byte string is
  // accepted as a u-coordinate (RFC 7748 5: non-canonical values are reduced
  // modulo p). Errors (out zeroed): invalid_public_key unless peer is 56
  // bytes; zero_shared_secret when the result is all zero (a low-order or
  // small-subgroup point). One overload taking any length, so arrays and
  // fixed-size spans convert without ambiguity.
  [[nodiscard]] static result<void> shared_secret(std::span<std::uint8_t, 56> out, scalar_span scalar,
                                                  std::span<const std::uint8_t> peer) noexcept;

  // public_key computes X448(scalar, 5).
  static void public_key(std::span<std::uint8_t, 56> out, scalar_span scalar) noexcept;

  // generate draws a private scalar from the CSPRNG (sealwire::crypto::random_bytes)
  // and computes its public key; error: the random source's (outputs zeroed).
  [[nodiscard]] static result<void> generate(std::span<std::uint8_t, 56> private_key,
                                             std::span<std::uint8_t, 56> public_key) noexcept;

  // provider names the implementation ("portable").
  [[nodiscard]] static std::string_view provider() noexcept;
};

}  // namespace sealwire::crypto
