// SPDX-License-Identifier: Apache-2.0
// HPKE (RFC 9180): the suite tables, labelled derivations, the DH-based KEMs
// (section 4.1), the key schedule (5.1), encryption contexts (5.2) and secret
// export (5.3).
#include <sealwire/crypto/aead.hpp>
#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/ecdh_nist.hpp>
#include <sealwire/crypto/hkdf.hpp>
#include <sealwire/crypto/random.hpp>
#include <sealwire/crypto/x25519.hpp>
#include <sealwire/crypto/x448.hpp>
#include <sealwire/hpke/hpke.hpp>

#include "detail/kem.hpp"

#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <string_view>

namespace sealwire::hpke {

// key_access reaches the key classes' storage for the KEM code below.
struct key_access {
  static std::span<std::uint8_t> raw(public_key& k) noexcept { return {k.data_.data(), k.data_.size()}; }
  static void set_size(public_key& k, std::size_t n) noexcept { k.size_ = n; }
  static std::span<std::uint8_t> raw(private_key& k) noexcept { return k.data_.span(); }
  static void set_size(private_key& k, std::size_t n) noexcept { k.size_ = n; }
  static void set_public(private_key& k, const public_key& pk) noexcept { k.public_ = pk; }
};

namespace {

using bytes_view = std::span<const std::uint8_t>;

bytes_view text(std::string_view s) noexcept { return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()}; }

constexpr std::string_view version_label = "HPKE-v1";  // RFC 9180 4

// ---- KDFs (RFC 9180 7.2) ----

struct kdf_desc {
  kdf_id id;
  std::size_t nh;
  void (*extract)(std::span<std::uint8_t> prk, bytes_view salt, std::initializer_list<bytes_view> ikm) noexcept;
  result<void> (*expand)(std::span<std::uint8_t> okm, bytes_view prk, std::initializer_list<bytes_view> info) noexcept;
};

template <class Hash>
kdf_desc make_kdf(kdf_id id) noexcept {
  using h = crypto::hkdf<Hash>;
  return {id, h::hash_size,
          [](std::span<std::uint8_t> prk, bytes_view salt, std::initializer_list<bytes_view> ikm) noexcept {
            h::extract(prk.first<h::hash_size>(), salt, ikm);
          },
          [](std::span<std::uint8_t> okm, bytes_view prk, std::initializer_list<bytes_view> info) noexcept {
            return h::expand(okm, prk, info);
          }};
}

const kdf_desc* find_kdf(kdf_id id) noexcept {
  static const kdf_desc table[] = {
      make_kdf<crypto::sha256>(kdf_id::hkdf_sha256),
      make_kdf<crypto::sha384>(kdf_id::hkdf_sha384),
      make_kdf<crypto::sha512>(kdf_id::hkdf_sha512),
  };
  for (const auto& k : table) {
    if (k.id == id) return &k;
  }
  return nullptr;
}

// kdf_of is for ids already checked (a suite that passed check_suite, or a
// KEM's own KDF): a missing entry is a bug, not input.
const kdf_desc& kdf_of(kdf_id id) noexcept {
  const kdf_desc* k = find_kdf(id);
  SEALWIRE_EXPECTS(k != nullptr);
  return *k;
}

// LabeledExtract and LabeledExpand (RFC 9180 4): the label and suite id go in
// as extra pieces of the HKDF inputs, so nothing is concatenated in memory.
void labeled_extract(const kdf_desc& kdf, bytes_view suite_id, std::span<std::uint8_t> prk, bytes_view salt,
                     std::string_view label, bytes_view ikm) noexcept {
  kdf.extract(prk.first(kdf.nh), salt, {text(version_label), suite_id, text(label), ikm});
}

result<void> labeled_expand(const kdf_desc& kdf, bytes_view suite_id, std::span<std::uint8_t> out, bytes_view prk,
                            std::string_view label, bytes_view info) noexcept {
  if (out.size() > 0xffff) return hpke_errc::export_too_long;
  const std::uint8_t length[2] = {static_cast<std::uint8_t>(out.size() >> 8), static_cast<std::uint8_t>(out.size())};
  if (auto r = kdf.expand(out, prk, {bytes_view(length), text(version_label), suite_id, text(label), info}); !r) {
    return hpke_errc::export_too_long;
  }
  return {};
}

// ---- AEADs (RFC 9180 7.3) ----

struct aead_desc {
  aead_id id;
  std::size_t nk, nn, nt;
  crypto::aead_algorithm alg;  // unused for export-only
};

const aead_desc* find_aead(aead_id id) noexcept {
  static const aead_desc table[] = {
      {aead_id::aes128_gcm, 16, 12, 16, crypto::aead_algorithm::aes128_gcm},
      {aead_id::aes256_gcm, 32, 12, 16, crypto::aead_algorithm::aes256_gcm},
      {aead_id::chacha20_poly1305, 32, 12, 16, crypto::aead_algorithm::chacha20_poly1305},
      {aead_id::export_only, 0, 0, 0, crypto::aead_algorithm::chacha20_poly1305},
  };
  for (const auto& a : table) {
    if (a.id == id) return &a;
  }
  return nullptr;
}

// ---- DH-based KEMs (RFC 9180 4.1) ----

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
};

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
  return nullptr;
}

