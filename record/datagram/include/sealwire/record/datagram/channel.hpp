// SPDX-License-Identifier: Apache-2.0
// The sans-IO datagram channel of docs/protocol.md 9: application messages
// sealed into datagrams and opened from them, keyed from an established
// record connection's exporter, tolerant of loss, duplication, reordering
// and forgery. It never touches a socket; datagram_socket.hpp puts it on an
// Asio UDP socket.
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/record/config.hpp>
#include <sealwire/record/connection.hpp>
#include <sealwire/record/datagram/error.hpp>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace sealwire::record::datagram {

using clock = std::chrono::steady_clock;

// Wire sizes (docs/protocol.md 9.2).
inline constexpr std::size_t tag_size = 16;
// header_size is the header length for a sequence number of seq_bits bits,
// with or without the length field.
[[nodiscard]] constexpr std::size_t header_size(unsigned seq_bits, bool with_length) noexcept {
  return 1 + seq_bits / 8 + (with_length ? 2 : 0);
}
// max_udp_payload is the largest UDP payload over IPv4 (65535 - 8 - 20).
inline constexpr std::size_t max_udp_payload = 65507;

// config holds the channel's named limits (docs/protocol.md 9.6). Both ends
// should use the same values; previous_epoch_lifetime must be the same.
struct config {
  std::size_t max_datagram_size = 1200;  // bytes per datagram sealed: 64 to max_udp_payload
  unsigned sequence_bits = 16;           // truncated sequence number sent: 16 or 32 (9.5)
  std::size_t replay_window = 1024;      // records: 64 to 32768, a multiple of 64
  // previous_epoch_lifetime is how long the receiver keeps the previous
  // epoch's keys after the peer's first record in a new epoch, and the
  // least time between two key updates of the sender (9.4).
  std::chrono::milliseconds previous_epoch_lifetime{3000};
  // key_update_after: records sealed in one epoch before the sender starts
  // the next by itself (1 to 2^48), no sooner than previous_epoch_lifetime
  // after the last epoch change (9.4, 9.6).
  std::uint64_t key_update_after = std::uint64_t{1} << 32;
  // integrity_limit lowers the AEAD's limit of records failing
  // authentication per key (2^36, RFC 9147 4.5.3); 0 keeps it. A test hook,
  // mostly: it never raises the limit.
  std::uint64_t integrity_limit = 0;
  // key_blocks_limit lowers the per-key limit of records + 16-byte blocks
  // sealed (9.6, as protocol 3.5); 0 keeps the AEAD's.
  std::uint64_t key_blocks_limit = 0;
};

// stats counts what a channel did (read them from the receiving thread for
// the receive counters, the sending thread for the send counters).
struct stats {
  std::uint64_t sealed = 0;         // records sealed
  std::uint64_t delivered = 0;      // records opened and released
  std::uint64_t forged = 0;         // records that failed authentication (dropped)
  std::uint64_t replayed = 0;       // duplicates and records older than the window (dropped unopened)
  // stale_epoch: records of an epoch no longer held (dropped unopened), or
  // that failed under an epoch two or three ahead (late old-epoch records, 9.4)
  std::uint64_t stale_epoch = 0;
  std::uint64_t malformed = 0;      // datagrams with a malformed record (the rest of the datagram dropped)
  std::uint64_t epochs_started = 0;   // key updates of the sending direction
  std::uint64_t epochs_followed = 0;  // key updates of the peer followed (an epoch crossed unseen counts)
};

// message is one verified message opened from a datagram: its bytes (in
// place, inside the datagram buffer given to open), its epoch and its full
// sequence number in that epoch.
struct message {
  std::span<std::uint8_t> data;
  std::uint64_t epoch = 0;
  std::uint64_t sequence = 0;
};

namespace detail {
struct channel_state;
struct channel_test_access;
}  // namespace detail

// channel: one datagram channel, both directions.
//
// Sending: seal() writes one datagram holding one record per message. A
// message, or a set of messages, that does not fit max_datagram_size is
// refused whole (message_too_large); the channel never fragments.
//
// Receiving: open() decrypts a datagram in place and returns the messages
// whose records verified; a record that fails authentication, repeats an
// earlier one, is too old for the replay window, or belongs to an epoch not
// held is dropped silently and counted (stats()). Nothing unverified is
// released: a failed record's bytes are wiped. The only receive failure is
// the integrity limit (integrity_limit_reached, sticky, keys wiped).
//
// Threads: one thread may seal while another opens; stats() and the epochs
// of a direction belong to its thread.
class SEALWIRE_API channel {
 public:
  // from_connection keys a channel from an established connection's
  // exporter (docs/protocol.md 9.1); `context` tells channels of one
  // connection apart. The connection may be closed afterwards. Errors:
  // bad_state (handshake not complete, or the connection failed),
  // invalid_config.
  [[nodiscard]] static result<channel> from_connection(const connection& conn, const config& cfg = {},
                                                       bytes_view context = {});

