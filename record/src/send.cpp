// SPDX-License-Identifier: Apache-2.0
// The send side of a connection (docs/protocol.md 3): the framer that seals
// application data straight from the caller's buffers into records, the
// control records (key_update, close) and the send buffer.
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

// out_room returns room for n bytes at the end of the send buffer,
// allocating the buffer if it was given back; null when they do not fit
// (or, failing the connection, when the allocation failed).
std::uint8_t* connection::out_room(std::size_t n) noexcept {
  if (out_begin_ == out_end_) out_begin_ = out_end_ = 0;
  if (out_end_ - out_begin_ + n > out_.capacity()) return nullptr;
  if (out_begin_ != 0 && out_end_ + n > out_.size()) {
    std::memmove(out_.data(), out_.data() + out_begin_, out_end_ - out_begin_);
    out_end_ -= out_begin_;
    out_begin_ = 0;
  }
  if (!out_.reserve(out_end_ + n, out_end_)) {
    set_failure(record_errc::out_of_memory);
    return nullptr;
  }
  return out_.data() + out_end_;
}

// consume gives the send buffer back once everything in it was sent.
void connection::consume(std::size_t n) noexcept {
  out_begin_ += std::min(n, out_end_ - out_begin_);
  if (out_begin_ == out_end_) {
    out_begin_ = out_end_ = 0;
    out_.release();
  }
}

std::size_t connection::inner_size(std::size_t content) const noexcept {
  std::size_t inner = content + 1;
  if (limits_.pad_to > 1) {
    inner = (inner + limits_.pad_to - 1) / limits_.pad_to * limits_.pad_to;
    inner = std::min(inner, limits_.max_record_size + 1);
  }
  return inner;
}

namespace {

// record_cost is what one record of `inner` plaintext bytes adds to its
// key's count: one for the record, one per 16-byte block (docs/protocol.md 3.5).
std::uint64_t record_cost(std::size_t inner) noexcept { return 1 + (std::uint64_t{inner} + 15) / 16; }

}  // namespace

// needs_update: the record of `inner` bytes about to be sealed must go under
// a fresh key, because of key_update_after or because, after it, the key
// would not have room for the key_update record itself under its AEAD limit.
bool connection::needs_update(std::size_t inner) const noexcept {
  const std::uint64_t update_after = limits_.key_update_after;
  if (update_after != 0 && tx_.seq >= update_after - 1) return true;
  const std::uint64_t limit = key_blocks_limit(limits_, tx_.alg);
  return tx_.blocks + record_cost(inner) + record_cost(inner_size(0)) > limit;
}

// seal_record writes one protected record (outer type 2) of `content` bytes
// of `data`, starting `skip` bytes in, with its inner type and padding, at
// out (which has room), and returns its wire size (docs/protocol.md 3.1).
result<std::size_t> connection::seal_record(std::uint8_t* out, std::uint8_t inner_type,
                                            std::span<const bytes_view> data, std::size_t skip,
                                            std::size_t content) noexcept {
  if (tx_.seq == std::numeric_limits<std::uint64_t>::max()) return set_failure(record_errc::sequence_exhausted);
  // Every inner type is padded alike, so that an observer cannot tell a key
  // update or a close from application data.
  const std::size_t inner = inner_size(content);
  const std::size_t body = inner + record_tag_size;
  put_header(out, type_protected, body);
  std::uint8_t nonce[24];
  make_nonce(tx_, nonce);
  crypto::aead_sealer sealer;
  const auto ok = sealer.init(tx_.key, bytes_view(nonce, tx_.nonce_size));
  crypto::ct::wipe(nonce, sizeof nonce);
  if (!ok) return set_failure(record_errc::bad_state);
  sealer.aad(bytes_view(out, record_header_size));

  std::uint8_t* ct = out + record_header_size;
  // The trailer (type byte and padding) is written in place first.
  ct[content] = inner_type;
  std::memset(ct + content + 1, 0, inner - content - 1);
  const bytes_view trailer(ct + content, inner - content);
  // Small records: gather the content in place before the trailer and
  // encrypt once; large ones: encrypt straight from the caller's buffers,
  // the last piece together with the trailer (a 16 KiB record's type byte
  // then takes the wide kernel's last block instead of a block of its own).
  constexpr std::size_t small = 512;
  std::size_t pos = 0;
  bool trailer_sealed = false;
  for (const bytes_view piece : data) {
    if (pos == content) break;
    if (skip >= piece.size()) {
      skip -= piece.size();
      continue;
    }
    const std::size_t n = std::min(piece.size() - skip, content - pos);
    if (content <= small) {
      std::memcpy(ct + pos, piece.data() + skip, n);
    } else if (pos + n == content) {
      static_cast<void>(sealer.update(std::span<std::uint8_t>(ct + pos, n + trailer.size()), piece.subspan(skip, n),
                                      trailer));
      trailer_sealed = true;
    } else {
      static_cast<void>(sealer.update(std::span<std::uint8_t>(ct + pos, n), piece.subspan(skip, n)));
    }
    pos += n;
    skip = 0;
  }
  if (content <= small) {
    static_cast<void>(sealer.update(std::span<std::uint8_t>(ct, inner), bytes_view(ct, inner)));
  } else if (!trailer_sealed) {
    static_cast<void>(sealer.update(std::span<std::uint8_t>(ct + content, trailer.size()), trailer));
  }
  sealer.finish(std::span<std::uint8_t, record_tag_size>(ct + inner, record_tag_size));
  ++tx_.seq;
  tx_.blocks += record_cost(inner);
  return record_header_size + body;
}

