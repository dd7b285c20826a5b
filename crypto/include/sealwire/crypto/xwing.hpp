// SPDX-License-Identifier: Apache-2.0
// X-Wing (draft-connolly-cfrg-xwing-kem, versions 06 and later): the hybrid
// KEM of ML-KEM-768 and X25519 with a SHA3-256 combiner. The private key is
// a 32-byte seed, expanded with SHAKE256 on load.
//
//   auto dk = sealwire::crypto::xwing::decapsulation_key::generate().value();
//   std::uint8_t ct[xwing::ciphertext_size], ss[32], ss2[32];
//   xwing::encapsulate(ct, ss, dk.encapsulation_key()).value();
//   dk.decapsulate(ss2, ct).value();   // ss2 == ss
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/ml_kem.hpp>
#include <sealwire/crypto/result.hpp>
#include <sealwire/crypto/secret.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace sealwire::crypto {

// xwing is X-Wing: pk = pk_M || pk_X, ct = ct_M || ct_X and the shared
// secret SHA3-256(ss_M || ss_X || ct_X || pk_X || XWingLabel) with
// XWingLabel the six bytes "\.//^\" (draft section 5).
struct SEALWIRE_API xwing {
  // seed_size is the private key's length: the 32-byte seed sk.
  static constexpr std::size_t seed_size = 32;
  // encapsulation_key_size is 1184 + 32 (ML-KEM-768 key, X25519 point).
  static constexpr std::size_t encapsulation_key_size = 1216;
  // ciphertext_size is 1088 + 32.
  static constexpr std::size_t ciphertext_size = 1120;
  // shared_secret_size is the SHA3-256 output length.
  static constexpr std::size_t shared_secret_size = 32;
  // encapsulation_seed_size is the randomness of the derandomized Encaps
  // (eseed: the ML-KEM m, then the X25519 ephemeral scalar).
  static constexpr std::size_t encapsulation_seed_size = 64;

  // decapsulation_key holds the seed and its expansion (draft 5.2:
  // SHAKE256(sk, 96) = d || z || sk_X). Movable, not copyable; wiped on
  // destruction and when moved from.
  class SEALWIRE_API decapsulation_key {
   public:
    // from_seed expands a 32-byte seed. Error: invalid_key unless 32 bytes.
    [[nodiscard]] static result<decapsulation_key> from_seed(std::span<const std::uint8_t> seed) noexcept;
    // generate draws the seed from the CSPRNG. Error: the random source's.
    [[nodiscard]] static result<decapsulation_key> generate() noexcept;

    // encapsulation_key is pk_M || pk_X (1216 bytes).
    [[nodiscard]] std::span<const std::uint8_t, encapsulation_key_size> encapsulation_key() const noexcept {
      return std::span<const std::uint8_t, encapsulation_key_size>(pk_);
    }
    // seed is the 32-byte private key sk.
    [[nodiscard]] std::span<const std::uint8_t, seed_size> seed() const noexcept { return seed_.span(); }

    // decapsulate computes the shared secret of ciphertext (draft 5.4); the
    // ML-KEM half rejects implicitly, so a wrong ciphertext gives an
    // unrelated secret, not an error. Error: invalid_argument when
    // ciphertext is not 1120 bytes (shared_secret zeroed).
    [[nodiscard]] result<void> decapsulate(std::span<std::uint8_t, shared_secret_size> shared_secret,
                                           std::span<const std::uint8_t> ciphertext) const noexcept;

   private:
    explicit decapsulation_key(ml_kem_768::decapsulation_key&& m) noexcept : mlkem_(std::move(m)) {}
    ml_kem_768::decapsulation_key mlkem_;
    secret_array<32> seed_;
    secret_array<32> sk_x_;
    std::array<std::uint8_t, encapsulation_key_size> pk_{};
  };

  // encapsulate is the derandomized Encaps (draft 5.3) with eseed: checks
  // the ML-KEM half of pk (FIPS 203 7.2). Error: invalid_public_key (wrong
  // length or modulus check), outputs zeroed.
  [[nodiscard]] static result<void> encapsulate(std::span<std::uint8_t, ciphertext_size> ciphertext,
                                                std::span<std::uint8_t, shared_secret_size> shared_secret,
                                                std::span<const std::uint8_t> encapsulation_key,
                                                std::span<const std::uint8_t, encapsulation_seed_size> eseed) noexcept;

  // encapsulate draws eseed from the CSPRNG. Errors: invalid_public_key, the
  // random source's; outputs zeroed on error.
  [[nodiscard]] static result<void> encapsulate(std::span<std::uint8_t, ciphertext_size> ciphertext,
                                                std::span<std::uint8_t, shared_secret_size> shared_secret,
                                                std::span<const std::uint8_t> encapsulation_key) noexcept;

  // provider names the ML-KEM and X25519 arithmetic that runs.
  [[nodiscard]] static std::string_view provider() noexcept;
};

}  // namespace sealwire::crypto
