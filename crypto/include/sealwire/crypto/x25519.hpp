// SPDX-License-Identifier: Apache-2.0
// X25519 (RFC 7748 section 5): Diffie-Hellman on Curve25519 with the
// Montgomery ladder, constant time. The primitive behind HPKE's default KEM;
// for public-key encryption start from hpke/single_shot.hpp.
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/result.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace sealwire::crypto {

// x25519 is the X25519 function of RFC 7748 section 5.
struct SEALWIRE_API x25519 {
  // scalar_size is the length of a private key (a scalar) in bytes.
  static constexpr std::size_t scalar_size = 32;
  // point_size is the length of a public key (a u-coordinate) in bytes.
  static constexpr std::size_t point_size = 32;
  // scalar_span is a private key of exactly 32 bytes.
  using scalar_span = std::span<const std::uint8_t, 32>;
  // point_span is a public key of exactly 32 bytes.
  using point_span = std::span<const std::uint8_t, 32>;

  // shared_secret computes X25519(scalar, peer) into out. Any 32-byte string
  // is accepted as a u-coordinate (RFC 7748 5: the top bit is ignored and
  // non-canonical values are reduced). Errors: invalid_public_key when peer
  // is not 32 bytes; zero_shared_secret when the result is all zero (a
  // low-order or small-subgroup point), out then zeroed. HPKE and the record
  // handshake rely on this check.
  [[nodiscard]] static result<void> shared_secret(std::span<std::uint8_t, 32> out, scalar_span scalar,
                                                  std::span<const std::uint8_t> peer) noexcept;

  // public_key computes X25519(scalar, 9).
  static void public_key(std::span<std::uint8_t, 32> out, scalar_span scalar) noexcept;

  // generate draws a private scalar from the CSPRNG and computes its public
  // key. Error: the random source's (both outputs zeroed).
  [[nodiscard]] static result<void> generate(std::span<std::uint8_t, 32> private_key,
                                             std::span<std::uint8_t, 32> public_key) noexcept;

  // provider names the field arithmetic that runs at the current CPU level.
  [[nodiscard]] static std::string_view provider() noexcept;
};

}  // namespace sealwire::crypto
