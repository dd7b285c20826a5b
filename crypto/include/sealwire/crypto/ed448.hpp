// SPDX-License-Identifier: Apache-2.0
// Ed448 (RFC 8032 5.2): pure EdDSA on Edwards448 with SHAKE256 and an
// optional context string, as MLS cipher suites 4 and 6 sign. Ed448ph is
// not provided.
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/result.hpp>
#include <sealwire/crypto/secret.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace sealwire::crypto {

// ed448 is Ed448 (RFC 8032 5.2) with a context string of 0 to 255 bytes,
// empty by default (dom4(0, context), 5.2).
struct SEALWIRE_API ed448 {
  // seed_size is the length of a private key (the RFC's 57-byte secret).
  static constexpr std::size_t seed_size = 57;
  // public_key_size is the length of an encoded public key.
  static constexpr std::size_t public_key_size = 57;
  // signature_size is the length of a signature (R || S).
  static constexpr std::size_t signature_size = 114;
  // max_context_size is the longest context string (RFC 8032 5.2).
  static constexpr std::size_t max_context_size = 255;

  class signing_key;

  // verify checks signature over message under public_key and context, per
  // RFC 8032 5.2.7 with these rules:
  //   - the public key and R must be canonical encodings of points on the
  //     curve (y < p, the unused bits zero, not x = 0 with the sign bit set);
  //   - S must be below the group order L (no malleable S + L);
  //   - the equation is the cofactored one the RFC specifies,
  //     [4][S]B = [4]R + [4][k]A with k = SHAKE256(dom4(0, context) || R ||
  //     A || message, 114) mod L. Small-order components are not rejected
  //     beyond what the equation implies.
  // Every Wycheproof ed448_test case labelled valid is accepted and every
  // one labelled invalid rejected (the file has no "acceptable" cases).
  // Errors: invalid_public_key when public_key is not 57 bytes or not a
  // canonical point; invalid_argument when context is over 255 bytes;
  // invalid_signature for anything else (wrong length, R not a canonical
  // point, S >= L, the equation fails). Variable time: every input is public.
  [[nodiscard]] static result<void> verify(std::span<const std::uint8_t> public_key,
                                           std::span<const std::uint8_t> message,
                                           std::span<const std::uint8_t> signature,
                                           std::span<const std::uint8_t> context = {}) noexcept;

  // provider names the field arithmetic that runs ("portable").
  [[nodiscard]] static std::string_view provider() noexcept;
};

// ed448::signing_key holds the expanded secret (the scalar s mod L and the
// 57-byte prefix of RFC 8032 5.2.5) and the public key. It is movable, not
// copyable; the secret is wiped on destruction and when moved from.
class SEALWIRE_API ed448::signing_key {
 public:
  // from_seed expands a 57-byte private key (RFC 8032 5.2.5). Error:
  // invalid_key when seed is not 57 bytes.
  [[nodiscard]] static result<signing_key> from_seed(std::span<const std::uint8_t> seed) noexcept;

  // generate draws a seed from the CSPRNG (random.hpp) and expands it;
  // error: the random source's.
  [[nodiscard]] static result<signing_key> generate() noexcept;

  // public_key is the 57-byte encoding of A = [s]B.
  [[nodiscard]] std::span<const std::uint8_t, public_key_size> public_key() const noexcept {
    return std::span<const std::uint8_t, public_key_size>(public_key_);
  }

  // sign writes the signature of message with context (RFC 8032 5.2.6),
  // deterministic and constant time in the secret. A context over 255 bytes
  // is a contract failure (contexts are fixed by the protocol, not input).
  void sign(std::span<std::uint8_t, signature_size> out, std::span<const std::uint8_t> message,
            std::span<const std::uint8_t> context = {}) const noexcept;

 private:
  signing_key() noexcept = default;

  secret_array<114> expanded_;  // s mod L (57 bytes, little-endian) || prefix
  std::array<std::uint8_t, public_key_size> public_key_{};
};

}  // namespace sealwire::crypto
