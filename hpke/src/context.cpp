// SPDX-License-Identifier: Apache-2.0
// HPKE encryption contexts (RFC 9180 5): the checks of the setup inputs,
// the key schedule (5.1), Seal and Open with the sequence number (5.2) and
// secret export (5.3).
#include <sealwire/crypto/ct.hpp>
#include <sealwire/hpke/context.hpp>

#include "detail/kem.hpp"
#include "detail/tables.hpp"

#include <cstring>

namespace sealwire::hpke {
namespace {

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

// check_key: a key must be present and of the suite's KEM.
template <class Key>
result<void> check_key(const Key& key, kem_id kem, hpke_errc empty) noexcept {
  if (key.empty()) return empty;
  if (key.kem() != kem) return hpke_errc::kem_mismatch;
  return {};
}

}  // namespace

// context_builder runs the key schedule (RFC 9180 5.1) into a context.
struct context_builder {
  static void key_schedule(context& ctx, const suite& s, mode m, bytes_view shared_secret, bytes_view info,
                           bytes_view psk, bytes_view psk_id) noexcept {
    const detail::kdf_desc& kdf = detail::kdf_of(s.kdf);
    const detail::aead_desc* aead_p = detail::find_aead(s.aead);
    SEALWIRE_EXPECTS(aead_p != nullptr);
    const detail::aead_desc& aead = *aead_p;
    const detail::hpke_suite_id sid(s);
    std::uint8_t context_bytes[1 + 2 * 64];
    context_bytes[0] = static_cast<std::uint8_t>(m);
    detail::labeled_extract(kdf, sid.view(), std::span(context_bytes).subspan(1, kdf.nh), {}, "psk_id_hash", psk_id);
    detail::labeled_extract(kdf, sid.view(), std::span(context_bytes).subspan(1 + kdf.nh, kdf.nh), {}, "info_hash",
                            info);
    const bytes_view schedule_context(context_bytes, 1 + 2 * kdf.nh);
    std::uint8_t secret[64];
    detail::labeled_extract(kdf, sid.view(), secret, shared_secret, "secret", psk);
    const bytes_view prk(secret, kdf.nh);
    ctx.suite_ = s;
    if (aead.id != aead_id::export_only) {
      static_cast<void>(
          detail::labeled_expand(kdf, sid.view(), ctx.key_.span().first(aead.nk), prk, "key", schedule_context));
      static_cast<void>(detail::labeled_expand(kdf, sid.view(), ctx.base_nonce_.span().first(aead.nn), prk,
                                               "base_nonce", schedule_context));
      // The AEAD key is set up once for every message of the context.
      static_cast<void>(ctx.aead_.init(aead.alg, ctx.key_.span().first(aead.nk)));
    }
    static_cast<void>(detail::labeled_expand(kdf, sid.view(), ctx.exporter_secret_.span().first(kdf.nh), prk, "exp",
                                             schedule_context));
    ctx.seq_ = {};
    crypto::ct::wipe(secret, sizeof secret);
  }
};

context::context() noexcept = default;

context::context(context&& other) noexcept
    : suite_(other.suite_),
      key_(std::move(other.key_)),
      aead_(std::move(other.aead_)),
      base_nonce_(std::move(other.base_nonce_)),
      exporter_secret_(std::move(other.exporter_secret_)),
      seq_(other.seq_) {
  other.suite_ = {};
  other.seq_ = {};
}

context& context::operator=(context&& other) noexcept {
  if (this != &other) {
    suite_ = other.suite_;
    key_ = std::move(other.key_);
    aead_ = std::move(other.aead_);
    base_nonce_ = std::move(other.base_nonce_);
    exporter_secret_ = std::move(other.exporter_secret_);
    seq_ = other.seq_;
    other.suite_ = {};
    other.seq_ = {};
  }
  return *this;
}

context::~context() { wipe(); }

void context::wipe() noexcept {
  crypto::ct::wipe(key_.span());
  aead_.wipe();
  crypto::ct::wipe(base_nonce_.span());
  crypto::ct::wipe(exporter_secret_.span());
  seq_ = {};
}

std::size_t context::tag_size() const noexcept {
  const detail::aead_desc* a = detail::find_aead(suite_.aead);
  return a == nullptr ? 0 : a->nt;
}

result<void> context::export_secret(std::span<std::uint8_t> out, bytes_view exporter_context) const noexcept {
  const detail::kdf_desc* kdf = detail::find_kdf(suite_.kdf);
  if (kdf == nullptr) return crypto_errc::not_keyed;  // an empty or moved-from context
  if (out.size() > 255 * kdf->nh) return hpke_errc::export_too_long;
  const detail::hpke_suite_id sid(suite_);
  return detail::labeled_expand(*kdf, sid.view(), out, exporter_secret_.span().first(kdf->nh), "sec",
                                exporter_context);
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

result<std::size_t> sender_context::seal(std::span<std::uint8_t> out, bytes_view pt, associated_data ad) noexcept {
  const detail::aead_desc* aead = detail::find_aead(suite_.aead);
  if (aead == nullptr) return crypto_errc::not_keyed;  // an empty or moved-from context
  if (aead->id == aead_id::export_only || !aead_.keyed()) return hpke_errc::export_only;
  if (out.size() < pt.size() + aead->nt) return hpke_errc::invalid_length;
  std::uint8_t nonce[12];
  if (auto r = next_nonce(nonce); !r) return r.error();
  auto r = aead_.seal(out, pt, ad, std::span(nonce).first(aead->nn));
  crypto::ct::wipe(nonce, sizeof nonce);
  if (!r) return hpke_errc::invalid_length;
  advance();
  return *r;
}

result<std::size_t> recipient_context::open(std::span<std::uint8_t> out, bytes_view ct, associated_data ad) noexcept {
  const detail::aead_desc* aead = detail::find_aead(suite_.aead);
  if (aead == nullptr) return crypto_errc::not_keyed;  // an empty or moved-from context
  if (aead->id == aead_id::export_only || !aead_.keyed()) return hpke_errc::export_only;
  if (ct.size() < aead->nt) return hpke_errc::open_failed;
  if (out.size() < ct.size() - aead->nt) return hpke_errc::invalid_length;
  std::uint8_t nonce[12];
  if (auto r = next_nonce(nonce); !r) return r.error();
  auto r = aead_.open(out, ct, ad, std::span(nonce).first(aead->nn));
  crypto::ct::wipe(nonce, sizeof nonce);
  if (!r) return hpke_errc::open_failed;  // open zeroed the output
  advance();
  return *r;
}

namespace {

// checked_kem runs the checks both setups share (the suite, the mode against
// its inputs, the keys' presence and KEM) and returns the suite's KEM.
template <class RecipientKey, class SenderKey>
result<const detail::kem_desc*> checked_kem(const suite& s, mode m, bytes_view psk, bytes_view psk_id,
                                            const RecipientKey& recipient, const SenderKey* sender,
                                            hpke_errc empty_recipient, hpke_errc empty_sender) noexcept {
  if (auto r = check_suite(s); !r) return r.error();
  // draft-ietf-hpke-pq: ML-KEM and X-Wing have no AuthEncap, so no auth modes.
  if ((m == mode::auth || m == mode::auth_psk) && !kem_supports_auth(s.kem)) return hpke_errc::auth_not_supported;
  if (auto r = verify_inputs(m, psk, psk_id, sender != nullptr); !r) return r.error();
  if (auto r = check_key(recipient, s.kem, empty_recipient); !r) return r.error();
  if (sender != nullptr) {
    if (auto r = check_key(*sender, s.kem, empty_sender); !r) return r.error();
  }
  const detail::kem_desc* kem = detail::find_kem(s.kem);
  SEALWIRE_EXPECTS(kem != nullptr);  // check_suite passed
  return kem;
}

}  // namespace

result<sender_setup> setup_sender(const suite& s, const public_key& recipient, const sender_options& o) noexcept {
  auto kem = checked_kem(s, o.mode, o.psk, o.psk_id, recipient, o.sender_key, hpke_errc::invalid_public_key,
                         hpke_errc::invalid_private_key);
  if (!kem) return kem.error();
  std::uint8_t shared[64];
  sender_setup out;
  if (auto r = detail::encap(**kem, shared, out.enc, recipient, o.sender_key, o.ikm_e); !r) return r.error();
  context_builder::key_schedule(out.context, s, o.mode, bytes_view(shared, (*kem)->sizes.secret), o.info, o.psk,
                                o.psk_id);
  crypto::ct::wipe(shared, sizeof shared);
  return out;
}

result<recipient_context> setup_recipient(const suite& s, bytes_view enc, const private_key& recipient,
                                          const recipient_options& o) noexcept {
  auto kem = checked_kem(s, o.mode, o.psk, o.psk_id, recipient, o.sender_key, hpke_errc::invalid_private_key,
                         hpke_errc::invalid_public_key);
  if (!kem) return kem.error();
  std::uint8_t shared[64];
  if (auto r = detail::decap(**kem, shared, enc, recipient, o.sender_key); !r) return r.error();
  recipient_context ctx;
  context_builder::key_schedule(ctx, s, o.mode, bytes_view(shared, (*kem)->sizes.secret), o.info, o.psk, o.psk_id);
  crypto::ct::wipe(shared, sizeof shared);
  return ctx;
}

}  // namespace sealwire::hpke
