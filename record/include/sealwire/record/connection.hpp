// SPDX-License-Identifier: Apache-2.0
// The sans-IO core of the sealwire record protocol (docs/protocol.md): a
// connection that turns application data into records and records (in any
// fragments) into verified application data, and runs the handshake. It
// never touches a socket; sealwire::record::stream puts it on Asio. Start
// from stream.hpp unless you drive the transport yourself.
#pragma once

#include <sealwire/crypto/aead.hpp>
#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/secret.hpp>
#include <sealwire/record/config.hpp>
#include <sealwire/record/error.hpp>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sealwire::record {

// role is a connection's side of the handshake.
enum class role : std::uint8_t { client, server };

using sealwire::bytes_view;

namespace detail {
class handshake;
struct connection_test_access;

// One direction's traffic protection: secret, key (set up once per traffic
// secret for all its records), IV and sequence number.
struct direction_keys {
  crypto::secret_array<64> secret;  // traffic_n (nh bytes used)
  crypto::aead_key key;             // the traffic key, keyed for alg
  crypto::secret_array<24> iv;      // nonce_size bytes used
  std::uint64_t seq = 0;
  std::uint64_t blocks = 0;  // records + 16-byte blocks sealed under this key (send side)
  std::size_t nh = 0;
  std::size_t nonce_size = 12;
  std::size_t key_size = 32;
  crypto::aead_algorithm alg = crypto::aead_algorithm::chacha20_poly1305;
  hpke::kdf_id kdf = hpke::kdf_id::hkdf_sha256;
};

// A fixed-capacity byte buffer, allocated when data flows and given back
// when it drains (issue 22 item 8: an idle connection holds none). It is
// never value-initialised (sealing and opening write every byte handed
// out); a buffer made with wipe_on_release is wiped when it goes back, up to
// the highest byte its owner said it may have written (touch): wiping pages
// nothing wrote would fault them in for every connection.
class SEALWIRE_API byte_buffer {
 public:
  byte_buffer() noexcept = default;
  // A buffer of `capacity` bytes, allocated by allocate(); wipe_on_release
  // for buffers that hold secrets (plaintext).
  byte_buffer(std::size_t capacity, bool wipe_on_release) noexcept : cap_(capacity), wipe_(wipe_on_release) {}
  byte_buffer(byte_buffer&& o) noexcept;
  byte_buffer& operator=(byte_buffer&& o) noexcept;
  ~byte_buffer() { release(); }
  // allocate makes the whole capacity present (a no-op when it is); false
  // when the allocation failed.
  [[nodiscard]] bool allocate() noexcept;
  // reserve makes at least n bytes (at most the capacity) present: it
  // allocates n bytes when the buffer holds none, and grows a smaller one
  // (to twice its size at least) keeping its first `keep` bytes; false when
  // n is over the capacity or the allocation failed (the buffer unchanged).
  [[nodiscard]] bool reserve(std::size_t n, std::size_t keep) noexcept;
  // release wipes (if asked) and frees the memory; data() is null after.
  void release() noexcept;
  [[nodiscard]] bool allocated() const noexcept { return p_ != nullptr; }
  [[nodiscard]] std::uint8_t* data() noexcept { return p_.get(); }
  [[nodiscard]] const std::uint8_t* data() const noexcept { return p_.get(); }
  // capacity is the most the buffer may hold.
  [[nodiscard]] std::size_t capacity() const noexcept { return cap_; }
  // size is what is allocated now (0 when nothing is).
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  // touch records that the first `end` bytes may hold data (wiped when released).
  void touch(std::size_t end) noexcept { high_ = end > high_ ? (end < cap_ ? end : cap_) : high_; }

 private:
  std::unique_ptr<std::uint8_t[]> p_;
  std::size_t cap_ = 0;
  std::size_t size_ = 0;
  std::size_t high_ = 0;
  bool wipe_ = false;
};
}  // namespace detail

// seal_result reports what seal_to did.
struct seal_result {
  std::size_t consumed = 0;  // bytes of application data taken
  std::size_t written = 0;   // bytes of records written
};

// receive_result reports what receive_into did.
struct receive_result {
  std::size_t consumed = 0;   // bytes of the input taken
  std::size_t delivered = 0;  // verified application bytes at the start of `out`
  // wanted: when it stopped at a record not whole in the input, that
  // record's size on the wire (header and body; the header's size while the
  // header itself is incomplete); 0 otherwise (also when it took everything).
  std::size_t wanted = 0;
};

