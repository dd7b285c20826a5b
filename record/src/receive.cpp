// SPDX-License-Identifier: Apache-2.0
// The receive side of a connection (docs/protocol.md 3): the deframer that
// checks each header before it buffers a body, collects handshake messages
// for the handshake, and opens protected records as their fragments arrive
// (collected in place, opened in runs of whole steps), releasing plaintext
// only after the tag verified.
#include <sealwire/crypto/ct.hpp>
#include <sealwire/record/connection.hpp>

#include "detail/handshake.hpp"
#include "detail/log.hpp"
#include "detail/traffic.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

namespace sealwire::record {

using namespace detail;

result<void> connection::on_header() noexcept {
  const std::uint8_t type = header_[0];
  body_len_ = (std::size_t{header_[1]} << 16) | (std::size_t{header_[2]} << 8) | header_[3];
  body_seen_ = 0;
  body_opened_ = 0;
  body_started_ = false;
  if (type == type_handshake) {
    if (!hs_) return fail(record_errc::unexpected_record);
    if (body_len_ > limits_.max_handshake_size) return fail(record_errc::record_too_large);
    if (body_len_ == 0) return fail(record_errc::bad_handshake_message);
    hs_buf_.clear();
    return {};
  }
  if (type != type_protected) return fail(record_errc::unexpected_record);
  if (!peer_finished_) return fail(record_errc::unexpected_record);
  if (body_len_ > limits_.max_record_size + 1 + record_tag_size) return fail(record_errc::record_too_large);
  if (body_len_ < 1 + record_tag_size) return fail(record_errc::bad_record_mac);  // cannot hold a type and a tag
  return {};
}

// start_protected_record keys the opener for the record whose header was
// read; false when its plaintext does not fit until the application reads.
result<bool> connection::start_protected_record() noexcept {
  const std::size_t inner = body_len_ - record_tag_size;
  // Take no new record while max_buffered_plaintext bytes wait to be read
  // (the buffer has room for that much plus one record).
  if (readable() != 0 && readable() >= limits_.max_buffered_plaintext) return false;
  if (!plain_.allocate()) return fail(record_errc::out_of_memory);  // given back while drained
  if (plain_end_ + inner > plain_.capacity()) {
    // Move the unread plaintext to the front; if it still does not fit, wait
    // for the application to read.
    if (readable() + inner > plain_.capacity()) return false;
    std::memmove(plain_.data(), plain_.data() + plain_begin_, readable());
    plain_end_ -= plain_begin_;
    plain_begin_ = 0;
  }
  plain_.touch(plain_end_ + inner);  // the record's plaintext goes there: wiped when the buffer goes
  if (auto ok = key_opener(); !ok) return ok.error();
  body_started_ = true;
  return true;
}

// key_opener keys the opener for the next record under rx_, with its header
// as associated data (docs/protocol.md 3.1).
result<void> connection::key_opener() noexcept {
  if (rx_.seq == std::numeric_limits<std::uint64_t>::max()) return fail(record_errc::sequence_exhausted);
  std::uint8_t nonce[24];
  make_nonce(rx_, nonce);
  const auto ok = opener_.init(rx_.key, bytes_view(nonce, rx_.nonce_size));
  crypto::ct::wipe(nonce, sizeof nonce);
  if (!ok) return fail(record_errc::bad_state);
  opener_.aad(header_);
  return {};
}

// Ciphertext that arrives in fragments is collected where its plaintext
// goes and opened in place in runs of at least this many bytes, whole
// 1024-byte steps of the stream (the last run takes the rest): the opener's
// multi-step kernel then does the work of a whole record, instead of a
// refill step, a keystream buffer and a staged MAC tail per fragment.
// Nothing is released earlier either way: the record's plaintext waits for
// its tag. A fragment of a run's size or more, with nothing waiting, is
// opened straight from the input (its whole steps; the rest waits).
constexpr std::size_t open_run = 4096;
constexpr std::size_t open_step = 1024;

// open_fragment takes the next n bytes of the record's ciphertext (n >= 1,
// not past its end) into the record's place in plain_, opening what
// completes a run.
result<void> connection::open_fragment(bytes_view frag) noexcept {
  const std::size_t ct_len = body_len_ - record_tag_size;
  std::uint8_t* const body = plain_.data() + plain_end_;
  const std::size_t n = frag.size();
  const bool last = body_seen_ + n == ct_len;
  std::size_t direct = 0;
  if (body_opened_ == body_seen_ && (n >= open_run || last)) {
    direct = last ? n : n / open_step * open_step;  // body_opened_ is a whole number of steps
    if (!opener_.update(std::span<std::uint8_t>(body + body_seen_, direct), frag.first(direct)))
      return fail(record_errc::bad_record_mac);
    body_opened_ += direct;
  }
  if (direct != n) std::memcpy(body + body_seen_ + direct, frag.data() + direct, n - direct);
  body_seen_ += n;
  const std::size_t waiting = body_seen_ - body_opened_;
  if (waiting != 0 && (last || waiting >= open_run)) {
    const std::size_t run = last ? waiting : waiting / open_step * open_step;
    const std::span<std::uint8_t> at(body + body_opened_, run);
    if (!opener_.update(at, at)) return fail(record_errc::bad_record_mac);
    body_opened_ += run;
  }
  return {};
}

// finish_protected_record checks the tag of the record opened at p (its
// inner plaintext, body_len_ - tag bytes) and handles its inner type; it
// returns how many application bytes at p the record delivered (0 for a
// control or empty record). A failure wipes the record's plaintext at p.
result<std::size_t> connection::finish_protected_record(std::uint8_t* p) noexcept {
  const std::size_t inner = body_len_ - record_tag_size;
  if (!opener_.finish(tag_)) {
    crypto::ct::wipe(p, inner);
    return fail(record_errc::bad_record_mac);
  }
  ++rx_.seq;
  // Strip the zero padding; the last non-zero byte is the inner type
  // (docs/protocol.md 3.1). The scan takes time proportional to the padding
  // (see docs/security.md). Everything from here on is verified content of
  // the peer: a failure may be reported to it (close_after_error).
  std::size_t end = inner;
  while (end > 0 && p[end - 1] == 0) --end;
  header_len_ = 0;
  body_started_ = false;
  if (end == 0) return fail_reported(p, inner, record_errc::unexpected_record, close_reason::unexpected_record);
  const std::uint8_t type = p[end - 1];
  const std::size_t content = end - 1;
  if (type == inner_application_data) {
    p[content] = 0;  // the type byte is not application data
    if (content == 0) {
      if (++empty_run_ > limits_.max_empty_records)
        return fail_reported(p, inner, record_errc::too_many_empty_records, close_reason::limit_exceeded);
    } else {
      empty_run_ = 0;
    }
    return content;  // released: the tag verified
  }
  if (type == inner_key_update && content == 0) {
    crypto::ct::wipe(p, inner);
    if (++empty_run_ > limits_.max_empty_records)
      return fail_reported(p, 0, record_errc::too_many_empty_records, close_reason::limit_exceeded);
    ratchet(rx_);
    detail::log(log_level::debug, role_name(role_), ": peer updated its keys");
    return std::size_t{0};
  }
  if (type == inner_close && content == 1) {
    const auto reason = static_cast<close_reason>(p[0]);
    crypto::ct::wipe(p, inner);
    peer_closed_ = true;
    peer_close_reason_ = reason;
    detail::log(log_level::debug, role_name(role_), ": peer closed, reason ", to_string(reason));
    if (reason != close_reason::normal) return fail(record_errc::peer_error_close);
    return std::size_t{0};
  }
  return fail_reported(p, inner, record_errc::unexpected_record, close_reason::unexpected_record);
}

// fail_reported fails for a fault found in a verified record of the peer,
// wiping its n bytes of plaintext at p; close_after_error may tell the peer.
std::error_code connection::fail_reported(std::uint8_t* p, std::size_t n, record_errc e, close_reason r) noexcept {
  crypto::ct::wipe(p, n);
  int none = -1;
  if (!failed()) report_.compare_exchange_strong(none, static_cast<int>(r), std::memory_order_acq_rel);
  return fail(e);
}

result<std::size_t> connection::receive(bytes_view in) noexcept {
  if (!healthy()) return failed();
  std::size_t used = 0;
  for (;;) {
    // The send side may have failed meanwhile (another thread): stop, wiping
    // the record in progress.
    if (!healthy()) {
      wipe_receive_state();
      return failed();
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
      if (auto ok = open_fragment(in.subspan(used, n)); !ok) return ok.error();
      used += n;
      continue;
    }
    const std::size_t n = std::min(body_len_ - body_seen_, avail);
    std::memcpy(tag_ + (body_seen_ - ct_len), in.data() + used, n);
    used += n;
    body_seen_ += n;
    if (body_seen_ < body_len_) break;
    auto delivered = finish_protected_record(plain_.data() + plain_end_);
    if (!delivered) return delivered.error();
    plain_end_ += *delivered;
  }
  release_drained();  // a key update, a close or an empty record left nothing to read
  return used;
}

// receive_into opens the whole protected records at the start of `in`
// straight into `out`, one after the other, while nothing verified waits in
// the plaintext buffer and no record is partly received; it stops, without
// taking it, at the first record it cannot open that way (not whole in `in`,
// larger than the room left in `out`, not a protected record) for the
// caller to read more input or to pass it to receive().
result<receive_result> connection::receive_into(bytes_view in, std::span<std::uint8_t> out) noexcept {
  if (!healthy()) return failed();
  receive_result res;
  while (readable() == 0 && header_len_ == 0 && !body_started_ && peer_finished_ && !peer_closed_) {
    // The send side may have failed meanwhile (another thread).
    if (!healthy()) {
      wipe_receive_state();
      if (res.delivered != 0) break;  // verified bytes first; the error is sticky
      return failed();
    }
    const bytes_view rest = in.subspan(res.consumed);
    if (rest.size() < record_header_size) {
      if (!rest.empty()) res.wanted = record_header_size;
      break;
    }
    if (rest[0] != type_protected) break;
    const std::size_t body = (std::size_t{rest[1]} << 16) | (std::size_t{rest[2]} << 8) | rest[3];
    if (body > limits_.max_record_size + 1 + record_tag_size || body < 1 + record_tag_size) break;  // receive() reports it
    const std::size_t inner = body - record_tag_size;
    if (inner > out.size() - res.delivered) break;  // no room: the plaintext buffer takes it
    if (rest.size() < record_header_size + body) {
      res.wanted = record_header_size + body;
      break;
    }
    std::memcpy(header_, rest.data(), record_header_size);
    header_len_ = record_header_size;
    auto keyed = on_header();  // checked above: cannot fail here
    if (keyed) keyed = key_opener();  // fails at the last sequence number
    if (!keyed) {
      header_len_ = 0;
      if (res.delivered != 0) break;  // verified bytes first; the error is sticky
      return keyed.error();
    }
    std::uint8_t* p = out.data() + res.delivered;
    const bytes_view ct = rest.subspan(record_header_size, inner);
    if (!opener_.update(std::span<std::uint8_t>(p, inner), ct)) {
      crypto::ct::wipe(p, inner);
      header_len_ = 0;
      auto e = fail(record_errc::bad_record_mac);
      if (res.delivered != 0) break;
      return e;
    }
    std::memcpy(tag_, rest.data() + record_header_size + inner, record_tag_size);
    auto got = finish_protected_record(p);  // wipes p on failure
    if (!got) {
      header_len_ = 0;
      if (res.delivered != 0) break;  // verified bytes first; the error is sticky
      return got.error();
    }
    res.consumed += record_header_size + body;
    res.delivered += *got;
  }
  if (peer_closed_ && res.consumed < in.size()) {  // nothing may follow the close record
    auto e = fail(record_errc::unexpected_record);
    if (res.delivered == 0) return e;
  }
  return res;
}

// release_drained gives the plaintext buffer back (wiped) when nothing in it
// waits to be read and no record is being opened into it.
void connection::release_drained() noexcept {
  if (plain_begin_ != plain_end_ || body_started_) return;
  plain_begin_ = plain_end_ = 0;
  plain_.release();
}

void connection::discard(std::size_t n) noexcept {
  n = std::min(n, readable());
  plain_begin_ += n;
  release_drained();
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

}  // namespace sealwire::record
