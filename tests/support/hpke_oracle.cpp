// SPDX-License-Identifier: Apache-2.0
#include "hpke_oracle.hpp"

#include "oracles.hpp"

#include <openssl/evp.h>

#include <cstring>
#include <string_view>

namespace sealwire::test::oracle::hpke {
namespace {

// append copies by resize and memcpy: GCC 12 warns falsely inside
// vector::insert here.
void append(bytes& out, const void* data, std::size_t n) {
  const std::size_t at = out.size();
  out.resize(at + n);
  if (n != 0) std::memcpy(out.data() + at, data, n);
}
void append(bytes& out, const bytes& b) { append(out, b.data(), b.size()); }
void append(bytes& out, std::string_view s) { append(out, s.data(), s.size()); }
void append_u16(bytes& out, std::size_t v) {
  out.push_back(static_cast<std::uint8_t>(v >> 8));
  out.push_back(static_cast<std::uint8_t>(v));
}

bytes kem_suite_id(std::uint16_t kem) {
  bytes id;
  append(id, "KEM");
  append_u16(id, kem);
  return id;
}

bytes hpke_suite_id(std::uint16_t kem, std::uint16_t kdf, std::uint16_t aead) {
  bytes id;
  append(id, "HPKE");
  append_u16(id, kem);
  append_u16(id, kdf);
  append_u16(id, aead);
  return id;
}

// LabeledExtract and LabeledExpand (RFC 9180 4).
std::optional<bytes> labeled_extract(const char* digest, const bytes& suite_id, const bytes& salt,
                                     std::string_view label, const bytes& ikm) {
  bytes labeled;
  append(labeled, "HPKE-v1");
  append(labeled, suite_id);
  append(labeled, label);
  append(labeled, ikm);
  return evp_hkdf_extract(digest, salt, labeled);
}

std::optional<bytes> labeled_expand(const char* digest, const bytes& suite_id, const bytes& prk,
                                    std::string_view label, const bytes& info, std::size_t size) {
  bytes labeled;
  append_u16(labeled, size);
  append(labeled, "HPKE-v1");
  append(labeled, suite_id);
  append(labeled, label);
  append(labeled, info);
  return evp_hkdf_expand(digest, prk, labeled, size);
}

std::optional<bytes> dh(const kem_params& k, const key_pair& own, const bytes& peer) {
  if (k.group == nullptr) return evp_raw_derive(k.raw_type, own.sk, peer);
  evp_key priv = evp_ec_key(k.group, own.pk, &own.sk);
  evp_key pub = evp_ec_key(k.group, peer, nullptr);
  if (priv.k == nullptr || pub.k == nullptr) return std::nullopt;
  return evp_derive(priv.k, pub.k, k.n_dh);
}

// extract_and_expand (RFC 9180 4.1).
std::optional<bytes> extract_and_expand(const kem_params& k, const bytes& dh_value, const bytes& kem_context) {
  const bytes sid = kem_suite_id(k.id);
  auto prk = labeled_extract(k.digest, sid, {}, "eae_prk", dh_value);
  if (!prk) return std::nullopt;
  return labeled_expand(k.digest, sid, *prk, "shared_secret", kem_context, k.n_secret);
}

std::size_t digest_size(const char* digest) {
  const std::string_view d(digest);
  return d == "SHA256" ? 32 : d == "SHA384" ? 48 : 64;
}

}  // namespace

const char* kdf_digest(std::uint16_t kdf) {
  switch (kdf) {
    case 1: return "SHA256";
    case 2: return "SHA384";
    case 3: return "SHA512";
    default: return nullptr;
  }
}

const char* aead_cipher(std::uint16_t aead) {
  switch (aead) {
    case 1: return "AES-128-GCM";
    case 2: return "AES-256-GCM";
    case 3: return "ChaCha20-Poly1305";
    default: return nullptr;
  }
}

std::size_t aead_key_size(std::uint16_t aead) { return aead == 1 ? 16 : aead == 2 || aead == 3 ? 32 : 0; }

std::optional<kem_params> kem_of(std::uint16_t kem) {
  switch (kem) {
    case 0x0010: return kem_params{kem, "SHA256", 32, 65, 65, 32, 32, "P-256", 0, 0xff};
    case 0x0011: return kem_params{kem, "SHA384", 48, 97, 97, 48, 48, "P-384", 0, 0xff};
    case 0x0012: return kem_params{kem, "SHA512", 64, 133, 133, 66, 66, "P-521", 0, 0x01};
    case 0x0020: return kem_params{kem, "SHA256", 32, 32, 32, 32, 32, nullptr, EVP_PKEY_X25519, 0xff};
    case 0x0021: return kem_params{kem, "SHA512", 64, 56, 56, 56, 56, nullptr, EVP_PKEY_X448, 0xff};
    default: return std::nullopt;
  }
}

std::optional<key_pair> derive_key_pair(std::uint16_t kem, const bytes& ikm) {
  const auto k = kem_of(kem);
  if (!k) return std::nullopt;
  const bytes sid = kem_suite_id(kem);
  auto prk = labeled_extract(k->digest, sid, {}, "dkp_prk", ikm);
  if (!prk) return std::nullopt;
  if (k->group == nullptr) {
    auto sk = labeled_expand(k->digest, sid, *prk, "sk", {}, k->n_sk);
    if (!sk) return std::nullopt;
    auto pk = evp_raw_public(k->raw_type, *sk);
    if (!pk) return std::nullopt;
    return key_pair{*sk, *pk};
  }
  // NIST curves: rejection sampling of candidates below the order.
  for (unsigned counter = 0; counter < 256; ++counter) {
    auto cand = labeled_expand(k->digest, sid, *prk, "candidate", bytes{static_cast<std::uint8_t>(counter)}, k->n_sk);
    if (!cand) return std::nullopt;
    (*cand)[0] &= k->bitmask;
    if (auto pk = evp_ec_public(k->group, *cand, k->n_pk)) return key_pair{*cand, *pk};
  }
  return std::nullopt;
}

std::optional<encapsulation> encap(std::uint16_t kem, const bytes& pk_r, const key_pair& e, const key_pair* sender) {
  const auto k = kem_of(kem);
  if (!k) return std::nullopt;
  auto dh_value = dh(*k, e, pk_r);
  if (!dh_value) return std::nullopt;
  bytes kem_context = e.pk;
  append(kem_context, pk_r);
  if (sender != nullptr) {
    auto dh_s = dh(*k, *sender, pk_r);
    if (!dh_s) return std::nullopt;
    append(*dh_value, *dh_s);
    append(kem_context, sender->pk);
  }
  auto ss = extract_and_expand(*k, *dh_value, kem_context);
  if (!ss) return std::nullopt;
  return encapsulation{*ss, e.pk};
}

std::optional<bytes> decap(std::uint16_t kem, const bytes& enc, const key_pair& r, const bytes* pk_s) {
  const auto k = kem_of(kem);
  if (!k || enc.size() != k->n_enc) return std::nullopt;
  auto dh_value = dh(*k, r, enc);
  if (!dh_value) return std::nullopt;
  bytes kem_context = enc;
  append(kem_context, r.pk);
  if (pk_s != nullptr) {
    auto dh_s = dh(*k, r, *pk_s);
    if (!dh_s) return std::nullopt;
    append(*dh_value, *dh_s);
    append(kem_context, *pk_s);
  }
  return extract_and_expand(*k, *dh_value, kem_context);
}

std::optional<context> key_schedule(std::uint16_t kem, std::uint16_t kdf, std::uint16_t aead,
                                    const bytes& shared_secret, const schedule_input& in) {
  const char* digest = kdf_digest(kdf);
  if (digest == nullptr || (aead != 0xffff && aead_cipher(aead) == nullptr)) return std::nullopt;
  const bytes sid = hpke_suite_id(kem, kdf, aead);
  auto psk_id_hash = labeled_extract(digest, sid, {}, "psk_id_hash", in.psk_id);
  auto info_hash = labeled_extract(digest, sid, {}, "info_hash", in.info);
  if (!psk_id_hash || !info_hash) return std::nullopt;
  bytes ksc{in.mode};
  append(ksc, *psk_id_hash);
  append(ksc, *info_hash);
  auto secret = labeled_extract(digest, sid, shared_secret, "secret", in.psk);
  if (!secret) return std::nullopt;
  context c;
  c.kem = kem;
  c.kdf = kdf;
  c.aead = aead;
  if (aead != 0xffff) {
    auto key = labeled_expand(digest, sid, *secret, "key", ksc, aead_key_size(aead));
    auto base_nonce = labeled_expand(digest, sid, *secret, "base_nonce", ksc, 12);
    if (!key || !base_nonce) return std::nullopt;
    c.key = *key;
    c.base_nonce = *base_nonce;
  }
  auto exp = labeled_expand(digest, sid, *secret, "exp", ksc, digest_size(digest));
  if (!exp) return std::nullopt;
  c.exporter_secret = *exp;
  return c;
}

bytes nonce(const context& c) {
  bytes seq(12, 0);  // I2OSP(seq, 12)
  for (int i = 0; i < 8; ++i) seq[11 - static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(c.seq_low >> (8 * i));
  for (int i = 0; i < 4; ++i) seq[3 - static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(c.seq_high >> (8 * i));
  bytes n = c.base_nonce;
  for (std::size_t i = 0; i < n.size(); ++i) n[i] ^= seq[i];
  return n;
}

namespace {
void advance(context& c) {
  if (++c.seq_low == 0) ++c.seq_high;
}
}  // namespace

std::optional<bytes> seal(context& c, const bytes& aad, const bytes& pt) {
  const char* cipher = aead_cipher(c.aead);
  if (cipher == nullptr) return std::nullopt;
  auto ct = evp_aead_seal(cipher, c.key, nonce(c), aad, pt);
  if (ct) advance(c);
  return ct;
}

std::optional<bytes> open(context& c, const bytes& aad, const bytes& ct) {
  const char* cipher = aead_cipher(c.aead);
  if (cipher == nullptr) return std::nullopt;
  auto pt = evp_aead_open(cipher, c.key, nonce(c), aad, ct);
  if (pt) advance(c);
  return pt;
}

std::optional<bytes> export_secret(const context& c, const bytes& exporter_context, std::size_t size) {
  const char* digest = kdf_digest(c.kdf);
  if (digest == nullptr) return std::nullopt;
  return labeled_expand(digest, hpke_suite_id(c.kem, c.kdf, c.aead), c.exporter_secret, "sec", exporter_context,
                        size);
}

}  // namespace sealwire::test::oracle::hpke