// connection: one record-protocol connection.
//
// Input: receive() consumes bytes from the transport in any fragments. It
// collects a record's ciphertext in the record's place in the connection's
// plaintext buffer and decrypts it there in runs of whole 1024-byte steps
// (a fragment of 4 KiB or more, with nothing waiting, straight from the
// input), and releases a record's plaintext (readable(), peek(), read())
// only after its tag verified. It stops consuming while the
// verified plaintext waiting for the application would exceed
// max_buffered_plaintext: read, then offer the rest again.
//
// Output: write() seals application data straight from the caller's buffers
// into records in the send buffer (pending() / consume()); seal_to() seals
// into the caller's own buffer instead. close() queues the close record.
//
// Memory: the plaintext and send buffers (sized from the limits) are
// allocated when data flows and given back when they drain (the send buffer
// only as large as what is sealed into it, up to its size): the plaintext
// buffer (wiped) once everything verified was read and no record is being
// opened, the send buffer once pending() was consumed. An idle connection
// holds neither. An allocation that fails fails the connection
// (`out_of_memory`).
//
// Errors are sticky: after any failure every call reports the same error,
// and the plaintext of the record that failed is wiped. Plaintext of
// earlier records, which did verify, stays readable.
//
// Threads: after the handshake, one thread may receive/read while another
// writes/consumes (the two directions share only the failure flag). During
// the handshake, use one thread.
class SEALWIRE_API connection {
 public:
  // Creates a client connection; its ClientHello is ready in pending().
  [[nodiscard]] static result<connection> client(std::shared_ptr<const client_config> cfg) noexcept;
  // Creates a server connection waiting for a ClientHello.
  [[nodiscard]] static result<connection> server(std::shared_ptr<const server_config> cfg) noexcept;

  // The move constructor takes over the other connection's state; the
  // moved-from connection refuses every later call with bad_state.
  connection(connection&&) noexcept;
  // Move assignment takes over the other connection's state, as the move
  // constructor does.
  connection& operator=(connection&&) noexcept;
  connection(const connection&) = delete;
  connection& operator=(const connection&) = delete;
  ~connection();

  // ---- receiving ----

  // receive consumes bytes of the peer's stream and returns how many it took:
  // fewer than offered when max_buffered_plaintext verified bytes are
  // waiting (read, then offer the rest). Bytes after the peer's close record
  // are `unexpected_record`.
  [[nodiscard]] result<std::size_t> receive(bytes_view in) noexcept;

  // receive_into is receive() for whole records, opened straight into the
  // caller's buffer instead of the plaintext buffer (no copy of the
  // plaintext): while nothing verified waits to be read and no record is
  // partly received, each protected record that is whole in `in` and whose
  // plaintext (content, type byte and padding) fits in the room left in
  // `out` is opened there, and its verified content delivered at
  // out[delivered]. It stops, taking nothing of it, at the first record it
  // cannot open that way: read more input (`wanted` says how much the record
  // needs), or pass the rest to receive(), which takes any record in any
  // fragments. Bytes of `out` past `delivered` may be overwritten. A record
  // that fails is wiped from `out`; when records before it were delivered,
  // their count is returned and the (sticky) failure reported by the next call.
  [[nodiscard]] result<receive_result> receive_into(bytes_view in, std::span<std::uint8_t> out) noexcept;

  // readable is how many verified plaintext bytes are waiting.
  [[nodiscard]] std::size_t readable() const noexcept { return plain_end_ - plain_begin_; }
  // peek shows them without copying; discard(n) drops the first n.
  [[nodiscard]] bytes_view peek() const noexcept {
    return plain_.allocated() ? bytes_view(plain_.data() + plain_begin_, readable()) : bytes_view();
  }
  // discard drops the first n verified plaintext bytes (at most readable()).
  void discard(std::size_t n) noexcept;
  // read copies out up to out.size() verified plaintext bytes.
  std::size_t read(std::span<std::uint8_t> out) noexcept;

  // end_of_input reports the transport's end: fine after the peer's close
  // record, `truncated` otherwise (sticky).
  [[nodiscard]] result<void> end_of_input() noexcept;

  // peer_closed: the peer's close record was received (and everything before it).
  [[nodiscard]] bool peer_closed() const noexcept { return peer_closed_; }
  // peer_close_reason is the reason code of the peer's close record
  // (meaningful once peer_closed()). A reason other than normal also fails
  // the connection with `peer_error_close`: the peer ended it on purpose,
  // which an application may want to tell from a cut stream (`truncated`).
  [[nodiscard]] close_reason peer_close_reason() const noexcept { return peer_close_reason_; }

