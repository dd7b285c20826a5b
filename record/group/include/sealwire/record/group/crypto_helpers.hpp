// SPDX-License-Identifier: Apache-2.0
// The labeled cryptographic helpers of RFC 9420 section 5, for any of the
// seven cipher suites: RefHash (5.2), ExpandWithLabel, DeriveSecret and
// DeriveTreeSecret (5.1, 9), SignWithLabel/VerifyWithLabel (5.1.2) and
// EncryptWithLabel/DecryptWithLabel (5.1.3, HPKE base mode). Every label
// is given without the "MLS 1.0 " prefix, which these functions add.
#pragma once

#include <sealwire/crypto/bytes.hpp>
#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/result.hpp>
#include <sealwire/hpke/keys.hpp>
#include <sealwire/record/group/cipher_suite.hpp>
#include <sealwire/record/group/signature.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace sealwire::record::group {

// ref_hash is RefHash(label, value) = Hash(RefHashInput) (RFC 9420 5.2; the
// label is used as given, e.g. "MLS 1.0 KeyPackage Reference"). It writes
// hash_size() bytes to out's start and returns that size (a shorter out is a
// contract failure). Errors: std::errc::not_enough_memory (allocation).
[[nodiscard]] SEALWIRE_API result<std::size_t> ref_hash(const suite_algorithms& suite, std::span<std::uint8_t> out,
                                                        std::string_view label, bytes_view value);

// expand_with_label is ExpandWithLabel(secret, label, context, out.size())
// = KDF.Expand(secret, KDFLabel, out.size()) (RFC 9420 5.1). Errors:
// group_errc::invalid_argument (out longer than 65535 bytes),
// crypto_errc::output_too_long (longer than HKDF's 255 * Nh).
[[nodiscard]] SEALWIRE_API result<void> expand_with_label(const suite_algorithms& suite, std::span<std::uint8_t> out,
                                                          bytes_view secret, std::string_view label,
                                                          bytes_view context);

// derive_secret is DeriveSecret(secret, label) = ExpandWithLabel(secret,
// label, "", Nh) into out's first hash_size() bytes (RFC 9420 5.1).
[[nodiscard]] SEALWIRE_API result<void> derive_secret(const suite_algorithms& suite, std::span<std::uint8_t> out,
                                                      bytes_view secret, std::string_view label);

// derive_tree_secret is DeriveTreeSecret(secret, label, generation,
// out.size()) = ExpandWithLabel(secret, label, uint32(generation), length)
// (RFC 9420 9).
[[nodiscard]] SEALWIRE_API result<void> derive_tree_secret(const suite_algorithms& suite, std::span<std::uint8_t> out,
                                                           bytes_view secret, std::string_view label,
                                                           std::uint32_t generation);

// sign_with_label is SignWithLabel(key, label, content): the signature of
// SignContent {"MLS 1.0 " + label, content} (RFC 9420 5.1.2).
[[nodiscard]] SEALWIRE_API result<std::vector<std::uint8_t>> sign_with_label(const signature_private_key& key,
                                                                             std::string_view label,
                                                                             bytes_view content);

// verify_with_label is VerifyWithLabel(public_key, label, content,
// signature). Errors: invalid_public_key, invalid_signature.
[[nodiscard]] SEALWIRE_API result<void> verify_with_label(signature_scheme scheme, bytes_view public_key,
                                                          std::string_view label, bytes_view content,
                                                          bytes_view signature);

// labeled_ciphertext is EncryptWithLabel's output: HPKE's enc and the sealed plaintext.
struct labeled_ciphertext {
  std::vector<std::uint8_t> kem_output;  // the encapsulated key
  std::vector<std::uint8_t> ciphertext;  // plaintext + AEAD tag
};

// encrypt_with_label is EncryptWithLabel(public_key, label, context,
// plaintext) = SealBase(public_key, EncryptContext, "", plaintext) (RFC
// 9420 5.1.3). ikm_e fixes the ephemeral key for tests; leave it empty.
// Errors: those of hpke::setup_sender (kem_mismatch for a key of another KEM).
[[nodiscard]] SEALWIRE_API result<labeled_ciphertext> encrypt_with_label(const suite_algorithms& suite,
                                                                         const hpke::public_key& public_key,
                                                                         std::string_view label, bytes_view context,
                                                                         bytes_view plaintext,
                                                                         bytes_view ikm_e = {});

// decrypt_with_label is DecryptWithLabel(private_key, label, context,
// kem_output, ciphertext) = OpenBase(...). Errors: hpke_errc::open_failed
// (nothing released), invalid_encapsulation, kem_mismatch.
[[nodiscard]] SEALWIRE_API result<std::vector<std::uint8_t>> decrypt_with_label(
    const suite_algorithms& suite, const hpke::private_key& private_key, std::string_view label, bytes_view context,
    bytes_view kem_output, bytes_view ciphertext);

}  // namespace sealwire::record::group
