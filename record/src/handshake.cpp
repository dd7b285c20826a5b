// SPDX-License-Identifier: Apache-2.0
// The handshake state machine and key schedule (docs/protocol.md 4): the
// messages, the HPKE base-mode encapsulations (to the pinned server key, to
// the client's ephemeral key and to the client's static key) and the
// derivation of the traffic and exporter secrets. It never sees a record;
// the connection frames its messages.
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

// HPKE infos and export labels (docs/protocol.md 4.2).
constexpr std::string_view info_static = "sealwire v2 static";
constexpr std::string_view info_ephemeral = "sealwire v2 ephemeral";
constexpr std::string_view info_client = "sealwire v2 client";
constexpr std::string_view export_ss1 = "sealwire v2 ss1";
constexpr std::string_view export_ss2 = "sealwire v2 ss2";
constexpr std::string_view export_ss3 = "sealwire v2 ss3";

constexpr std::size_t max_list = 16;  // versions, AEADs and protocols offered

bool offered_protocol(const std::vector<std::string>& list, bytes_view p) noexcept {
  return std::any_of(list.begin(), list.end(), [p](const std::string& s) {
    return s.size() == p.size() && std::equal(p.begin(), p.end(), bytes_of(s).begin());
  });
}

// export_shared writes ctx.Export(label, nh) to out.
template <class Context>
bool export_shared(const Context& ctx, std::span<std::uint8_t> out, std::string_view label) noexcept {
  return ctx.export_secret(out, bytes_of(label)).has_value();
}

}  // namespace

// key_id = SHA-256("sealwire v2 key id" || u16 kem || pk)[0..8] (docs/protocol.md 2).
void key_id(std::span<std::uint8_t, 8> out, const hpke::public_key& pk) noexcept {
  crypto::dynamic_hash h(crypto::hash_algorithm::sha2_256);
  const unsigned kem = static_cast<unsigned>(pk.kem());
  const std::uint8_t kem_be[2] = {static_cast<std::uint8_t>(kem >> 8), static_cast<std::uint8_t>(kem)};
  h.update(bytes_of("sealwire v2 key id"));
  h.update(kem_be);
  h.update(pk.bytes());
  std::uint8_t digest[32];
  h.current(digest);
  std::memcpy(out.data(), digest, 8);
}

// finished_mac writes HMAC(ExpandLabel(hs, label, "", Nh), th), a Finished
// MAC (docs/protocol.md 4.2), to out (at least Nh bytes).
void handshake::finished_mac(std::string_view label, bytes_view th, std::span<std::uint8_t> out) const noexcept {
  crypto::secret_array<64> key;
  expand_label(suite_.kdf, key.span().first(nh_), hs_.span().first(nh_), label, {});
  hmac(suite_.kdf, out, key.span().first(nh_), th);
}

handshake_keys handshake::take_keys() noexcept {
  keys_ready_ = false;
  return std::move(keys_);
}

