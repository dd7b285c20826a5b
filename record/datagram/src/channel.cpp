// SPDX-License-Identifier: Apache-2.0
// The sans-IO datagram channel (docs/protocol.md 9): keying from the
// exporter, sealing messages into datagrams, opening datagrams record by
// record with header protection, epochs and the replay window.
#include <sealwire/record/datagram/channel.hpp>

#include <sealwire/crypto/ct.hpp>

#include "detail/header.hpp"
#include "detail/state.hpp"

#include <algorithm>
#include <cstring>

namespace sealwire::record::datagram {
namespace detail {

channel_state::~channel_state() { wipe(); }

void channel_state::wipe() noexcept {
  tx_hp.wipe();
  tx.wipe();
  rx_hp.wipe();
  for (auto& e : slots) e.keys.wipe();
}

namespace {

// send_failure reports the sticky failure to the sending side, which wipes
// its own keys here (the receiving side, on another thread perhaps, wiped
// its own when it failed).
std::error_code send_failure(channel_state& st) noexcept {
  const int f = st.failure.load(std::memory_order_acquire);
  if (f == 0) return {};
  st.tx_hp.wipe();
  st.tx.wipe();
  return static_cast<datagram_errc>(f);
}

bool valid(const config& c) noexcept {
  return c.max_datagram_size >= 64 && c.max_datagram_size <= max_udp_payload &&
         (c.sequence_bits == 16 || c.sequence_bits == 32) && c.replay_window >= 64 && c.replay_window <= 32768 &&
         c.replay_window % 64 == 0 && c.previous_epoch_lifetime.count() >= 0 && c.key_update_after >= 1 &&
         c.key_update_after <= max_sequence + 1;
}

// Records + 16-byte blocks one record of `len` message bytes costs (9.6, as 3.5).
std::uint64_t record_blocks(std::size_t len) noexcept { return 1 + (len + 15) / 16; }

// may_start_epoch: a new sending epoch may start at `now` (9.4): the first
// at any time, each later one no sooner than previous_epoch_lifetime after
// the last, whether asked for (update_keys) or due at a limit (9.6). Two
// epoch bits tell e + 1 from e - 1 only if epochs are spaced so.
bool may_start_epoch(const channel_state& st, clock::time_point now) noexcept {
  return !st.tx_last_update || now - *st.tx_last_update >= st.cfg.previous_epoch_lifetime;
}

// start_epoch starts the next sending epoch (9.1) at `now`.
void start_epoch(channel_state& st, clock::time_point now) noexcept {
  epoch_keys next;
  next_epoch(st.s, st.tx, next);
  st.tx = std::move(next);
  st.tx_seq = 0;
  st.tx_blocks = 0;
  st.tx_last_update = now;
  ++st.epochs_started;
}

// derive_through derives the receiving epochs after rx_tip up to `e`
// (at most rx_epoch + 3) from the chain of 9.1, each into its slot; the
// secret of every epoch but the newest is wiped as its successor appears.
void derive_through(channel_state& st, std::uint64_t e) {
  while (st.rx_tip < e) {
    receive_epoch& from = st.slots[st.rx_tip % st.slots.size()];
    receive_epoch& to = st.slots[(st.rx_tip + 1) % st.slots.size()];
    to.keys.wipe();  // an epoch before rx_epoch - 1: no longer used
    to.window.reset(st.cfg.replay_window);
    to.failures = 0;
    next_epoch(st.s, from.keys, to.keys);
    crypto::ct::wipe(from.keys.secret.span().data(), from.keys.secret.span().size());
    ++st.rx_tip;
  }
}

}  // namespace

struct channel_test_access;

}  // namespace detail

using detail::channel_state;

channel::channel(std::unique_ptr<channel_state> s) noexcept : s_(std::move(s)) {}
channel::channel(channel&&) noexcept = default;
channel& channel::operator=(channel&&) noexcept = default;
channel::~channel() = default;

result<channel> channel::from_secrets(record_aead aead, hpke::kdf_id kdf, bytes_view send_secret,
                                      bytes_view receive_secret, const config& cfg) {
  if (!detail::valid(cfg)) return datagram_errc::invalid_config;
  auto st = std::make_unique<channel_state>();
  if (!detail::make_suite(st->s, aead, kdf)) return record_errc::unsupported_algorithm;
  if (send_secret.size() != st->s.nh || receive_secret.size() != st->s.nh) {
    return std::make_error_code(std::errc::invalid_argument);
  }
  st->cfg = cfg;
  const std::uint64_t aead_integrity = detail::aead_integrity_limit(st->s.alg);
  st->integrity_limit = cfg.integrity_limit == 0 ? aead_integrity : std::min(cfg.integrity_limit, aead_integrity);
  const std::uint64_t aead_blocks = detail::aead_blocks_limit(st->s.alg);
  st->blocks_limit = cfg.key_blocks_limit == 0 ? aead_blocks : std::min(cfg.key_blocks_limit, aead_blocks);

  st->tx_hp.init(st->s, send_secret);
  detail::set_epoch(st->s, st->tx, 0, send_secret);
  st->rx_hp.init(st->s, receive_secret);
  for (auto& e : st->slots) e.window.reset(cfg.replay_window);
  detail::set_epoch(st->s, st->slots[0].keys, 0, receive_secret);
  // Epoch 1 is held from the start; epoch 0's secret is wiped once it exists.
  detail::derive_through(*st, 1);
  return channel(std::move(st));
}

result<channel> channel::from_connection(const connection& conn, const config& cfg, bytes_view context) {
  if (!conn.handshake_complete() || conn.error()) return datagram_errc::bad_state;
  detail::suite s;
  if (!detail::make_suite(s, conn.aead(), conn.kdf())) return record_errc::unsupported_algorithm;
  crypto::secret_array<64> c2s, s2c;
  // 9.1: one secret per direction from the exporter.
  if (auto r = conn.export_keying_material(c2s.span().first(s.nh), "sealwire datagram c", context); !r) {
    return r.error();
  }
  if (auto r = conn.export_keying_material(s2c.span().first(s.nh), "sealwire datagram s", context); !r) {
    return r.error();
  }
  const bool client = conn.role() == role::client;
  return from_secrets(conn.aead(), conn.kdf(), (client ? c2s : s2c).span().first(s.nh),
                      (client ? s2c : c2s).span().first(s.nh), cfg);
}

// ---- sending ----------------------------------------------------------------

std::size_t channel::max_message_size() const noexcept {
  if (!s_) return 0;
  return s_->cfg.max_datagram_size - header_size(s_->cfg.sequence_bits, false) - tag_size;
}

result<std::size_t> channel::seal(std::span<std::uint8_t> out, bytes_view msg,
                                  std::optional<clock::time_point> now) noexcept {
  return seal(out, std::span<const bytes_view>(&msg, 1), now);
}

result<std::size_t> channel::seal(std::span<std::uint8_t> out, std::span<const bytes_view> msgs,
                                  std::optional<clock::time_point> now) noexcept {
  if (!s_) return datagram_errc::bad_state;
  channel_state& st = *s_;
  if (const auto e = detail::send_failure(st)) return e;
  const unsigned bits = st.cfg.sequence_bits;
  // 9.5: the whole datagram is sized first; a set that does not fit is refused whole.
  std::size_t total = 0;
  std::uint64_t blocks_needed = 0;
  for (std::size_t i = 0; i < msgs.size(); ++i) {
    const bool last = i + 1 == msgs.size();
    const std::uint64_t rb = detail::record_blocks(msgs[i].size());
    if (msgs[i].size() > st.cfg.max_datagram_size || rb > st.blocks_limit) return datagram_errc::message_too_large;
    total += header_size(bits, !last) + msgs[i].size() + tag_size;
    if (total > st.cfg.max_datagram_size) return datagram_errc::message_too_large;
    blocks_needed += rb;
  }
  if (total > out.size()) return datagram_errc::buffer_too_small;

  // 9.6 and 9.4: where a new epoch starts, planned before anything is
  // written (a refusal changes nothing). One is due at key_update_after
  // records, or before a record would cross the AEAD's block limit or the
  // sequence number space; it starts only as far from the last one as a
  // key update may (update_too_soon), so at most once per datagram. Until
  // then the epoch goes on past key_update_after, but a hard limit is never
  // crossed: that record is refused. The clock is read only when one is due.
  const std::size_t none = msgs.size();
  std::size_t change_at = none;
  // Nothing due within this datagram (the common case) needs no plan. A
  // sequence number past 2^48 - 1 is past key_update_after too.
  if (st.tx_seq + msgs.size() > st.cfg.key_update_after || st.tx_blocks + blocks_needed > st.blocks_limit) {
    std::uint64_t seq = st.tx_seq, blocks = st.tx_blocks;
    for (std::size_t i = 0; i < msgs.size(); ++i) {
      const std::uint64_t rb = detail::record_blocks(msgs[i].size());
      bool hard = seq > detail::max_sequence || blocks + rb > st.blocks_limit;
      if ((hard || seq >= st.cfg.key_update_after) && change_at == none) {
        if (!now) now = clock::now();
        if (detail::may_start_epoch(st, *now)) {
          change_at = i;
          seq = 0;
          blocks = 0;
          hard = false;  // rb fits a fresh key (checked above)
        }
      }
      if (hard) return datagram_errc::update_too_soon;
      ++seq;
      blocks += rb;
    }
  }

  std::size_t pos = 0;
  for (std::size_t i = 0; i < msgs.size(); ++i) {
    const bytes_view m = msgs[i];
    const bool last = i + 1 == msgs.size();
    if (i == change_at) detail::start_epoch(st, *now);
    std::uint8_t* rec = out.data() + pos;
    const std::size_t body_len = m.size() + tag_size;
    const std::size_t hlen = detail::write_header(rec, st.tx.epoch, st.tx_seq, bits, !last, body_len);
    std::uint8_t nonce[24];
    detail::make_nonce(st.s, st.tx, st.tx_seq, nonce);
    // 9.3: AAD = the header before protection.
    const auto sealed = st.tx.key.seal(std::span(rec + hlen, body_len), m, associated_data(bytes_view(rec, hlen)),
                                       bytes_view(nonce, st.s.nn));
    static_cast<void>(sealed);  // sizes checked above; the key is set
    std::uint8_t mask[5];
    st.tx_hp.mask(mask, std::span<const std::uint8_t, 16>(rec + hlen, 16));
    rec[0] ^= mask[0] & detail::header_epoch_mask;
    for (std::size_t b = 0; b < bits / 8; ++b) rec[1 + b] ^= mask[1 + b];
    ++st.tx_seq;
    st.tx_blocks += detail::record_blocks(m.size());
    ++st.sealed;
    pos += hlen + body_len;
  }
  return pos;
}

result<void> channel::update_keys(clock::time_point now) noexcept {
  if (!s_) return datagram_errc::bad_state;
  channel_state& st = *s_;
  if (const auto e = detail::send_failure(st)) return e;
  if (!detail::may_start_epoch(st, now)) return datagram_errc::update_too_soon;
  detail::start_epoch(st, now);
  return {};
}

// ---- receiving --------------------------------------------------------------

namespace {

// fail_integrity ends the channel: sticky error, the receiving keys wiped
// (the sending side wipes its own at its next call: it may run on another
// thread).
void fail_integrity(channel_state& st) noexcept {
  st.failure.store(static_cast<int>(datagram_errc::integrity_limit_reached), std::memory_order_release);
  st.rx_hp.wipe();
  for (auto& e : st.slots) e.keys.wipe();
}

// adopt moves the receiving direction to epoch n (rx_epoch + 1 to + 3),
// whose record just authenticated (9.4 step 7): epoch n - 1 becomes the
// previous epoch, kept for previous_epoch_lifetime from now (when n is two
// or three ahead, it is an epoch whose records were all lost or are still
// on their way); every earlier epoch is wiped; n + 1 is derived.
void adopt(channel_state& st, std::uint64_t n, clock::time_point now) {
  for (auto& r : st.slots) {
    if (r.keys.live && r.keys.epoch + 1 < n) r.keys.wipe();
  }
  st.epochs_followed += n - st.rx_epoch;
  st.rx_epoch = n;
  detail::derive_through(st, n + 1);
  st.prev_deadline = now + st.cfg.previous_epoch_lifetime;
}

}  // namespace

result<std::size_t> channel::open(std::span<std::uint8_t> datagram, std::vector<message>& out,
                                  std::optional<clock::time_point> now) {
  if (!s_) return datagram_errc::bad_state;
  channel_state& st = *s_;
  if (const int f = st.failure.load(std::memory_order_acquire); f != 0) return static_cast<datagram_errc>(f);
  // The clock is read only while it matters: a previous epoch to expire, or an epoch to follow.
  const auto time = [&now] {
    if (!now) now = clock::now();
    return *now;
  };
  if (st.rx_epoch > 0) {
    if (auto* prev = st.held(st.rx_epoch - 1); prev != nullptr && time() >= st.prev_deadline) prev->keys.wipe();
  }

  std::size_t appended = 0, pos = 0;
  while (pos < datagram.size()) {
    detail::record_layout lay;
    if (!detail::parse_record(datagram.subspan(pos), lay)) {
      // 9.4 step 1: the record boundaries are lost; drop the rest unopened.
      crypto::ct::wipe(datagram.data() + pos, datagram.size() - pos);
      ++st.malformed;
      break;
    }
    std::uint8_t* rec = datagram.data() + pos;
    std::uint8_t* body = rec + lay.header_len;
    pos += lay.header_len + lay.body_len;

    // Step 2: remove header protection (in place: it becomes the AAD).
    std::uint8_t mask[5];
    st.rx_hp.mask(mask, std::span<const std::uint8_t, 16>(body, 16));
    rec[0] ^= mask[0] & detail::header_epoch_mask;
    std::uint64_t truncated = 0;
    for (std::size_t b = 0; b < lay.seq_bytes; ++b) {
      rec[1 + b] ^= mask[1 + b];
      truncated = truncated << 8 | rec[1 + b];
    }

    // Step 3: which epoch. With c the current one, d = 0 is c, 1 is c + 1,
    // 2 is c + 2, 3 is c - 1 while it is kept, else c + 3. Epochs c + 2 and
    // c + 3 (their predecessors' records all lost) are derived on first
    // sight and adopted only when a record authenticates under them.
    const std::uint64_t c = st.rx_epoch;
    const unsigned d = (rec[0] - static_cast<unsigned>(c & detail::header_epoch_mask)) & detail::header_epoch_mask;
    std::uint64_t target = c + d;
    if (d == 3 && c > 0 && st.held(c - 1) != nullptr) target = c - 1;
    if (target > st.rx_tip) detail::derive_through(st, target);
    detail::receive_epoch* held = st.held(target);
    if (held == nullptr) {
      crypto::ct::wipe(body, lay.body_len);
      ++st.stale_epoch;
      continue;
    }
    detail::receive_epoch& e = *held;
    const bool ahead = target > c + 1;

    // Steps 4 and 5: the full sequence number, then the replay window.
    const std::uint64_t seq = detail::reconstruct(e.window.expected(), truncated, 8 * static_cast<unsigned>(lay.seq_bytes));
    if (seq > detail::max_sequence || !e.window.acceptable(seq)) {
      crypto::ct::wipe(body, lay.body_len);
      ++st.replayed;
      continue;
    }

    // Step 6: open in place; a failure wipes the body and is counted.
    std::uint8_t nonce[24];
    detail::make_nonce(st.s, e.keys, seq, nonce);
    const auto opened = e.keys.key.open(std::span(body, lay.body_len), bytes_view(body, lay.body_len),
                                        associated_data(bytes_view(rec, lay.header_len)), bytes_view(nonce, st.s.nn));
    if (!opened) {
      crypto::ct::wipe(body, lay.body_len);
      // Under an epoch two or three ahead, most likely a late record of an
      // old epoch (c - 2, or c - 1 no longer kept): counted as stale, and
      // against that key's integrity limit all the same.
      ++(ahead ? st.stale_epoch : st.forged);
      if (++e.failures >= st.integrity_limit) {
        crypto::ct::wipe(datagram.data() + pos, datagram.size() - pos);
        fail_integrity(st);
        return datagram_errc::integrity_limit_reached;
      }
      continue;
    }

    // Step 7: accept, then release.
    e.window.mark(seq);
    const std::uint64_t epoch = e.keys.epoch;
    if (target > c) adopt(st, target, time());
    ++st.delivered;
    out.push_back(message{std::span(body, *opened), epoch, seq});
    ++appended;
  }
  return appended;
}

// ---- state ------------------------------------------------------------------

std::uint64_t channel::send_epoch() const noexcept { return s_ ? s_->tx.epoch : 0; }
std::uint64_t channel::receive_epoch() const noexcept { return s_ ? s_->rx_epoch : 0; }

stats channel::statistics() const noexcept {
  if (!s_) return {};
  const channel_state& st = *s_;
  return stats{st.sealed, st.delivered, st.forged, st.replayed, st.stale_epoch, st.malformed, st.epochs_started,
               st.epochs_followed};
}

std::error_code channel::error() const noexcept {
  if (!s_) return datagram_errc::bad_state;
  const int f = s_->failure.load(std::memory_order_acquire);
  return f == 0 ? std::error_code{} : std::error_code(static_cast<datagram_errc>(f));
}

record_aead channel::aead() const noexcept { return s_ ? s_->s.aead : record_aead::chacha20_poly1305; }

}  // namespace sealwire::record::datagram
