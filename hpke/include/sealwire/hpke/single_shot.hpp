// SPDX-License-Identifier: Apache-2.0
// HPKE (RFC 9180 6.1) in one call each way: start here for public-key
// encryption. seal encrypts to a recipient's public key and returns
// enc || ciphertext in one byte string; open takes that back with the
// recipient's private key.
//
//   auto bob = sealwire::hpke::generate_key_pair().value();
//   auto sealed = sealwire::hpke::seal(bob.pub, message).value();
//   auto opened = sealwire::hpke::open(bob.priv, sealed).value();
//
// The suite is default_suite (X25519, HKDF-SHA256, ChaCha20-Poly1305) unless
// the options name another; both sides must use the same suite and info.
// These calls use the base mode; for the PSK and auth modes, or several
// messages under one setup, use context.hpp.
#pragma once

#include <sealwire/crypto/bytes.hpp>
#include <sealwire/crypto/export.hpp>
#include <sealwire/hpke/context.hpp>
#include <sealwire/hpke/keys.hpp>
#include <sealwire/hpke/suite.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace sealwire::hpke {

// message_options: the suite, the application's info (bound into the key
// schedule: a context label such as "my app v1 messages") and the message's
// associated data.
struct message_options {
  hpke::suite suite = default_suite;  // the suite; the recipient's key must be of its KEM
  bytes_view info = {};               // the application's info, the same on both sides
  associated_data aad = {};           // the message's associated data, the same on both sides
};

// sealed_message is a sealed message in its two parts.
struct sealed_message {
  std::vector<std::uint8_t> enc;         // the encapsulated key (Nenc bytes)
  std::vector<std::uint8_t> ciphertext;  // the sealed plaintext (plaintext + Nt bytes)
};

// seal encrypts plaintext to recipient and returns enc || ciphertext.
// Errors: as setup_sender (kem_mismatch when the key is not of the
// suite's KEM); export_only; std::errc::not_enough_memory.
[[nodiscard]] SEALWIRE_API result<std::vector<std::uint8_t>> seal(const public_key& recipient, bytes_view plaintext,
                                                                  const message_options& options = {});

// seal_split is seal with enc and the ciphertext apart.
[[nodiscard]] SEALWIRE_API result<sealed_message> seal_split(const public_key& recipient, bytes_view plaintext,
                                                             const message_options& options = {});

// open decrypts enc || ciphertext (seal's output) with the recipient's
// private key. Errors: open_failed (wrong key, info or associated data, or a
// modified message: nothing is released), invalid_encapsulation (too short
// to hold enc, or a bad enc), kem_mismatch, export_only.
[[nodiscard]] SEALWIRE_API result<std::vector<std::uint8_t>> open(const private_key& recipient, bytes_view sealed,
                                                                  const message_options& options = {});

// open_split is open with enc and the ciphertext apart.
[[nodiscard]] SEALWIRE_API result<std::vector<std::uint8_t>> open_split(const private_key& recipient, bytes_view enc,
                                                                        bytes_view ciphertext,
                                                                        const message_options& options = {});

// seal (span form) sets up a sender with any mode's options, seals one
// message into out (ct || tag) and stores the encapsulated key in enc.
// Returns the ciphertext length. Errors as setup_sender and sender_context::seal.
[[nodiscard]] SEALWIRE_API result<std::size_t> seal(std::span<std::uint8_t> out, public_key& enc, const suite& s,
                                                    const public_key& recipient, const sender_options& options,
                                                    bytes_view pt, associated_data ad) noexcept;

// open (span form) sets up a recipient and opens one message into out.
// Returns the plaintext length. Errors as setup_recipient and recipient_context::open.
[[nodiscard]] SEALWIRE_API result<std::size_t> open(std::span<std::uint8_t> out, const suite& s, bytes_view enc,
                                                    const private_key& recipient, const recipient_options& options,
                                                    bytes_view ct, associated_data ad) noexcept;

}  // namespace sealwire::hpke
