// SPDX-License-Identifier: Apache-2.0
// ECDH on the NIST prime curves P-256, P-384 and P-521 (FIPS 186-4 D.1.2,
// SEC 1 3.3.1), constant time, with uncompressed SEC 1 public keys as HPKE
// (RFC 9180 7.1.1) serializes them. The primitive behind HPKE's NIST-curve
// KEMs; for public-key encryption start from hpke/single_shot.hpp.
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/result.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace sealwire::crypto {

// nist_curve names a curve: P-256, P-384 or P-521 (FIPS 186-4 D.1.2).
enum class nist_curve { p256, p384, p521 };

// ecdh_nist<C> is ECDH on curve C. Private keys are fixed-length big-endian
// scalars in [1, n-1]; public keys are 0x04 || X || Y (uncompressed SEC 1,
// each coordinate fixed-length big-endian); the shared secret is the X
// coordinate of the product, fixed-length big-endian (SEC 1 3.3.1).
template <nist_curve C>
struct SEALWIRE_API ecdh_nist {
  // scalar_size is the length in bytes of a private key (and of a coordinate):
  // 32, 48 or 66.
  static constexpr std::size_t scalar_size = C == nist_curve::p256 ? 32 : C == nist_curve::p384 ? 48 : 66;
  // point_size is the length in bytes of an uncompressed public key.
  static constexpr std::size_t point_size = 1 + 2 * scalar_size;
  // secret_size is the length in bytes of a shared secret (an X coordinate).
  static constexpr std::size_t secret_size = scalar_size;
  // scalar_span is a private key of exactly scalar_size bytes.
  using scalar_span = std::span<const std::uint8_t, scalar_size>;
  // point_span is a public key of exactly point_size bytes.
  using point_span = std::span<const std::uint8_t, point_size>;

  // shared_secret computes the X coordinate of scalar * peer into out.
  // Errors (out zeroed): invalid_key when the scalar is 0 or not below the
  // group order n; invalid_public_key unless peer is point_size bytes,
  // starts with 0x04 (compressed and hybrid forms are refused), has both
  // coordinates below p and lies on the curve. The point at infinity has no
  // uncompressed encoding and is refused with the prefix. Constant time in
  // the scalar; the peer key is public.
  [[nodiscard]] static result<void> shared_secret(std::span<std::uint8_t, secret_size> out, scalar_span scalar,
                                                  std::span<const std::uint8_t> peer) noexcept;

  // public_key computes scalar * G, uncompressed. Error: invalid_key when
  // the scalar is 0 or not below n (out zeroed).
  [[nodiscard]] static result<void> public_key(std::span<std::uint8_t, point_size> out, scalar_span scalar) noexcept;

  // check_public_key validates a peer key as shared_secret does; error
  // invalid_public_key.
  [[nodiscard]] static result<void> check_public_key(std::span<const std::uint8_t> peer) noexcept;

  // check_private_key reports invalid_key unless the scalar is in [1, n-1]
  // (constant time; only the verdict is public).
  [[nodiscard]] static result<void> check_private_key(scalar_span scalar) noexcept;

  // generate draws a private scalar uniformly from [1, n-1] (rejection
  // sampling over CSPRNG output, P-521's top byte masked to its one bit)
  // and computes its public key. Error: the random source's (both outputs
  // zeroed).
  [[nodiscard]] static result<void> generate(std::span<std::uint8_t, scalar_size> private_key,
                                             std::span<std::uint8_t, point_size> public_key) noexcept;

  // provider names the field arithmetic that runs at the current CPU level.
  [[nodiscard]] static std::string_view provider() noexcept;
};

extern template struct ecdh_nist<nist_curve::p256>;
extern template struct ecdh_nist<nist_curve::p384>;
extern template struct ecdh_nist<nist_curve::p521>;

// p256 is ECDH on P-256.
using p256 = ecdh_nist<nist_curve::p256>;
// p384 is ECDH on P-384.
using p384 = ecdh_nist<nist_curve::p384>;
// p521 is ECDH on P-521.
using p521 = ecdh_nist<nist_curve::p521>;

}  // namespace sealwire::crypto
