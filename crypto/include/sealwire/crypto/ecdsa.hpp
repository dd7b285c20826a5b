// SPDX-License-Identifier: Apache-2.0
// ECDSA (FIPS 186-5 6.4) on P-256 with SHA-256, P-384 with SHA-384 and P-521
// with SHA-512: deterministic nonces (RFC 6979) with an optional hedged
// variant, fixed-length r || s (IEEE P1363) and strict DER signatures, and
// uncompressed SEC 1 public keys validated as ecdh_nist.hpp does.
#pragma once

#include <sealwire/crypto/ecdh_nist.hpp>
#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/result.hpp>
#include <sealwire/crypto/secret.hpp>
#include <sealwire/crypto/sha2.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>

namespace sealwire::crypto {

// ecdsa_sign_options chooses how a signature is made; the defaults give
// RFC 6979's deterministic signature, byte for byte.
struct ecdsa_sign_options {
  // hedged mixes fresh random bytes (crypto/random.hpp, scalar_size of
  // them) into the nonce generator as RFC 6979 3.6's additional data: the
  // nonce still depends on the key and message, so a broken random source
  // degrades to a deterministic signature rather than a repeated nonce,
  // and a fault in one signing run no longer repeats for the same message.
  bool hedged = false;
  // low_s replaces s by n - s when s > n / 2 (the form some protocols
  // require). Verification accepts both forms.
  bool low_s = false;
};

// ecdsa<C> is ECDSA on curve C with the curve's matching hash.
//
// Verification rules (FIPS 186-5 6.4.2), the same for every entry point:
//   - The public key is 0x04 || X || Y, each coordinate public_key_size / 2
//     bytes big-endian and below p, and the point on the curve; anything
//     else (compressed or hybrid forms, the point at infinity, a wrong
//     length) fails with invalid_public_key.
//   - r and s must both lie in [1, n - 1]; the P1363 form is exactly
//     2 scalar_size bytes; the DER form must be strict DER: a SEQUENCE of
//     two INTEGERs, definite minimal lengths, no leading zero byte unless
//     the next byte's top bit is set, no negative values, nothing after the
//     SEQUENCE. Any violation fails with invalid_signature.
//   - The digest is reduced as bits2int (its leftmost qlen bits) mod n;
//     x(u1 G + u2 Q) mod n must equal r and the sum must not be the point at
//     infinity, else invalid_signature.
//   - Both s and n - s verify (low-S is a signing option, not a rule here).
// Verification works on public data only and is variable time.
template <nist_curve C>
struct SEALWIRE_API ecdsa {
  // hash is the curve's hash: SHA-256, SHA-384 or SHA-512.
  using hash = std::conditional_t<C == nist_curve::p256, sha256, std::conditional_t<C == nist_curve::p384, sha384, sha512>>;
  // scalar_size is the length of a private key and of r and s: 32, 48 or 66.
  static constexpr std::size_t scalar_size = ecdh_nist<C>::scalar_size;
  // private_key_size is scalar_size: a big-endian d in [1, n - 1].
  static constexpr std::size_t private_key_size = scalar_size;
  // public_key_size is the length of an uncompressed SEC 1 point.
  static constexpr std::size_t public_key_size = 1 + 2 * scalar_size;
  // signature_size is the length of an r || s (IEEE P1363) signature.
  static constexpr std::size_t signature_size = 2 * scalar_size;
  // max_der_signature_size is the longest DER signature: a SEQUENCE of two
  // INTEGERs of scalar_size bytes and a sign byte each.
  static constexpr std::size_t max_der_signature_size =
      (2 * (2 + scalar_size + 1) < 128 ? 2 : 3) + 2 * (2 + scalar_size + 1);
  // digest_size is the hash's output length.
  static constexpr std::size_t digest_size = hash::digest_size;

  // private_key_span is a big-endian private scalar of exactly scalar_size bytes.
  using private_key_span = std::span<const std::uint8_t, private_key_size>;
  // signature_span is the output of an r || s signature.
  using signature_span = std::span<std::uint8_t, signature_size>;
  // der_span is room for the longest DER signature.
  using der_span = std::span<std::uint8_t, max_der_signature_size>;

  // signing_key holds a private scalar d and its public key d G. Movable
  // (the source is wiped), not copyable; destruction wipes d.
  class SEALWIRE_API signing_key {
   public:
    // from_private_key takes a big-endian d. Error: invalid_key unless
    // 0 < d < n (checked in constant time).
    [[nodiscard]] static result<signing_key> from_private_key(private_key_span d) noexcept;
    // generate draws d uniformly from [1, n - 1] (ecdh_nist<C>::generate).
    // Error: the random source's.
    [[nodiscard]] static result<signing_key> generate() noexcept;

