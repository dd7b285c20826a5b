// SPDX-License-Identifier: Apache-2.0
// sealwire::record::stream<NextLayer>: the record protocol over an Asio
// stream, shaped like boost::asio::ssl::stream. Start here for secure
// connections; config.hpp holds the keys and settings, connection.hpp the
// sans-IO core beneath.
//
//   stream<tcp::socket> s(io_context);      // or (std::move(socket))
//   s.next_layer().connect(endpoint);
//   s.handshake(client_cfg);                // or co_await s.async_handshake(cfg, use_awaitable)
//   asio::write(s, asio::buffer(msg));
//   std::size_t n = s.read_some(asio::buffer(buf));
//   s.shutdown();                           // sends the close record
//
// Rules (as for ssl::stream):
// - At most one read operation (read_some/async_read_some) and one write
//   operation (write_some/async_write_some/shutdown) outstanding at a time;
//   the handshake must complete before either starts. A read and a write may
//   run concurrently (each direction has its own state).
// - Asynchronous operations never complete inside the initiating call; they
//   complete through the handler's associated executor, support per-operation
//   cancellation (terminal) by forwarding it to the next layer, and leave the
//   stream consistent: a cancelled read may be repeated; a write that fails or
//   is cancelled reports how many bytes it took (they were sealed and are
//   sent first by the next write), as asio::async_write expects.
// - Errors are boost::system::error_code, as everywhere in Asio; record-layer
//   failures carry sealwire::record_errc (ec == record_errc::bad_record_mac).
//   A read returns asio::error::eof after the peer's close record, and
//   record_errc::truncated when the transport ends without one.
// - shutdown sends the close record; it does not wait for the peer's. Read
//   until eof to see the peer's close.
#pragma once

#include <sealwire/record/connection.hpp>

#include <boost/asio/async_result.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/compose.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/system/system_error.hpp>

#include <array>
#include <cstddef>
#include <cstring>
#include <memory>
#include <optional>
#include <boost/system/error_code.hpp>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

namespace sealwire::record {

// stream runs the record protocol over NextLayer, an Asio stream such as
// boost::asio::ip::tcp::socket, which it owns. It has the interface of
// boost::asio::ssl::stream: handshake, read_some and write_some (so that
// asio::read and asio::write work on it), shutdown, and their asynchronous
// forms. The rules for using it are in this header's opening comment.
template <class NextLayer>
class stream {
 public:
  // Asio's error_code (it carries sealwire::record_errc values, which compare
  // equal to it directly: ec == record_errc::truncated).
  using error_code = boost::system::error_code;
  // next_layer_type is the stream below, NextLayer without a reference.
  using next_layer_type = std::remove_reference_t<NextLayer>;
  // lowest_layer_type is the next layer's lowest layer (the socket itself).
  using lowest_layer_type = typename next_layer_type::lowest_layer_type;
  // executor_type is the next layer's executor type.
  using executor_type = typename next_layer_type::executor_type;

  // Bytes read from the next layer at a time.
  static constexpr std::size_t input_buffer_size = 64 * 1024;

  // A stream whose next layer is constructed from args: an executor or
  // io_context for a new socket, or a connected socket moved in.
  template <class... Args>
  explicit stream(Args&&... args) : next_(std::forward<Args>(args)...), in_(input_buffer_size) {}

  // The move constructor moves the next layer and the connection; not while
  // an operation is outstanding.
  stream(stream&&) = default;
  // Move assignment moves the next layer and the connection; not while an
  // operation is outstanding on either stream.
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

  // ---- handshake ----

  // handshake runs the handshake as a client, blocking until it completes.
  // Errors throw boost::system::system_error: a configuration error
  // (connection::client), a handshake failure or the next layer's error.
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

  // async_handshake: completion signature void(error_code). A failed or
  // cancelled handshake leaves the stream unusable: close it.
  template <class Config, class Token>
  auto async_handshake(std::shared_ptr<Config> cfg, Token&& token) {
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
      const std::size_t got = next_.read_some(input_space(), bec);
      if (bec) {
        ec = input_error(bec);
        return 0;
      }
      in_end_ += got;
    }
  }

