// SPDX-License-Identifier: Apache-2.0
// A member's signature key for an MLS cipher suite's scheme (RFC 9420 5.1.2)
// and verification by scheme: Ed25519, Ed448 (pure, empty context) and ECDSA
// on P-256/P-384/P-521 with DER signatures, over sealwire's own primitives.
#pragma once

#include <sealwire/crypto/bytes.hpp>
#include <sealwire/crypto/ecdsa.hpp>
#include <sealwire/crypto/ed25519.hpp>
#include <sealwire/crypto/ed448.hpp>
#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/result.hpp>
#include <sealwire/record/group/cipher_suite.hpp>

#include <cstdint>
#include <variant>
#include <vector>

namespace sealwire::record::group {

// signature_private_key is a signing key of one scheme. Movable, not
// copyable; the secret is wiped on destruction and when moved from.
class SEALWIRE_API signature_private_key {
 public:
  // from_bytes loads a private key as MLS serializes it (RFC 9420 5.1.2):
  // the 32- or 57-byte EdDSA seed, or ECDSA's big-endian scalar (a shorter
  // scalar is taken as the same integer with its leading zero bytes
  // dropped, as some implementations write it). Errors: invalid_key.
  [[nodiscard]] static result<signature_private_key> from_bytes(signature_scheme scheme, bytes_view priv) noexcept;
  // generate draws a fresh key. Error: the random source's.
  [[nodiscard]] static result<signature_private_key> generate(signature_scheme scheme) noexcept;

  // scheme is the key's signature scheme.
  [[nodiscard]] signature_scheme scheme() const noexcept { return scheme_; }
  // public_key is the key's SignaturePublicKey bytes.
  [[nodiscard]] bytes_view public_key() const noexcept;
  // sign signs message. Errors: the random source's is impossible here
  // (deterministic signatures); std::errc::not_enough_memory.
  [[nodiscard]] result<std::vector<std::uint8_t>> sign(bytes_view message) const;

 private:
  using key_variant = std::variant<std::monostate, crypto::ed25519::signing_key, crypto::ed448::signing_key,
                                   crypto::ecdsa_p256::signing_key, crypto::ecdsa_p384::signing_key,
                                   crypto::ecdsa_p521::signing_key>;
  signature_private_key(signature_scheme scheme, key_variant key) noexcept
      : scheme_(scheme), key_(std::move(key)) {}
  signature_scheme scheme_;
  key_variant key_;
};

// verify_signature checks signature over message under public_key with the
// scheme's rules (the crypto headers'). Errors: invalid_public_key,
// invalid_signature.
[[nodiscard]] SEALWIRE_API result<void> verify_signature(signature_scheme scheme, bytes_view public_key,
                                                         bytes_view message, bytes_view signature) noexcept;

}  // namespace sealwire::record::group
