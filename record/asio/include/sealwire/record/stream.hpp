// SPDX-License-Identifier: Apache-2.0
// sealwire::record::stream<NextLayer>: the record protocol over an Asio
// stream, shaped like boost::asio::ssl::stream. Start here for secure
// connections; config.hpp holds the keys and settings, connection.hpp the
// sans-IO core beneath, stream_error.hpp the stream's own errors.
//
//   stream<tcp::socket> s(io_context);      // or (std::move(socket))
//   s.set_timeouts({.handshake = 10s, .idle = 60s, .shutdown = 5s});   // optional
//   s.next_layer().connect(endpoint);
//   s.handshake(client_cfg);                // or co_await s.async_handshake(cfg, use_awaitable)
//   asio::write(s, asio::buffer(msg));
//   std::size_t n = s.read_some(asio::buffer(buf));
//   co_await s.async_shutdown(use_awaitable);  // close records both ways
//
// Rules (as for ssl::stream):
// - At most one read operation (read_some/async_read_some) and one write
//   operation (write_some/async_write_some/shutdown) outstanding at a time;
//   the handshake must complete before either starts. A read and a write may
//   run concurrently (each direction has its own state). async_shutdown in
//   its default mode (shutdown_mode::wait_for_peer) reads as well: it counts
//   as a read and a write.
// - Asynchronous operations never complete inside the initiating call; they
//   complete through the handler's associated executor, support per-operation
//   cancellation (terminal) by forwarding it to the next layer, and leave the
//   stream consistent: a cancelled read may be repeated; a write that fails or
//   is cancelled reports how many bytes it took (they were sealed and are
//   sent first by the next write), as asio::async_write expects.
// - Timeouts (stream_timeouts, all off by default) bound the asynchronous
//   operations only: the handshake as a whole, each wait of a read or write
//   for the peer (idle), and async_shutdown as a whole. Expiry cancels the
//   next-layer call (so the next layer must support per-operation
//   cancellation, as Asio's sockets do) and fails the operation with
//   stream_errc::handshake_timeout, idle_timeout or shutdown_timeout; the
//   stream is then failed for good (sticky, like the record layer's
//   errors). The synchronous operations have no timeouts.
// - Errors are boost::system::error_code, as everywhere in Asio; record-layer
//   failures carry sealwire::record_errc (ec == record_errc::bad_record_mac),
//   the stream's own sealwire::stream_errc. A read returns asio::error::eof
//   after the peer's close record, and record_errc::truncated when the
//   transport ends without one.
// - async_shutdown sends the close record and waits for the peer's,
//   discarding (and counting) application data that arrives first; with
//   shutdown_mode::send_only, and in the synchronous shutdown, it only sends:
//   read until eof to see the peer's close.
// - Destroy a stream only when none of its operations is outstanding (close
//   the socket or cancel them, and let them complete), as for ssl::stream.
#pragma once

#include <sealwire/record/connection.hpp>
#include <sealwire/record/detail/stream_lane.hpp>
#include <sealwire/record/stream_error.hpp>