    // A move takes the key; the source's secret is wiped.
    signing_key(signing_key&&) noexcept = default;
    // A move assignment wipes the old key and takes the other's.
    signing_key& operator=(signing_key&&) noexcept = default;
    signing_key(const signing_key&) = delete;
    signing_key& operator=(const signing_key&) = delete;
    ~signing_key() = default;

    // public_key is 0x04 || X || Y.
    [[nodiscard]] std::span<const std::uint8_t, public_key_size> public_key() const noexcept {
      return std::span<const std::uint8_t, public_key_size>(public_);
    }
    // private_key is the big-endian d.
    [[nodiscard]] std::span<const std::uint8_t, private_key_size> private_key() const noexcept { return d_.span(); }

    // sign hashes message and writes r || s. Errors (out zeroed): only
    // with options.hedged, the random source's; a deterministic signature
    // cannot fail. Constant time in d and in the nonce.
    [[nodiscard]] result<void> sign(signature_span out, std::span<const std::uint8_t> message,
                                    ecdsa_sign_options options = {}) const noexcept;
    // sign_der is sign with a DER signature; it returns the bytes written
    // (at most max_der_signature_size).
    [[nodiscard]] result<std::size_t> sign_der(der_span out, std::span<const std::uint8_t> message,
                                               ecdsa_sign_options options = {}) const noexcept;
    // sign_digest signs a digest computed by the caller (any length: its
    // leftmost qlen bits are used, FIPS 186-5 6.4.1); the nonce generator
    // still runs on the curve's hash. Errors as sign.
    [[nodiscard]] result<void> sign_digest(signature_span out, std::span<const std::uint8_t> digest,
                                           ecdsa_sign_options options = {}) const noexcept;
    // sign_digest_der is sign_digest with a DER signature.
    [[nodiscard]] result<std::size_t> sign_digest_der(der_span out, std::span<const std::uint8_t> digest,
                                                      ecdsa_sign_options options = {}) const noexcept;

   private:
    signing_key() noexcept = default;
    secret_array<private_key_size> d_;
    std::array<std::uint8_t, public_key_size> public_{};
  };

  // verify checks an r || s signature of message under public_key (rules
  // above). Errors: invalid_public_key, invalid_signature.
  [[nodiscard]] static result<void> verify(std::span<const std::uint8_t> public_key,
                                           std::span<const std::uint8_t> message,
                                           std::span<const std::uint8_t> signature) noexcept;
  // verify_der checks a DER signature of message. Errors as verify.
  [[nodiscard]] static result<void> verify_der(std::span<const std::uint8_t> public_key,
                                               std::span<const std::uint8_t> message,
                                               std::span<const std::uint8_t> signature) noexcept;
  // verify_digest checks an r || s signature of a digest the caller
  // computed. Errors as verify.
  [[nodiscard]] static result<void> verify_digest(std::span<const std::uint8_t> public_key,
                                                  std::span<const std::uint8_t> digest,
                                                  std::span<const std::uint8_t> signature) noexcept;
  // verify_digest_der checks a DER signature of a digest. Errors as verify.
  [[nodiscard]] static result<void> verify_digest_der(std::span<const std::uint8_t> public_key,
                                                      std::span<const std::uint8_t> digest,
                                                      std::span<const std::uint8_t> signature) noexcept;

  // der_to_p1363 converts a strict DER signature (rules above, r and s in
  // [1, n - 1]) to r || s. Error: invalid_signature (out zeroed).
  [[nodiscard]] static result<void> der_to_p1363(signature_span out, std::span<const std::uint8_t> der) noexcept;
  // p1363_to_der converts r || s (r and s in [1, n - 1]) to DER and returns
  // its length. Error: invalid_signature.
  [[nodiscard]] static result<std::size_t> p1363_to_der(der_span out, std::span<const std::uint8_t> sig) noexcept;

  // provider names the field arithmetic that runs (one portable build).
  [[nodiscard]] static std::string_view provider() noexcept;
};

extern template struct ecdsa<nist_curve::p256>;
extern template struct ecdsa<nist_curve::p384>;
extern template struct ecdsa<nist_curve::p521>;

// ecdsa_p256 is ECDSA with P-256 and SHA-256.
using ecdsa_p256 = ecdsa<nist_curve::p256>;
// ecdsa_p384 is ECDSA with P-384 and SHA-384.
using ecdsa_p384 = ecdsa<nist_curve::p384>;
// ecdsa_p521 is ECDSA with P-521 and SHA-512.
using ecdsa_p521 = ecdsa<nist_curve::p521>;

}  // namespace sealwire::crypto
