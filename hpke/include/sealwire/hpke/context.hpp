// SPDX-License-Identifier: Apache-2.0
// HPKE (RFC 9180) encryption contexts: the sender's and recipient's setup in
// all four modes (5.1), sequences of messages under one context (5.2) and
// secret export (5.3). For one message each way, single_shot.hpp is simpler.
//
// Concurrency: setup may be called from any thread. A context is a single
// stream of messages with a sequence number; it is not safe to use one
// context from two threads at once (move it, or guard it). Distinct
// contexts are independent.
#pragma once

#include <sealwire/crypto/aead.hpp>
#include <sealwire/crypto/bytes.hpp>
#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/secret.hpp>
#include <sealwire/hpke/keys.hpp>
#include <sealwire/hpke/suite.hpp>

#include <cstddef>
#include <cstdint>
#include <span>

namespace sealwire::hpke {

// Options of a sender's setup. The mode decides which fields must be given
// (RFC 9180 5.1): psk and psk_id both or neither, and only in the psk modes;
// sender_key only in the auth modes. ikm_e fixes the ephemeral key
// (DeriveKeyPair(ikm_e)) for tests and interop; leave it empty otherwise.
// For ML-KEM and X-Wing, which have no ephemeral key pair, ikm_e is the
// derandomized Encaps's randomness: ML-KEM's 32-byte m, X-Wing's 64-byte
// eseed (another length: invalid_length). Their auth modes are refused
// (auth_not_supported).
struct sender_options {
  hpke::mode mode = hpke::mode::base;       // the mode (RFC 9180 5)
  bytes_view info = {};                     // the application's info, bound into the key schedule
  bytes_view psk = {};                      // the pre-shared key, in the psk modes
  bytes_view psk_id = {};                   // the pre-shared key's identifier, in the psk modes
  const private_key* sender_key = nullptr;  // skS in the auth modes
  bytes_view ikm_e = {};                    // DeriveKeyPair input for the ephemeral key (PQ KEMs: Encaps randomness); empty: random
};

// Options of a recipient's setup, as sender_options.
struct recipient_options {
  hpke::mode mode = hpke::mode::base;      // the mode, the same as the sender's
  bytes_view info = {};                    // the info, the same as the sender's
  bytes_view psk = {};                     // the pre-shared key, in the psk modes
  bytes_view psk_id = {};                  // the pre-shared key's identifier, in the psk modes
  const public_key* sender_key = nullptr;  // pkS in the auth modes
};

namespace detail {
struct context_test_access;  // tests: key schedule outputs, sequence number
// A 96-bit sequence number (Nn = 12 bytes): the RFC's limit is 2^96 - 1.
struct sequence {
  std::uint64_t low = 0;
  std::uint32_t high = 0;
};
}  // namespace detail

// context holds an HPKE encryption context (RFC 9180 5.2): the AEAD key
// (set up once for all the context's messages) and base nonce, the exporter
// secret and the sequence number. Move-only; its secrets are wiped on
// destruction and when moved from.
class SEALWIRE_API context {
 public:
  // The move constructor takes over other's keys and sequence number; other's
  // secrets are wiped.
  context(context&& other) noexcept;
  // Move assignment replaces this context with other's, as the move
  // constructor does.
  context& operator=(context&& other) noexcept;
  context(const context&) = delete;
  context& operator=(const context&) = delete;
  ~context();

  // export_secret is Context.Export (RFC 9180 5.3): out.size() bytes bound to
  // exporter_context. Errors: export_too_long above 255 * Nh bytes;
  // crypto_errc::not_keyed for an empty or moved-from context.
  [[nodiscard]] result<void> export_secret(std::span<std::uint8_t> out, bytes_view exporter_context) const noexcept;

  // suite is the suite the context was set up with.
  [[nodiscard]] const hpke::suite& suite() const noexcept { return suite_; }
  // tag_size is the AEAD's Nt (0 for export-only).
  [[nodiscard]] std::size_t tag_size() const noexcept;

 protected:
  context() noexcept;
  friend struct detail::context_test_access;
  friend struct context_builder;

  // next_nonce computes base_nonce XOR seq (RFC 9180 5.2); message_limit_reached
  // when seq is at its last value, without changing anything.
  [[nodiscard]] result<void> next_nonce(std::span<std::uint8_t, 12> nonce) const noexcept;
  // advance moves the sequence number on by one, after a message succeeded.
  void advance() noexcept;
  // wipe clears the key, the base nonce, the exporter secret and the
  // sequence number.
  void wipe() noexcept;

  hpke::suite suite_{};                       // the suite of the setup
  crypto::secret_array<32> key_;              // the key schedule's `key` (Nk bytes)
  crypto::aead_key aead_;                     // key_, set up for the AEAD
  crypto::secret_array<12> base_nonce_;       // the key schedule's base_nonce
  crypto::secret_array<64> exporter_secret_;  // the key schedule's exporter_secret (Nh bytes)
  detail::sequence seq_{};                    // the sequence number of the next message
};

// sender_context seals a sequence of messages (ContextS).
class SEALWIRE_API sender_context : public context {
 public:
  // An empty context; setup_sender makes real ones.
  sender_context() noexcept = default;
  // seal is ContextS.Seal: encrypts pt with associated data ad into out
  // (ct || tag) and returns its length. Errors: export_only,
  // invalid_length (out shorter than pt.size() + Nt), message_limit_reached;
  // crypto_errc::not_keyed for an empty or moved-from context.
  // The sequence number advances only on success.
  [[nodiscard]] result<std::size_t> seal(std::span<std::uint8_t> out, bytes_view pt, associated_data ad) noexcept;
};

// recipient_context opens a sequence of messages (ContextR).
class SEALWIRE_API recipient_context : public context {
 public:
  // An empty context; setup_recipient makes real ones.
  recipient_context() noexcept = default;
  // open is ContextR.Open: authenticates and decrypts ct || tag with
  // associated data ad into out and returns the plaintext length. Errors:
  // open_failed (out zeroed), export_only, invalid_length,
  // message_limit_reached; crypto_errc::not_keyed for an empty or moved-from
  // context. The sequence number advances only on success.
  [[nodiscard]] result<std::size_t> open(std::span<std::uint8_t> out, bytes_view ct, associated_data ad) noexcept;
};

// sender_setup is what setup_sender makes: the encapsulated key to send and
// the sender's context.
struct sender_setup {
  public_key enc;          // the encapsulated key to send to the recipient
  sender_context context;  // the context that seals the messages
};

// setup_sender is SetupBaseS/SetupPSKS/SetupAuthS/SetupAuthPSKS (RFC 9180 5.1)
// chosen by options.mode. Errors: unsupported_suite; kem_mismatch (the
// recipient's or sender's key belongs to another KEM than the suite's);
// invalid_public_key (an empty key, or one the KEM rejects); invalid_mode,
// invalid_psk_inputs; rng_failure. A failed setup returns an error and
// leaves nothing.
[[nodiscard]] SEALWIRE_API result<sender_setup> setup_sender(const suite& s, const public_key& recipient,
                                                             const sender_options& options = {}) noexcept;

// setup_recipient is SetupBaseR/SetupPSKR/SetupAuthR/SetupAuthPSKR. Errors
// as setup_sender, and invalid_encapsulation (enc of the wrong length or not
// a valid public key).
[[nodiscard]] SEALWIRE_API result<recipient_context> setup_recipient(const suite& s, bytes_view enc,
                                                                     const private_key& recipient,
                                                                     const recipient_options& options = {}) noexcept;

}  // namespace sealwire::hpke