  // async_read_some: completion signature void(error_code, std::size_t).
  template <class MutableBufferSequence, class Token>
  auto async_read_some(const MutableBufferSequence& buffers, Token&& token) {
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
  // The data is sealed when the operation starts.
  template <class ConstBufferSequence, class Token>
  auto async_write_some(const ConstBufferSequence& buffers, Token&& token) {
    return boost::asio::async_compose<Token, void(error_code, std::size_t)>(
        write_op<ConstBufferSequence, true>{this, buffers}, token, next_);
  }

  // ---- shutdown ----

  // shutdown queues the close record (once) and sends everything pending,
  // blocking; it does not wait for the peer's close record. Errors throw
  // boost::system::system_error.
  void shutdown() { throw_on(shutdown_impl()); }
  // shutdown is shutdown reporting a failure in ec.
  void shutdown(error_code& ec) { ec = shutdown_impl(); }

  // async_shutdown: completion signature void(error_code). Counts as a write.
  template <class Token>
  auto async_shutdown(Token&& token) {
    return boost::asio::async_compose<Token, void(error_code)>(
        write_op<boost::asio::const_buffer, false>{this, boost::asio::const_buffer()}, token, next_);
  }

  // update_keys asks for a key update: the next write sends a key_update
  // record first and switches the sending key. Call it where writes are
  // started (the same thread or strand); it is safe while a write runs.
  void update_keys() noexcept { update_requested_ = true; }

 private:
  static constexpr std::size_t max_gather = 16;

  static void throw_on(const error_code& ec) {
    if (ec) throw boost::system::system_error(ec);
  }

  error_code start(result<connection> c) {
    if (!c) return c.error();
    conn_.emplace(std::move(*c));
    in_begin_ = in_end_ = 0;
    return {};
  }

  // The next layer's free input space (after moving unprocessed bytes to the front).
  boost::asio::mutable_buffer input_space() {
    if (in_begin_ == in_end_) {
      in_begin_ = in_end_ = 0;
    } else if (in_begin_ != 0) {
      std::memmove(in_.data(), in_.data() + in_begin_, in_end_ - in_begin_);
      in_end_ -= in_begin_;
      in_begin_ = 0;
    }
    return boost::asio::buffer(in_.data() + in_end_, in_.size() - in_end_);
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
    auto r = conn_->receive(std::span<const std::uint8_t>(in_.data() + in_begin_, in_end_ - in_begin_));
    if (!r) {
      ec = r.error();
      return false;
    }
    in_begin_ += *r;
    return *r != 0;
  }

  // try_read delivers plaintext or an error, or asks for more input.
  template <class MutableBufferSequence>
  std::size_t try_read(const MutableBufferSequence& buffers, error_code& ec, bool& need_input) {
    need_input = false;
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

  // flush sends everything pending.
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
      if (conn_->handshake_complete()) return {};
      error_code ec;
      if (feed(ec)) continue;
      if (ec) return ec;
      error_code bec;
      const std::size_t got = next_.read_some(input_space(), bec);
      if (bec) return input_error(bec);
      in_end_ += got;
    }
  }

  error_code queue_close() {
    if (!conn_) return make_error_code(record_errc::bad_state);
    if (conn_->closed()) return {};
    return conn_->close().error();
  }

  error_code shutdown_impl() {
    if (auto ec = queue_close()) return ec;
    return flush();
  }

  // ---- composed operations ----

  struct handshake_op {
    stream* s;
    std::shared_ptr<const client_config> client_cfg{};
    std::shared_ptr<const server_config> server_cfg{};
    bool started = false;
    bool io_done = false;
    bool writing = false;
    bool completing = false;
    error_code result{};