#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/compose.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/system/error_code.hpp>
#include <boost/system/system_error.hpp>

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <system_error>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace sealwire::record {

// stream_timeouts are a stream's optional deadlines, for its asynchronous
// operations only. Zero (the default) or negative means no deadline. Any
// std::chrono duration converts: {.handshake = 10s, .idle = 500ms}.
struct stream_timeouts {
  // handshake bounds a whole async_handshake, from its start until the
  // handshake completed: stream_errc::handshake_timeout.
  std::chrono::steady_clock::duration handshake{};
  // idle bounds each wait of an async read for the peer's next bytes, and of
  // an async write for the peer to take the next bytes; any progress starts
  // it again: stream_errc::idle_timeout.
  std::chrono::steady_clock::duration idle{};
  // shutdown bounds a whole async_shutdown, sending the close record and (by
  // default) waiting for the peer's: stream_errc::shutdown_timeout.
  std::chrono::steady_clock::duration shutdown{};
};

// shutdown_mode chooses what async_shutdown waits for.
enum class shutdown_mode {
  // Send the close record, then read until the peer's close record arrives
  // (application data before it is discarded and counted). Counts as a read
  // and a write.
  wait_for_peer,
  // Send the close record only (a half close): the peer's close is for a
  // read to see, as eof. Counts as a write. Use it when a read loop runs
  // beside the writer.
  send_only,
};

// stream runs the record protocol over NextLayer, an Asio stream such as
// boost::asio::ip::tcp::socket, which it owns. It has the interface of
// boost::asio::ssl::stream: handshake, read_some and write_some (so that
// asio::read and asio::write work on it), shutdown, and their asynchronous
// forms. The rules for using it are in this header's opening comment.
template <class NextLayer>
class stream {
 public:
  // Asio's error_code (it carries sealwire::record_errc and stream_errc
  // values, which compare equal to it directly: ec == record_errc::truncated).
  using error_code = boost::system::error_code;
  // next_layer_type is the stream below, NextLayer without a reference.
  using next_layer_type = std::remove_reference_t<NextLayer>;
  // lowest_layer_type is the next layer's lowest layer (the socket itself).
  using lowest_layer_type = typename next_layer_type::lowest_layer_type;
  // executor_type is the next layer's executor type.
  using executor_type = typename next_layer_type::executor_type;

  // The most bytes read from the next layer at a time. The input buffer is
  // allocated when data flows, sized to what arrives, and given back when it
  // drains: over a socket (a next layer with available() and wait()), it
  // starts at what the socket holds (min_input_buffer_size at least, rounded
  // up to it) and grows, up to input_buffer_size, when a record needs more
  // room or a read fills it; a read that has nothing to process waits for
  // the socket to become readable without holding it, so an idle stream
  // holds no input buffer (nor, in the connection, a plaintext or send
  // buffer: connection.hpp). Over other next layers it is input_buffer_size.
  static constexpr std::size_t input_buffer_size = 64 * 1024;
  // The smallest input buffer, and the step its size is rounded up to.
  static constexpr std::size_t min_input_buffer_size = 4 * 1024;

  // A stream whose next layer is constructed from args: an executor or
  // io_context for a new socket, or a connected socket moved in.
  template <class... Args>
  explicit stream(Args&&... args)
      : next_(std::forward<Args>(args)...),
        read_lane_(std::make_shared<lane_type>(next_.get_executor())),
        write_lane_(std::make_shared<lane_type>(next_.get_executor())) {}

  // The move constructor moves the next layer, the connection and the
  // timers; not while an operation is outstanding.
  stream(stream&&) = default;
  // Move assignment moves the next layer, the connection and the timers;
  // not while an operation is outstanding on either stream.
  stream& operator=(stream&&) = default;

  // get_executor is the next layer's executor.
  executor_type get_executor() noexcept { return next_.get_executor(); }
  // next_layer is the stream below, to connect it or set its options.
  next_layer_type& next_layer() noexcept { return next_; }
  // next_layer is the stream below, read only.
  const next_layer_type& next_layer() const noexcept { return next_; }
  // lowest_layer is the next layer's lowest layer.
  lowest_layer_type& lowest_layer() noexcept { return next_.lowest_layer(); }
  // lowest_layer is the next layer's lowest layer, read only.
  const lowest_layer_type& lowest_layer() const noexcept { return next_.lowest_layer(); }

  // The sans-IO connection, once a handshake started (null before).
  [[nodiscard]] connection* native_handle() noexcept { return conn_ ? &*conn_ : nullptr; }

  // set_timeouts sets the deadlines of operations started from now on.
  void set_timeouts(const stream_timeouts& t) noexcept { timeouts_ = t; }
  // timeouts are the deadlines in force.
  [[nodiscard]] const stream_timeouts& timeouts() const noexcept { return timeouts_; }

  // bytes_discarded_at_shutdown counts the application data that
  // async_shutdown (wait_for_peer) read and dropped while it waited for the
  // peer's close record: nonzero means the peer sent data this side never read.
  [[nodiscard]] std::uint64_t bytes_discarded_at_shutdown() const noexcept { return discarded_; }

  // ---- handshake ----

  // handshake runs the handshake as a client, blocking until it completes
  // (no timeout: see stream_timeouts). Errors throw
  // boost::system::system_error: a configuration error (connection::client),
  // a handshake failure or the next layer's error.
  void handshake(std::shared_ptr<const client_config> cfg) { throw_on(handshake_impl(connection::client(std::move(cfg)))); }
  // handshake runs the handshake as a server, blocking; errors throw as for
  // the client.
  void handshake(std::shared_ptr<const server_config> cfg) { throw_on(handshake_impl(connection::server(std::move(cfg)))); }
  // handshake runs the handshake as a client and reports a failure in ec.
  void handshake(std::shared_ptr<const client_config> cfg, error_code& ec) {
    ec = handshake_impl(connection::client(std::move(cfg)));
  }
  // handshake runs the handshake as a server and reports a failure in ec.
  void handshake(std::shared_ptr<const server_config> cfg, error_code& ec) {
    ec = handshake_impl(connection::server(std::move(cfg)));
  }

  // async_handshake: completion signature void(error_code); bounded by
  // stream_timeouts::handshake. A failed, timed-out or cancelled handshake
  // leaves the stream unusable: close it.
  template <class Config, class Token = boost::asio::default_completion_token_t<executor_type>>
  auto async_handshake(std::shared_ptr<Config> cfg, Token&& token = Token()) {
    static_assert(std::is_same_v<std::remove_const_t<Config>, client_config> ||
                      std::is_same_v<std::remove_const_t<Config>, server_config>,
                  "async_handshake takes a client_config or a server_config");
    handshake_op op{this};
    if constexpr (std::is_same_v<std::remove_const_t<Config>, client_config>) {
      op.client_cfg = std::move(cfg);
    } else {
      op.server_cfg = std::move(cfg);
    }
    return boost::asio::async_compose<Token, void(error_code)>(std::move(op), token, next_);
  }

  // ---- reading ----

  // read_some blocks until verified plaintext is available, copies as much
  // as fits into buffers and returns the count (0 at once for empty buffers).
  // Errors throw boost::system::system_error, asio::error::eof after the
  // peer's close record included.
  template <class MutableBufferSequence>
  std::size_t read_some(const MutableBufferSequence& buffers) {
    error_code ec;
    const std::size_t n = read_some(buffers, ec);
    throw_on(ec);
    return n;
  }

  // read_some is read_some reporting a failure in ec, with a count of 0.
  template <class MutableBufferSequence>
  std::size_t read_some(const MutableBufferSequence& buffers, error_code& ec) {
    ec.clear();
    if (boost::asio::buffer_size(buffers) == 0) return 0;
    for (;;) {
      bool need_input = false;
      const std::size_t n = try_read(buffers, ec, need_input);
      if (!need_input) return n;
      error_code bec;
      if constexpr (can_wait_readable) {
        if (wait_first(true)) next_.wait(next_layer_type::wait_read, bec);
        if (bec) {
          ec = input_error(bec);
          return 0;
        }
      }
      const std::size_t got = next_.read_some(input_space(), bec);
      if (bec) {
        ec = input_error(bec);
        return 0;
      }
      took_input(got);
    }
  }

  // async_read_some: completion signature void(error_code, std::size_t).
  // Each wait for the peer's bytes is bounded by stream_timeouts::idle.
  template <class MutableBufferSequence, class Token = boost::asio::default_completion_token_t<executor_type>>
  auto async_read_some(const MutableBufferSequence& buffers, Token&& token = Token()) {
    return boost::asio::async_compose<Token, void(error_code, std::size_t)>(
        read_op<MutableBufferSequence>{this, buffers}, token, next_);
  }

  // ---- writing ----

  // write_some seals data from buffers into records (looking at the first 16
  // non-empty buffers of the sequence at most), sends every pending record,
  // blocking, and returns how many bytes of the data it took. Errors throw
  // boost::system::system_error.
  template <class ConstBufferSequence>
  std::size_t write_some(const ConstBufferSequence& buffers) {
    error_code ec;
    const std::size_t n = write_some(buffers, ec);
    throw_on(ec);
    return n;
  }

  // write_some is write_some reporting a failure in ec. When sending fails
  // the count still says what was taken: those bytes are sealed and go out
  // first with the next write.
  template <class ConstBufferSequence>
  std::size_t write_some(const ConstBufferSequence& buffers, error_code& ec) {
    ec.clear();
    std::size_t taken = 0;
    if (boost::asio::buffer_size(buffers) != 0) {
      ec = seal(buffers, taken);
      if (ec) return 0;
      if (taken == 0) {  // the send buffer was full: send it, then seal
        if ((ec = flush())) return 0;
        if ((ec = seal(buffers, taken))) return 0;
      }
    }
    ec = flush();
    return taken;
  }

  // async_write_some: completion signature void(error_code, std::size_t).
  // The data is sealed when the operation starts; with no data it sends what
  // the connection has pending (records sealed with native_handle()->write).
  // Each wait for the peer to take bytes is bounded by stream_timeouts::idle.
  template <class ConstBufferSequence, class Token = boost::asio::default_completion_token_t<executor_type>>
  auto async_write_some(const ConstBufferSequence& buffers, Token&& token = Token()) {
    return boost::asio::async_compose<Token, void(error_code, std::size_t)>(
        write_op<ConstBufferSequence>{this, buffers}, token, next_);
  }

  // ---- shutdown ----

  // shutdown queues the close record (once) and sends everything pending,
  // blocking; it does not wait for the peer's close record (read until eof
  // for that) and has no timeout. Errors throw boost::system::system_error.
  void shutdown() { throw_on(shutdown_impl()); }
  // shutdown is shutdown reporting a failure in ec.
  void shutdown(error_code& ec) { ec = shutdown_impl(); }

  // async_shutdown: completion signature void(error_code). Sends the close
  // record (once), then waits for the peer's close record, bounded as a
  // whole by stream_timeouts::shutdown. Application data that arrives before
  // the peer's close is discarded and counted (bytes_discarded_at_shutdown);
  // if the peer's close had arrived already, nothing is read. It counts as a
  // read and a write: started while a read is outstanding it fails with
  // stream_errc::read_in_progress and sends nothing. A transport that ends
  // without the peer's close is record_errc::truncated. Afterwards a read
  // returns eof.
  template <class Token = boost::asio::default_completion_token_t<executor_type>>
    requires(!std::is_same_v<std::decay_t<Token>, shutdown_mode>)
  auto async_shutdown(Token&& token = Token()) {
    return async_shutdown(shutdown_mode::wait_for_peer, std::forward<Token>(token));
  }
  // async_shutdown with shutdown_mode::send_only sends the close record and
  // completes (bounded by stream_timeouts::shutdown); it counts as a write.
  template <class Token = boost::asio::default_completion_token_t<executor_type>>
  auto async_shutdown(shutdown_mode mode, Token&& token = Token()) {
    return boost::asio::async_compose<Token, void(error_code)>(shutdown_op{this, mode}, token, next_);
  }

  // update_keys asks for a key update: the next write sends a key_update
  // record first and switches the sending key. Call it where writes are
  // started (the same thread or strand); it is safe while a write runs.
  void update_keys() noexcept { update_requested_ = true; }

 private:
  using lane_type = detail::stream_lane<executor_type>;
  using duration = std::chrono::steady_clock::duration;
  static constexpr std::size_t max_gather = 16;

  // can_wait_readable: the next layer (a socket) can say how many bytes it
  // has and wait until it has some, with no buffer of ours held meanwhile.
  static constexpr bool can_wait_readable = requires(next_layer_type& n, error_code& ec) {
    n.available(ec);
    n.wait(next_layer_type::wait_read, ec);
  };

  static void throw_on(const error_code& ec) {
    if (ec) throw boost::system::system_error(ec);
  }

  // ---- shared by the synchronous and asynchronous operations ----

  // The sticky failure of a timed-out operation, or no error.
  error_code stream_failure() const {
    return failed_ == stream_errc{} ? error_code() : error_code(make_error_code(failed_));
  }

  // fail records a timeout: the stream's sticky failed state.
  error_code fail(stream_errc e) {
    if (failed_ == stream_errc{}) failed_ = e;
    return stream_failure();
  }

  error_code start(result<connection> c) {
    if (auto f = stream_failure()) return f;
    if (!c) return c.error();
    conn_.emplace(std::move(*c));
    in_begin_ = in_end_ = 0;
    return {};
  }

  // round_input rounds a wanted input size up to the next step, within the
  // smallest and largest input buffer.
  static std::size_t round_input(std::size_t n) noexcept {
    n = (n + min_input_buffer_size - 1) / min_input_buffer_size * min_input_buffer_size;
    return n < min_input_buffer_size ? min_input_buffer_size : n > input_buffer_size ? input_buffer_size : n;
  }

  // The next layer's free input space (after moving unprocessed bytes to the
  // front), allocating the input buffer if it was given back (sized to what
  // the socket holds) and growing it when the record at its front needs more
  // room or the last read filled it.
  boost::asio::mutable_buffer input_space() {
    if (!in_) {
      in_cap_ = input_buffer_size;
      if constexpr (can_wait_readable) {
        error_code ec;
        const std::size_t ready = next_.available(ec);  // an error: the read reports it
        in_cap_ = round_input(std::max(ec ? 0 : ready, in_want_));
      }
      in_ = std::make_unique_for_overwrite<std::uint8_t[]>(in_cap_);
    }
    if (in_begin_ == in_end_) {
      in_begin_ = in_end_ = 0;
    } else if (in_begin_ != 0) {
      std::memmove(in_.get(), in_.get() + in_begin_, in_end_ - in_begin_);
      in_end_ -= in_begin_;
      in_begin_ = 0;
    }
    const std::size_t want = in_end_ == in_cap_ ? 2 * in_cap_ : in_want_;
    if (want > in_cap_ && in_cap_ < input_buffer_size) {
      const std::size_t cap = round_input(want);
      auto grown = std::make_unique_for_overwrite<std::uint8_t[]>(cap);
      std::memcpy(grown.get(), in_.get(), in_end_);
      in_ = std::move(grown);
      in_cap_ = cap;
    }
    in_want_ = 0;
    return boost::asio::buffer(in_.get() + in_end_, in_cap_ - in_end_);
  }

  // took_input counts n bytes read into the input space; a read that filled
  // the buffer asks for a larger one (more may be waiting).
  void took_input(std::size_t n) noexcept {
    in_end_ += n;
    if (n != 0 && in_end_ == in_cap_) in_want_ = 2 * in_cap_;
  }

  // release_input gives the input buffer back if nothing in it waits to be
  // processed (it holds only ciphertext: nothing to wipe).
  void release_input() noexcept {
    if (in_begin_ != in_end_) return;
    in_begin_ = in_end_ = 0;
    in_.reset();
    in_cap_ = 0;
    in_want_ = 0;  // the next buffer is sized to what arrives then
  }

  // wait_first: the input is drained and the socket has nothing yet, so the
  // read waits for it to become readable first, without the input buffer
  // (given back here). False when bytes are there to read at once (a busy
  // stream keeps its buffer) or the next layer cannot wait.
  //
  // The synchronous read (turn) first gives up its processor once
  // (std::this_thread::yield) and looks again: a thread that blocks costs the
  // peer that sends next a cross-processor wakeup inside its send (an
  // interrupt to the other CPU, a VM exit on a virtual machine), and on a
  // busy connection the next record is often that close. Over loopback TCP
  // with 16 KiB writes (record.tcp_16k_writes) the one turn cut the reader's
  // poll calls from 0.28 to 0.02-0.11 per record and the time per MiB by 3-4%,
  // while a read that blocked in recv at once, without even the
  // available() check, was 24% slower (docs/architecture.md, "The stream's
  // data path"). The asynchronous read never yields: its thread runs other
  // handlers.
  bool wait_first(bool turn = false) {
    if constexpr (can_wait_readable) {
      if (in_begin_ != in_end_) return false;
      error_code ec;
      if (next_.available(ec) != 0 || ec) return false;  // an error: the read reports it
      if (turn) {
        std::this_thread::yield();
        if (next_.available(ec) != 0 || ec) return false;
      }
      release_input();
      return true;
    } else {
      return false;
    }
  }

  // input_error maps a next-layer read error: end of file is a clean end only
  // after the peer's close record.
  error_code input_error(const error_code& bec) {
    if (bec == boost::asio::error::eof) {
      auto ok = conn_->end_of_input();
      return ok ? error_code(boost::asio::error::eof) : error_code(ok.error());
    }
    return bec;
  }

  // feed passes buffered input to the connection; false when it took nothing.
  bool feed(error_code& ec) {
    if (in_begin_ == in_end_) return false;
    auto r = conn_->receive(std::span<const std::uint8_t>(in_.get() + in_begin_, in_end_ - in_begin_));
    if (!r) {
      ec = r.error();
      return false;
    }
    in_begin_ += *r;
    return *r != 0;
  }

  // open_into opens the whole records at the front of the input straight
  // into the first non-empty buffer of the caller's (receive_into).
  template <class MutableBufferSequence>
  receive_result open_into(const MutableBufferSequence& buffers, error_code& ec) {
    boost::asio::mutable_buffer first;
    for (auto it = boost::asio::buffer_sequence_begin(buffers); it != boost::asio::buffer_sequence_end(buffers); ++it) {
      first = boost::asio::mutable_buffer(*it);
      if (first.size() != 0) break;
    }
    const std::span<const std::uint8_t> in(in_.get() + in_begin_, in_end_ - in_begin_);
    auto r = conn_->receive_into(in, std::span<std::uint8_t>(static_cast<std::uint8_t*>(first.data()), first.size()));
    if (!r) {
      ec = r.error();
      return {};
    }
    in_begin_ += r->consumed;
    return *r;
  }

  // try_read delivers plaintext or an error, or asks for more input.
  template <class MutableBufferSequence>
  std::size_t try_read(const MutableBufferSequence& buffers, error_code& ec, bool& need_input) {
    need_input = false;
    if (auto f = stream_failure()) {
      ec = f;
      return 0;
    }
    if (!conn_ || !conn_->handshake_complete()) {
      ec = conn_ && conn_->error() ? conn_->error() : make_error_code(record_errc::bad_state);
      return 0;
    }
    for (;;) {
      if (conn_->readable() != 0) {
        const auto view = conn_->peek();
        const std::size_t n = boost::asio::buffer_copy(buffers, boost::asio::buffer(view.data(), view.size()));
        conn_->discard(n);
        return n;
      }
      if (auto e = conn_->error()) {  // before eof: bytes after a close record are an error
        ec = e;
        return 0;
      }
      if (conn_->peer_closed()) {
        ec = boost::asio::error::eof;
        return 0;
      }
      // Whole records go straight into the caller's buffer; a record still
      // arriving waits in the input buffer for the rest when it fits there.
      if (auto direct = open_into(buffers, ec); direct.delivered != 0 || ec) {
        return direct.delivered;
      } else if (direct.consumed != 0) {
        continue;
      } else if (direct.wanted != 0 && direct.wanted <= input_buffer_size) {
        in_want_ = direct.wanted;  // the input buffer grows to hold the whole record
        need_input = true;
        return 0;
      }
      if (!feed(ec)) {
        // A failed record may follow verified ones: deliver those first; the
        // (sticky) error is reported once nothing is readable.
        if (ec) {
          ec.clear();
          continue;
        }
        need_input = true;
        return 0;
      }
    }
  }

  // seal turns the buffers into records in the connection's send buffer.
  template <class ConstBufferSequence>
  error_code seal(const ConstBufferSequence& buffers, std::size_t& taken) {
    if (auto f = stream_failure()) return f;
    if (!conn_) return make_error_code(record_errc::bad_state);
    if (update_requested_ && conn_->handshake_complete()) {
      if (auto ok = conn_->update_keys(); !ok) {
        if (ok.error() != record_errc::send_buffer_full) return ok.error();
      } else {
        update_requested_ = false;
      }
    }
    std::array<bytes_view, max_gather> views;
    std::size_t k = 0;
    for (auto it = boost::asio::buffer_sequence_begin(buffers);
         it != boost::asio::buffer_sequence_end(buffers) && k < max_gather; ++it) {
      const boost::asio::const_buffer b(*it);
      if (b.size() != 0) views[k++] = bytes_view(static_cast<const std::uint8_t*>(b.data()), b.size());
    }
    auto r = conn_->write(std::span<const bytes_view>(views.data(), k));
    if (!r) return r.error();
    taken = *r;
    return {};
  }

  error_code queue_close() {
    if (auto f = stream_failure()) return f;
    if (!conn_) return make_error_code(record_errc::bad_state);
    if (conn_->closed()) return {};
    return conn_->close().error();
  }

  // ---- the synchronous operations ----

  // flush sends everything pending, blocking.
  error_code flush() {
    if (!conn_) return {};
    while (!conn_->pending().empty()) {
      const auto p = conn_->pending();
      error_code bec;
      const std::size_t n = boost::asio::write(next_, boost::asio::buffer(p.data(), p.size()), bec);
      conn_->consume(n);
      if (bec) return bec;
    }
    return {};
  }

  error_code handshake_impl(result<connection> c) {
    if (auto ec = start(std::move(c))) return ec;
    for (;;) {
      if (auto ec = flush()) return ec;
      if (conn_->handshake_complete()) {
        release_input();
        return {};
      }
      error_code ec;
      if (feed(ec)) continue;
      if (ec) return ec;
      error_code bec;
      const std::size_t got = next_.read_some(input_space(), bec);
      if (bec) return input_error(bec);
      took_input(got);
    }
  }

  error_code shutdown_impl() {
    if (auto ec = queue_close()) return ec;
    return flush();
  }

  // ---- the asynchronous operations ----
  //
  // Each public operation is one composed operation (async_compose) written
  // as a small state machine with named states: `start`, then `flushing` or
  // `filling` while one next-layer call runs, and `posted` when the result
  // was known before any I/O (it is posted, never delivered inside the
  // initiating call). Every step runs `next_step`, which decides what the
  // operation needs now. They share two sub-operations:
  //
  // - start_flush / flushed: send the connection's pending bytes, one
  //   next-layer write_some per step (so each bit of progress restarts the
  //   idle deadline);
  // - start_fill / filled: read more input into the input buffer, one
  //   next-layer read_some per step.
  //
  // Both bind the next-layer call to the operation's lane (a timer and a
  // cancellation signal; the read lane for reads and the handshake, the write
  // lane for writes and shutdown), and forward the caller's cancellation to
  // it. A deadline is armed before the call it bounds and disarmed when the
  // operation completes, so no timer outlives its operation.

  // child binds the operation (self) as the handler of a next-layer call:
  // to the lane's cancellation signal, with the caller's cancellation
  // forwarded to the lane.
  template <class Self>
  static auto child(Self& self, lane_type& lane) {
    auto slot = self.get_cancellation_state().slot();
    if (slot.is_connected()) slot.template emplace<detail::forward_cancellation<lane_type>>(&lane);
    return boost::asio::bind_cancellation_slot(lane.slot(), std::move(self));
  }

  // arm starts a lane's deadline, its expiry bound to the operation's executor.
  template <class Self>
  void arm(Self& self, const std::shared_ptr<lane_type>& lane, duration timeout) {
    lane_type::arm(lane, timeout, boost::asio::get_associated_executor(self, next_.get_executor()));
  }

  template <class Self>
  void start_flush(Self& self, lane_type& lane) {
    const auto p = conn_->pending();
    next_.async_write_some(boost::asio::buffer(p.data(), p.size()), child(self, lane));
  }

  template <class Self>
  void start_fill(Self& self, lane_type& lane) {
    next_.async_read_some(input_space(), child(self, lane));
  }

  // start_wait waits for the next layer to become readable (see wait_first).
  template <class Self>
  void start_wait(Self& self, lane_type& lane) {
    if constexpr (can_wait_readable) next_.async_wait(next_layer_type::wait_read, child(self, lane));
  }

  // flushed takes the result of a flush step: the error to fail with (the
  // lane's timeout if its deadline cancelled the call), or none.
  error_code flushed(lane_type& lane, stream_errc timeout, const error_code& bec, std::size_t n) {
    conn_->consume(n);
    if (lane.expired()) return fail(timeout);
    return bec;
  }

  // filled takes the result of a fill step, as flushed does.
  error_code filled(lane_type& lane, stream_errc timeout, const error_code& bec, std::size_t n) {
    took_input(n);
    if (lane.expired()) return fail(timeout);
    return bec ? input_error(bec) : error_code();
  }

  enum class op_state { start, flushing, filling, waiting, posted };

  // handshake_op: flush what the connection has to send, feed it what
  // arrived, read more, until the handshake completes. One deadline
  // (stream_timeouts::handshake) for the whole operation.
  struct handshake_op {
    stream* s;
    std::shared_ptr<const client_config> client_cfg{};
    std::shared_ptr<const server_config> server_cfg{};
    op_state state = op_state::start;
    error_code result{};

    template <class Self>
    void operator()(Self& self, error_code bec = {}, std::size_t n = 0) {
      lane_type& lane = *s->read_lane_;
      switch (state) {
        case op_state::start: {
          const error_code setup = client_cfg ? s->start(connection::client(std::move(client_cfg)))
                                              : s->start(connection::server(std::move(server_cfg)));
          if (setup) return finish(self, setup);
          s->arm(self, s->read_lane_, s->timeouts_.handshake);
          break;
        }
        case op_state::flushing:
          if (auto ec = s->flushed(lane, stream_errc::handshake_timeout, bec, n)) return finish(self, ec);
          break;
        case op_state::filling:
        case op_state::waiting:  // the handshake never waits without a buffer
          if (auto ec = s->filled(lane, stream_errc::handshake_timeout, bec, n)) return finish(self, ec);
          break;
        case op_state::posted:
          return self.complete(result);
      }
      next_step(self, lane);
    }

    template <class Self>
    void next_step(Self& self, lane_type& lane) {
      auto& c = *s->conn_;
      for (;;) {
        if (!c.pending().empty()) {
          state = op_state::flushing;
          return s->start_flush(self, lane);
        }
        if (c.handshake_complete()) return finish(self, {});
        error_code ec;
        if (s->feed(ec)) continue;
        if (ec) return finish(self, ec);
        state = op_state::filling;
        return s->start_fill(self, lane);
      }
    }

    template <class Self>
    void finish(Self& self, error_code ec) {
      s->read_lane_->disarm();
      s->release_input();  // a handshake leaves nothing to process, usually
      if (state != op_state::start) return self.complete(ec);
      state = op_state::posted;  // never complete inside the initiating call
      result = ec;
      boost::asio::post(std::move(self));
    }
  };

  // read_op: deliver verified plaintext, reading more input while there is
  // none. Each read of the next layer is bounded by stream_timeouts::idle.
  template <class MutableBufferSequence>
  struct read_op {
    stream* s;
    MutableBufferSequence buffers;
    op_state state = op_state::start;
    error_code result{};
    std::size_t result_n = 0;

    template <class Self>
    void operator()(Self& self, error_code bec = {}, std::size_t n = 0) {
      lane_type& lane = *s->read_lane_;
      switch (state) {
        case op_state::start:
          s->reading_ = true;
          if (boost::asio::buffer_size(buffers) == 0) return finish(self, {}, 0);
          break;
        case op_state::filling:
          if (auto ec = s->filled(lane, stream_errc::idle_timeout, bec, n)) return finish(self, ec, 0);
          break;
        case op_state::waiting:  // the socket became readable (or the wait failed): read now
          if (auto ec = s->filled(lane, stream_errc::idle_timeout, bec, 0)) return finish(self, ec, 0);
          state = op_state::filling;
          return s->start_fill(self, lane);
        case op_state::flushing:  // a read never sends
          break;
        case op_state::posted:
          s->reading_ = false;
          return self.complete(result, result_n);
      }
      error_code ec;
      bool need_input = false;
      const std::size_t got = s->try_read(buffers, ec, need_input);
      if (!need_input) return finish(self, ec, got);
      s->arm(self, s->read_lane_, s->timeouts_.idle);
      if (s->wait_first()) {
        state = op_state::waiting;
        return s->start_wait(self, lane);
      }
      state = op_state::filling;
      s->start_fill(self, lane);
    }

    template <class Self>
    void finish(Self& self, error_code ec, std::size_t n) {
      s->read_lane_->disarm();
      if (state != op_state::start) {
        s->reading_ = false;
        return self.complete(ec, n);
      }
      state = op_state::posted;
      result = ec;
      result_n = n;
      boost::asio::post(std::move(self));
    }
  };

  // write_op seals the caller's data when it starts, then sends everything
  // pending; if the send buffer was full it sends first and seals after. It
  // reports how many bytes of the data it took, with the first error. Each
  // write of the next layer is bounded by stream_timeouts::idle.
  template <class ConstBufferSequence>
  struct write_op {
    stream* s;
    ConstBufferSequence buffers;
    op_state state = op_state::start;
    std::size_t taken = 0;
    bool reseal = false;
    error_code result{};

    template <class Self>
    void operator()(Self& self, error_code bec = {}, std::size_t n = 0) {
      lane_type& lane = *s->write_lane_;
      switch (state) {
        case op_state::start:
          if (boost::asio::buffer_size(buffers) != 0) {
            if (auto ec = s->seal(buffers, taken)) return finish(self, ec);
            reseal = taken == 0;
          }
          break;
        case op_state::flushing:
          if (auto ec = s->flushed(lane, stream_errc::idle_timeout, bec, n)) return finish(self, ec);
          break;
        case op_state::filling:  // a write never reads
        case op_state::waiting:
          break;
        case op_state::posted:
          return self.complete(result, taken);
      }
      if (s->conn_ && s->conn_->pending().empty() && reseal) {
        reseal = false;
        if (auto ec = s->seal(buffers, taken)) return finish(self, ec);
      }
      if (!s->conn_ || s->conn_->pending().empty()) return finish(self, {});
      s->arm(self, s->write_lane_, s->timeouts_.idle);
      state = op_state::flushing;
      s->start_flush(self, lane);
    }

    template <class Self>
    void finish(Self& self, error_code ec) {
      s->write_lane_->disarm();
      if (state != op_state::start) return self.complete(ec, taken);
      state = op_state::posted;
      result = ec;
      boost::asio::post(std::move(self));
    }
  };

  // shutdown_op queues the close record and sends everything pending; in
  // wait_for_peer mode it then reads until the peer's close record,
  // discarding application data. One deadline (stream_timeouts::shutdown)
  // for the whole operation.
  struct shutdown_op {
    stream* s;
    shutdown_mode mode;
    op_state state = op_state::start;
    bool peer_closed_at_start = false;
    error_code result{};

    template <class Self>
    void operator()(Self& self, error_code bec = {}, std::size_t n = 0) {
      lane_type& lane = *s->write_lane_;
      switch (state) {
        case op_state::start:
          if (mode == shutdown_mode::wait_for_peer && s->reading_) {
            return finish(self, make_error_code(stream_errc::read_in_progress));
          }
          if (auto ec = s->queue_close()) return finish(self, ec);
          peer_closed_at_start = s->conn_->peer_closed();
          s->arm(self, s->write_lane_, s->timeouts_.shutdown);
          break;
        case op_state::flushing:
          if (auto ec = s->flushed(lane, stream_errc::shutdown_timeout, bec, n)) return finish(self, ec);
          break;
        case op_state::filling:
        case op_state::waiting:  // a shutdown never waits without a buffer
          if (auto ec = s->filled(lane, stream_errc::shutdown_timeout, bec, n)) return finish(self, ec);
          break;
        case op_state::posted:
          return self.complete(result);
      }
      next_step(self, lane);
    }

    template <class Self>
    void next_step(Self& self, lane_type& lane) {
      auto& c = *s->conn_;
      for (;;) {
        if (!c.pending().empty()) {
          state = op_state::flushing;
          return s->start_flush(self, lane);
        }
        // The peer's close came before this shutdown: what it sent before
        // stays for the application to read.
        if (mode == shutdown_mode::send_only || peer_closed_at_start) return finish(self, {});
        // Waiting for the peer's close: drop (and count) what comes first.
        if (const std::size_t k = c.readable(); k != 0) {
          c.discard(k);
          s->discarded_ += k;
        }
        if (auto e = c.error()) return finish(self, e);
        if (c.peer_closed()) return finish(self, {});
        error_code ec;
        if (s->feed(ec) || ec) continue;  // an error is reported by c.error() above
        state = op_state::filling;
        return s->start_fill(self, lane);
      }
    }

    template <class Self>
    void finish(Self& self, error_code ec) {
      s->write_lane_->disarm();
      if (state != op_state::start) return self.complete(ec);
      state = op_state::posted;
      result = ec;
      boost::asio::post(std::move(self));
    }
  };

  NextLayer next_;
  std::optional<connection> conn_;
  std::unique_ptr<std::uint8_t[]> in_;  // in_cap_ bytes while data flows, else null
  std::size_t in_cap_ = 0;   // the input buffer's size (0: not allocated)
  std::size_t in_want_ = 0;  // the size the next fill wants the input buffer to have
  std::size_t in_begin_ = 0, in_end_ = 0;
  bool update_requested_ = false;
  bool reading_ = false;          // an async_read_some is outstanding
  stream_errc failed_{};          // a timeout's sticky failure (0: none)
  std::uint64_t discarded_ = 0;   // see bytes_discarded_at_shutdown
  stream_timeouts timeouts_{};
  std::shared_ptr<lane_type> read_lane_;
  std::shared_ptr<lane_type> write_lane_;
};

}  // namespace sealwire::record