// suite_id = "KEM" || I2OSP(kem_id, 2) for the KEM's own derivations.
struct kem_suite_id {
  std::uint8_t b[5];
  explicit kem_suite_id(kem_id id) noexcept
      : b{'K', 'E', 'M', static_cast<std::uint8_t>(static_cast<unsigned>(id) >> 8), static_cast<std::uint8_t>(id)} {}
  bytes_view view() const noexcept { return b; }
};

// suite_id = "HPKE" || I2OSP(kem_id, 2) || I2OSP(kdf_id, 2) || I2OSP(aead_id, 2).
struct hpke_suite_id {
  std::uint8_t b[10];
  explicit hpke_suite_id(const suite& s) noexcept {
    const unsigned ids[3] = {static_cast<unsigned>(s.kem), static_cast<unsigned>(s.kdf), static_cast<unsigned>(s.aead)};
    b[0] = 'H';
    b[1] = 'P';
    b[2] = 'K';
    b[3] = 'E';
    for (int i = 0; i < 3; ++i) {
      b[4 + 2 * i] = static_cast<std::uint8_t>(ids[i] >> 8);
      b[5 + 2 * i] = static_cast<std::uint8_t>(ids[i]);
    }
  }
  bytes_view view() const noexcept { return b; }
};

// DeriveKeyPair (RFC 9180 7.1.3). X25519 and X448: sk is the expanded bytes
// as they are (the X function clamps when it uses them). P-256, P-384,
// P-521: candidates LabeledExpand(dkp_prk, "candidate", I2OSP(counter, 1),
// Nsk) with the first byte masked, the first in [1, n-1] taken; none in 256
// tries is DeriveKeyPairError.
result<key_pair> derive(const kem_desc& kem, bytes_view ikm) noexcept {
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
  key_access::set_size(kp.priv, kem.sizes.private_key);
  key_access::set_size(kp.pub, kem.sizes.public_key);
  key_access::set_public(kp.priv, kp.pub);
  return kp;
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
  std::uint8_t kem_context[3 * max_public_key_size];
  std::size_t n = 0;
  for (bytes_view part : context) {
    std::memcpy(kem_context + n, part.data(), part.size());
    n += part.size();
  }
  static_cast<void>(labeled_expand(kdf, sid.view(), shared.first(kem.sizes.secret), bytes_view(prk, kdf.nh),
                                   "shared_secret", bytes_view(kem_context, n)));
  crypto::ct::wipe(prk, sizeof prk);
}

