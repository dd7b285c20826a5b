// SPDX-License-Identifier: Apache-2.0
// HPKE's post-quantum KEMs (draft-ietf-hpke-pq section 3): ML-KEM-512,
// ML-KEM-768, ML-KEM-1024 (FIPS 203) and X-Wing (MLKEM768-X25519), with the
// private key serialized as the seed and DeriveKeyPair by
// SHAKE256.LabeledDerive.
#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/ml_kem.hpp>
#include <sealwire/crypto/secret.hpp>
#include <sealwire/crypto/sha3.hpp>
#include <sealwire/crypto/xwing.hpp>

#include "detail/kem.hpp"
#include "detail/tables.hpp"

#include <algorithm>
#include <cstring>

namespace sealwire::hpke::detail {
namespace {

// The KEM's own error, reported as HPKE's: a failed random source stays
// one; anything else is the encapsulation key's check (FIPS 203 7.2).
hpke_errc public_key_error(std::error_code e) noexcept {
  return e == crypto_errc::rng_failure ? hpke_errc::rng_failure : hpke_errc::invalid_public_key;
}

// ML-KEM (draft-ietf-hpke-pq 3): pk = ek, enc = ct, sk = the 64-byte seed
// d || z; Decap expands the seed (KeyGen_internal) and runs ML-KEM.Decaps.
template <class M>
struct ml_kem_ops {
  static result<void> encap(std::span<std::uint8_t> shared, std::span<std::uint8_t> enc, bytes_view pk,
                            bytes_view randomness) noexcept {
    auto ek = M::encapsulation_key::from_bytes(pk);  // the FIPS 203 7.2 check: an EncapError
    if (!ek) return public_key_error(ek.error());
    auto ct = enc.template first<M::ciphertext_size>();
    auto ss = shared.template first<M::shared_secret_size>();
    if (randomness.empty()) {
      if (auto r = ek->encapsulate(ct, ss); !r) return hpke_errc::rng_failure;
      return {};
    }
    if (randomness.size() != M::message_size) return hpke_errc::invalid_length;
    ek->encapsulate(ct, ss, randomness.template first<M::message_size>());
    return {};
  }
  static result<void> decap(std::span<std::uint8_t> shared, bytes_view enc, bytes_view sk) noexcept {
    auto dk = M::decapsulation_key::from_seed(sk);
    if (!dk) return hpke_errc::invalid_private_key;
    if (auto r = dk->decapsulate(shared.template first<M::shared_secret_size>(), enc); !r)
      return hpke_errc::invalid_encapsulation;
    return {};
  }
  static bool public_of(std::span<std::uint8_t> out, bytes_view sk) noexcept {
    auto dk = M::decapsulation_key::from_seed(sk);
    if (!dk) return false;
    const auto ek = dk->public_key().bytes();
    std::copy(ek.begin(), ek.end(), out.begin());
    return true;
  }
  static constexpr pq_kem_ops ops{&encap, &decap};
  static kem_desc desc(kem_id id) noexcept {
    return {id,
            {M::shared_secret_size, M::ciphertext_size, M::encapsulation_key_size, M::seed_size},
            kdf_id::hkdf_sha256,  // unused: the KEM derives nothing with HKDF
            0,
            0,
            nullptr,
            &public_of,
            &ops};
  }
};

// X-Wing (draft-connolly-cfrg-xwing-kem; draft-ietf-hpke-pq 3's
// MLKEM768-X25519): pk 1216 bytes, enc 1120, sk the 32-byte seed.
struct xwing_ops {
  using X = crypto::xwing;
  static result<void> encap(std::span<std::uint8_t> shared, std::span<std::uint8_t> enc, bytes_view pk,
                            bytes_view randomness) noexcept {
    auto ct = enc.first<X::ciphertext_size>();
    auto ss = shared.first<X::shared_secret_size>();
    if (randomness.empty()) {
      if (auto r = X::encapsulate(ct, ss, pk); !r) return public_key_error(r.error());
      return {};
    }
    if (randomness.size() != X::encapsulation_seed_size) return hpke_errc::invalid_length;
    if (auto r = X::encapsulate(ct, ss, pk, randomness.first<X::encapsulation_seed_size>()); !r)
      return public_key_error(r.error());
    return {};
  }
  static result<void> decap(std::span<std::uint8_t> shared, bytes_view enc, bytes_view sk) noexcept {
    auto dk = X::decapsulation_key::from_seed(sk);
    if (!dk) return hpke_errc::invalid_private_key;
    if (auto r = dk->decapsulate(shared.first<X::shared_secret_size>(), enc); !r)
      return hpke_errc::invalid_encapsulation;
    return {};
  }
  static bool public_of(std::span<std::uint8_t> out, bytes_view sk) noexcept {
    auto dk = X::decapsulation_key::from_seed(sk);
    if (!dk) return false;
    const auto ek = dk->encapsulation_key();
    std::copy(ek.begin(), ek.end(), out.begin());
    return true;
  }
  static constexpr pq_kem_ops ops{&encap, &decap};
  static kem_desc desc() noexcept {
    return {kem_id::xwing,
            {X::shared_secret_size, X::ciphertext_size, X::encapsulation_key_size, X::seed_size},
            kdf_id::hkdf_sha256,
            0,
            0,
            nullptr,
            &public_of,
            &ops};
  }
};

}  // namespace

const kem_desc* find_pq_kem(kem_id id) noexcept {
  static const kem_desc table[] = {
      ml_kem_ops<crypto::ml_kem_512>::desc(kem_id::ml_kem_512),
      ml_kem_ops<crypto::ml_kem_768>::desc(kem_id::ml_kem_768),
      ml_kem_ops<crypto::ml_kem_1024>::desc(kem_id::ml_kem_1024),
      xwing_ops::desc(),
  };
  for (const auto& k : table) {
    if (k.id == id) return &k;
  }
  return nullptr;
}

// DeriveKeyPair (draft-ietf-hpke-pq 3, with the single-stage KDF's
// LabeledDerive of draft-ietf-hpke-hpke): sk = SHAKE256(ikm || "HPKE-v1" ||
// suite_id || I2OSP(len(label), 2) || label || I2OSP(Nsk, 2) || context, Nsk)
// with suite_id = "KEM" || I2OSP(kem_id, 2), label "DeriveKeyPair" and an
// empty context; pk is the seed's expansion.
result<key_pair> derive_pq(const kem_desc& kem, bytes_view ikm) noexcept {
  constexpr std::string_view label = "DeriveKeyPair";
  const kem_suite_id sid(kem.id);
  const std::size_t nsk = kem.sizes.private_key;
  const std::uint8_t label_len[2] = {0, static_cast<std::uint8_t>(label.size())};
  const std::uint8_t out_len[2] = {static_cast<std::uint8_t>(nsk >> 8), static_cast<std::uint8_t>(nsk)};
  crypto::shake256 xof;
  xof.update(ikm);
  xof.update(bytes_of(std::string_view("HPKE-v1")));
  xof.update(sid.view());
  xof.update(label_len);
  xof.update(bytes_of(label));
  xof.update(out_len);
  key_pair kp;
  auto sk = key_access::raw(kp.priv).first(nsk);
  xof.squeeze(sk);
  xof.wipe();
  if (!kem.public_of(key_access::raw(kp.pub), sk)) return hpke_errc::derive_key_pair_failed;
  key_access::set(kp.priv, kem.id, nsk);
  key_access::set(kp.pub, kem.id, kem.sizes.public_key);
  key_access::set_public(kp.priv, kp.pub);
  return kp;
}

}  // namespace sealwire::hpke::detail