  // ---- sending ----

  // write seals application data (one buffer, or several gathered into the
  // same records) and returns how many bytes it took: as much as fits while
  // fewer than max_send_buffer bytes are pending, at least one record's
  // worth, and 0 when that much is already pending (send, consume, retry).
  // Records carry up to max_record_size bytes each. Errors: the
  // sticky failure; `closed` after close(); `bad_state` before the handshake
  // completed; `sequence_exhausted`.
  [[nodiscard]] result<std::size_t> write(bytes_view data) noexcept;
  // write (gathering) is write with several buffers, sealed one after the
  // other into the same records.
  [[nodiscard]] result<std::size_t> write(std::span<const bytes_view> data) noexcept;

  // seal_to seals application data into `out` instead of the send buffer,
  // as many whole records as fit; bytes already pending() go first, so use
  // it only when pending() is empty (otherwise `bad_state`). `data` must not
  // overlap `out`.
  [[nodiscard]] result<seal_result> seal_to(std::span<std::uint8_t> out, std::span<const bytes_view> data) noexcept;

  // close queues the close record with a reason code (docs/protocol.md
  // 3.4; normal unless the application or its timers end the connection
  // for a reason); later writes fail with `closed`.
  [[nodiscard]] result<void> close(close_reason reason = close_reason::normal) noexcept;

  // close_after_error, on a connection that failed because of a verified
  // record of the peer it could not accept (unexpected_record from an inner
  // type or content, too_many_empty_records), queues a close with the
  // matching reason code and returns success; for any other failure (one an
  // attacker could cause or probe, such as bad_record_mac) it queues nothing
  // and returns the failure. Either way the sending keys are wiped. On a
  // healthy connection: `bad_state` (use close).
  [[nodiscard]] result<void> close_after_error() noexcept;

  // update_keys queues a key_update and switches the sending key.
  [[nodiscard]] result<void> update_keys() noexcept;

  // pending is the bytes to hand to the transport; consume(n) drops the
  // first n once sent.
  [[nodiscard]] bytes_view pending() const noexcept {
    return out_.allocated() ? bytes_view(out_.data() + out_begin_, out_end_ - out_begin_) : bytes_view();
  }
  // consume drops the first n pending bytes (at most pending().size()).
  void consume(std::size_t n) noexcept;

  // ---- state ----

  // handshake_complete reports that the handshake has finished: the peer's
  // Finished verified, and application data may flow.
  [[nodiscard]] bool handshake_complete() const noexcept { return established_; }
  // closed reports that close() queued this side's close record.
  [[nodiscard]] bool closed() const noexcept { return closed_; }
  // error is the sticky failure, or an empty error_code while the
  // connection is healthy.
  [[nodiscard]] std::error_code error() const noexcept;
  // role is the side this connection plays.
  [[nodiscard]] record::role role() const noexcept { return role_; }
  // aead is the record AEAD the handshake chose (meaningful once the
  // handshake is complete).
  [[nodiscard]] record_aead aead() const noexcept { return aead_; }
  // kdf is the handshake's KDF (meaningful once the handshake is complete).
  [[nodiscard]] hpke::kdf_id kdf() const noexcept { return tx_.kdf; }
  // peer_public_key is an authenticated client's static key (server side),
  // set only once its ClientFinished verified and the policy accepted it;
  // empty otherwise.
  [[nodiscard]] bytes_view peer_public_key() const noexcept { return peer_key_; }
  // app_protocol is the application protocol the handshake chose (empty:
  // none; docs/protocol.md 4.3).
  [[nodiscard]] std::string_view app_protocol() const noexcept { return app_protocol_; }
  // server_key_id is the id of the server static key the handshake used
  // (docs/protocol.md 2 and 4.4; meaningful once the handshake is complete).
  [[nodiscard]] std::span<const std::uint8_t, 8> server_key_id() const noexcept { return server_key_id_; }

  // ---- exporters ----