// wipe_secrets wipes everything the key schedule derived before the traffic
// secrets (docs/protocol.md 4.2): the handshake secret and every ss1.
void handshake::wipe_secrets() noexcept {
  hs_ = crypto::secret_array<64>{};
  for (auto& s : ss1_) s = crypto::secret_array<64>{};
  eph_ = hpke::private_key{};
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

  std::vector<std::uint8_t> ch;
  try {
    ch.reserve(128 + max_pinned_server_keys * (10 + sizes->enc) + 2 * sizes->public_key);
    writer w(ch);
    w.u8(msg_client_hello);
    w.u8(1);
    w.u16(protocol_version);
    w.u16(static_cast<unsigned>(kem));
    w.u16(static_cast<unsigned>(cfg.kdf));
    w.u8(static_cast<unsigned>(cfg.aeads.size()));
    for (record_aead a : cfg.aeads) w.u16(static_cast<unsigned>(a));
    w.u8(static_cast<unsigned>(cfg.app_protocols.size()));
    for (const std::string& p : cfg.app_protocols) {
      w.u8(static_cast<unsigned>(p.size()));
      w.raw(bytes_of(p));
    }
    // One key_share per pinned key: ss1 for each, kept until ServerHello
    // names the one the server used (4.4).
    h->n_keys_ = 1 + cfg.extra_server_keys.size();
    w.u8(static_cast<unsigned>(h->n_keys_));
    hpke::sender_options so;
    so.info = bytes_of(info_static);
    for (std::size_t i = 0; i < h->n_keys_; ++i) {
      const hpke::public_key& pk = i == 0 ? cfg.server_key : cfg.extra_server_keys[i - 1];
      key_id(h->ids_[i], pk);
      auto s1 = hpke::setup_sender(h->suite_, pk, so);
      if (!s1) return s1.error();
      if (!export_shared(s1->context, h->ss1_[i].span().first(h->nh_), export_ss1)) return record_errc::handshake_failed;
      w.raw(h->ids_[i]);
      w.vec16(s1->enc.bytes());
    }
    w.vec16(eph->pub.bytes());
    w.u8(cfg.client_key ? 1 : 0);
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
  std::unique_ptr<handshake> h;
  try {
    h = std::make_unique<handshake>(hpke::kdf_id::hkdf_sha256);  // the transcript restarts at ClientHello
  } catch (const std::bad_alloc&) {
    return std::make_error_code(std::errc::not_enough_memory);
  }
  h->server_cfg_ = &cfg;
  h->at_ = stage::server_wait_client_hello;
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
// directions' first traffic secrets and the exporter secret, and wipes the
// handshake secrets (docs/protocol.md 4.2).
void handshake::derive_traffic(bytes_view th2) noexcept {
  const hpke::kdf_id kdf = suite_.kdf;
  crypto::secret_array<64> master_secret;
  expand_label(kdf, master_secret.span().first(nh_), hs_.span().first(nh_), "master", th2);
  const bytes_view master = master_secret.span().first(nh_);
  keys_.kdf = kdf;
  keys_.nh = nh_;
  expand_label(kdf, keys_.c_traffic.span().first(nh_), master, "c traffic", {});
  expand_label(kdf, keys_.s_traffic.span().first(nh_), master, "s traffic", {});
  expand_label(kdf, keys_.exporter.span().first(nh_), master, "exporter", {});
  keys_ready_ = true;
  wipe_secrets();
}

result<void> handshake::client_on_server_hello(bytes_view msg) noexcept {
  const client_config& cfg = *client_cfg_;
  const bool auth = cfg.client_key != nullptr;
  reader r(msg);
  if (r.u8() != msg_server_hello) return record_errc::unexpected_record;
  const unsigned version = r.u16();
  const unsigned aead = r.u16();
  const bytes_view id = r.raw(8);
  const bytes_view protocol = r.raw(r.u8());
  const bytes_view enc2 = r.vec16();
  const bytes_view enc3 = auth ? r.vec16() : bytes_view{};
  if (!r.done() || enc2.size() != sizes_.enc || (auth && enc3.size() != sizes_.enc))
    return record_errc::bad_handshake_message;
  if (version != protocol_version) return record_errc::unsupported_version;
  const auto& offered = cfg.aeads;
  if (std::find(offered.begin(), offered.end(), static_cast<record_aead>(aead)) == offered.end())
    return record_errc::bad_handshake_message;
  if (cfg.app_protocols.empty() ? !protocol.empty() : !offered_protocol(cfg.app_protocols, protocol))
    return record_errc::bad_handshake_message;
  // The key the server used must be one we pinned (a public choice).
  std::size_t used = n_keys_;
  for (std::size_t i = 0; i < n_keys_ && used == n_keys_; ++i)
    if (std::equal(id.begin(), id.end(), ids_[i].begin())) used = i;
  if (used == n_keys_) return record_errc::bad_handshake_message;
  keys_.aead = static_cast<record_aead>(aead);
  std::memcpy(keys_.server_key_id.data(), id.data(), 8);
  try {
    keys_.app_protocol.assign(protocol.begin(), protocol.end());
  } catch (const std::bad_alloc&) {
    return std::make_error_code(std::errc::not_enough_memory);
  }
  th_.update(msg);

  // ss2 with the ephemeral key, ss3 with the client's static key.
  hpke::recipient_options ro;
  ro.info = bytes_of(info_ephemeral);
  auto ctx2 = hpke::setup_recipient(suite_, enc2, eph_, ro);
  if (!ctx2) return record_errc::handshake_failed;
  crypto::secret_array<64> ss2, ss3;
  if (!export_shared(*ctx2, ss2.span().first(nh_), export_ss2)) return record_errc::handshake_failed;
  eph_ = hpke::private_key{};  // the ephemeral key's job is done
  if (auth) {
    ro.info = bytes_of(info_client);
    auto ctx3 = hpke::setup_recipient(suite_, enc3, *cfg.client_key, ro);
    if (!ctx3) return record_errc::handshake_failed;
    if (!export_shared(*ctx3, ss3.span().first(nh_), export_ss3)) return record_errc::handshake_failed;
  }
  extract(suite_.kdf, hs_.span(), ss2.span().first(nh_), ss1_[used].span().first(nh_),
          auth ? bytes_view(ss3.span().first(nh_)) : bytes_view{});
  for (auto& s : ss1_) s = crypto::secret_array<64>{};

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
  expected_mac_ = crypto::secret_array<64>{};
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
  const unsigned n_protocols = r.u8();
  if (n_protocols > max_list) return record_errc::bad_handshake_message;
  std::optional<bytes_view> protocol;
  if (n_protocols == 0 && cfg.app_protocols.empty()) protocol = bytes_view{};
  for (unsigned i = 0; i < n_protocols; ++i) {
    const unsigned len = r.u8();
    const bytes_view p = r.raw(len);
    if (len == 0) return record_errc::bad_handshake_message;
    if (!protocol && r.ok() && offered_protocol(cfg.app_protocols, p)) protocol = p;
  }
  const unsigned n_keys = r.u8();
  if (n_keys == 0 || n_keys > max_pinned_server_keys) return record_errc::bad_handshake_message;
  bytes_view share_ids[max_pinned_server_keys], encs[max_pinned_server_keys];
  for (unsigned i = 0; i < n_keys; ++i) {
    share_ids[i] = r.raw(8);
    encs[i] = r.vec16();
  }
  const bytes_view eph = r.vec16();
  const unsigned flags = r.u8();
  const bool auth = (flags & 1) != 0;
  const bytes_view cs = auth ? r.vec16() : bytes_view{};
  if (!r.done() || (flags & ~1u) != 0) return record_errc::bad_handshake_message;
  for (unsigned i = 0; i < n_keys; ++i)
    for (unsigned j = 0; j < i; ++j)
      if (std::equal(share_ids[i].begin(), share_ids[i].end(), share_ids[j].begin()))
        return record_errc::bad_handshake_message;
  auto sizes = hpke::kem_info(kem);
  if (!version_ok) return record_errc::unsupported_version;
  // Our static keys of the client's KEM.
  const hpke::private_key* keys[1 + max_list] = {};
  std::size_t n_ours = 0;
  for (std::size_t i = 0; i <= cfg.extra_static_keys.size() && n_ours < std::size(keys); ++i) {
    const hpke::private_key* k = i == 0 ? cfg.static_key.get() : cfg.extra_static_keys[i - 1].get();
    if (k != nullptr && k->kem() == kem) keys[n_ours++] = k;
  }
  if (!sizes || n_ours == 0 || std::find(cfg.kdfs.begin(), cfg.kdfs.end(), kdf) == cfg.kdfs.end() || !chosen)
    return record_errc::no_common_suite;
  sizes_ = *sizes;
  for (unsigned i = 0; i < n_keys; ++i)
    if (encs[i].size() != sizes_.enc) return record_errc::bad_handshake_message;
  if (eph.size() != sizes_.public_key || (auth && cs.size() != sizes_.public_key))
    return record_errc::bad_handshake_message;
  if (!protocol) return record_errc::no_application_protocol;
  // The first key_share naming one of our keys (4.4).
  const hpke::private_key* static_key = nullptr;
  bytes_view enc1;
  std::array<std::uint8_t, 8> used_id{};
  std::array<std::uint8_t, 8> our_ids[std::size(keys)];
  for (std::size_t k = 0; k < n_ours; ++k) key_id(our_ids[k], keys[k]->public_key());
  for (unsigned i = 0; i < n_keys && static_key == nullptr; ++i) {
    for (std::size_t k = 0; k < n_ours && static_key == nullptr; ++k) {
      if (std::equal(our_ids[k].begin(), our_ids[k].end(), share_ids[i].begin())) {
        static_key = keys[k];
        used_id = our_ids[k];
        enc1 = encs[i];
      }
    }
  }
  if (static_key == nullptr) return record_errc::unknown_server_key;
  if (cfg.require_client_auth && !auth) return record_errc::client_auth_required;

  // The transcript restarts with the client's KDF.
  th_ = transcript(kdf);
  suite_ = {kem, kdf, hpke::aead_id::export_only};
  nh_ = hash_size(kdf);
  keys_.aead = *chosen;
  keys_.server_key_id = used_id;
  hpke::public_key client_static;
  try {
    keys_.app_protocol.assign(protocol->begin(), protocol->end());
    if (auth) {
      // Authenticated only by ClientFinished; the policy sees it after that.
      client_key_.assign(cs.begin(), cs.end());
      auto pk = hpke::public_key::from(kem, cs);
      if (!pk) return record_errc::bad_handshake_message;
      client_static = std::move(*pk);
    }
  } catch (const std::bad_alloc&) {
    return std::make_error_code(std::errc::not_enough_memory);
  }

  // ss1: decapsulate the client's encapsulation to our static key.
  hpke::recipient_options ro;
  ro.info = bytes_of(info_static);
  auto ctx1 = hpke::setup_recipient(suite_, enc1, *static_key, ro);
  if (!ctx1) return record_errc::handshake_failed;
  if (!export_shared(*ctx1, ss1_[0].span().first(nh_), export_ss1)) return record_errc::handshake_failed;

  // ss2: encapsulate to the client's ephemeral key.
  auto eph_pk = hpke::public_key::from(kem, eph);
  if (!eph_pk) return record_errc::bad_handshake_message;
  hpke::sender_options so;
  so.info = bytes_of(info_ephemeral);
  auto s2 = hpke::setup_sender(suite_, *eph_pk, so);
  if (!s2) return record_errc::handshake_failed;
  crypto::secret_array<64> ss2, ss3;
  if (!export_shared(s2->context, ss2.span().first(nh_), export_ss2)) return record_errc::handshake_failed;

  // ss3: encapsulate to the client's static key (4.5): only its holder can
  // finish the handshake, whoever holds our static key.
  std::optional<hpke::sender_setup> s3;
  if (auth) {
    so.info = bytes_of(info_client);
    auto s = hpke::setup_sender(suite_, client_static, so);
    if (!s) return record_errc::handshake_failed;
    if (!export_shared(s->context, ss3.span().first(nh_), export_ss3)) return record_errc::handshake_failed;
    s3.emplace(std::move(*s));
  }
  extract(kdf, hs_.span(), ss2.span().first(nh_), ss1_[0].span().first(nh_),
          auth ? bytes_view(ss3.span().first(nh_)) : bytes_view{});

  std::vector<std::uint8_t> sh;
  try {
    sh.reserve(32 + protocol->size() + 2 * sizes_.enc);
    writer w(sh);
    w.u8(msg_server_hello);
    w.u16(protocol_version);
    w.u16(static_cast<unsigned>(keys_.aead));
    w.raw(used_id);
    w.u8(static_cast<unsigned>(protocol->size()));
    w.raw(*protocol);
    w.vec16(s2->enc.bytes());
    if (auth) w.vec16(s3->enc.bytes());
  } catch (const std::bad_alloc&) {
    return std::make_error_code(std::errc::not_enough_memory);
  }
  th_.update(msg);
  th_.update(sh);

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
  derive_traffic(th);  // wipes hs and ss1: only the expected ClientFinished MAC stays

  out(sh);
  out(bytes_view(sf, 1 + nh_));
  at_ = stage::server_wait_client_finished;
  return {};
}

result<void> handshake::server_on_client_finished(bytes_view msg) noexcept {
  if (auto ok = check_finished(msg, msg_client_finished, record_errc::handshake_failed); !ok) return ok;
  expected_mac_ = crypto::secret_array<64>{};
  const server_config& cfg = *server_cfg_;
  // The policy, only now that the client proved its key (4.5). A refusal
  // is the same failure as a bad ClientFinished, and sends nothing.
  if (!client_key_.empty() && cfg.accept_client) {
    bool accepted = false;
    try {
      accepted = cfg.accept_client(client_key_);
    } catch (...) {
      accepted = false;
    }
    if (!accepted) {
      detail::log(log_level::debug, "server: client key refused by policy");
      return record_errc::handshake_failed;
    }
  }
  detail::log(log_level::debug, "server: handshake complete, version ", hex16{protocol_version}, ", ",
              aead_name(keys_.aead), ", ", hpke::to_string(suite_.kdf),
              client_key_.empty() ? "" : ", client authenticated");
  at_ = stage::done;
  return {};
}

}  // namespace sealwire::record::detail
