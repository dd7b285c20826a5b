// SPDX-License-Identifier: Apache-2.0
// The handshake state machine and key schedule (docs/protocol.md 4): the
// messages, the HPKE encapsulations and the derivation of the traffic
// secrets. It never sees a record; the connection frames its messages.
#include "detail/handshake.hpp"

#include <sealwire/crypto/ct.hpp>
#include <sealwire/hpke/context.hpp>

#include "detail/log.hpp"
#include "detail/traffic.hpp"

#include <algorithm>
#include <cstring>
#include <new>
#include <optional>

namespace sealwire::record::detail {
namespace {

constexpr std::uint8_t msg_client_hello = 1;
constexpr std::uint8_t msg_server_hello = 2;
constexpr std::uint8_t msg_server_finished = 3;
constexpr std::uint8_t msg_client_finished = 4;

constexpr std::string_view info_static = "sealwire v1 static";
constexpr std::string_view info_ephemeral = "sealwire v1 ephemeral";
constexpr std::string_view export_ss1 = "sealwire v1 ss1";
constexpr std::string_view export_ss2 = "sealwire v1 ss2";

constexpr std::size_t max_list = 16;  // versions and AEADs offered

}  // namespace

// finished_mac writes HMAC(ExpandLabel(hs, label, th, Nh), th), a Finished
// MAC (docs/protocol.md 4.2), to out (at least Nh bytes).
void handshake::finished_mac(std::string_view label, bytes_view th, std::span<std::uint8_t> out) const noexcept {
  crypto::secret_array<64> key;
  expand_label(suite_.kdf, key.span().first(nh_), hs_.span().first(nh_), label, th);
  hmac(suite_.kdf, out, key.span().first(nh_), th);
}

handshake_keys handshake::take_keys() noexcept {
  keys_ready_ = false;
  return std::move(keys_);
}

result<std::unique_ptr<handshake>> handshake::client(const client_config& cfg, std::size_t max_message,
                                                     message_sink out) noexcept {
  const hpke::kem_id kem = cfg.server_key.kem();
  auto sizes = hpke::kem_info(kem);
  if (!sizes) return record_errc::unsupported_algorithm;
  std::unique_ptr<handshake> h;
  try {
    h = std::make_unique<handshake>(cfg.kdf);
  } catch (const std::bad_alloc&) {
    return std::make_error_code(std::errc::not_enough_memory);
  }
  h->client_cfg_ = &cfg;
  h->at_ = stage::client_wait_server_hello;
  h->suite_ = {kem, cfg.kdf, hpke::aead_id::export_only};
  h->sizes_ = *sizes;
  h->nh_ = hash_size(cfg.kdf);

  auto eph = hpke::generate_key_pair(kem);
  if (!eph) return eph.error();
  hpke::sender_options so;
  so.info = bytes_of(info_static);
  if (cfg.client_key) {
    so.mode = hpke::mode::auth;
    so.sender_key = cfg.client_key.get();
  }
  auto s1 = hpke::setup_sender(h->suite_, cfg.server_key, so);
  if (!s1) return s1.error();
  if (auto ok = s1->context.export_secret(h->ss1_.span().first(h->nh_), bytes_of(export_ss1)); !ok) return ok.error();

  std::vector<std::uint8_t> ch;
  try {
    ch.reserve(64 + 3 * sizes->public_key);
    writer w(ch);
    w.u8(msg_client_hello);
    w.u8(1);
    w.u16(protocol_version);
    w.u16(static_cast<unsigned>(kem));
    w.u16(static_cast<unsigned>(cfg.kdf));
    w.u8(static_cast<unsigned>(cfg.aeads.size()));
    for (record_aead a : cfg.aeads) w.u16(static_cast<unsigned>(a));
    w.u8(cfg.client_key ? 1 : 0);
    w.vec16(s1->enc.bytes());
    w.vec16(eph->pub.bytes());
    if (cfg.client_key) w.vec16(cfg.client_key->public_key().bytes());
  } catch (const std::bad_alloc&) {
    return std::make_error_code(std::errc::not_enough_memory);
  }
  if (ch.size() > max_message) return record_errc::invalid_limit;
  h->th_.update(ch);
  h->eph_ = std::move(eph->priv);
  out(ch);
  return h;
}

result<std::unique_ptr<handshake>> handshake::server(const server_config& cfg) noexcept {
  auto sizes = hpke::kem_info(cfg.static_key->kem());
  if (!sizes) return record_errc::unsupported_algorithm;
  std::unique_ptr<handshake> h;
  try {
    h = std::make_unique<handshake>(hpke::kdf_id::hkdf_sha256);  // the transcript restarts at ClientHello
  } catch (const std::bad_alloc&) {
    return std::make_error_code(std::errc::not_enough_memory);
  }
  h->server_cfg_ = &cfg;
  h->at_ = stage::server_wait_client_hello;
  h->sizes_ = *sizes;
  return h;
}

result<void> handshake::on_message(bytes_view msg, message_sink out) noexcept {
  switch (at_) {
    case stage::client_wait_server_hello: return client_on_server_hello(msg);
    case stage::client_wait_server_finished: return client_on_server_finished(msg, out);
    case stage::server_wait_client_hello: return server_on_client_hello(msg, out);
    case stage::server_wait_client_finished: return server_on_client_finished(msg);
    case stage::done: break;
  }
  return record_errc::unexpected_record;
}

// derive_traffic derives master from the handshake secret and TH2, then both
// directions' first traffic secrets (docs/protocol.md 4.2).
void handshake::derive_traffic(bytes_view th2) noexcept {
  const hpke::kdf_id kdf = suite_.kdf;
  crypto::secret_array<64> master_secret;
  expand_label(kdf, master_secret.span().first(nh_), hs_.span().first(nh_), "master", th2);
  const bytes_view master = master_secret.span().first(nh_);
  keys_.kdf = kdf;
  keys_.nh = nh_;
  expand_label(kdf, keys_.c_traffic.span().first(nh_), master, "c traffic", {});
  expand_label(kdf, keys_.s_traffic.span().first(nh_), master, "s traffic", {});
  keys_ready_ = true;
}

result<void> handshake::client_on_server_hello(bytes_view msg) noexcept {
  reader r(msg);
  if (r.u8() != msg_server_hello) return record_errc::unexpected_record;
  const unsigned version = r.u16();
  const unsigned aead = r.u16();
  const bytes_view enc2 = r.vec16();
  if (!r.done() || enc2.size() != sizes_.enc) return record_errc::bad_handshake_message;
  if (version != protocol_version) return record_errc::unsupported_version;
  const auto& offered = client_cfg_->aeads;
  if (std::find(offered.begin(), offered.end(), static_cast<record_aead>(aead)) == offered.end())
    return record_errc::no_common_suite;
  keys_.aead = static_cast<record_aead>(aead);
  th_.update(msg);

  hpke::recipient_options ro;
  ro.info = bytes_of(info_ephemeral);
  auto ctx2 = hpke::setup_recipient(suite_, enc2, eph_, ro);
  if (!ctx2) return record_errc::handshake_failed;
  crypto::secret_array<64> ss2;
  if (!ctx2->export_secret(ss2.span().first(nh_), bytes_of(export_ss2))) return record_errc::handshake_failed;
  eph_ = hpke::private_key{};  // the ephemeral key's job is done
  extract(suite_.kdf, hs_.span(), ss2.span().first(nh_), ss1_.span().first(nh_));

  std::uint8_t th1[64];
  th_.current(th1);
  finished_mac("s finished", bytes_view(th1, nh_), expected_mac_.span());
  at_ = stage::client_wait_server_finished;
  return {};
}

// check_finished verifies the peer's Finished message against the MAC we
// expect, in constant time; a wrong MAC is `mismatch`.
result<void> handshake::check_finished(bytes_view msg, std::uint8_t type, record_errc mismatch) const noexcept {
  if (msg.empty() || msg[0] != type) return record_errc::unexpected_record;
  if (msg.size() != 1 + nh_) return record_errc::bad_handshake_message;
  if (!crypto::ct::equal(msg.subspan(1), expected_mac_.span().first(nh_))) return mismatch;
  return {};
}

result<void> handshake::client_on_server_finished(bytes_view msg, message_sink out) noexcept {
  if (auto ok = check_finished(msg, msg_server_finished, record_errc::server_key_mismatch); !ok) return ok;
  th_.update(msg);
  std::uint8_t th2[64];
  th_.current(th2);
  const bytes_view th(th2, nh_);

  std::uint8_t cf[1 + 64];
  cf[0] = msg_client_finished;
  finished_mac("c finished", th, std::span<std::uint8_t>(cf + 1, nh_));
  out(bytes_view(cf, 1 + nh_));

  derive_traffic(th);
  detail::log(log_level::debug, "client: handshake complete, version ", hex16{protocol_version}, ", ",
              aead_name(keys_.aead), ", ", hpke::to_string(suite_.kdf),
              client_cfg_->client_key ? ", client authenticated" : "");
  at_ = stage::done;
  return {};
}

result<void> handshake::server_on_client_hello(bytes_view msg, message_sink out) noexcept {
  const server_config& cfg = *server_cfg_;
  reader r(msg);
  if (r.u8() != msg_client_hello) return record_errc::unexpected_record;
  const unsigned n_versions = r.u8();
  if (n_versions == 0 || n_versions > max_list) return record_errc::bad_handshake_message;
  bool version_ok = false;
  for (unsigned i = 0; i < n_versions; ++i) version_ok |= r.u16() == protocol_version;
  const auto kem = static_cast<hpke::kem_id>(r.u16());
  const auto kdf = static_cast<hpke::kdf_id>(r.u16());
  const unsigned n_aeads = r.u8();
  if (n_aeads == 0 || n_aeads > max_list) return record_errc::bad_handshake_message;
  std::optional<record_aead> chosen;
  for (unsigned i = 0; i < n_aeads; ++i) {
    const unsigned id = r.u16();
    if (!chosen && known_aead(id) &&
        std::find(cfg.aeads.begin(), cfg.aeads.end(), static_cast<record_aead>(id)) != cfg.aeads.end())
      chosen = static_cast<record_aead>(id);
  }
  const unsigned flags = r.u8();
  const bytes_view enc1 = r.vec16();
  const bytes_view eph = r.vec16();
  const bytes_view cs = (flags & 1) ? r.vec16() : bytes_view{};
  if (!r.done() || (flags & ~1u) != 0) return record_errc::bad_handshake_message;
  if (!version_ok) return record_errc::unsupported_version;
  if (kem != cfg.static_key->kem() || std::find(cfg.kdfs.begin(), cfg.kdfs.end(), kdf) == cfg.kdfs.end() || !chosen)
    return record_errc::no_common_suite;
  if (enc1.size() != sizes_.enc || eph.size() != sizes_.public_key || ((flags & 1) && cs.size() != sizes_.public_key))
    return record_errc::bad_handshake_message;
  if (cfg.require_client_auth && !(flags & 1)) return record_errc::client_auth_required;
  if ((flags & 1) && cfg.accept_client) {
    bool accepted = false;
    try {
      accepted = cfg.accept_client(cs);
    } catch (...) {
      accepted = false;
    }
    if (!accepted) {
      detail::log(log_level::debug, "server: client key refused by policy");
      return record_errc::handshake_failed;
    }
  }

  // The transcript restarts with the client's KDF.
  th_ = transcript(kdf);
  try {
    if (flags & 1) client_key_.assign(cs.begin(), cs.end());  // authenticated only by ClientFinished
  } catch (const std::bad_alloc&) {
    return record_errc::handshake_failed;
  }
  suite_ = {kem, kdf, hpke::aead_id::export_only};
  nh_ = hash_size(kdf);
  keys_.aead = *chosen;

  // ss1: decapsulate the client's encapsulation to our static key.
  hpke::recipient_options ro;
  ro.info = bytes_of(info_static);
  hpke::public_key client_static;
  if (flags & 1) {
    auto pk = hpke::public_key::from(kem, cs);
    if (!pk) return record_errc::bad_handshake_message;
    client_static = *pk;
    ro.mode = hpke::mode::auth;
    ro.sender_key = &client_static;
  }
  auto ctx1 = hpke::setup_recipient(suite_, enc1, *cfg.static_key, ro);
  if (!ctx1) return record_errc::handshake_failed;
  if (!ctx1->export_secret(ss1_.span().first(nh_), bytes_of(export_ss1))) return record_errc::handshake_failed;

  // ss2: encapsulate to the client's ephemeral key.
  auto eph_pk = hpke::public_key::from(kem, eph);
  if (!eph_pk) return record_errc::bad_handshake_message;
  hpke::sender_options so;
  so.info = bytes_of(info_ephemeral);
  auto s2 = hpke::setup_sender(suite_, *eph_pk, so);
  if (!s2) return record_errc::handshake_failed;
  crypto::secret_array<64> ss2;
  if (!s2->context.export_secret(ss2.span().first(nh_), bytes_of(export_ss2))) return record_errc::handshake_failed;
  extract(kdf, hs_.span(), ss2.span().first(nh_), ss1_.span().first(nh_));

  std::uint8_t sh[7 + hpke::max_public_key_size];
  std::size_t sh_len = 0;
  {
    const unsigned aead = static_cast<unsigned>(keys_.aead);
    sh[0] = msg_server_hello;
    sh[1] = static_cast<std::uint8_t>(protocol_version >> 8);
    sh[2] = static_cast<std::uint8_t>(protocol_version);
    sh[3] = static_cast<std::uint8_t>(aead >> 8);
    sh[4] = static_cast<std::uint8_t>(aead);
    const bytes_view enc2 = s2->enc.bytes();
    sh[5] = static_cast<std::uint8_t>(enc2.size() >> 8);
    sh[6] = static_cast<std::uint8_t>(enc2.size());
    std::memcpy(sh + 7, enc2.data(), enc2.size());
    sh_len = 7 + enc2.size();
  }
  th_.update(msg);
  th_.update(bytes_view(sh, sh_len));

  std::uint8_t th1[64];
  th_.current(th1);
  std::uint8_t sf[1 + 64];
  sf[0] = msg_server_finished;
  finished_mac("s finished", bytes_view(th1, nh_), std::span<std::uint8_t>(sf + 1, nh_));
  th_.update(bytes_view(sf, 1 + nh_));

  std::uint8_t th2[64];
  th_.current(th2);
  const bytes_view th(th2, nh_);
  finished_mac("c finished", th, expected_mac_.span());
  derive_traffic(th);

  out(bytes_view(sh, sh_len));
  out(bytes_view(sf, 1 + nh_));
  at_ = stage::server_wait_client_finished;
  return {};
}

result<void> handshake::server_on_client_finished(bytes_view msg) noexcept {
  if (auto ok = check_finished(msg, msg_client_finished, record_errc::handshake_failed); !ok) return ok;
  detail::log(log_level::debug, "server: handshake complete, version ", hex16{protocol_version}, ", ",
              aead_name(keys_.aead), ", ", hpke::to_string(suite_.kdf),
              client_key_.empty() ? "" : ", client authenticated");
  at_ = stage::done;
  return {};
}

}  // namespace sealwire::record::detail