  // export_keying_material fills `out` with keying material for the
  // application (docs/protocol.md 5, as RFC 8446 7.5): the same on both
  // sides of this connection, independent for any other connection, label
  // or context. label: 1 to 243 bytes; out: at most 255 * Nh bytes.
  // Errors: `bad_state` before the handshake completed or after a failure,
  // std::errc::invalid_argument for a bad label or length.
  [[nodiscard]] result<void> export_keying_material(std::span<std::uint8_t> out, std::string_view label,
                                                    bytes_view context = {}) const noexcept;
  // channel_binding is the connection's channel-binding value (the shape of
  // RFC 9266 tls-exporter: 32 bytes exported under "EXPORTER-Channel-Binding"
  // with an empty context). Errors as export_keying_material.
  [[nodiscard]] result<std::array<std::uint8_t, 32>> channel_binding() const noexcept;

 private:
  friend struct detail::connection_test_access;
  connection() noexcept;

  std::error_code fail(record_errc e) noexcept;
  std::error_code set_failure(record_errc e) noexcept;
  void wipe_receive_state() noexcept;
  void release_drained() noexcept;
  std::error_code failed() const noexcept;
  // healthy: no failure so far, without building an error_code (the receive
  // loops ask once per piece).
  bool healthy() const noexcept { return failure_.load(std::memory_order_acquire) == 0; }
  result<void> init_buffers(const limits& l) noexcept;
  std::error_code fail_reported(std::uint8_t* p, std::size_t n, record_errc e, close_reason r) noexcept;
  std::error_code send_failed() noexcept;
  result<void> on_header() noexcept;
  result<bool> start_protected_record() noexcept;
  result<void> key_opener() noexcept;
  result<void> open_fragment(bytes_view frag) noexcept;
  result<std::size_t> finish_protected_record(std::uint8_t* p) noexcept;
  result<void> handle_handshake_message() noexcept;
  result<void> after_handshake_step() noexcept;
  void put_handshake_message(bytes_view msg) noexcept;
  static void put_message(void* self, bytes_view msg) noexcept;
  std::size_t inner_size(std::size_t content) const noexcept;
  bool needs_update(std::size_t inner) const noexcept;
  result<std::size_t> seal_record(std::uint8_t* out, std::uint8_t inner_type, std::span<const bytes_view> data,
                                  std::size_t skip, std::size_t content) noexcept;
  result<std::size_t> seal_update(std::uint8_t* out) noexcept;
  result<seal_result> seal_records(std::uint8_t* out, std::size_t room, std::span<const bytes_view> data) noexcept;
  result<void> seal_control(std::uint8_t inner_type, std::span<const bytes_view> content) noexcept;
  std::uint8_t* out_room(std::size_t n) noexcept;

  record::role role_ = role::client;
  record::limits limits_;
  std::shared_ptr<const client_config> client_cfg_;
  std::shared_ptr<const server_config> server_cfg_;
  std::unique_ptr<detail::handshake> hs_;
  record_aead aead_ = record_aead::chacha20_poly1305;
  bool established_ = false;
  std::atomic<int> failure_{0};  // a record_errc value, 0 = healthy
  std::atomic<int> report_{-1};  // the close_reason close_after_error may send, -1 = none
  crypto::secret_array<64> exporter_;  // docs/protocol.md 5 (tx_.nh bytes used)
  std::string app_protocol_;
  std::array<std::uint8_t, 8> server_key_id_{};

  // receive side
  detail::direction_keys rx_;
  std::uint8_t header_[record_header_size] = {};
  std::size_t header_len_ = 0;
  bool body_started_ = false;
  std::size_t body_len_ = 0;   // announced length of the record body
  std::size_t body_seen_ = 0;  // bytes of the body consumed
  std::size_t body_opened_ = 0;  // ciphertext bytes given to the opener; the rest seen waits in plain_
  std::vector<std::uint8_t> hs_buf_;  // a handshake message being collected
  crypto::aead_opener opener_;
  std::uint8_t tag_[record_tag_size] = {};
  detail::byte_buffer plain_;  // verified plaintext [plain_begin_, plain_end_), then the record being opened
  std::size_t plain_begin_ = 0, plain_end_ = 0;
  unsigned empty_run_ = 0;
  bool peer_closed_ = false;
  close_reason peer_close_reason_ = close_reason::normal;
  bool peer_finished_ = false;  // the peer's Finished verified: protected records allowed

  // send side
  detail::direction_keys tx_;
  detail::byte_buffer out_;  // sealed bytes [out_begin_, out_end_)
  std::size_t out_begin_ = 0, out_end_ = 0;
  bool closed_ = false;
  std::vector<std::uint8_t> peer_key_;
};

}  // namespace sealwire::record