// seal_update writes a key_update at out and switches the sending key.
result<std::size_t> connection::seal_update(std::uint8_t* out) noexcept {
  auto w = seal_record(out, inner_key_update, {}, 0, 0);
  if (!w) return w;
  ratchet(tx_);
  return w;
}

// seal_records seals as much of `data` as fits in `room` bytes at out,
// updating keys automatically before the limits of docs/protocol.md 3.5.
result<seal_result> connection::seal_records(std::uint8_t* out, std::size_t room, std::span<const bytes_view> data) noexcept {
  std::size_t total = 0;
  for (const bytes_view piece : data) total += piece.size();
  seal_result res;
  const std::size_t ku_size = record_header_size + inner_size(0) + record_tag_size;
  while (res.consumed < total) {
    // Decided on the largest record this call could seal next, so that the
    // decision does not depend on the room left.
    const bool update = needs_update(inner_size(std::min(total - res.consumed, limits_.max_record_size)));
    const std::size_t ku = update ? ku_size : 0;
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
      auto w = seal_update(out + res.written);
      if (!w) return w.error();
      res.written += *w;
      room -= *w;
      detail::log(log_level::debug, role_name(role_), ": automatic key update");
    }
    auto w = seal_record(out + res.written, inner_application_data, data, res.consumed, content);
    if (!w) return w.error();
    res.written += *w;
    room -= *w;
    res.consumed += content;
  }
  return res;
}

// send_failed reports the sticky failure to a send-side call, and wipes the
// sending keys (the receive side, which may run on another thread, leaves
// them alone) unless close_after_error may still need them.
std::error_code connection::send_failed() noexcept {
  const std::error_code e = failed();
  if (e && report_.load(std::memory_order_acquire) < 0) wipe_direction(tx_);
  return e;
}

result<std::size_t> connection::write(bytes_view data) noexcept {
  return write(std::span<const bytes_view>(&data, 1));
}

