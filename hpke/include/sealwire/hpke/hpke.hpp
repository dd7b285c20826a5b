// SPDX-License-Identifier: Apache-2.0
// HPKE (RFC 9180): hybrid public-key encryption, all four modes, with suites
// as data (the RFC's numeric ids, dispatched at run time), secret export, and
// sender and recipient contexts for sequences of messages.
//
// Concurrency: the free functions may be called from any thread. A context
// is a single stream of messages with a sequence number; it is not safe to
// use one context from two threads at once (move it, or guard it). Distinct
// contexts are independent.
#pragma once

#include <sealwire/crypto/secret.hpp>
#include <sealwire/hpke/error.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace sealwire::hpke {

// RFC 9180 5: the four modes.
enum class mode : std::uint8_t { base = 0x00, psk = 0x01, auth = 0x02, auth_psk = 0x03 };

// RFC 9180 7.1-7.3: algorithm identifiers.
enum class kem_id : std::uint16_t { p256 = 0x0010, p384 = 0x0011, p521 = 0x0012, x25519 = 0x0020, x448 = 0x0021 };
enum class kdf_id : std::uint16_t { hkdf_sha256 = 0x0001, hkdf_sha384 = 0x0002, hkdf_sha512 = 0x0003 };
enum class aead_id : std::uint16_t {
  aes128_gcm = 0x0001,
  aes256_gcm = 0x0002,
  chacha20_poly1305 = 0x0003,
  export_only = 0xffff,
};

struct suite {
  kem_id kem;
  kdf_id kdf;
  aead_id aead;
  friend bool operator==(const suite&, const suite&) = default;
};

// check_suite reports unsupported_suite unless all three algorithms are built in.
[[nodiscard]] result<void> check_suite(const suite& s) noexcept;

// The sizes of a KEM (RFC 9180 7.1): Nsecret, Nenc, Npk, Nsk.
struct kem_sizes {
  std::size_t secret, enc, public_key, private_key;
};
[[nodiscard]] result<kem_sizes> kem_info(kem_id kem) noexcept;

// Largest sizes over all RFC 9180 KEMs (P-521's), so buffers need no heap.
inline constexpr std::size_t max_public_key_size = 133;
inline constexpr std::size_t max_private_key_size = 66;

// public_key is a serialized public key (RFC 9180 7.1.1), also used for enc.
class public_key {
 public:
  public_key() noexcept = default;
  // from is DeserializePublicKey: invalid_public_key unless the length is
  // the KEM's Npk (a point's validity is checked when it is used).
  [[nodiscard]] static result<public_key> from(kem_id kem, std::span<const std::uint8_t> bytes) noexcept;
  [[nodiscard]] std::span<const std::uint8_t> bytes() const noexcept { return {data_.data(), size_}; }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }

 private:
  friend struct key_access;
  std::array<std::uint8_t, max_public_key_size> data_{};
  std::size_t size_ = 0;
};

// private_key is a serialized private key (RFC 9180 7.1.2) together with
// its public key, computed once when the key is created or loaded (a
// recipient's Decap needs pk(skR) for every message it opens). Wiped on
// destruction and when moved from.
class private_key {
 public:
  private_key() noexcept = default;
  // from is DeserializePrivateKey: invalid_private_key unless the length is
  // Nsk. It computes the matching public key.
  [[nodiscard]] static result<private_key> from(kem_id kem, std::span<const std::uint8_t> bytes) noexcept;
  [[nodiscard]] std::span<const std::uint8_t> bytes() const noexcept { return data_.span().first(size_); }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  // public_key is pk(sk), serialized.
  [[nodiscard]] const hpke::public_key& public_key() const noexcept { return public_; }

 private:
  friend struct key_access;
  crypto::secret_array<max_private_key_size> data_;
  std::size_t size_ = 0;
  hpke::public_key public_;
};

struct key_pair {
  private_key priv;
  public_key pub;
};

// generate_key_pair draws a fresh key pair from the CSPRNG.
[[nodiscard]] result<key_pair> generate_key_pair(kem_id kem) noexcept;
// derive_key_pair is DeriveKeyPair (RFC 9180 7.1.3); ikm should be at least Nsk bytes of entropy.
[[nodiscard]] result<key_pair> derive_key_pair(kem_id kem, std::span<const std::uint8_t> ikm) noexcept;
// public_key_of computes the public key of a private key.
[[nodiscard]] result<public_key> public_key_of(kem_id kem, const private_key& sk) noexcept;