// Encap / AuthEncap (RFC 9180 4.1).
result<void> encap(const kem_desc& kem, std::span<std::uint8_t> shared, public_key& enc, const public_key& pkR,
                   const private_key* skS, bytes_view ikm_e) noexcept {
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

// Decap / AuthDecap (RFC 9180 4.1).
result<void> decap(const kem_desc& kem, std::span<std::uint8_t> shared, bytes_view enc, const private_key& skR,
                   const public_key* pkS) noexcept {
  if (enc.size() != kem.sizes.enc) return hpke_errc::invalid_encapsulation;
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

// VerifyPSKInputs (RFC 9180 5.1) and the mode/key consistency checks.
result<void> verify_inputs(mode m, bytes_view psk, bytes_view psk_id, bool have_sender_key) noexcept {
  if (static_cast<std::uint8_t>(m) > 3) return hpke_errc::invalid_mode;
  if (psk.empty() != psk_id.empty()) return hpke_errc::invalid_psk_inputs;
  const bool psk_mode = m == mode::psk || m == mode::auth_psk;
  const bool auth_mode = m == mode::auth || m == mode::auth_psk;
  if (psk_mode == psk.empty()) return hpke_errc::invalid_psk_inputs;  // missing, or not needed
  if (auth_mode != have_sender_key) return hpke_errc::invalid_mode;
  return {};
}

}  // namespace

// context_builder runs the key schedule (RFC 9180 5.1) into a context.
struct context_builder {
  static result<void> key_schedule(context& ctx, const suite& s, mode m, bytes_view shared_secret, bytes_view info,
                                   bytes_view psk, bytes_view psk_id) noexcept {
    const kdf_desc& kdf = kdf_of(s.kdf);
    const aead_desc* aead_p = find_aead(s.aead);
    SEALWIRE_EXPECTS(aead_p != nullptr);
    const aead_desc& aead = *aead_p;
    const hpke_suite_id sid(s);
    std::uint8_t context_bytes[1 + 2 * 64];
    context_bytes[0] = static_cast<std::uint8_t>(m);
    labeled_extract(kdf, sid.view(), std::span(context_bytes).subspan(1, kdf.nh), {}, "psk_id_hash", psk_id);
    labeled_extract(kdf, sid.view(), std::span(context_bytes).subspan(1 + kdf.nh, kdf.nh), {}, "info_hash", info);
    const bytes_view schedule_context(context_bytes, 1 + 2 * kdf.nh);
    std::uint8_t secret[64];
    labeled_extract(kdf, sid.view(), secret, shared_secret, "secret", psk);
    const bytes_view prk(secret, kdf.nh);
    ctx.suite_ = s;
    if (aead.id != aead_id::export_only) {
      static_cast<void>(labeled_expand(kdf, sid.view(), ctx.key_.span().first(aead.nk), prk, "key", schedule_context));
      static_cast<void>(
          labeled_expand(kdf, sid.view(), ctx.base_nonce_.span().first(aead.nn), prk, "base_nonce", schedule_context));
    }
    static_cast<void>(
        labeled_expand(kdf, sid.view(), ctx.exporter_secret_.span().first(kdf.nh), prk, "exp", schedule_context));
    ctx.seq_ = {};
    crypto::ct::wipe(secret, sizeof secret);
    return {};
  }
};

// ---- the KEM alone (tests) ----

result<std::size_t> detail::encapsulate(kem_id kem, std::span<std::uint8_t, 64> shared, public_key& enc,
                                        const public_key& pkR, const private_key* skS,
                                        std::span<const std::uint8_t> ikm_e) noexcept {
  const kem_desc* k = find_kem(kem);
  if (k == nullptr) return hpke_errc::unsupported_suite;
  if (auto r = encap(*k, shared, enc, pkR, skS, ikm_e); !r) return r.error();
  return k->sizes.secret;
}

result<std::size_t> detail::decapsulate(kem_id kem, std::span<std::uint8_t, 64> shared,
                                        std::span<const std::uint8_t> enc, const private_key& skR,
                                        const public_key* pkS) noexcept {
  const kem_desc* k = find_kem(kem);
  if (k == nullptr) return hpke_errc::unsupported_suite;
  if (auto r = decap(*k, shared, enc, skR, pkS); !r) return r.error();
  return k->sizes.secret;
}

// ---- public API ----

result<void> check_suite(const suite& s) noexcept {
  if (find_kem(s.kem) == nullptr || find_kdf(s.kdf) == nullptr || find_aead(s.aead) == nullptr) {
    return hpke_errc::unsupported_suite;
  }
  return {};
}

result<kem_sizes> kem_info(kem_id kem) noexcept {
  const kem_desc* k = find_kem(kem);
  if (k == nullptr) return hpke_errc::unsupported_suite;
  return k->sizes;
}

result<public_key> public_key::from(kem_id kem, std::span<const std::uint8_t> bytes) noexcept {
  const kem_desc* k = find_kem(kem);
  if (k == nullptr) return hpke_errc::unsupported_suite;
  if (bytes.size() != k->sizes.public_key) return hpke_errc::invalid_public_key;
  public_key pk;
  std::memcpy(pk.data_.data(), bytes.data(), bytes.size());
  pk.size_ = bytes.size();
  return pk;
}

result<private_key> private_key::from(kem_id kem, std::span<const std::uint8_t> bytes) noexcept {
  const kem_desc* k = find_kem(kem);
  if (k == nullptr) return hpke_errc::unsupported_suite;
  if (bytes.size() != k->sizes.private_key) return hpke_errc::invalid_private_key;
  private_key sk;
  std::memcpy(sk.data_.data(), bytes.data(), bytes.size());
  sk.size_ = bytes.size();
  if (!k->public_of(key_access::raw(sk.public_), sk.bytes())) return hpke_errc::invalid_private_key;
  key_access::set_size(sk.public_, k->sizes.public_key);
  return sk;
}

result<key_pair> generate_key_pair(kem_id kem) noexcept {
  const kem_desc* k = find_kem(kem);
  if (k == nullptr) return hpke_errc::unsupported_suite;
  // GenerateKeyPair as DeriveKeyPair of fresh randomness (RFC 9180 7.1.3
  // allows either); Nsk random bytes.
  std::uint8_t ikm[max_private_key_size];
  if (crypto::random_bytes(std::span(ikm).first(k->sizes.private_key))) return hpke_errc::rng_failure;
  auto kp = derive(*k, bytes_view(ikm, k->sizes.private_key));
  crypto::ct::wipe(ikm, sizeof ikm);
  return kp;
}

result<key_pair> derive_key_pair(kem_id kem, std::span<const std::uint8_t> ikm) noexcept {
  const kem_desc* k = find_kem(kem);
  if (k == nullptr) return hpke_errc::unsupported_suite;
  return derive(*k, ikm);
}

result<public_key> public_key_of(kem_id kem, const private_key& sk) noexcept {
  const kem_desc* k = find_kem(kem);
  if (k == nullptr) return hpke_errc::unsupported_suite;
  if (sk.size() != k->sizes.private_key) return hpke_errc::invalid_private_key;
  return sk.public_key();
}

context::context(context&& other) noexcept
    : suite_(other.suite_),
      key_(std::move(other.key_)),
      base_nonce_(std::move(other.base_nonce_)),
      exporter_secret_(std::move(other.exporter_secret_)),
      seq_(other.seq_) {
  other.seq_ = {};
}

context& context::operator=(context&& other) noexcept {
  if (this != &other) {
    suite_ = other.suite_;
    key_ = std::move(other.key_);
    base_nonce_ = std::move(other.base_nonce_);
    exporter_secret_ = std::move(other.exporter_secret_);
    seq_ = other.seq_;
    other.seq_ = {};
  }
  return *this;
}

context::~context() { wipe(); }

void context::wipe() noexcept {
  crypto::ct::wipe(key_.span());
  crypto::ct::wipe(base_nonce_.span());
  crypto::ct::wipe(exporter_secret_.span());
  seq_ = {};
}

std::size_t context::tag_size() const noexcept {
  const aead_desc* a = find_aead(suite_.aead);
  return a == nullptr ? 0 : a->nt;
}

result<void> context::export_secret(std::span<std::uint8_t> out, std::span<const std::uint8_t> exporter_context) const noexcept {
  const kdf_desc* kdf = find_kdf(suite_.kdf);
  if (kdf == nullptr) return hpke_errc::unsupported_suite;
  if (out.size() > 255 * kdf->nh) return hpke_errc::export_too_long;
  const hpke_suite_id sid(suite_);
  return labeled_expand(*kdf, sid.view(), out, exporter_secret_.span().first(kdf->nh), "sec", exporter_context);
}

result<void> context::next_nonce(std::span<std::uint8_t, 12> nonce) const noexcept {
  // RFC 9180 5.2: the sequence number may not reach 2^(8 Nn) - 1.
  if (seq_.low == ~std::uint64_t{0} && seq_.high == ~std::uint32_t{0}) return hpke_errc::message_limit_reached;
  std::memcpy(nonce.data(), base_nonce_.data(), 12);
  // base_nonce XOR I2OSP(seq, Nn): the sequence number, big-endian, right-aligned.
  for (int i = 0; i < 8; ++i) nonce[11 - static_cast<std::size_t>(i)] ^= static_cast<std::uint8_t>(seq_.low >> (8 * i));
  for (int i = 0; i < 4; ++i) nonce[3 - static_cast<std::size_t>(i)] ^= static_cast<std::uint8_t>(seq_.high >> (8 * i));
  // The nonce comes from the key schedule but, as in any AEAD, it need not be
  // secret: the stream cipher's block counter may branch on it (docs/security.md).
  crypto::ct::declassify(nonce.data(), nonce.size());
  return {};
}

void context::advance() noexcept {
  if (++seq_.low == 0) ++seq_.high;
}

result<std::size_t> sender_context::seal(std::span<std::uint8_t> out, std::span<const std::uint8_t> aad,
                                         std::span<const std::uint8_t> pt) noexcept {
  const aead_desc* aead = find_aead(suite_.aead);
  if (aead == nullptr || aead->id == aead_id::export_only) return hpke_errc::export_only;
  if (out.size() < pt.size() + aead->nt) return hpke_errc::invalid_length;
  std::uint8_t nonce[12];
  if (auto r = next_nonce(nonce); !r) return r.error();
  auto r = crypto::aead_seal(aead->alg, out, pt, aad, std::span(nonce).first(aead->nn), key_.span().first(aead->nk));
  crypto::ct::wipe(nonce, sizeof nonce);
  if (!r) return hpke_errc::invalid_length;
  advance();
  return *r;
}

result<std::size_t> recipient_context::open(std::span<std::uint8_t> out, std::span<const std::uint8_t> aad,
                                            std::span<const std::uint8_t> ct) noexcept {
  const aead_desc* aead = find_aead(suite_.aead);
  if (aead == nullptr || aead->id == aead_id::export_only) return hpke_errc::export_only;
  if (ct.size() < aead->nt) return hpke_errc::open_failed;
  if (out.size() < ct.size() - aead->nt) return hpke_errc::invalid_length;
  std::uint8_t nonce[12];
  if (auto r = next_nonce(nonce); !r) return r.error();
  auto r = crypto::aead_open(aead->alg, out, ct, aad, std::span(nonce).first(aead->nn), key_.span().first(aead->nk));
  crypto::ct::wipe(nonce, sizeof nonce);
  if (!r) return hpke_errc::open_failed;  // aead_open zeroed the output
  advance();
  return *r;
}

result<sender_setup> setup_sender(const suite& s, const public_key& recipient, const sender_options& o) noexcept {
  if (auto r = check_suite(s); !r) return r.error();
  if (auto r = verify_inputs(o.mode, o.psk, o.psk_id, o.sender_key != nullptr); !r) return r.error();
  const kem_desc* kem_p = find_kem(s.kem);
  SEALWIRE_EXPECTS(kem_p != nullptr);  // check_suite passed
  const kem_desc& kem = *kem_p;
  if (recipient.size() != kem.sizes.public_key) return hpke_errc::invalid_public_key;
  if (o.sender_key != nullptr && o.sender_key->size() != kem.sizes.private_key) return hpke_errc::invalid_private_key;
  std::uint8_t shared[64];
  sender_setup out;
  if (auto r = encap(kem, shared, out.enc, recipient, o.sender_key, o.ikm_e); !r) return r.error();
  static_cast<void>(context_builder::key_schedule(out.context, s, o.mode, bytes_view(shared, kem.sizes.secret), o.info,
                                                  o.psk, o.psk_id));
  crypto::ct::wipe(shared, sizeof shared);
  return out;
}

result<recipient_context> setup_recipient(const suite& s, std::span<const std::uint8_t> enc, const private_key& recipient,
                                          const recipient_options& o) noexcept {
  if (auto r = check_suite(s); !r) return r.error();
  if (auto r = verify_inputs(o.mode, o.psk, o.psk_id, o.sender_key != nullptr); !r) return r.error();
  const kem_desc* kem_p = find_kem(s.kem);
  SEALWIRE_EXPECTS(kem_p != nullptr);  // check_suite passed
  const kem_desc& kem = *kem_p;
  if (recipient.size() != kem.sizes.private_key) return hpke_errc::invalid_private_key;
  if (o.sender_key != nullptr && o.sender_key->size() != kem.sizes.public_key) return hpke_errc::invalid_public_key;
  std::uint8_t shared[64];
  if (auto r = decap(kem, shared, enc, recipient, o.sender_key); !r) return r.error();
  recipient_context ctx;
  static_cast<void>(
      context_builder::key_schedule(ctx, s, o.mode, bytes_view(shared, kem.sizes.secret), o.info, o.psk, o.psk_id));
  crypto::ct::wipe(shared, sizeof shared);
  return ctx;
}

result<std::size_t> seal(std::span<std::uint8_t> out, public_key& enc, const suite& s, const public_key& recipient,
                         const sender_options& options, std::span<const std::uint8_t> aad,
                         std::span<const std::uint8_t> pt) noexcept {
  auto setup = setup_sender(s, recipient, options);
  if (!setup) return setup.error();
  auto n = setup->context.seal(out, aad, pt);
  if (n) enc = setup->enc;
  return n;
}

result<std::size_t> open(std::span<std::uint8_t> out, const suite& s, std::span<const std::uint8_t> enc,
                         const private_key& recipient, const recipient_options& options,
                         std::span<const std::uint8_t> aad, std::span<const std::uint8_t> ct) noexcept {
  auto ctx = setup_recipient(s, enc, recipient, options);
  if (!ctx) return ctx.error();
  return ctx->open(out, aad, ct);
}

}  // namespace sealwire::hpke
