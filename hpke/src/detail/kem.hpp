// SPDX-License-Identifier: Apache-2.0
// Internal: the KEM table (the DH-based KEMs of RFC 9180 4.1 and the
// post-quantum KEMs of draft-ietf-hpke-pq) and key storage access for the
// code that fills keys.
#pragma once

#include <sealwire/hpke/keys.hpp>
#include <sealwire/hpke/suite.hpp>

#include <cstddef>
#include <cstdint>
#include <span>

namespace sealwire::hpke {

// key_access reaches the key classes' storage for the KEM code.
struct key_access {
  static std::span<std::uint8_t> raw(public_key& k) noexcept { return {k.data_.data(), k.data_.size()}; }
  static void set(public_key& k, kem_id kem, std::size_t n) noexcept {
    k.kem_ = kem;
    k.size_ = n;
  }
  static std::span<std::uint8_t> raw(private_key& k) noexcept { return k.data_.span(); }
  static void set(private_key& k, kem_id kem, std::size_t n) noexcept {
    k.kem_ = kem;
    k.size_ = n;
  }
  static void set_public(private_key& k, const public_key& pk) noexcept { k.public_ = pk; }
};

namespace detail {

// kem_desc is one KEM: a DHKEM (dh set) or a KEM of its own (pq set).
struct pq_kem_ops;
struct kem_desc {
  kem_id id;
  kem_sizes sizes;
  kdf_id kdf;
  std::size_t ndh;  // the DH output length
  // DeriveKeyPair's rejection-sampling mask for the first byte (RFC 9180
  // 7.1.3); 0 for X25519/X448, whose every Nsk-byte string is a key.
  std::uint8_t dkp_bitmask;
  // dh writes DH(sk, pk); zero_shared_secret, invalid_public_key or
  // invalid_private_key on failure.
  result<void> (*dh)(std::span<std::uint8_t> out, bytes_view sk, bytes_view pk) noexcept;
  // public_of writes pk(sk) (SerializePublicKey); false when sk is not a
  // valid private key (a NIST scalar outside [1, n-1]).
  bool (*public_of)(std::span<std::uint8_t> out, bytes_view sk) noexcept;
  // pq is null for a DHKEM; for ML-KEM and X-Wing it is the KEM's own
  // Encap, Decap and DeriveKeyPair (kem_pq.cpp), and dh is null.
  const pq_kem_ops* pq = nullptr;
};

// pq_kem_ops are the operations of a KEM that is not a DHKEM
// (draft-ietf-hpke-pq section 3). Its shared secret is the KEM's own, with
// no ExtractAndExpand; it has no AuthEncap.
struct pq_kem_ops {
  // encap writes enc (Nenc bytes) and the 32-byte shared secret; randomness
  // is the KEM's encapsulation randomness (derandomized Encaps, for tests)
  // or empty for fresh randomness. Errors: invalid_public_key (the FIPS 203
  // 7.2 check), invalid_length (randomness of the wrong size), rng_failure.
  result<void> (*encap)(std::span<std::uint8_t> shared, std::span<std::uint8_t> enc, bytes_view pk,
                        bytes_view randomness) noexcept;
  // decap writes the shared secret of enc (Nenc bytes, checked by the caller).
  result<void> (*decap)(std::span<std::uint8_t> shared, bytes_view enc, bytes_view sk) noexcept;
};

[[nodiscard]] const kem_desc* find_kem(kem_id id) noexcept;
// find_pq_kem looks up ML-KEM-512/768/1024 and X-Wing (kem_pq.cpp).
[[nodiscard]] const kem_desc* find_pq_kem(kem_id id) noexcept;
// derive_pq is DeriveKeyPair of draft-ietf-hpke-pq: the private key (the
// seed) is SHAKE256.LabeledDerive(ikm, "DeriveKeyPair", "", Nsk).
[[nodiscard]] result<key_pair> derive_pq(const kem_desc& kem, bytes_view ikm) noexcept;

// derive is DeriveKeyPair (RFC 9180 7.1.3).
[[nodiscard]] result<key_pair> derive(const kem_desc& kem, bytes_view ikm) noexcept;

// encap is Encap (skS == nullptr) or AuthEncap (4.1): writes Nsecret bytes
// of shared secret; ikm_e empty means a random ephemeral key.
[[nodiscard]] result<void> encap(const kem_desc& kem, std::span<std::uint8_t> shared, public_key& enc,
                                 const public_key& pkR, const private_key* skS, bytes_view ikm_e) noexcept;

// decap is Decap (pkS == nullptr) or AuthDecap.
[[nodiscard]] result<void> decap(const kem_desc& kem, std::span<std::uint8_t> shared, bytes_view enc,
                                 const private_key& skR, const public_key* pkS) noexcept;

// encapsulate and decapsulate run the KEM alone by id (tests check
// shared_secret against the official vectors). They return Nsecret.
[[nodiscard]] result<std::size_t> encapsulate(kem_id kem, std::span<std::uint8_t, 64> shared, public_key& enc,
                                              const public_key& pkR, const private_key* skS,
                                              bytes_view ikm_e) noexcept;
[[nodiscard]] result<std::size_t> decapsulate(kem_id kem, std::span<std::uint8_t, 64> shared, bytes_view enc,
                                              const private_key& skR, const public_key* pkS) noexcept;

}  // namespace detail
}  // namespace sealwire::hpke