result<std::size_t> connection::write(std::span<const bytes_view> data) noexcept {
  if (auto e = send_failed()) return e;
  if (closed_) return record_errc::closed;
  if (!established_) return record_errc::bad_state;
  const std::size_t pending_now = out_end_ - out_begin_;
  if (pending_now >= limits_.max_send_buffer && pending_now != 0) return std::size_t{0};
  // Room for whatever fits under max_send_buffer, and at least one full
  // record, and a key update.
  const std::size_t ku_size = record_header_size + inner_size(0) + record_tag_size;
  const std::size_t room = std::max(limits_.max_send_buffer - std::min(pending_now, limits_.max_send_buffer),
                                    record_overhead + limits_.max_record_size) +
                           ku_size;
  // No more than the data needs (the send buffer is allocated to fit): each
  // record adds at most its overhead, padding and a key update before it.
  std::size_t total = 0;
  for (const bytes_view piece : data) total += piece.size();
  const std::size_t per_record = record_overhead + (limits_.pad_to > 1 ? limits_.pad_to : 0) + ku_size;
  const std::size_t want = std::min(room, total + (total / limits_.max_record_size + 1) * per_record);
  std::uint8_t* p = out_room(want);
  if (p == nullptr) {
    if (auto e = send_failed()) return e;  // no memory for the send buffer
    return std::size_t{0};
  }
  auto r = seal_records(p, want, data);
  if (r) out_end_ += r->written;
  if (out_begin_ == out_end_) out_.release();  // nothing sealed: an idle connection holds no buffer
  if (!r) return r.error();
  return r->consumed;
}

result<seal_result> connection::seal_to(std::span<std::uint8_t> out, std::span<const bytes_view> data) noexcept {
  if (auto e = send_failed()) return e;
  if (closed_) return record_errc::closed;
  if (!established_ || out_end_ != out_begin_) return record_errc::bad_state;
  return seal_records(out.data(), out.size(), data);
}

// seal_control queues a key_update (content empty) or a close (one reason
// byte), preceded by a key update if the key's limit requires one.
result<void> connection::seal_control(std::uint8_t inner_type, std::span<const bytes_view> content) noexcept {
  const std::size_t len = content.empty() ? 0 : content[0].size();
  const bool update = inner_type != inner_key_update && needs_update(inner_size(len));
  const std::size_t ku_size = record_header_size + inner_size(0) + record_tag_size;
  const std::size_t need = (update ? ku_size : 0) + record_header_size + inner_size(len) + record_tag_size;
  std::uint8_t* p = out_room(need);
  if (p == nullptr) {
    if (auto e = send_failed()) return e;  // no memory for the send buffer
    return record_errc::send_buffer_full;
  }
  std::size_t written = 0;
  if (update) {
    auto w = seal_update(p);
    if (!w) return w.error();
    written += *w;
  }
  auto w = inner_type == inner_key_update ? seal_update(p + written) : seal_record(p + written, inner_type, content, 0, len);
  if (!w) {
    if (out_begin_ == out_end_) out_.release();
    return w.error();
  }
  out_end_ += written + *w;
  return {};
}

result<void> connection::close(close_reason reason) noexcept {
  if (auto e = send_failed()) return e;
  if (closed_) return record_errc::closed;
  if (!established_) return record_errc::bad_state;
  const std::uint8_t code = static_cast<std::uint8_t>(reason);
  const bytes_view body(&code, 1);
  if (auto ok = seal_control(inner_close, std::span<const bytes_view>(&body, 1)); !ok) return ok;
  closed_ = true;
  detail::log(log_level::debug, role_name(role_), ": close sent, reason ", to_string(reason));
  return {};
}

result<void> connection::close_after_error() noexcept {
  const std::error_code e = failed();
  if (!e) return record_errc::bad_state;
  const int reason = report_.exchange(-1, std::memory_order_acq_rel);
  if (reason < 0 || closed_ || !established_) {
    wipe_direction(tx_);
    return e;
  }
  const std::uint8_t code = static_cast<std::uint8_t>(reason);
  const bytes_view body(&code, 1);
  auto ok = seal_control(inner_close, std::span<const bytes_view>(&body, 1));
  wipe_direction(tx_);
  if (!ok) return ok;
  closed_ = true;
  detail::log(log_level::debug, role_name(role_), ": error close sent, reason ",
              to_string(static_cast<close_reason>(code)));
  return {};
}

result<void> connection::update_keys() noexcept {
  if (auto e = send_failed()) return e;
  if (closed_) return record_errc::closed;
  if (!established_) return record_errc::bad_state;
  if (auto ok = seal_control(inner_key_update, {}); !ok) return ok;
  detail::log(log_level::debug, role_name(role_), ": key update sent");
  return {};
}

}  // namespace sealwire::record
