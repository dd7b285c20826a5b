// SPDX-License-Identifier: Apache-2.0
// HPKE key pairs (RFC 9180 7.1): loading (DeserializePublicKey,
// DeserializePrivateKey), generation and DeriveKeyPair.
#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/random.hpp>
#include <sealwire/hpke/keys.hpp>

#include "detail/kem.hpp"

#include <cstring>

namespace sealwire::hpke {

result<public_key> public_key::from(kem_id kem, bytes_view bytes) noexcept {
  const detail::kem_desc* k = detail::find_kem(kem);
  if (k == nullptr) return hpke_errc::unsupported_suite;
  if (bytes.size() != k->sizes.public_key) return hpke_errc::invalid_public_key;
  public_key pk;
  std::memcpy(pk.data_.data(), bytes.data(), bytes.size());
  pk.size_ = bytes.size();
  pk.kem_ = kem;
  return pk;
}

result<private_key> private_key::from(kem_id kem, bytes_view bytes) noexcept {
  const detail::kem_desc* k = detail::find_kem(kem);
  if (k == nullptr) return hpke_errc::unsupported_suite;
  if (bytes.size() != k->sizes.private_key) return hpke_errc::invalid_private_key;
  private_key sk;
  std::memcpy(sk.data_.data(), bytes.data(), bytes.size());
  sk.size_ = bytes.size();
  sk.kem_ = kem;
  if (!k->public_of(key_access::raw(sk.public_), sk.bytes())) return hpke_errc::invalid_private_key;
  key_access::set(sk.public_, kem, k->sizes.public_key);
  return sk;
}

result<key_pair> generate_key_pair(kem_id kem) noexcept {
  const detail::kem_desc* k = detail::find_kem(kem);
  if (k == nullptr) return hpke_errc::unsupported_suite;
  // GenerateKeyPair as DeriveKeyPair of fresh randomness (RFC 9180 7.1.3
  // allows either); Nsk random bytes.
  std::uint8_t ikm[max_private_key_size];
  if (!crypto::random_bytes(std::span(ikm).first(k->sizes.private_key))) return hpke_errc::rng_failure;
  auto kp = detail::derive(*k, bytes_view(ikm, k->sizes.private_key));
  crypto::ct::wipe(ikm, sizeof ikm);
  return kp;
}

result<key_pair> derive_key_pair(kem_id kem, bytes_view ikm) noexcept {
  const detail::kem_desc* k = detail::find_kem(kem);
  if (k == nullptr) return hpke_errc::unsupported_suite;
  return detail::derive(*k, ikm);
}

}  // namespace sealwire::hpke
