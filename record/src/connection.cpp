// SPDX-License-Identifier: Apache-2.0
// The sans-IO record connection: its creation from a configuration, its
// lifetime and failure state, and the driving of the handshake unit
// (handshake.cpp) from the handshake messages the receive side collects.
// Records are framed in send.cpp and opened in receive.cpp.
#include <sealwire/crypto/ct.hpp>
#include <sealwire/record/connection.hpp>

#include "detail/handshake.hpp"
#include "detail/log.hpp"
#include "detail/traffic.hpp"

#include <cstring>
#include <new>

namespace sealwire::record {
namespace {

using detail::bytes_view;

constexpr std::size_t max_list = 16;  // versions, KDFs and AEADs in a configuration

bool known_kdf(hpke::kdf_id k) noexcept {
  return k == hpke::kdf_id::hkdf_sha256 || k == hpke::kdf_id::hkdf_sha384 || k == hpke::kdf_id::hkdf_sha512;
}

// The protocol's KEMs (docs/protocol.md 2): X-Wing, X25519, X448.
bool known_kem(hpke::kem_id k) noexcept {
  return k == hpke::kem_id::xwing || k == hpke::kem_id::x25519 || k == hpke::kem_id::x448;
}

result<void> check_limits(const limits& l) noexcept {
  if (l.max_record_size == 0 || l.max_record_size > max_record_size_ceiling) return record_errc::invalid_limit;
  if (l.max_handshake_size < 256 || l.max_handshake_size > (std::size_t{1} << 16)) return record_errc::invalid_limit;
  if (l.max_buffered_plaintext > (std::size_t{1} << 30) || l.max_send_buffer > (std::size_t{1} << 30))
    return record_errc::invalid_limit;
  if (l.pad_to > l.max_record_size + 1) return record_errc::invalid_limit;
  // A lowered key limit must leave room for records between key updates.
  if (l.key_blocks_limit != 0 && l.key_blocks_limit < 4 * (2 + (l.max_record_size + 1 + 15) / 16))
    return record_errc::invalid_limit;
  return {};
}

// check_protocols: at most 16 application protocols of 1 to 255 bytes.
result<void> check_protocols(const std::vector<std::string>& list) noexcept {
  if (list.size() > max_list) return record_errc::invalid_algorithm_list;
  for (const std::string& p : list)
    if (p.empty() || p.size() > 255) return record_errc::invalid_algorithm_list;
  return {};
}

// check_aeads: a non-empty list of at most max_list AEADs the protocol has.
result<void> check_aeads(const std::vector<record_aead>& aeads) noexcept {
  if (aeads.empty() || aeads.size() > max_list) return record_errc::invalid_algorithm_list;
  for (record_aead a : aeads)
    if (!detail::known_aead(static_cast<unsigned>(a))) return record_errc::unsupported_algorithm;
  return {};
}

}  // namespace

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
  report_.store(o.report_.load());
  exporter_ = std::move(o.exporter_);
  app_protocol_ = std::move(o.app_protocol_);
  server_key_id_ = o.server_key_id_;
  peer_close_reason_ = o.peer_close_reason_;
  rx_ = std::move(o.rx_);
  std::memcpy(header_, o.header_, sizeof header_);
  header_len_ = o.header_len_;
  body_started_ = o.body_started_;
  body_len_ = o.body_len_;
  body_seen_ = o.body_seen_;
  body_opened_ = o.body_opened_;
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

// init_buffers sizes the plaintext and send buffers; they are allocated
// when data flows (start_protected_record, out_room) and given back when
// they drain (release_drained), so an idle connection holds neither.
result<void> connection::init_buffers(const limits& l) noexcept {
  try {
    // Plaintext is wiped when its buffer goes back; the send buffer holds
    // only what goes on the wire (sealed records, handshake messages).
    plain_ = detail::byte_buffer(l.max_buffered_plaintext + l.max_record_size + 1, true);
    // write() seals while fewer than max_send_buffer bytes are pending, so the
    // buffer holds that much plus one full record, and control records (a
    // key update before the record, a key update and a close), each padded
    // as pad_to says. Kept tight: a larger buffer would cross malloc's mmap
    // threshold, and every connection would pay page faults and munmap.
    std::size_t control = 2;  // the largest control content (a close's reason) and its type byte
    if (l.pad_to > 1) control = std::min((control + l.pad_to - 1) / l.pad_to * l.pad_to, l.max_record_size + 1);
    control += record_header_size + record_tag_size;
    out_ = detail::byte_buffer(l.max_send_buffer + (record_overhead + l.max_record_size) + 3 * control +
                                   2 * (record_header_size + l.max_handshake_size),
                               false);
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
    detail::log(log_level::debug, detail::role_name(role_), ": connection failed: ", make_error_code(e).message());
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
  // The receiving keys go at once; the sending keys at the send side's next
  // call (send_failed), which may run on another thread.
  detail::wipe_direction(rx_);
  release_drained();  // unless verified plaintext still waits to be read
}

// ---- creation ---------------------------------------------------------------------

result<connection> connection::client(std::shared_ptr<const client_config> cfg) noexcept {
  if (!cfg || cfg->server_key.empty()) return record_errc::missing_key;
  const hpke::kem_id kem = cfg->server_key.kem();
  if (!known_kem(kem) || !known_kdf(cfg->kdf)) return record_errc::unsupported_algorithm;
  if (cfg->client_key && cfg->client_key->kem() != kem) return record_errc::kem_mismatch;
  if (1 + cfg->extra_server_keys.size() > max_pinned_server_keys) return record_errc::invalid_algorithm_list;
  for (const hpke::public_key& k : cfg->extra_server_keys) {
    if (k.empty()) return record_errc::missing_key;
    if (k.kem() != kem) return record_errc::kem_mismatch;
  }
  if (auto ok = check_aeads(cfg->aeads); !ok) return ok.error();
  if (auto ok = check_protocols(cfg->app_protocols); !ok) return ok.error();
  if (auto ok = check_limits(cfg->limits); !ok) return ok.error();

  connection c;
  c.role_ = role::client;
  c.limits_ = cfg->limits;
  if (auto ok = c.init_buffers(c.limits_); !ok) return ok.error();
  auto hs = detail::handshake::client(*cfg, c.limits_.max_handshake_size, detail::message_sink{&c, put_message});
  if (!hs) return hs.error();
  if (auto e = c.failed()) return e;  // no memory for the ClientHello
  c.hs_ = std::move(*hs);
  c.client_cfg_ = std::move(cfg);
  return c;
}

result<connection> connection::server(std::shared_ptr<const server_config> cfg) noexcept {
  if (!cfg || !cfg->static_key || cfg->static_key->empty()) return record_errc::missing_key;
  if (!known_kem(cfg->static_key->kem())) return record_errc::unsupported_algorithm;
  if (cfg->extra_static_keys.size() >= max_list) return record_errc::invalid_algorithm_list;
  for (const auto& k : cfg->extra_static_keys) {
    if (!k || k->empty()) return record_errc::missing_key;
    if (!known_kem(k->kem())) return record_errc::unsupported_algorithm;
  }
  if (cfg->require_client_auth && !cfg->accept_client && !cfg->accept_any_client_key)
    return record_errc::missing_client_policy;
  if (auto ok = check_protocols(cfg->app_protocols); !ok) return ok.error();
  if (cfg->kdfs.empty() || cfg->kdfs.size() > max_list) return record_errc::invalid_algorithm_list;
  for (hpke::kdf_id k : cfg->kdfs)
    if (!known_kdf(k)) return record_errc::unsupported_algorithm;
  if (auto ok = check_aeads(cfg->aeads); !ok) return ok.error();
  if (auto ok = check_limits(cfg->limits); !ok) return ok.error();

  connection c;
  c.role_ = role::server;
  c.limits_ = cfg->limits;
  if (auto ok = c.init_buffers(c.limits_); !ok) return ok.error();
  auto hs = detail::handshake::server(*cfg);
  if (!hs) return hs.error();
  c.hs_ = std::move(*hs);
  c.server_cfg_ = std::move(cfg);
  return c;
}

// ---- driving the handshake --------------------------------------------------------

void connection::put_message(void* self, bytes_view msg) noexcept {
  static_cast<connection*>(self)->put_handshake_message(msg);
}

void connection::put_handshake_message(bytes_view msg) noexcept {
  std::uint8_t* p = out_room(record_header_size + msg.size());
  if (p == nullptr) return;  // out of memory: out_room failed the connection (sized for handshake messages)
  detail::put_header(p, detail::type_handshake, msg.size());
  std::memcpy(p + record_header_size, msg.data(), msg.size());
  out_end_ += record_header_size + msg.size();
}

result<void> connection::handle_handshake_message() noexcept {
  auto r = hs_->on_message(bytes_view(hs_buf_), detail::message_sink{this, put_message});
  crypto::ct::wipe(hs_buf_.data(), hs_buf_.size());
  hs_buf_.clear();
  if (!r) return fail(static_cast<record_errc>(r.error().value()));
  if (auto e = failed()) return fail(static_cast<record_errc>(e.value()));  // a reply found no memory
  return after_handshake_step();
}

// after_handshake_step installs the traffic keys once the handshake has
// them, and ends the handshake once the peer's Finished verified.
result<void> connection::after_handshake_step() noexcept {
  if (hs_->keys_ready()) {
    detail::handshake_keys k = hs_->take_keys();
    aead_ = k.aead;
    detail::setup_direction(tx_, k.aead, k.kdf, k.nh);
    detail::setup_direction(rx_, k.aead, k.kdf, k.nh);
    detail::direction_keys& c2s = role_ == role::client ? tx_ : rx_;
    detail::direction_keys& s2c = role_ == role::client ? rx_ : tx_;
    c2s.secret = std::move(k.c_traffic);
    s2c.secret = std::move(k.s_traffic);
    detail::derive_keys(tx_);
    detail::derive_keys(rx_);
    exporter_ = std::move(k.exporter);
    app_protocol_ = std::move(k.app_protocol);
    server_key_id_ = k.server_key_id;
  }
  if (hs_->complete()) {
    peer_key_ = std::move(hs_->peer_key());
    hs_.reset();
    std::vector<std::uint8_t>().swap(hs_buf_);  // wiped after its message; no more handshake messages come
    peer_finished_ = true;
    established_ = true;
  }
  return {};
}

// ---- exporters --------------------------------------------------------------------

// export_keying_material = ExpandLabel(ExpandLabel(exporter, label, Hash(""),
// Nh), "exporter", Hash(context), L) (docs/protocol.md 5; RFC 8446 7.5).
result<void> connection::export_keying_material(std::span<std::uint8_t> out, std::string_view label,
                                                bytes_view context) const noexcept {
  if (!established_ || failed()) return record_errc::bad_state;
  const std::size_t nh = tx_.nh;
  if (label.empty() || label.size() > detail::max_label_size || out.size() > 255 * nh)
    return std::make_error_code(std::errc::invalid_argument);
  std::uint8_t empty_hash[64], context_hash[64];
  detail::transcript(tx_.kdf).current(empty_hash);
  detail::transcript h(tx_.kdf);
  h.update(context);
  h.current(context_hash);
  crypto::secret_array<64> derived;
  detail::expand_label(tx_.kdf, derived.span().first(nh), exporter_.span().first(nh), label, bytes_view(empty_hash, nh));
  if (!detail::expand_label(tx_.kdf, out, derived.span().first(nh), "exporter", bytes_view(context_hash, nh)))
    return std::make_error_code(std::errc::invalid_argument);
  return {};
}

result<std::array<std::uint8_t, 32>> connection::channel_binding() const noexcept {
  std::array<std::uint8_t, 32> out{};
  if (auto ok = export_keying_material(out, "EXPORTER-Channel-Binding", {}); !ok) return ok.error();
  return out;
}

// ---- names ------------------------------------------------------------------------

namespace {

constexpr naming::entry<record_aead> record_aead_names[] = {
    {record_aead::aes128_gcm, "aes128gcm"},
    {record_aead::aes256_gcm, "aes256gcm"},
    {record_aead::chacha20_poly1305, "chacha20poly1305"},
    {record_aead::xchacha20_poly1305, "xchacha20poly1305"},
};

}  // namespace

std::string_view to_string(record_aead a) noexcept { return naming::name_of(a, record_aead_names); }

std::string_view to_string(close_reason r) noexcept {
  switch (r) {
    case close_reason::normal: return "normal";
    case close_reason::unexpected_record: return "unexpected_record";
    case close_reason::limit_exceeded: return "limit_exceeded";
    case close_reason::policy_refusal: return "policy_refusal";
    case close_reason::idle_timeout: return "idle_timeout";
    case close_reason::handshake_timeout: return "handshake_timeout";
    case close_reason::application_error: return "application_error";
  }
  return "reserved";
}

}  // namespace sealwire::record

namespace sealwire {

template <>
result<record::record_aead> parse<record::record_aead>(std::string_view text) noexcept {
  return naming::parse_in(text, record::record_aead_names, true);
}

}  // namespace sealwire
