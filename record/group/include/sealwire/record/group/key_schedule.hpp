// SPDX-License-Identifier: Apache-2.0
// The MLS key schedule (RFC 9420 section 8): from the previous epoch's
// init_secret, the commit_secret, the psk_secret and the serialized
// GroupContext to every secret of the new epoch; MLS-Exporter (8.5); the
// external HPKE key pair (8.3). Independent of how the inputs were agreed.
#pragma once

#include <sealwire/crypto/bytes.hpp>
#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/result.hpp>
#include <sealwire/crypto/secret.hpp>
#include <sealwire/hpke/keys.hpp>
#include <sealwire/record/group/cipher_suite.hpp>

#include <span>
#include <string_view>

namespace sealwire::record::group {

// epoch_secrets is everything the key schedule derives for one epoch (RFC
// 9420 8, table "Epoch-derived secrets"), each Nh bytes. Movable, not
// copyable; wiped on destruction.
struct epoch_secrets {
  crypto::secret_bytes joiner_secret;        // ExpandWithLabel(Extract(init, commit), "joiner", GroupContext, Nh)
  crypto::secret_bytes welcome_secret;       // DeriveSecret(Extract(joiner, psk), "welcome")
  crypto::secret_bytes epoch_secret;         // ExpandWithLabel(Extract(joiner, psk), "epoch", GroupContext, Nh)
  crypto::secret_bytes sender_data_secret;   // DeriveSecret(epoch_secret, "sender data")
  crypto::secret_bytes encryption_secret;    // DeriveSecret(epoch_secret, "encryption")
  crypto::secret_bytes exporter_secret;      // DeriveSecret(epoch_secret, "exporter")
  crypto::secret_bytes external_secret;      // DeriveSecret(epoch_secret, "external")
  crypto::secret_bytes confirmation_key;     // DeriveSecret(epoch_secret, "confirm")
  crypto::secret_bytes membership_key;       // DeriveSecret(epoch_secret, "membership")
  crypto::secret_bytes resumption_psk;       // DeriveSecret(epoch_secret, "resumption")
  crypto::secret_bytes epoch_authenticator;  // DeriveSecret(epoch_secret, "authentication")
  crypto::secret_bytes init_secret;          // DeriveSecret(epoch_secret, "init"): the next epoch's init_secret
};

// derive_epoch_secrets runs the key schedule of RFC 9420 8 for a member
// that knows the previous init_secret. commit_secret and psk_secret are Nh
// bytes, or empty for "0" (Nh zero bytes, as the RFC says when there is no
// commit secret or no PSK). group_context is the new epoch's serialized
// GroupContext. Errors: group_errc::invalid_argument (a secret of the
// wrong size), std::errc::not_enough_memory.
[[nodiscard]] SEALWIRE_API result<epoch_secrets> derive_epoch_secrets(const suite_algorithms& suite,
                                                                      bytes_view init_secret,
                                                                      bytes_view commit_secret,
                                                                      bytes_view psk_secret,
                                                                      bytes_view group_context);

// derive_epoch_secrets_from_joiner is the same key schedule from
// joiner_secret on, for a new member that learnt it from a Welcome
// (RFC 9420 12.4.3.1); the result's joiner_secret is a copy of the input.
[[nodiscard]] SEALWIRE_API result<epoch_secrets> derive_epoch_secrets_from_joiner(const suite_algorithms& suite,
                                                                                  bytes_view joiner_secret,
                                                                                  bytes_view psk_secret,
                                                                                  bytes_view group_context);

// derive_welcome_key_nonce derives the key and nonce that encrypt a
// Welcome's GroupInfo from welcome_secret: ExpandWithLabel(welcome_secret,
// "key"/"nonce", "", Nk/Nn) (RFC 9420 12.4.3.1). key must be Nk bytes,
// nonce Nn bytes (else invalid_argument).
[[nodiscard]] SEALWIRE_API result<void> derive_welcome_key_nonce(const suite_algorithms& suite, std::span<std::uint8_t> key,
                                                                 std::span<std::uint8_t> nonce,
                                                                 bytes_view welcome_secret);

// mls_exporter is MLS-Exporter(label, context, out.size()) =
// ExpandWithLabel(DeriveSecret(exporter_secret, label), "exported",
// Hash(context), out.size()) (RFC 9420 8.5).
[[nodiscard]] SEALWIRE_API result<void> mls_exporter(const suite_algorithms& suite, std::span<std::uint8_t> out,
                                                     bytes_view exporter_secret, std::string_view label,
                                                     bytes_view context);

// external_key_pair is KEM.DeriveKeyPair(external_secret), whose public key
// is the GroupInfo's external_pub (RFC 9420 8.3). Errors: those of
// hpke::derive_key_pair.
[[nodiscard]] SEALWIRE_API result<hpke::key_pair> external_key_pair(const suite_algorithms& suite,
                                                                    bytes_view external_secret) noexcept;

}  // namespace sealwire::record::group
