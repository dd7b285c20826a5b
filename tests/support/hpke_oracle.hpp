// SPDX-License-Identifier: Apache-2.0
// An independent HPKE (RFC 9180) for the tests, written from the RFC on
// OpenSSL (HKDF, X25519/X448 and NIST-curve ECDH, AEAD) and libsodium: none
// of sealwire's own code. It is slow and simple and exists only to check the
// library against the specification (P-384, which the RFC's vector file does
// not cover; sequence numbers past 2^64; the record protocol's handshake).
// Suites and modes are the RFC's numbers. No GoogleTest assertions here:
// failures come back as std::nullopt.
#pragma once

#include "vectors.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>

namespace sealwire::test::oracle::hpke {

// The modes (RFC 9180 5).
inline constexpr std::uint8_t mode_base = 0, mode_psk = 1, mode_auth = 2, mode_auth_psk = 3;

// kem_params: the sizes and hash of a DHKEM (RFC 9180 7.1).
struct kem_params {
  std::uint16_t id = 0;
  const char* digest = nullptr;  // the KEM's HKDF hash
  std::size_t n_secret = 0, n_enc = 0, n_pk = 0, n_sk = 0, n_dh = 0;
  const char* group = nullptr;   // NIST curve name, nullptr for X25519/X448
  int raw_type = 0;              // EVP_PKEY_X25519 / EVP_PKEY_X448, 0 for NIST curves
  std::uint8_t bitmask = 0xff;   // DeriveKeyPair's mask of the first byte (NIST curves)
};
[[nodiscard]] std::optional<kem_params> kem_of(std::uint16_t kem);

struct key_pair {
  bytes sk, pk;
};

// derive_key_pair is DeriveKeyPair (RFC 9180 7.1.3).
[[nodiscard]] std::optional<key_pair> derive_key_pair(std::uint16_t kem, const bytes& ikm);

// encap is Encap (base, psk) or AuthEncap (sk_s given) with the ephemeral key
// pair e; decap is Decap or AuthDecap (pk_s given).
struct encapsulation {
  bytes shared_secret, enc;
};
[[nodiscard]] std::optional<encapsulation> encap(std::uint16_t kem, const bytes& pk_r, const key_pair& e,
                                                 const key_pair* sender = nullptr);
[[nodiscard]] std::optional<bytes> decap(std::uint16_t kem, const bytes& enc, const key_pair& r,
                                         const bytes* pk_s = nullptr);

// context is the key schedule's output (RFC 9180 5.1) and a sequence number
// of up to 96 bits (high:low).
struct context {
  std::uint16_t kem = 0, kdf = 0, aead = 0;
  bytes key, base_nonce, exporter_secret;
  std::uint64_t seq_low = 0;
  std::uint32_t seq_high = 0;
};

struct schedule_input {
  std::uint8_t mode = mode_base;
  bytes info, psk, psk_id;
};
[[nodiscard]] std::optional<context> key_schedule(std::uint16_t kem, std::uint16_t kdf, std::uint16_t aead,
                                                  const bytes& shared_secret, const schedule_input& in);

// nonce is base_nonce XOR I2OSP(seq, Nn) for the context's current sequence
// number.
[[nodiscard]] bytes nonce(const context& c);
// seal and open are ContextS.Seal and ContextR.Open: one message at the
// current sequence number, which then advances (open advances only on
// success).
[[nodiscard]] std::optional<bytes> seal(context& c, const bytes& aad, const bytes& pt);
[[nodiscard]] std::optional<bytes> open(context& c, const bytes& aad, const bytes& ct);
// export_secret is Context.Export (RFC 9180 5.3).
[[nodiscard]] std::optional<bytes> export_secret(const context& c, const bytes& exporter_context, std::size_t size);

// The OpenSSL names of a KDF's hash ("SHA256", ...) and an AEAD id's cipher
// ("AES-128-GCM", ...); nullptr for an id the RFC does not have.
[[nodiscard]] const char* kdf_digest(std::uint16_t kdf);
[[nodiscard]] const char* aead_cipher(std::uint16_t aead);
[[nodiscard]] std::size_t aead_key_size(std::uint16_t aead);

}  // namespace sealwire::test::oracle::hpke
