// SPDX-License-Identifier: Apache-2.0
// sealwire::record::datagram_socket: the datagram channel (docs/protocol.md
// 9, datagram/channel.hpp) over a connected boost::asio::ip::udp::socket.
// Messages in, messages out: each send is one datagram; each receive
// returns one verified message, dropping lost, forged and replayed records
// silently as the channel does.
//
//   auto ch = datagram::channel::from_connection(tls_like_stream.connection(), {}, context).value();
//   udp::socket sock(io);  sock.connect(peer);
//   datagram_socket ds(std::move(sock), std::move(ch));
//   ds.send(asio::buffer(msg));
//   std::size_t n = ds.receive(asio::buffer(buf));    // or co_await ds.async_receive(buf, use_awaitable)
//
// Rules: at most one receive and one send outstanding at a time (they may
// run concurrently: the channel's directions are separate). Asynchronous
// operations never complete inside the initiating call and forward
// per-operation cancellation to the socket. Errors are
// boost::system::error_code carrying the socket's errors, datagram_errc
// (message_too_large, integrity_limit_reached, ...) and
// asio::error::message_size when a message does not fit the receive buffer
// (the message is dropped, as a UDP socket truncates).
#pragma once

#include <sealwire/record/datagram/channel.hpp>

#include <boost/asio/async_result.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/compose.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/ip/udp.hpp>
#include <boost/asio/post.hpp>
#include <boost/system/error_code.hpp>
#include <boost/system/system_error.hpp>

#include <cstddef>
#include <cstring>
#include <deque>
#include <utility>
#include <vector>

namespace sealwire::record {

// datagram_socket owns a UDP socket (connected to the peer) and a datagram
// channel keyed for that peer.
class datagram_socket {
 public:
  using error_code = boost::system::error_code;  // Boost.System's error code
  using socket_type = boost::asio::ip::udp::socket;  // the UDP socket it owns
  using executor_type = socket_type::executor_type;  // the socket's executor

  // The socket (connected to the peer) and the channel keyed for that peer.
  datagram_socket(socket_type socket, datagram::channel ch)
      : sock_(std::move(socket)), ch_(std::move(ch)), send_buf_(datagram::max_udp_payload),
        recv_buf_(datagram::max_udp_payload) {}

  // next_layer is the socket.
  socket_type& next_layer() noexcept { return sock_; }
  // lowest_layer is the socket too.
  socket_type& lowest_layer() noexcept { return sock_; }
  // get_executor is the socket's executor.
  executor_type get_executor() noexcept { return sock_.get_executor(); }
  // channel is the sans-IO channel (statistics, key updates).
  datagram::channel& channel() noexcept { return ch_; }

  // send seals `msg` into one datagram and sends it; returns msg's size.
  std::size_t send(boost::asio::const_buffer msg) {
    error_code ec;
    const std::size_t n = send(msg, ec);
    if (ec) throw boost::system::system_error(ec);
    return n;
  }
  // send, reporting failure in ec instead of throwing.
  std::size_t send(boost::asio::const_buffer msg, error_code& ec) {
    const std::size_t len = seal(msg, ec);
    if (ec) return 0;
    sock_.send(boost::asio::buffer(send_buf_.data(), len), 0, ec);
    return ec ? 0 : msg.size();
  }

  // receive waits for the next verified message and copies it into buf;
  // returns its size.
  std::size_t receive(boost::asio::mutable_buffer buf) {
    error_code ec;
    const std::size_t n = receive(buf, ec);
    if (ec) throw boost::system::system_error(ec);
    return n;
  }
  // receive, reporting failure in ec instead of throwing.
  std::size_t receive(boost::asio::mutable_buffer buf, error_code& ec) {
    ec = {};
    while (queue_.empty()) {
      const std::size_t n = sock_.receive(boost::asio::buffer(recv_buf_), 0, ec);
      if (ec) return 0;
      if ((ec = open(n))) return 0;
    }
    return take(buf, ec);
  }