    template <class Self>
    void operator()(Self& self, error_code bec = {}, std::size_t n = 0) {
      if (completing) return self.complete(result);
      if (!started) {
        started = true;
        const error_code setup =
            client_cfg ? s->start(connection::client(std::move(client_cfg))) : s->start(connection::server(std::move(server_cfg)));
        if (setup) return finish(self, setup);
      } else if (io_done) {
        // Completion of a write (n bytes sent) or a read (n bytes received).
        if (writing) {
          s->conn_->consume(n);
        } else {
          s->in_end_ += n;
        }
        if (bec) return finish(self, writing ? error_code(bec) : s->input_error(bec));
      }
      auto& c = *s->conn_;
      error_code ec;
      for (;;) {
        if (!c.pending().empty()) {
          const auto p = c.pending();
          io_done = true;
          writing = true;
          return boost::asio::async_write(s->next_, boost::asio::buffer(p.data(), p.size()), std::move(self));
        }
        if (c.handshake_complete()) return finish(self, {});
        if (s->feed(ec)) continue;
        if (ec) return finish(self, ec);
        io_done = true;
        writing = false;
        return s->next_.async_read_some(s->input_space(), std::move(self));
      }
    }

    template <class Self>
    void finish(Self& self, error_code ec) {
      if (io_done) return self.complete(ec);
      // Never complete inside the initiating call.
      completing = true;
      result = ec;
      boost::asio::post(std::move(self));
    }
  };

  template <class MutableBufferSequence>
  struct read_op {
    stream* s;
    MutableBufferSequence buffers;
    bool io_done = false;
    bool completing = false;
    error_code result{};
    std::size_t result_n = 0;

    template <class Self>
    void operator()(Self& self, error_code bec = {}, std::size_t n = 0) {
      if (completing) return self.complete(result, result_n);
      if (io_done) {
        if (bec) return finish(self, s->input_error(bec), 0);
        s->in_end_ += n;
      }
      if (boost::asio::buffer_size(buffers) == 0) return finish(self, {}, 0);
      error_code ec;
      bool need_input = false;
      const std::size_t got = s->try_read(buffers, ec, need_input);
      if (!need_input) return finish(self, ec, got);
      io_done = true;
      s->next_.async_read_some(s->input_space(), std::move(self));
    }

    template <class Self>
    void finish(Self& self, error_code ec, std::size_t n) {
      if (io_done) return self.complete(ec, n);
      completing = true;
      result = ec;
      result_n = n;
      boost::asio::post(std::move(self));
    }
  };

  // write_op seals the caller's data when it starts (WithSize), or queues
  // the close record (shutdown), then sends everything pending. If the send
  // buffer was full it sends first and seals after. It reports how many
  // bytes of the data it took, with the first error.
  template <class ConstBufferSequence, bool WithSize>
  struct write_op {
    stream* s;
    ConstBufferSequence buffers;
    std::size_t taken = 0;
    bool started = false;
    bool reseal = false;
    bool io_done = false;
    bool completing = false;
    error_code early{};  // an error from sealing or queueing

    template <class Self>
    void operator()(Self& self, error_code bec = {}, std::size_t n = 0) {
      if (completing) return done(self, early, taken);
      if (!started) {
        started = true;
        if constexpr (WithSize) {
          if (boost::asio::buffer_size(buffers) != 0) {
            early = s->seal(buffers, taken);
            reseal = !early && taken == 0;
          }
        } else {
          early = s->queue_close();
        }
      } else if (io_done) {
        s->conn_->consume(n);
        if (bec) return done(self, bec, taken);
      }
      if (!early && s->conn_) {
        if (s->conn_->pending().empty() && reseal) {
          reseal = false;
          if constexpr (WithSize) early = s->seal(buffers, taken);
        }
        if (!early && !s->conn_->pending().empty()) {
          const auto p = s->conn_->pending();
          io_done = true;
          return boost::asio::async_write(s->next_, boost::asio::buffer(p.data(), p.size()), std::move(self));
        }
      }
      if (io_done) return done(self, early, taken);
      completing = true;  // never complete inside the initiating call
      boost::asio::post(std::move(self));
    }

    template <class Self>
    static void done(Self& self, error_code ec, std::size_t n) {
      if constexpr (WithSize) {
        self.complete(ec, n);
      } else {
        self.complete(ec);
      }
    }
  };

  NextLayer next_;
  std::optional<connection> conn_;
  std::vector<std::uint8_t> in_;
  std::size_t in_begin_ = 0, in_end_ = 0;
  bool update_requested_ = false;
};

}  // namespace sealwire::record
