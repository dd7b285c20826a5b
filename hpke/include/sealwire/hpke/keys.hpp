// SPDX-License-Identifier: Apache-2.0
// HPKE (RFC 9180) key pairs: generation, derivation, serialization and
// loading. Every key knows its KEM; using it with a suite of another KEM is
// an error (kem_mismatch) when a context is set up. The keys are used with
// single_shot.hpp (start there) and context.hpp.
//
//   auto pair = sealwire::hpke::generate_key_pair().value();      // X25519
//   std::vector<std::uint8_t> pub(pair.pub.bytes().begin(), pair.pub.bytes().end());
//   auto loaded = sealwire::hpke::public_key::from(sealwire::hpke::kem_id::x25519, pub).value();
#pragma once

#include <sealwire/crypto/bytes.hpp>
#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/secret.hpp>
#include <sealwire/hpke/suite.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace sealwire::hpke {

// public_key is a serialized public key (RFC 9180 7.1.1) of one KEM, also
// used for enc.
class SEALWIRE_API public_key {
 public:
  // An empty key (of no KEM); every setup refuses it.
  public_key() noexcept = default;
  // from is DeserializePublicKey: invalid_public_key unless the length is
  // the KEM's Npk (a point's validity is checked when it is used);
  // unsupported_suite for a KEM sealwire does not have.
  [[nodiscard]] static result<public_key> from(kem_id kem, bytes_view bytes) noexcept;
  // kem is the KEM this key belongs to.
  [[nodiscard]] kem_id kem() const noexcept { return kem_; }
  // bytes is SerializePublicKey's output.
  [[nodiscard]] bytes_view bytes() const noexcept { return {data_.data(), size_}; }
  // size is bytes().size() (Npk).
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  // empty reports a default-constructed key.
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  // Keys are equal when their KEMs and bytes are.
  friend bool operator==(const public_key& a, const public_key& b) noexcept {
    return a.kem_ == b.kem_ && std::equal(a.bytes().begin(), a.bytes().end(), b.bytes().begin(), b.bytes().end());
  }

 private:
  friend struct key_access;
  std::array<std::uint8_t, max_public_key_size> data_{};
  std::size_t size_ = 0;
  kem_id kem_{};
};

// private_key is a serialized private key (RFC 9180 7.1.2) of one KEM,
// together with its public key, computed once when the key is created or
// loaded (a recipient's Decap needs pk(skR) for every message it opens).
// Wiped on destruction and when moved from.
class SEALWIRE_API private_key {
 public:
  // An empty key (of no KEM); every setup refuses it.
  private_key() noexcept = default;
  // from is DeserializePrivateKey: invalid_private_key unless the length is
  // Nsk and the key is valid for the KEM; unsupported_suite for a KEM
  // sealwire does not have. It computes the matching public key.
  [[nodiscard]] static result<private_key> from(kem_id kem, bytes_view bytes) noexcept;
  // kem is the KEM this key belongs to.
  [[nodiscard]] kem_id kem() const noexcept { return kem_; }
  // bytes is SerializePrivateKey's output (as secret as the key).
  [[nodiscard]] bytes_view bytes() const noexcept { return data_.span().first(size_); }
  // size is bytes().size() (Nsk).
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  // empty reports a default-constructed key.
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  // public_key is pk(sk), serialized.
  [[nodiscard]] const hpke::public_key& public_key() const noexcept { return public_; }

 private:
  friend struct key_access;
  crypto::secret_array<max_private_key_size> data_;
  std::size_t size_ = 0;
  kem_id kem_{};
  hpke::public_key public_;
};

// key_pair is a private key and its public key.
struct key_pair {
  private_key priv;  // the private key (it holds its public key too)
  public_key pub;    // the public key, to publish
};

// generate_key_pair draws a fresh key pair from the CSPRNG (by default for
// the default suite's KEM, X25519). Errors: unsupported_suite, rng_failure.
[[nodiscard]] SEALWIRE_API result<key_pair> generate_key_pair(kem_id kem = default_suite.kem) noexcept;
// derive_key_pair is DeriveKeyPair (RFC 9180 7.1.3); ikm should be at least
// Nsk bytes of entropy. Errors: unsupported_suite, derive_key_pair_failed.
[[nodiscard]] SEALWIRE_API result<key_pair> derive_key_pair(kem_id kem, bytes_view ikm) noexcept;

}  // namespace sealwire::hpke
