// SPDX-License-Identifier: Apache-2.0
// HPKE's DH-based KEMs (RFC 9180 4.1 and 7.1): DHKEM over X25519, X448,
// P-256, P-384 and P-521; DeriveKeyPair (7.1.3), Encap/AuthEncap,
// Decap/AuthDecap and ExtractAndExpand. Encap and Decap hand the
// post-quantum KEMs (kem_pq.cpp) to their own operations.
#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/ecdh_nist.hpp>
#include <sealwire/crypto/x25519.hpp>
#include <sealwire/crypto/x448.hpp>

#include "detail/kem.hpp"
#include "detail/tables.hpp"

#include <cstring>
#include <initializer_list>

namespace sealwire::hpke::detail {
namespace {

// The largest DHKEM public key (P-521's uncompressed point).
constexpr std::size_t max_dh_public_key_size = 133;

template <class X>
kem_desc make_x_kem(kem_id id, std::size_t secret, kdf_id kdf) noexcept {
  constexpr std::size_t n = X::point_size;
  return {id,
          {secret, n, n, n},
          kdf,
          n,
          0,
          [](std::span<std::uint8_t> out, bytes_view sk, bytes_view pk) noexcept -> result<void> {
            auto r = X::shared_secret(out.first<n>(), sk.first<n>(), pk);
            if (r) return {};
            return r.error() == crypto_errc::zero_shared_secret ? hpke_errc::zero_shared_secret
                                                                : hpke_errc::invalid_public_key;
          },
          [](std::span<std::uint8_t> out, bytes_view sk) noexcept {
            X::public_key(out.first<n>(), sk.first<n>());
            return true;
          }};
}

// DHKEM over a NIST curve (RFC 9180 7.1): uncompressed SEC 1 public keys
// (7.1.1), big-endian scalars (7.1.2), the X coordinate as DH output.
template <class E>
kem_desc make_nist_kem(kem_id id, std::size_t secret, kdf_id kdf, std::uint8_t bitmask) noexcept {
  constexpr std::size_t npk = E::point_size, nsk = E::scalar_size;
  return {id,
          {secret, npk, npk, nsk},
          kdf,
          E::secret_size,
          bitmask,
          [](std::span<std::uint8_t> out, bytes_view sk, bytes_view pk) noexcept -> result<void> {
            auto r = E::shared_secret(out.first<E::secret_size>(), sk.first<nsk>(), pk);
            if (r) return {};
            return r.error() == crypto_errc::invalid_key ? hpke_errc::invalid_private_key
                                                         : hpke_errc::invalid_public_key;
          },
          [](std::span<std::uint8_t> out, bytes_view sk) noexcept {
            return E::public_key(out.first<npk>(), sk.first<nsk>()).has_value();
          }};
}

// ExtractAndExpand (RFC 9180 4.1): shared_secret from the DH value(s) and the
// KEM context (enc || pkR [|| pkS]).
void extract_and_expand(const kem_desc& kem, std::span<std::uint8_t> shared, bytes_view dh,
                        std::initializer_list<bytes_view> context) noexcept {
  const kdf_desc& kdf = kdf_of(kem.kdf);
  const kem_suite_id sid(kem.id);
  std::uint8_t prk[64];
  labeled_extract(kdf, sid.view(), prk, {}, "eae_prk", dh);
  // kem_context is at most 3 * 133 bytes: concatenate it here.
  std::uint8_t kem_context[3 * max_dh_public_key_size];
  std::size_t n = 0;
  for (bytes_view part : context) {
    std::memcpy(kem_context + n, part.data(), part.size());
    n += part.size();
  }
  static_cast<void>(labeled_expand(kdf, sid.view(), shared.first(kem.sizes.secret), bytes_view(prk, kdf.nh),
                                   "shared_secret", bytes_view(kem_context, n)));
  crypto::ct::wipe(prk, sizeof prk);
}

}  // namespace

const kem_desc* find_kem(kem_id id) noexcept {
  static const kem_desc table[] = {
      make_x_kem<crypto::x25519>(kem_id::x25519, 32, kdf_id::hkdf_sha256),
      make_x_kem<crypto::x448>(kem_id::x448, 64, kdf_id::hkdf_sha512),
      make_nist_kem<crypto::p256>(kem_id::p256, 32, kdf_id::hkdf_sha256, 0xff),
      make_nist_kem<crypto::p384>(kem_id::p384, 48, kdf_id::hkdf_sha384, 0xff),
      make_nist_kem<crypto::p521>(kem_id::p521, 64, kdf_id::hkdf_sha512, 0x01),
  };
  for (const auto& k : table) {
    if (k.id == id) return &k;
  }
  return find_pq_kem(id);
}

// DeriveKeyPair (RFC 9180 7.1.3). X25519 and X448: sk is the expanded bytes
// as they are (the X function clamps when it uses them). P-256, P-384,
// P-521: candidates LabeledExpand(dkp_prk, "candidate", I2OSP(counter, 1),
// Nsk) with the first byte masked, the first in [1, n-1] taken; none in 256
// tries is DeriveKeyPairError.
result<key_pair> derive(const kem_desc& kem, bytes_view ikm) noexcept {
  if (kem.pq != nullptr) return derive_pq(kem, ikm);
  const kdf_desc& kdf = kdf_of(kem.kdf);
  const kem_suite_id sid(kem.id);
  std::uint8_t prk[64];
  labeled_extract(kdf, sid.view(), prk, {}, "dkp_prk", ikm);
  key_pair kp;
  auto sk = key_access::raw(kp.priv).first(kem.sizes.private_key);
  bool found = false;
  if (kem.dkp_bitmask == 0) {
    static_cast<void>(labeled_expand(kdf, sid.view(), sk, bytes_view(prk, kdf.nh), "sk", {}));
    found = kem.public_of(key_access::raw(kp.pub), sk);
  } else {
    for (unsigned counter = 0; counter <= 255 && !found; ++counter) {
      const std::uint8_t c = static_cast<std::uint8_t>(counter);
      static_cast<void>(labeled_expand(kdf, sid.view(), sk, bytes_view(prk, kdf.nh), "candidate", bytes_view(&c, 1)));
      sk[0] &= kem.dkp_bitmask;
      found = kem.public_of(key_access::raw(kp.pub), sk);  // only the verdict on the candidate is public
    }
  }
  crypto::ct::wipe(prk, sizeof prk);
  if (!found) return hpke_errc::derive_key_pair_failed;  // kp wipes its key
  key_access::set(kp.priv, kem.id, kem.sizes.private_key);
  key_access::set(kp.pub, kem.id, kem.sizes.public_key);
  key_access::set_public(kp.priv, kp.pub);
  return kp;
}

result<void> encap(const kem_desc& kem, std::span<std::uint8_t> shared, public_key& enc, const public_key& pkR,
                   const private_key* skS, bytes_view ikm_e) noexcept {
  if (kem.pq != nullptr) {
    if (skS != nullptr) return hpke_errc::auth_not_supported;
    std::uint8_t ct[max_public_key_size];
    if (auto r = kem.pq->encap(shared, std::span(ct).first(kem.sizes.enc), pkR.bytes(), ikm_e); !r) return r;
    // enc is Nenc bytes, not Npk as for a DHKEM: filled in place, not loaded.
    std::memcpy(key_access::raw(enc).data(), ct, kem.sizes.enc);
    key_access::set(enc, kem.id, kem.sizes.enc);
    return {};
  }
  result<key_pair> eph = ikm_e.empty() ? generate_key_pair(kem.id) : derive(kem, ikm_e);
  if (!eph) return eph.error();
  std::uint8_t dh[2 * 66];
  const std::size_t n = kem.ndh;
  if (auto r = kem.dh(std::span(dh).first(n), eph->priv.bytes(), pkR.bytes()); !r) return r;
  std::size_t dh_len = n;
  public_key pkS;
  if (skS != nullptr) {
    if (auto r = kem.dh(std::span(dh).subspan(n, n), skS->bytes(), pkR.bytes()); !r) {
      crypto::ct::wipe(dh, sizeof dh);
      return r;
    }
    dh_len += n;
    pkS = skS->public_key();
  }
  enc = eph->pub;
  if (skS != nullptr) {
    extract_and_expand(kem, shared, bytes_view(dh, dh_len), {enc.bytes(), pkR.bytes(), pkS.bytes()});
  } else {
    extract_and_expand(kem, shared, bytes_view(dh, dh_len), {enc.bytes(), pkR.bytes()});
  }
  crypto::ct::wipe(dh, sizeof dh);
  return {};
}

result<void> decap(const kem_desc& kem, std::span<std::uint8_t> shared, bytes_view enc, const private_key& skR,
                   const public_key* pkS) noexcept {
  if (enc.size() != kem.sizes.enc) return hpke_errc::invalid_encapsulation;
  if (kem.pq != nullptr) {
    if (pkS != nullptr) return hpke_errc::auth_not_supported;
    return kem.pq->decap(shared, enc, skR.bytes());
  }
  const std::size_t n = kem.ndh;
  std::uint8_t dh[2 * 66];
  if (auto r = kem.dh(std::span(dh).first(n), skR.bytes(), enc); !r) {
    return r.error() == hpke_errc::invalid_public_key ? hpke_errc::invalid_encapsulation : r.error();
  }
  std::size_t dh_len = n;
  if (pkS != nullptr) {
    if (auto r = kem.dh(std::span(dh).subspan(n, n), skR.bytes(), pkS->bytes()); !r) {
      crypto::ct::wipe(dh, sizeof dh);
      return r;
    }
    dh_len += n;
  }
  const bytes_view pkR = skR.public_key().bytes();  // computed when the key was loaded
  if (pkS != nullptr) {
    extract_and_expand(kem, shared, bytes_view(dh, dh_len), {enc, pkR, pkS->bytes()});
  } else {
    extract_and_expand(kem, shared, bytes_view(dh, dh_len), {enc, pkR});
  }
  crypto::ct::wipe(dh, sizeof dh);
  return {};
}

result<std::size_t> encapsulate(kem_id kem, std::span<std::uint8_t, 64> shared, public_key& enc,
                                const public_key& pkR, const private_key* skS, bytes_view ikm_e) noexcept {
  const kem_desc* k = find_kem(kem);
  if (k == nullptr) return hpke_errc::unsupported_suite;
  if (auto r = encap(*k, shared, enc, pkR, skS, ikm_e); !r) return r.error();
  return k->sizes.secret;
}

result<std::size_t> decapsulate(kem_id kem, std::span<std::uint8_t, 64> shared, bytes_view enc,
                                const private_key& skR, const public_key* pkS) noexcept {
  const kem_desc* k = find_kem(kem);
  if (k == nullptr) return hpke_errc::unsupported_suite;
  if (auto r = decap(*k, shared, enc, skR, pkS); !r) return r.error();
  return k->sizes.secret;
}

}  // namespace sealwire::hpke::detail
