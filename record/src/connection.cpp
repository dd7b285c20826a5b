// SPDX-License-Identifier: Apache-2.0
// The sans-IO record connection: handshake state machine (docs/protocol.md 4)
// and record protection (docs/protocol.md 3).
#include <sealwire/crypto/ct.hpp>
#include <sealwire/hpke/context.hpp>
#include <sealwire/record/connection.hpp>

#include "detail/kdf.hpp"
#include "detail/log.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <new>
#include <optional>

namespace sealwire::record {
namespace detail {

// ---- byte_buffer ------------------------------------------------------------

byte_buffer::byte_buffer(std::size_t capacity) : p_(new std::uint8_t[capacity]), cap_(capacity) {}
byte_buffer::byte_buffer(byte_buffer&& o) noexcept : p_(std::move(o.p_)), cap_(o.cap_) { o.cap_ = 0; }
byte_buffer& byte_buffer::operator=(byte_buffer&& o) noexcept {
  if (this != &o) {
    if (p_) crypto::ct::wipe(p_.get(), cap_);
    p_ = std::move(o.p_);
    cap_ = o.cap_;
    o.cap_ = 0;
  }
  return *this;
}
byte_buffer::~byte_buffer() {
  if (p_) crypto::ct::wipe(p_.get(), cap_);
}

// ---- handshake state ----------------------------------------------------------

enum class stage : std::uint8_t { client_wait_server_hello, client_wait_server_finished, server_wait_client_hello,
                                  server_wait_client_finished };

struct handshake_state {
  explicit handshake_state(hpke::kdf_id k) : th(k) {}
  stage at = stage::client_wait_server_hello;
  hpke::suite suite{};
  hpke::kem_sizes sizes{};
  std::size_t nh = 0;
  transcript th;
  crypto::secret_array<64> ss1;
  crypto::secret_array<64> hs;
  crypto::secret_array<64> expected_mac;  // the peer's Finished MAC we expect
  hpke::private_key eph;                   // the client's ephemeral key
  std::vector<std::uint8_t> client_key;    // the static key a client announced (server side)
};

// finished_mac writes HMAC(ExpandLabel(hs, label, th, Nh), th), a Finished
// MAC (docs/protocol.md 4.2), to out (at least Nh bytes).
void finished_mac(const handshake_state& hs, std::string_view label, bytes_view th, std::span<std::uint8_t> out) noexcept {
  crypto::secret_array<64> key;
  expand_label(hs.suite.kdf, key.span().first(hs.nh), hs.hs.span().first(hs.nh), label, th);
  hmac(hs.suite.kdf, out, key.span().first(hs.nh), th);
}

}  // namespace detail

namespace {

using detail::bytes_view;

constexpr std::uint8_t type_handshake = 1;
constexpr std::uint8_t type_application_data = 2;
constexpr std::uint8_t type_key_update = 3;
constexpr std::uint8_t type_close = 4;

constexpr std::uint8_t msg_client_hello = 1;
constexpr std::uint8_t msg_server_hello = 2;
constexpr std::uint8_t msg_server_finished = 3;
constexpr std::uint8_t msg_client_finished = 4;

constexpr std::string_view info_static = "sealwire v1 static";
constexpr std::string_view info_ephemeral = "sealwire v1 ephemeral";
constexpr std::string_view export_ss1 = "sealwire v1 ss1";
constexpr std::string_view export_ss2 = "sealwire v1 ss2";

constexpr std::size_t max_list = 16;  // versions and AEADs offered

crypto::aead_algorithm algorithm_of(record_aead a) noexcept {
  switch (a) {
    case record_aead::aes128_gcm: return crypto::aead_algorithm::aes128_gcm;
    case record_aead::aes256_gcm: return crypto::aead_algorithm::aes256_gcm;
    case record_aead::xchacha20_poly1305: return crypto::aead_algorithm::xchacha20_poly1305;
    case record_aead::chacha20_poly1305: break;
  }
  return crypto::aead_algorithm::chacha20_poly1305;
}

std::size_t nonce_size_of(record_aead a) noexcept { return crypto::properties(algorithm_of(a)).nonce_size; }
std::size_t key_size_of(record_aead a) noexcept { return crypto::properties(algorithm_of(a)).key_size; }

bool known_aead(unsigned id) noexcept {
  return id == static_cast<unsigned>(record_aead::chacha20_poly1305) ||
         id == static_cast<unsigned>(record_aead::xchacha20_poly1305) ||
         id == static_cast<unsigned>(record_aead::aes128_gcm) || id == static_cast<unsigned>(record_aead::aes256_gcm);
}

bool known_kdf(hpke::kdf_id k) noexcept {
  return k == hpke::kdf_id::hkdf_sha256 || k == hpke::kdf_id::hkdf_sha384 || k == hpke::kdf_id::hkdf_sha512;
}

bool known_kem(hpke::kem_id k) noexcept { return k == hpke::kem_id::x25519 || k == hpke::kem_id::x448; }

std::string_view aead_name(record_aead a) noexcept { return crypto::properties(algorithm_of(a)).name; }

const char* role_name(role r) noexcept { return r == role::client ? "client" : "server"; }

void put_header(std::uint8_t* h, std::uint8_t type, std::size_t len) noexcept {
  h[0] = type;
  h[1] = static_cast<std::uint8_t>(len >> 16);
  h[2] = static_cast<std::uint8_t>(len >> 8);
  h[3] = static_cast<std::uint8_t>(len);
}

result<void> check_limits(const limits& l) noexcept {
  if (l.max_record_size == 0 || l.max_record_size > max_record_size_ceiling) return record_errc::invalid_limit;
  if (l.max_handshake_size < 256 || l.max_handshake_size > (std::size_t{1} << 16)) return record_errc::invalid_limit;
  if (l.max_buffered_plaintext > (std::size_t{1} << 30) || l.max_send_buffer > (std::size_t{1} << 30))
    return record_errc::invalid_limit;
  if (l.pad_to > l.max_record_size + 1) return record_errc::invalid_limit;
  return {};
}

// check_aeads: a non-empty list of at most max_list AEADs the protocol has.
result<void> check_aeads(const std::vector<record_aead>& aeads) noexcept {
  if (aeads.empty() || aeads.size() > max_list) return record_errc::invalid_algorithm_list;
  for (record_aead a : aeads)
    if (!known_aead(static_cast<unsigned>(a))) return record_errc::unsupported_algorithm;
  return {};
}

// direction keys from a traffic secret (docs/protocol.md 3.3). The key is
// set up once here (AES round keys and GHASH powers, or the ChaCha key) for
// every record until the next update.
void derive_keys(detail::direction_keys& d) noexcept {
  const bytes_view secret = d.secret.span().first(d.nh);
  crypto::secret_array<32> key;
  detail::expand_label(d.kdf, key.span().first(d.key_size), secret, "key", {});
  static_cast<void>(d.key.init(d.alg, key.span().first(d.key_size)));  // sizes from the AEAD's own properties
  detail::expand_label(d.kdf, d.iv.span().first(d.nonce_size), secret, "iv", {});
  d.seq = 0;
}

void ratchet(detail::direction_keys& d) noexcept {
  crypto::secret_array<64> next;
  detail::expand_label(d.kdf, next.span().first(d.nh), d.secret.span().first(d.nh), "traffic upd", {});
  d.secret = std::move(next);
  derive_keys(d);
}

void make_nonce(const detail::direction_keys& d, std::uint8_t* nonce) noexcept {
  std::memcpy(nonce, d.iv.span().data(), d.nonce_size);
  std::uint8_t* tail = nonce + d.nonce_size - 8;
  for (int i = 0; i < 8; ++i) tail[i] ^= static_cast<std::uint8_t>(d.seq >> (56 - 8 * i));
  // Derived from a traffic secret, but an AEAD nonce need not be secret: the
  // stream cipher's block counter may branch on it (docs/security.md).
  crypto::ct::declassify(nonce, d.nonce_size);
}

}  // namespace

// ---- lifetime -----------------------------------------------------------------

connection::connection() noexcept = default;
connection::~connection() = default;

connection::connection(connection&& o) noexcept { *this = std::move(o); }

connection& connection::operator=(connection&& o) noexcept {
  if (this == &o) return *this;
  role_ = o.role_;
  limits_ = o.limits_;
  client_cfg_ = std::move(o.client_cfg_);
  server_cfg_ = std::move(o.server_cfg_);
  hs_ = std::move(o.hs_);
  aead_ = o.aead_;
  established_ = o.established_;
  failure_.store(o.failure_.load());
  rx_ = std::move(o.rx_);
  std::memcpy(header_, o.header_, sizeof header_);
  header_len_ = o.header_len_;
  body_started_ = o.body_started_;
  body_len_ = o.body_len_;
  body_seen_ = o.body_seen_;
  hs_buf_ = std::move(o.hs_buf_);
  opener_ = std::move(o.opener_);
  std::memcpy(tag_, o.tag_, sizeof tag_);
  plain_ = std::move(o.plain_);
  plain_begin_ = o.plain_begin_;
  plain_end_ = o.plain_end_;
  empty_run_ = o.empty_run_;
  peer_closed_ = o.peer_closed_;
  peer_finished_ = o.peer_finished_;
  tx_ = std::move(o.tx_);
  out_ = std::move(o.out_);
  out_begin_ = o.out_begin_;
  out_end_ = o.out_end_;
  closed_ = o.closed_;
  peer_key_ = std::move(o.peer_key_);
  o.plain_begin_ = o.plain_end_ = o.out_begin_ = o.out_end_ = 0;
  o.failure_.store(static_cast<int>(record_errc::bad_state));  // a moved-from connection refuses everything
  return *this;
}

result<void> connection::init_buffers(const limits& l) noexcept {
  try {
    plain_ = detail::byte_buffer(l.max_buffered_plaintext + l.max_record_size + 1);
    // write() seals while fewer than max_send_buffer bytes are pending, so the
    // buffer holds that much plus one full record, a key update and a close.
    out_ = detail::byte_buffer(l.max_send_buffer + (record_overhead + l.max_record_size) + 2 * record_overhead +
                               2 * (record_header_size + l.max_handshake_size));
    hs_buf_.reserve(l.max_handshake_size);
  } catch (const std::bad_alloc&) {
    return std::make_error_code(std::errc::not_enough_memory);
  }
  return {};
}

std::error_code connection::failed() const noexcept {
  const int f = failure_.load(std::memory_order_acquire);
  return f == 0 ? std::error_code{} : make_error_code(static_cast<record_errc>(f));
}

std::error_code connection::error() const noexcept { return failed(); }

// set_failure records the first failure; it touches nothing but the atomic
// flag, so the send side may call it while another thread receives.
std::error_code connection::set_failure(record_errc e) noexcept {
  int expected = 0;
  if (failure_.compare_exchange_strong(expected, static_cast<int>(e), std::memory_order_acq_rel))
    detail::log(log_level::debug, role_name(role_), ": connection failed: ", make_error_code(e).message());
  return failed();
}

// fail (receive side and handshake only) also wipes the record being opened,
// whose plaintext never verified, and the handshake state.
std::error_code connection::fail(record_errc e) noexcept {
  set_failure(e);
  wipe_receive_state();
  return failed();
}

void connection::wipe_receive_state() noexcept {
  if (body_started_ && plain_.data() != nullptr) {
    crypto::ct::wipe(plain_.data() + plain_end_, std::min(body_seen_, plain_.capacity() - plain_end_));
    body_started_ = false;
  }
  hs_.reset();
  crypto::ct::wipe(hs_buf_.data(), hs_buf_.size());
}

// ---- creation and handshake ----------------------------------------------------

result<connection> connection::client(std::shared_ptr<const client_config> cfg) noexcept {
  if (!cfg || cfg->server_key.empty()) return record_errc::missing_key;
  const hpke::kem_id kem = cfg->server_key.kem();
  if (!known_kem(kem) || !known_kdf(cfg->kdf)) return record_errc::unsupported_algorithm;
  if (cfg->client_key && cfg->client_key->kem() != kem) return record_errc::kem_mismatch;
  if (auto ok = check_aeads(cfg->aeads); !ok) return ok.error();
  auto sizes = hpke::kem_info(kem);
  if (!sizes) return record_errc::unsupported_algorithm;
  if (auto ok = check_limits(cfg->limits); !ok) return ok.error();

  connection c;
  c.role_ = role::client;
  c.limits_ = cfg->limits;
  if (auto ok = c.init_buffers(c.limits_); !ok) return ok.error();
  std::unique_ptr<detail::handshake_state> hs;
  try {
    hs = std::make_unique<detail::handshake_state>(cfg->kdf);
  } catch (const std::bad_alloc&) {
    return std::make_error_code(std::errc::not_enough_memory);
  }
  hs->at = detail::stage::client_wait_server_hello;
  hs->suite = {kem, cfg->kdf, hpke::aead_id::export_only};
  hs->sizes = *sizes;
  hs->nh = detail::hash_size(cfg->kdf);

  auto eph = hpke::generate_key_pair(kem);
  if (!eph) return eph.error();
  hpke::sender_options so;
  so.info = bytes_of(info_static);
  if (cfg->client_key) {
    so.mode = hpke::mode::auth;
    so.sender_key = cfg->client_key.get();
  }
  auto s1 = hpke::setup_sender(hs->suite, cfg->server_key, so);
  if (!s1) return s1.error();
  if (auto ok = s1->context.export_secret(hs->ss1.span().first(hs->nh), bytes_of(export_ss1)); !ok) return ok.error();

  std::vector<std::uint8_t> ch;
  try {
    ch.reserve(64 + 3 * sizes->public_key);
    detail::writer w(ch);
    w.u8(msg_client_hello);
    w.u8(1);
    w.u16(protocol_version);
    w.u16(static_cast<unsigned>(kem));
    w.u16(static_cast<unsigned>(cfg->kdf));
    w.u8(static_cast<unsigned>(cfg->aeads.size()));
    for (record_aead a : cfg->aeads) w.u16(static_cast<unsigned>(a));
    w.u8(cfg->client_key ? 1 : 0);
    w.vec16(s1->enc.bytes());
    w.vec16(eph->pub.bytes());
    if (cfg->client_key) w.vec16(cfg->client_key->public_key().bytes());
  } catch (const std::bad_alloc&) {
    return std::make_error_code(std::errc::not_enough_memory);
  }
  if (ch.size() > c.limits_.max_handshake_size) return record_errc::invalid_limit;
  hs->th.update(ch);
  hs->eph = std::move(eph->priv);
  c.hs_ = std::move(hs);
  c.client_cfg_ = std::move(cfg);
  c.put_handshake_message(ch);
  return c;
}

result<connection> connection::server(std::shared_ptr<const server_config> cfg) noexcept {
  if (!cfg || !cfg->static_key || cfg->static_key->empty()) return record_errc::missing_key;
  const hpke::kem_id kem = cfg->static_key->kem();
  if (!known_kem(kem)) return record_errc::unsupported_algorithm;
  if (cfg->kdfs.empty() || cfg->kdfs.size() > max_list) return record_errc::invalid_algorithm_list;
  for (hpke::kdf_id k : cfg->kdfs)
    if (!known_kdf(k)) return record_errc::unsupported_algorithm;
  if (auto ok = check_aeads(cfg->aeads); !ok) return ok.error();
  auto sizes = hpke::kem_info(kem);
  if (!sizes) return record_errc::unsupported_algorithm;
  if (auto ok = check_limits(cfg->limits); !ok) return ok.error();

  connection c;
  c.role_ = role::server;
  c.limits_ = cfg->limits;
  if (auto ok = c.init_buffers(c.limits_); !ok) return ok.error();
  try {
    c.hs_ = std::make_unique<detail::handshake_state>(hpke::kdf_id::hkdf_sha256);  // replaced at ClientHello
  } catch (const std::bad_alloc&) {
    return std::make_error_code(std::errc::not_enough_memory);
  }
  c.hs_->at = detail::stage::server_wait_client_hello;
  c.hs_->sizes = *sizes;
  c.server_cfg_ = std::move(cfg);
  return c;
}

void connection::put_handshake_message(bytes_view msg) noexcept {
  std::uint8_t* p = out_room(record_header_size + msg.size());
  SEALWIRE_EXPECTS(p != nullptr);  // sized for handshake messages in init_buffers
  put_header(p, type_handshake, msg.size());
  std::memcpy(p + record_header_size, msg.data(), msg.size());
  out_end_ += record_header_size + msg.size();
}

// install_traffic_keys derives master from the handshake secret and TH2,
// then both directions' traffic secrets, keys and IVs (docs/protocol.md 4.2).
void connection::install_traffic_keys(bytes_view th2) noexcept {
  const hpke::kdf_id kdf = hs_->suite.kdf;
  const std::size_t nh = hs_->nh;
  crypto::secret_array<64> master_secret;
  detail::expand_label(kdf, master_secret.span().first(nh), hs_->hs.span().first(nh), "master", th2);
  const bytes_view master = master_secret.span().first(nh);
  for (detail::direction_keys* d : {&tx_, &rx_}) {
    d->nh = nh;
    d->kdf = kdf;
    d->alg = algorithm_of(aead_);
    d->nonce_size = nonce_size_of(aead_);
    d->key_size = key_size_of(aead_);
  }
  detail::direction_keys& c2s = role_ == role::client ? tx_ : rx_;
  detail::direction_keys& s2c = role_ == role::client ? rx_ : tx_;
  detail::expand_label(kdf, c2s.secret.span().first(nh), master, "c traffic", {});
  detail::expand_label(kdf, s2c.secret.span().first(nh), master, "s traffic", {});
  derive_keys(tx_);
  derive_keys(rx_);
}

result<void> connection::handle_handshake_message() noexcept {
  const bytes_view msg(hs_buf_);
  result<void> r;
  switch (hs_->at) {
    case detail::stage::client_wait_server_hello: r = client_on_server_hello(msg); break;
    case detail::stage::client_wait_server_finished: r = client_on_server_finished(msg); break;
    case detail::stage::server_wait_client_hello: r = server_on_client_hello(msg); break;
    case detail::stage::server_wait_client_finished: r = server_on_client_finished(msg); break;
  }
  crypto::ct::wipe(hs_buf_.data(), hs_buf_.size());
  hs_buf_.clear();
  return r;
}

result<void> connection::client_on_server_hello(bytes_view msg) noexcept {
  detail::handshake_state& hs = *hs_;
  detail::reader r(msg);
  if (r.u8() != msg_server_hello) return fail(record_errc::unexpected_record);
  const unsigned version = r.u16();
  const unsigned aead = r.u16();
  const bytes_view enc2 = r.vec16();
  if (!r.done() || enc2.size() != hs.sizes.enc) return fail(record_errc::bad_handshake_message);
  if (version != protocol_version) return fail(record_errc::unsupported_version);
  const auto& offered = client_cfg_->aeads;
  if (std::find(offered.begin(), offered.end(), static_cast<record_aead>(aead)) == offered.end())
    return fail(record_errc::no_common_suite);
  aead_ = static_cast<record_aead>(aead);
  hs.th.update(msg);

  hpke::recipient_options ro;
  ro.info = bytes_of(info_ephemeral);
  auto ctx2 = hpke::setup_recipient(hs.suite, enc2, hs.eph, ro);
  if (!ctx2) return fail(record_errc::handshake_failed);
  crypto::secret_array<64> ss2;
  if (!ctx2->export_secret(ss2.span().first(hs.nh), bytes_of(export_ss2))) return fail(record_errc::handshake_failed);
  hs.eph = hpke::private_key{};  // the ephemeral key's job is done
  detail::extract(hs.suite.kdf, hs.hs.span(), ss2.span().first(hs.nh), hs.ss1.span().first(hs.nh));

  std::uint8_t th1[64];
  hs.th.current(th1);
  detail::finished_mac(hs, "s finished", bytes_view(th1, hs.nh), hs.expected_mac.span());
  hs.at = detail::stage::client_wait_server_finished;
  return {};
}

// check_finished verifies the peer's Finished message against the MAC we
// expect, in constant time; a wrong MAC is `mismatch`.
result<void> connection::check_finished(bytes_view msg, std::uint8_t type, record_errc mismatch) noexcept {
  const detail::handshake_state& hs = *hs_;
  if (msg.empty() || msg[0] != type) return fail(record_errc::unexpected_record);
  if (msg.size() != 1 + hs.nh) return fail(record_errc::bad_handshake_message);
  if (!crypto::ct::equal(msg.subspan(1), hs.expected_mac.span().first(hs.nh))) return fail(mismatch);
  return {};
}

result<void> connection::client_on_server_finished(bytes_view msg) noexcept {
  if (auto ok = check_finished(msg, msg_server_finished, record_errc::server_key_mismatch); !ok) return ok;
  detail::handshake_state& hs = *hs_;
  hs.th.update(msg);
  std::uint8_t th2[64];
  hs.th.current(th2);
  const bytes_view th(th2, hs.nh);

  std::uint8_t cf[1 + 64];
  cf[0] = msg_client_finished;
  detail::finished_mac(hs, "c finished", th, std::span<std::uint8_t>(cf + 1, hs.nh));
  put_handshake_message(bytes_view(cf, 1 + hs.nh));

  install_traffic_keys(th);
  detail::log(log_level::debug, "client: handshake complete, version ", detail::hex16{protocol_version}, ", ",
              aead_name(aead_), ", ", hpke::to_string(hs.suite.kdf),
              client_cfg_->client_key ? ", client authenticated" : "");
  hs_.reset();
  peer_finished_ = true;
  established_ = true;
  return {};
}

result<void> connection::server_on_client_hello(bytes_view msg) noexcept {
  const server_config& cfg = *server_cfg_;
  detail::reader r(msg);
  if (r.u8() != msg_client_hello) return fail(record_errc::unexpected_record);
  const unsigned n_versions = r.u8();
  if (n_versions == 0 || n_versions > max_list) return fail(record_errc::bad_handshake_message);
  bool version_ok = false;
  for (unsigned i = 0; i < n_versions; ++i) version_ok |= r.u16() == protocol_version;
  const auto kem = static_cast<hpke::kem_id>(r.u16());
  const auto kdf = static_cast<hpke::kdf_id>(r.u16());
  const unsigned n_aeads = r.u8();
  if (n_aeads == 0 || n_aeads > max_list) return fail(record_errc::bad_handshake_message);
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
  if (!r.done() || (flags & ~1u) != 0) return fail(record_errc::bad_handshake_message);
  if (!version_ok) return fail(record_errc::unsupported_version);
  if (kem != cfg.static_key->kem() || std::find(cfg.kdfs.begin(), cfg.kdfs.end(), kdf) == cfg.kdfs.end() || !chosen)
    return fail(record_errc::no_common_suite);
  const hpke::kem_sizes sizes = hs_->sizes;
  if (enc1.size() != sizes.enc || eph.size() != sizes.public_key || ((flags & 1) && cs.size() != sizes.public_key))
    return fail(record_errc::bad_handshake_message);
  if (cfg.require_client_auth && !(flags & 1)) return fail(record_errc::client_auth_required);
  if ((flags & 1) && cfg.accept_client) {
    bool accepted = false;
    try {
      accepted = cfg.accept_client(cs);
    } catch (...) {
      accepted = false;
    }
    if (!accepted) {
      detail::log(log_level::debug, "server: client key refused by policy");
      return fail(record_errc::handshake_failed);
    }
  }

  // Restart the handshake state for the client's KDF.
  try {
    hs_ = std::make_unique<detail::handshake_state>(kdf);
    if (flags & 1) hs_->client_key.assign(cs.begin(), cs.end());  // authenticated only by ClientFinished
  } catch (const std::bad_alloc&) {
    return fail(record_errc::handshake_failed);
  }
  detail::handshake_state& hs = *hs_;
  hs.suite = {kem, kdf, hpke::aead_id::export_only};
  hs.sizes = sizes;
  hs.nh = detail::hash_size(kdf);
  aead_ = *chosen;

  // ss1: decapsulate the client's encapsulation to our static key.
  hpke::recipient_options ro;
  ro.info = bytes_of(info_static);
  hpke::public_key client_static;
  if (flags & 1) {
    auto pk = hpke::public_key::from(kem, cs);
    if (!pk) return fail(record_errc::bad_handshake_message);
    client_static = *pk;
    ro.mode = hpke::mode::auth;
    ro.sender_key = &client_static;
  }
  auto ctx1 = hpke::setup_recipient(hs.suite, enc1, *cfg.static_key, ro);
  if (!ctx1) return fail(record_errc::handshake_failed);
  if (!ctx1->export_secret(hs.ss1.span().first(hs.nh), bytes_of(export_ss1))) return fail(record_errc::handshake_failed);

  // ss2: encapsulate to the client's ephemeral key.
  auto eph_pk = hpke::public_key::from(kem, eph);
  if (!eph_pk) return fail(record_errc::bad_handshake_message);
  hpke::sender_options so;
  so.info = bytes_of(info_ephemeral);
  auto s2 = hpke::setup_sender(hs.suite, *eph_pk, so);
  if (!s2) return fail(record_errc::handshake_failed);
  crypto::secret_array<64> ss2;
  if (!s2->context.export_secret(ss2.span().first(hs.nh), bytes_of(export_ss2))) return fail(record_errc::handshake_failed);
  detail::extract(kdf, hs.hs.span(), ss2.span().first(hs.nh), hs.ss1.span().first(hs.nh));

  std::uint8_t sh[7 + hpke::max_public_key_size];
  std::size_t sh_len = 0;
  {
    sh[0] = msg_server_hello;
    sh[1] = static_cast<std::uint8_t>(protocol_version >> 8);
    sh[2] = static_cast<std::uint8_t>(protocol_version);
    sh[3] = static_cast<std::uint8_t>(static_cast<unsigned>(aead_) >> 8);
    sh[4] = static_cast<std::uint8_t>(static_cast<unsigned>(aead_));
    const bytes_view enc2 = s2->enc.bytes();
    sh[5] = static_cast<std::uint8_t>(enc2.size() >> 8);
    sh[6] = static_cast<std::uint8_t>(enc2.size());
    std::memcpy(sh + 7, enc2.data(), enc2.size());
    sh_len = 7 + enc2.size();
  }
  hs.th.update(msg);
  hs.th.update(bytes_view(sh, sh_len));

  std::uint8_t th1[64];
  hs.th.current(th1);
  std::uint8_t sf[1 + 64];
  sf[0] = msg_server_finished;
  detail::finished_mac(hs, "s finished", bytes_view(th1, hs.nh), std::span<std::uint8_t>(sf + 1, hs.nh));
  hs.th.update(bytes_view(sf, 1 + hs.nh));

  std::uint8_t th2[64];
  hs.th.current(th2);
  const bytes_view th(th2, hs.nh);
  detail::finished_mac(hs, "c finished", th, hs.expected_mac.span());
  install_traffic_keys(th);

  put_handshake_message(bytes_view(sh, sh_len));
  put_handshake_message(bytes_view(sf, 1 + hs.nh));
  hs.at = detail::stage::server_wait_client_finished;
  return {};
}

result<void> connection::server_on_client_finished(bytes_view msg) noexcept {
  if (auto ok = check_finished(msg, msg_client_finished, record_errc::handshake_failed); !ok) return ok;
  detail::handshake_state& hs = *hs_;
  peer_key_ = std::move(hs.client_key);
  detail::log(log_level::debug, "server: handshake complete, version ", detail::hex16{protocol_version}, ", ",
              aead_name(aead_), ", ", hpke::to_string(hs.suite.kdf),
              peer_key_.empty() ? "" : ", client authenticated");
  hs_.reset();
  peer_finished_ = true;
  established_ = true;
  return {};
}

// ---- receiving ------------------------------------------------------------------

result<void> connection::on_header() noexcept {
  const std::uint8_t type = header_[0];
  body_len_ = (std::size_t{header_[1]} << 16) | (std::size_t{header_[2]} << 8) | header_[3];
  body_seen_ = 0;
  body_started_ = false;
  if (type == type_handshake) {
    if (!hs_) return fail(record_errc::unexpected_record);
    if (body_len_ > limits_.max_handshake_size) return fail(record_errc::record_too_large);
    if (body_len_ == 0) return fail(record_errc::bad_handshake_message);
    hs_buf_.clear();
    return {};
  }
  if (type != type_application_data && type != type_key_update && type != type_close)
    return fail(record_errc::unexpected_record);
  if (!peer_finished_) return fail(record_errc::unexpected_record);
  if (body_len_ > limits_.max_record_size + 1 + record_tag_size) return fail(record_errc::record_too_large);
  if (body_len_ < 1 + record_tag_size) return fail(record_errc::bad_record_mac);  // cannot hold a marker and a tag
  return {};
}

// start_protected_record keys the opener for the record whose header was
// read; false when its plaintext does not fit until the application reads.
result<bool> connection::start_protected_record() noexcept {
  const std::size_t inner = body_len_ - record_tag_size;
  // Take no new record while max_buffered_plaintext bytes wait to be read
  // (the buffer has room for that much plus one record).
  if (readable() != 0 && readable() >= limits_.max_buffered_plaintext) return false;
  if (plain_end_ + inner > plain_.capacity()) {
    // Move the unread plaintext to the front; if it still does not fit, wait
    // for the application to read.
    if (readable() + inner > plain_.capacity()) return false;
    std::memmove(plain_.data(), plain_.data() + plain_begin_, readable());
    plain_end_ -= plain_begin_;
    plain_begin_ = 0;
  }
  if (rx_.seq == std::numeric_limits<std::uint64_t>::max()) return fail(record_errc::sequence_exhausted);
  std::uint8_t nonce[24];
  make_nonce(rx_, nonce);
  const auto ok = opener_.init(rx_.key, bytes_view(nonce, rx_.nonce_size));
  crypto::ct::wipe(nonce, sizeof nonce);
  if (!ok) return fail(record_errc::bad_state);
  opener_.aad(header_);
  body_started_ = true;
  return true;
}

result<void> connection::finish_protected_record() noexcept {
  const std::size_t inner = body_len_ - record_tag_size;
  std::uint8_t* p = plain_.data() + plain_end_;
  if (!opener_.finish(tag_)) {
    crypto::ct::wipe(p, inner);
    return fail(record_errc::bad_record_mac);
  }
  ++rx_.seq;
  // Strip the zero padding and the 0x01 marker (docs/protocol.md 3.1). The
  // scan takes time proportional to the padding (see docs/security.md).
  std::size_t end = inner;
  while (end > 0 && p[end - 1] == 0) --end;
  if (end == 0 || p[end - 1] != 1) {
    crypto::ct::wipe(p, inner);
    return fail(record_errc::unexpected_record);
  }
  const std::size_t content = end - 1;
  const std::uint8_t type = header_[0];
  header_len_ = 0;
  body_started_ = false;
  if (type == type_application_data) {
    if (content == 0) {
      if (++empty_run_ > limits_.max_empty_records) return fail(record_errc::too_many_empty_records);
    } else {
      empty_run_ = 0;
    }
    plain_end_ += content;  // released: the tag verified
    return {};
  }
  crypto::ct::wipe(p, inner);
  if (content != 0) return fail(record_errc::unexpected_record);
  if (type == type_key_update) {
    if (++empty_run_ > limits_.max_empty_records) return fail(record_errc::too_many_empty_records);
    ratchet(rx_);
    detail::log(log_level::debug, role_name(role_), ": peer updated its keys");
  } else {
    peer_closed_ = true;
    detail::log(log_level::debug, role_name(role_), ": peer closed");
  }
  return {};
}

result<std::size_t> connection::receive(bytes_view in) noexcept {
  if (auto e = failed()) return e;
  std::size_t used = 0;
  for (;;) {
    // The send side may have failed meanwhile (another thread): stop, wiping
    // the record in progress.
    if (auto e = failed()) {
      wipe_receive_state();
      return e;
    }
    const std::size_t avail = in.size() - used;
    if (header_len_ < record_header_size) {
      if (avail == 0) break;
      if (peer_closed_) return fail(record_errc::unexpected_record);  // nothing may follow the close record
      const std::size_t n = std::min(record_header_size - header_len_, avail);
      std::memcpy(header_ + header_len_, in.data() + used, n);
      header_len_ += n;
      used += n;
      if (header_len_ < record_header_size) break;
      if (auto ok = on_header(); !ok) return ok.error();
      continue;
    }
    if (header_[0] == type_handshake) {
      const std::size_t n = std::min(body_len_ - body_seen_, avail);
      hs_buf_.insert(hs_buf_.end(), in.data() + used, in.data() + used + n);  // reserved: no allocation
      used += n;
      body_seen_ += n;
      if (body_seen_ < body_len_) break;
      header_len_ = 0;
      if (auto ok = handle_handshake_message(); !ok) return ok.error();
      continue;
    }
    if (!body_started_) {
      auto started = start_protected_record();
      if (!started) return started.error();
      if (!*started) break;  // no room for the record's plaintext until the application reads
    }
    const std::size_t ct_len = body_len_ - record_tag_size;
    if (body_seen_ < ct_len) {
      const std::size_t n = std::min(ct_len - body_seen_, avail);
      if (n == 0) break;
      auto w = opener_.update(std::span<std::uint8_t>(plain_.data() + plain_end_ + body_seen_, n),
                              in.subspan(used, n));
      if (!w) return fail(record_errc::bad_record_mac);
      used += n;
      body_seen_ += n;
      continue;
    }
    const std::size_t n = std::min(body_len_ - body_seen_, avail);
    std::memcpy(tag_ + (body_seen_ - ct_len), in.data() + used, n);
    used += n;
    body_seen_ += n;
    if (body_seen_ < body_len_) break;
    if (auto ok = finish_protected_record(); !ok) return ok.error();
  }
  return used;
}

void connection::discard(std::size_t n) noexcept {
  n = std::min(n, readable());
  plain_begin_ += n;
  if (plain_begin_ == plain_end_ && !body_started_) plain_begin_ = plain_end_ = 0;
}

std::size_t connection::read(std::span<std::uint8_t> out) noexcept {
  const std::size_t n = std::min(out.size(), readable());
  if (n != 0) std::memcpy(out.data(), plain_.data() + plain_begin_, n);
  discard(n);
  return n;
}

result<void> connection::end_of_input() noexcept {
  if (auto e = failed()) return e;
  if (peer_closed_) return {};
  return fail(record_errc::truncated);
}

// ---- sending --------------------------------------------------------------------

std::uint8_t* connection::out_room(std::size_t n) noexcept {
  if (out_begin_ == out_end_) out_begin_ = out_end_ = 0;
  if (out_end_ + n > out_.capacity()) {
    if (out_end_ - out_begin_ + n > out_.capacity()) return nullptr;
    std::memmove(out_.data(), out_.data() + out_begin_, out_end_ - out_begin_);
    out_end_ -= out_begin_;
    out_begin_ = 0;
  }
  return out_.data() + out_end_;
}

void connection::consume(std::size_t n) noexcept {
  out_begin_ += std::min(n, out_end_ - out_begin_);
  if (out_begin_ == out_end_) out_begin_ = out_end_ = 0;
}

std::size_t connection::inner_size(std::size_t content) const noexcept {
  std::size_t inner = content + 1;
  if (limits_.pad_to > 1) {
    inner = (inner + limits_.pad_to - 1) / limits_.pad_to * limits_.pad_to;
    inner = std::min(inner, limits_.max_record_size + 1);
  }
  return inner;
}

// seal_record writes one record of `content` bytes of `data`, starting
// `skip` bytes in, at out (which has room), and returns its wire size.
result<std::size_t> connection::seal_record(std::uint8_t* out, std::uint8_t type, std::span<const bytes_view> data,
                                            std::size_t skip, std::size_t content) noexcept {
  if (tx_.seq == std::numeric_limits<std::uint64_t>::max()) return set_failure(record_errc::sequence_exhausted);
  // Only application data is padded; key_update and close carry nothing.
  const std::size_t inner = type == type_application_data ? inner_size(content) : 1;
  const std::size_t body = inner + record_tag_size;
  put_header(out, type, body);
  std::uint8_t nonce[24];
  make_nonce(tx_, nonce);
  crypto::aead_sealer sealer;
  const auto ok = sealer.init(tx_.key, bytes_view(nonce, tx_.nonce_size));
  crypto::ct::wipe(nonce, sizeof nonce);
  if (!ok) return set_failure(record_errc::bad_state);
  sealer.aad(bytes_view(out, record_header_size));

  std::uint8_t* ct = out + record_header_size;
  // Small records: gather the content and trailer in place and encrypt once;
  // large ones: encrypt straight from the caller's buffers.
  constexpr std::size_t small = 512;
  std::size_t pos = 0;
  for (const bytes_view piece : data) {
    if (pos == content) break;
    if (skip >= piece.size()) {
      skip -= piece.size();
      continue;
    }
    const std::size_t n = std::min(piece.size() - skip, content - pos);
    if (content <= small) {
      std::memcpy(ct + pos, piece.data() + skip, n);
    } else {
      static_cast<void>(sealer.update(std::span<std::uint8_t>(ct + pos, n), piece.subspan(skip, n)));
    }
    pos += n;
    skip = 0;
  }
  ct[content] = 1;
  std::memset(ct + content + 1, 0, inner - content - 1);
  if (content <= small) {
    static_cast<void>(sealer.update(std::span<std::uint8_t>(ct, inner), bytes_view(ct, inner)));
  } else {
    static_cast<void>(sealer.update(std::span<std::uint8_t>(ct + content, inner - content),
                                    bytes_view(ct + content, inner - content)));
  }
  sealer.finish(std::span<std::uint8_t, record_tag_size>(ct + inner, record_tag_size));
  ++tx_.seq;
  return record_header_size + body;
}

namespace {

// key_update_limit is the number of records one key seals before an
// automatic update: key_update_after, except that an AES-GCM key never
// protects more than 2^24 records (about 2^24.5 full-size records keep the
// distinguishing advantage below 2^-57, RFC 8446 5.5), even when automatic
// updates are otherwise off. docs/security.md.
std::uint64_t key_update_limit(const limits& l, crypto::aead_algorithm alg) noexcept {
  constexpr std::uint64_t gcm_cap = std::uint64_t{1} << 24;
  if (!crypto::is_aes_gcm(alg)) return l.key_update_after;
  return l.key_update_after == 0 ? gcm_cap : std::min(l.key_update_after, gcm_cap);
}

}  // namespace

// seal_records seals as much of `data` as fits in `room` bytes at out,
// updating keys automatically before key_update_limit records.
result<seal_result> connection::seal_records(std::uint8_t* out, std::size_t room, std::span<const bytes_view> data) noexcept {
  std::size_t total = 0;
  for (const bytes_view piece : data) total += piece.size();
  seal_result res;
  const std::uint64_t update_after = key_update_limit(limits_, tx_.alg);
  while (res.consumed < total) {
    const bool update = update_after != 0 && tx_.seq >= update_after - 1;
    const std::size_t ku = update ? record_overhead : 0;
    if (room < ku + record_overhead + 1) break;
    // The largest content whose record fits in what is left.
    const std::size_t space = room - ku - record_header_size - record_tag_size;  // for the inner plaintext
    std::size_t content = std::min({total - res.consumed, limits_.max_record_size, space - 1});
    while (content > 0 && inner_size(content) > space) {
      const std::size_t fit = limits_.pad_to > 1 ? space / limits_.pad_to * limits_.pad_to : space;
      content = fit == 0 ? 0 : std::min(content - 1, fit - 1);
    }
    if (content == 0) break;
    if (update) {
      auto w = seal_record(out + res.written, type_key_update, {}, 0, 0);
      if (!w) return w.error();
      ratchet(tx_);
      res.written += *w;
      room -= *w;
      detail::log(log_level::debug, role_name(role_), ": automatic key update");
    }
    auto w = seal_record(out + res.written, type_application_data, data, res.consumed, content);
    if (!w) return w.error();
    res.written += *w;
    room -= *w;
    res.consumed += content;
  }
  return res;
}

result<std::size_t> connection::write(bytes_view data) noexcept {
  return write(std::span<const bytes_view>(&data, 1));
}

result<std::size_t> connection::write(std::span<const bytes_view> data) noexcept {
  if (auto e = failed()) return e;
  if (closed_) return record_errc::closed;
  if (!established_) return record_errc::bad_state;
  const std::size_t pending_now = out_end_ - out_begin_;
  if (pending_now >= limits_.max_send_buffer && pending_now != 0) return std::size_t{0};
  // Room for whatever fits under max_send_buffer, and at least one full record.
  const std::size_t want = std::max(limits_.max_send_buffer - std::min(pending_now, limits_.max_send_buffer),
                                    record_overhead + limits_.max_record_size) +
                           record_overhead;
  std::uint8_t* p = out_room(want);
  if (p == nullptr) return std::size_t{0};
  auto r = seal_records(p, want, data);
  if (!r) return r.error();
  out_end_ += r->written;
  return r->consumed;
}

result<seal_result> connection::seal_to(std::span<std::uint8_t> out, std::span<const bytes_view> data) noexcept {
  if (auto e = failed()) return e;
  if (closed_) return record_errc::closed;
  if (!established_ || out_end_ != out_begin_) return record_errc::bad_state;
  return seal_records(out.data(), out.size(), data);
}

result<void> connection::seal_control(std::uint8_t type) noexcept {
  if (auto e = failed()) return e;
  if (closed_) return record_errc::closed;
  if (!established_) return record_errc::bad_state;
  std::uint8_t* p = out_room(record_overhead);
  if (p == nullptr) return record_errc::send_buffer_full;
  auto w = seal_record(p, type, {}, 0, 0);
  if (!w) return w.error();
  out_end_ += *w;
  return {};
}

result<void> connection::close() noexcept {
  if (auto ok = seal_control(type_close); !ok) return ok;
  closed_ = true;
  detail::log(log_level::debug, role_name(role_), ": close sent");
  return {};
}

result<void> connection::update_keys() noexcept {
  if (auto ok = seal_control(type_key_update); !ok) return ok;
  ratchet(tx_);
  detail::log(log_level::debug, role_name(role_), ": key update sent");
  return {};
}

namespace {

constexpr naming::entry<record_aead> record_aead_names[] = {
    {record_aead::aes128_gcm, "aes128gcm"},
    {record_aead::aes256_gcm, "aes256gcm"},
    {record_aead::chacha20_poly1305, "chacha20poly1305"},
    {record_aead::xchacha20_poly1305, "xchacha20poly1305"},
};

}  // namespace

std::string_view to_string(record_aead a) noexcept { return naming::name_of(a, record_aead_names); }

}  // namespace sealwire::record

namespace sealwire {

template <>
result<record::record_aead> parse<record::record_aead>(std::string_view text) noexcept {
  return naming::parse_in(text, record::record_aead_names, true);
}

}  // namespace sealwire
