// SPDX-License-Identifier: Apache-2.0
// Ed25519 signatures (RFC 8032 section 5.1, "pure" Ed25519: no context, no
// prehash): keys from a 32-byte seed, deterministic signing in constant time,
// single and batch verification with one rule.
//
//   auto key = sealwire::crypto::ed25519::signing_key::generate().value();
//   std::uint8_t sig[64];
//   key.sign(sig, message);
//   auto ok = sealwire::crypto::ed25519::verify(key.public_key(), message, sig);
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

// ed25519 is the Ed25519 signature scheme of RFC 8032 section 5.1.
//
// Verification rules (the same for verify and verify_batch):
//   - the public key is 32 bytes, its y below p = 2^255 - 19 (canonical), and
//     it decodes to a curve point (RFC 8032 5.1.3); otherwise
//     crypto_errc::invalid_public_key. Small-order keys are not refused by
//     themselves: they follow the equation like any other key;
//   - the signature is 64 bytes R || S, S below the group order L, and R a
//     canonical encoding (y < p) of a curve point; otherwise
//     crypto_errc::invalid_signature;
//   - the cofactored equation [8][S]B = [8]R + [8][k]A holds, with
//     k = SHA-512(R || A || M) mod L (RFC 8032 5.1.7, the form it prefers);
//     otherwise crypto_errc::invalid_signature.
// The cofactored equation accepts the same signatures whatever a batch's
// random coefficients are, which is what lets verify_batch decide exactly as
// verify does. Every Wycheproof ed25519_test.json case follows these rules
// (the file has no "acceptable" cases).
struct SEALWIRE_API ed25519 {
  // public_key_size is the length of an encoded public key A in bytes.
  static constexpr std::size_t public_key_size = 32;
  // signature_size is the length of a signature R || S in bytes.
  static constexpr std::size_t signature_size = 64;
  // seed_size is the length of a private key (the seed of RFC 8032 5.1.5) in bytes.
  static constexpr std::size_t seed_size = 32;

  // signing_key holds the expanded private key of RFC 8032 5.1.5 (the
  // clamped scalar s and the nonce prefix) and the public key. Movable, not
  // copyable; the secret halves are wiped on destruction and when moved from.
  class SEALWIRE_API signing_key {
   public:
    // from_seed expands a 32-byte seed (RFC 8032 5.1.5). Error: invalid_key
    // unless seed is 32 bytes.
    [[nodiscard]] static result<signing_key> from_seed(std::span<const std::uint8_t> seed) noexcept;
    // generate draws a seed from the CSPRNG (crypto/random.hpp) and expands
    // it; the seed is wiped. Error: the random source's (rng_failure).
    [[nodiscard]] static result<signing_key> generate() noexcept;

    // public_key is the 32-byte encoding of A = [s]B.
    [[nodiscard]] std::span<const std::uint8_t, public_key_size> public_key() const noexcept {
      return std::span<const std::uint8_t, public_key_size>(public_);
    }

    // sign writes the signature of message (RFC 8032 5.1.6): deterministic,
    // constant time in the key and the nonce.
    void sign(std::span<std::uint8_t, signature_size> out, std::span<const std::uint8_t> message) const noexcept;

   private:
    signing_key() noexcept = default;
    secret_array<32> scalar_;  // s, clamped
    secret_array<32> prefix_;  // the second half of SHA-512(seed)
    std::array<std::uint8_t, public_key_size> public_{};
  };

  // verify checks signature over message under public_key by the rules above.
  // Errors: invalid_public_key (wrong length, non-canonical, not a curve
  // point); invalid_signature (wrong length, S >= L, R non-canonical or not a
  // point, the equation fails). Variable time: every input is public.
  [[nodiscard]] static result<void> verify(std::span<const std::uint8_t> public_key,
                                           std::span<const std::uint8_t> message,
                                           std::span<const std::uint8_t> signature) noexcept;

  // batch_item is one (public key, message, signature) triple for verify_batch.
  struct batch_item {
    // public_key is the signer's 32-byte key (any length is accepted here and
    // judged as verify judges it).
    std::span<const std::uint8_t> public_key;
    // message is the signed message.
    std::span<const std::uint8_t> message;
    // signature is the 64-byte signature R || S to check.
    std::span<const std::uint8_t> signature;
  };

  // verify_batch sets valid[i] to whether items[i] verifies, deciding exactly
  // as verify does, faster per signature: one multi-scalar multiplication
  // checks a random linear combination (128-bit coefficients from the CSPRNG)
  // of the cofactored equations; when it fails, the batch is halved until
  // the failing items are found one by one. A random source failure falls
  // back to one-by-one verification. Errors: invalid_argument when
  // valid.size() != items.size() (valid then untouched); invalid_signature
  // when any item fails (valid says which).
  [[nodiscard]] static result<void> verify_batch(std::span<const batch_item> items, std::span<bool> valid) noexcept;

  // provider names the field arithmetic that runs at the current CPU level
  // ("portable", or "bmi2" with BMI2 and ADX).
  [[nodiscard]] static std::string_view provider() noexcept;
};

}  // namespace sealwire::crypto