  // async_send: send, completing with (error_code, bytes of msg).
  template <class Token = boost::asio::default_completion_token_t<executor_type>>
  auto async_send(boost::asio::const_buffer msg, Token&& token = {}) {
    return boost::asio::async_compose<Token, void(error_code, std::size_t)>(send_op{this, msg}, token, sock_);
  }

  // async_receive: receive, completing with (error_code, message size).
  template <class Token = boost::asio::default_completion_token_t<executor_type>>
  auto async_receive(boost::asio::mutable_buffer buf, Token&& token = {}) {
    return boost::asio::async_compose<Token, void(error_code, std::size_t)>(receive_op{this, buf}, token, sock_);
  }

  // last_epoch is the epoch of the message the last receive returned.
  std::uint64_t last_epoch() const noexcept { return last_epoch_; }
  // last_sequence is that message's full sequence number.
  std::uint64_t last_sequence() const noexcept { return last_seq_; }

 private:
  std::size_t seal(boost::asio::const_buffer msg, error_code& ec) {
    const auto r = ch_.seal(send_buf_, bytes_view(static_cast<const std::uint8_t*>(msg.data()), msg.size()));
    if (!r) {
      ec = error_code(r.error());
      return 0;
    }
    ec = {};
    return *r;
  }

  error_code open(std::size_t n) {
    msgs_.clear();
    const auto r = ch_.open(std::span(recv_buf_.data(), n), msgs_);
    if (!r) return error_code(r.error());
    queue_.insert(queue_.end(), msgs_.begin(), msgs_.end());
    return {};
  }

  std::size_t take(boost::asio::mutable_buffer buf, error_code& ec) {
    const datagram::message m = queue_.front();
    queue_.pop_front();
    last_epoch_ = m.epoch;
    last_seq_ = m.sequence;
    if (m.data.size() > buf.size()) {
      ec = boost::asio::error::message_size;
      return 0;
    }
    if (!m.data.empty()) std::memcpy(buf.data(), m.data.data(), m.data.size());
    ec = {};
    return m.data.size();
  }

  enum class op_state { start, io, posted };

  struct send_op {
    datagram_socket* s;
    boost::asio::const_buffer msg;
    op_state state = op_state::start;
    error_code result{};

    template <class Self>
    void operator()(Self& self, error_code ec = {}, std::size_t = 0) {
      switch (state) {
        case op_state::start: {
          const std::size_t len = s->seal(msg, result);
          if (result) {
            state = op_state::posted;
            boost::asio::post(s->sock_.get_executor(), std::move(self));
            return;
          }
          state = op_state::io;
          s->sock_.async_send(boost::asio::buffer(s->send_buf_.data(), len), std::move(self));
          return;
        }
        case op_state::io: self.complete(ec, ec ? 0 : msg.size()); return;
        case op_state::posted: self.complete(result, 0); return;
      }
    }
  };

  struct receive_op {
    datagram_socket* s;
    boost::asio::mutable_buffer buf;
    op_state state = op_state::start;
    error_code result{};
    std::size_t size = 0;

    template <class Self>
    void operator()(Self& self, error_code ec = {}, std::size_t n = 0) {
      if (state == op_state::posted) {
        self.complete(result, size);
        return;
      }
      if (state == op_state::io) {
        if (ec) {
          self.complete(ec, 0);
          return;
        }
        if ((ec = s->open(n))) {
          self.complete(ec, 0);
          return;
        }
      }
      if (!s->queue_.empty()) {
        size = s->take(buf, result);
        if (state == op_state::start) {
          state = op_state::posted;
          boost::asio::post(s->sock_.get_executor(), std::move(self));
          return;
        }
        self.complete(result, size);
        return;
      }
      state = op_state::io;
      s->sock_.async_receive(boost::asio::buffer(s->recv_buf_), std::move(self));
    }
  };

  socket_type sock_;
  datagram::channel ch_;
  std::vector<std::uint8_t> send_buf_, recv_buf_;
  std::vector<datagram::message> msgs_;
  std::deque<datagram::message> queue_;  // verified messages (in recv_buf_) not yet returned
  std::uint64_t last_epoch_ = 0, last_seq_ = 0;
};

}  // namespace sealwire::record