  // from_secrets keys a channel from its two directions' initial secrets
  // (dg_0 of 9.1, Nh bytes each, as the exporter would give them): for tests
  // and for applications with their own key agreement. Errors:
  // invalid_config; unsupported_algorithm (record_errc) for an unknown AEAD
  // or KDF; std::errc::invalid_argument for a secret that is not Nh bytes.
  [[nodiscard]] static result<channel> from_secrets(record_aead aead, hpke::kdf_id kdf, bytes_view send_secret,
                                                    bytes_view receive_secret, const config& cfg = {});

  // The move constructor takes over the other channel; the moved-from
  // channel refuses every call with bad_state.
  channel(channel&&) noexcept;
  // Move assignment wipes this channel, then takes over the other's.
  channel& operator=(channel&&) noexcept;
  channel(const channel&) = delete;
  channel& operator=(const channel&) = delete;
  // The destructor wipes every key.
  ~channel();

  // ---- sending ----

  // max_message_size is the largest message one datagram can carry alone.
  [[nodiscard]] std::size_t max_message_size() const noexcept;

  // seal writes a datagram carrying `msg` to `out` and returns its length.
  // `now` (the clock when not given, read only then) drives the automatic
  // key updates (9.6): one due at key_update_after records waits until as
  // long after the last update as update_keys would (the epoch goes on
  // meanwhile). Errors: message_too_large, buffer_too_small,
  // update_too_soon (a record would cross a hard key limit, the AEAD's
  // blocks or 2^48 records, sooner than the next epoch may start: retry
  // later), integrity_limit_reached, bad_state; on any error nothing is
  // sealed and the sequence numbers are unchanged.
  [[nodiscard]] result<std::size_t> seal(std::span<std::uint8_t> out, bytes_view msg,
                                         std::optional<clock::time_point> now = std::nullopt) noexcept;
  // seal (several) writes one datagram with one record per message, in
  // order; all or nothing, errors as above. An empty list writes nothing.
  [[nodiscard]] result<std::size_t> seal(std::span<std::uint8_t> out, std::span<const bytes_view> msgs,
                                         std::optional<clock::time_point> now = std::nullopt) noexcept;

  // update_keys starts the next epoch of the sending direction (a key
  // update, 9.1); the peer follows when it opens the first record of it.
  // Errors: update_too_soon within previous_epoch_lifetime of the last
  // update, asked for or automatic (the first may come at any time), the
  // sticky failure.
  [[nodiscard]] result<void> update_keys(clock::time_point now = clock::now()) noexcept;

  // ---- receiving ----

  // open decrypts `datagram` in place and appends the verified messages to
  // `out` (spans into `datagram`, in arrival order), returning how many it
  // appended. `now` drives the previous epoch's lifetime (the clock when
  // not given, read only while a previous epoch is held or one is followed). Errors:
  // integrity_limit_reached (sticky; messages of records before the one
  // that crossed the limit are still appended; the receiving keys are wiped
  // at once, the sending keys by the next seal or update_keys), bad_state. Only appending to
  // `out` may throw (std::bad_alloc).
  [[nodiscard]] result<std::size_t> open(std::span<std::uint8_t> datagram, std::vector<message>& out,
                                         std::optional<clock::time_point> now = std::nullopt);

  // ---- state ----

  // send_epoch and receive_epoch are the current epochs of the two directions.
  [[nodiscard]] std::uint64_t send_epoch() const noexcept;
  [[nodiscard]] std::uint64_t receive_epoch() const noexcept;
  // statistics returns the counters.
  [[nodiscard]] stats statistics() const noexcept;
  // error is the sticky failure, or an empty error_code.
  [[nodiscard]] std::error_code error() const noexcept;
  // aead is the channel's AEAD (the connection's record AEAD).
  [[nodiscard]] record_aead aead() const noexcept;

 private:
  friend struct detail::channel_test_access;
  explicit channel(std::unique_ptr<detail::channel_state> s) noexcept;
  std::unique_ptr<detail::channel_state> s_;
};

}  // namespace sealwire::record::datagram