// Options of a sender's setup. The mode decides which fields must be given
// (RFC 9180 5.1): psk and psk_id both or neither, and only in the psk modes;
// sender_key only in the auth modes. ikm_e fixes the ephemeral key
// (DeriveKeyPair(ikm_e)) for tests and interop; leave it empty otherwise.
struct sender_options {
  hpke::mode mode = hpke::mode::base;
  std::span<const std::uint8_t> info;
  std::span<const std::uint8_t> psk;
  std::span<const std::uint8_t> psk_id;
  const private_key* sender_key = nullptr;
  std::span<const std::uint8_t> ikm_e;
};

struct recipient_options {
  hpke::mode mode = hpke::mode::base;
  std::span<const std::uint8_t> info;
  std::span<const std::uint8_t> psk;
  std::span<const std::uint8_t> psk_id;
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

// context holds an HPKE encryption context (RFC 9180 5.2): the AEAD key and
// base nonce, the exporter secret and the sequence number. Move-only; its
// secrets are wiped on destruction and when moved from.
class context {
 public:
  context(context&& other) noexcept;
  context& operator=(context&& other) noexcept;
  context(const context&) = delete;
  context& operator=(const context&) = delete;
  ~context();

  // export_secret is Context.Export (RFC 9180 5.3): out.size() bytes bound to
  // exporter_context. Error: export_too_long above 255 * Nh bytes.
  [[nodiscard]] result<void> export_secret(std::span<std::uint8_t> out,
                                           std::span<const std::uint8_t> exporter_context) const noexcept;

  [[nodiscard]] const hpke::suite& suite() const noexcept { return suite_; }
  // tag_size is the AEAD's Nt (0 for export-only).
  [[nodiscard]] std::size_t tag_size() const noexcept;

 protected:
  context() noexcept = default;
  friend struct detail::context_test_access;
  friend struct context_builder;

  // next_nonce computes base_nonce XOR seq (RFC 9180 5.2); message_limit_reached
  // when seq is at its last value, without changing anything.
  [[nodiscard]] result<void> next_nonce(std::span<std::uint8_t, 12> nonce) const noexcept;
  void advance() noexcept;
  void wipe() noexcept;

  hpke::suite suite_{};
  crypto::secret_array<32> key_;
  crypto::secret_array<12> base_nonce_;
  crypto::secret_array<64> exporter_secret_;
  detail::sequence seq_{};
};

class sender_context : public context {
 public:
  sender_context() noexcept = default;
  // seal is ContextS.Seal: encrypts pt with aad into out (ct || tag) and
  // returns its length. Errors: export_only, buffer_too_small (hpke
  // invalid_length), message_limit_reached. The sequence number advances
  // only on success.
  [[nodiscard]] result<std::size_t> seal(std::span<std::uint8_t> out, std::span<const std::uint8_t> aad,
                                         std::span<const std::uint8_t> pt) noexcept;
};

class recipient_context : public context {
 public:
  recipient_context() noexcept = default;
  // open is ContextR.Open: authenticates and decrypts ct || tag into out and
  // returns the plaintext length. Errors: open_failed (out zeroed),
  // export_only, invalid_length, message_limit_reached. The sequence number
  // advances only on success.
  [[nodiscard]] result<std::size_t> open(std::span<std::uint8_t> out, std::span<const std::uint8_t> aad,
                                         std::span<const std::uint8_t> ct) noexcept;
};

struct sender_setup {
  public_key enc;  // the encapsulated key to send to the recipient
  sender_context context;
};

// setup_sender is SetupBaseS/SetupPSKS/SetupAuthS/SetupAuthPSKS (RFC 9180 5.1)
// chosen by options.mode. A failed setup returns an error and leaves nothing.
[[nodiscard]] result<sender_setup> setup_sender(const suite& s, const public_key& recipient,
                                                const sender_options& options = {}) noexcept;

// setup_recipient is SetupBaseR/SetupPSKR/SetupAuthR/SetupAuthPSKR.
[[nodiscard]] result<recipient_context> setup_recipient(const suite& s, std::span<const std::uint8_t> enc,
                                                        const private_key& recipient,
                                                        const recipient_options& options = {}) noexcept;

// seal and open are the single-shot APIs (RFC 9180 6.1): one message per setup.
[[nodiscard]] result<std::size_t> seal(std::span<std::uint8_t> out, public_key& enc, const suite& s,
                                       const public_key& recipient, const sender_options& options,
                                       std::span<const std::uint8_t> aad, std::span<const std::uint8_t> pt) noexcept;
[[nodiscard]] result<std::size_t> open(std::span<std::uint8_t> out, const suite& s, std::span<const std::uint8_t> enc,
                                       const private_key& recipient, const recipient_options& options,
                                       std::span<const std::uint8_t> aad, std::span<const std::uint8_t> ct) noexcept;

}  // namespace sealwire::hpke
