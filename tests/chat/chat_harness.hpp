// SPDX-License-Identifier: Apache-2.0
// Echo chat test harness: a server on loopback and scripted clients on an
// io_context in a background thread.
#pragma once

#include "chat.hpp"
#include "deadlines.hpp"
#include "vectors.hpp"

#include <sealwire/record/stream.hpp>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>

namespace sealwire::chat::test {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

using sealwire::test::deadline_guard;
using sealwire::test::ready_within;
using sealwire::test::scaled;

// Smaller counts under AddressSanitizer and ThreadSanitizer, which are
// several times slower. (Deadlines scale through deadlines.hpp.)
inline constexpr bool sanitized = sealwire::test::sanitizer_build;

// scaled_limits: the server's handshake and idle timeouts are deadlines like
// the tests' own, scaled alike, so that a test waiting "timeout + margin"
// stays consistent and a slow build's clients are not cut off.
inline chat::limits scaled_limits(chat::limits lim) {
  lim.handshake_timeout = scaled(lim.handshake_timeout);
  lim.idle_timeout = scaled(lim.idle_timeout);
  return lim;
}

struct running_server {
  explicit running_server(chat::limits lim, unsigned threads = 0, relay_observer observer = {}) {
    auto kp = tools::generate_keys(hpke::kem_id::x25519);
    public_key = kp.pub;
    server_options o;
    o.listen = {asio::ip::make_address("127.0.0.1"), 0};
    o.key = std::make_shared<const hpke::private_key>(std::move(kp.priv));
    o.threads = threads;
    o.limits = scaled_limits(lim);
    o.observer = std::move(observer);
    srv = std::make_unique<server>(std::move(o));
    endpoint = srv->start();
  }
  ~running_server() { srv->stop(); }

  client_options client(const std::string& nick) const {
    client_options c;
    c.port = endpoint.port();
    c.server_key = public_key;
    c.nick = nick;
    return c;
  }

  // wait_for polls the server's stats until pred holds or the (scaled)
  // time is up.
  template <class Pred>
  bool wait_for(Pred pred, std::chrono::milliseconds nominal) const {
    const auto until = std::chrono::steady_clock::now() + scaled(nominal);
    while (std::chrono::steady_clock::now() < until) {
      if (pred(srv->stats())) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return pred(srv->stats());
  }

  std::uint64_t disconnects(const std::string& reason) const {
    const auto s = srv->stats();
    const auto it = s.disconnects.find(reason);
    return it == s.disconnects.end() ? 0 : it->second;
  }

  hpke::public_key public_key;
  std::unique_ptr<server> srv;
  tcp::endpoint endpoint;
};

// expect_closed checks that the peer closed the socket: reads reach EOF or
// a reset within the (scaled) limit.
inline void expect_closed(tcp::socket& s, std::chrono::milliseconds limit = std::chrono::seconds(10)) {
  std::uint8_t buf[4096];
  boost::system::error_code ec;
  {
    deadline_guard guard({s.native_handle()}, limit, "the server did not close the connection");
    while (!ec) s.read_some(asio::buffer(buf), ec);
    if (guard.fired()) return;  // the guard reports it
  }
  EXPECT_TRUE(ec == asio::error::eof || ec == asio::error::connection_reset) << ec.message();
}

// blocking_client is a client for fault tests: raw TCP or after the
// handshake, with a line reader guarded by a deadline.
struct blocking_client {
  // receive_buffer: SO_RCVBUF before connecting (0: the system's default).
  blocking_client(asio::io_context& io, const tcp::endpoint& ep, int receive_buffer = 0) : stream(tcp::socket(io)) {
    if (receive_buffer > 0) {
      stream.next_layer().open(ep.protocol());
      stream.next_layer().set_option(asio::socket_base::receive_buffer_size(receive_buffer));
    }
    stream.next_layer().connect(ep);
  }
  // handshake fails the test (throwing) rather than hang if the server
  // never answers.
  void handshake(const hpke::public_key& server_key) {
    auto cfg = std::make_shared<record::client_config>();
    cfg->server_key = server_key;
    deadline_guard guard({stream.next_layer().native_handle()}, std::chrono::seconds(10), "the client's handshake");
    stream.handshake(cfg);
  }
  void send(const std::string& text) { asio::write(stream, asio::buffer(text)); }
  // next_line_starting returns the first line that starts with prefix, or
  // "" if none arrives within the (scaled) limit.
  std::string next_line_starting(const std::string& prefix,
                                 std::chrono::milliseconds limit = std::chrono::seconds(10)) {
    deadline_guard guard({stream.next_layer().native_handle()}, limit, "a line starting \"" + prefix + "\"");
    for (;;) {
      for (auto nl = in.find('\n'); nl != std::string::npos; nl = in.find('\n')) {
        std::string line = in.substr(0, nl);
        in.erase(0, nl + 1);
        if (line.rfind(prefix, 0) == 0) return line;
      }
      char buf[4096];
      boost::system::error_code ec;
      const std::size_t n = stream.read_some(asio::buffer(buf), ec);
      if (ec) return "";
      in.append(buf, n);
    }
  }
  record::stream<tcp::socket> stream;
  std::string in;
};

// client_pool runs scripted clients on its own io_context and thread.
class client_pool {
 public:
  client_pool() : work_(asio::make_work_guard(io_)), thread_([this] { io_.run(); }) {}
  ~client_pool() {
    work_.reset();
    thread_.join();
  }
  client_pool(const client_pool&) = delete;
  client_pool& operator=(const client_pool&) = delete;

  // add starts a scripted client; its report arrives in the returned future.
  // The script's own timeout is scaled like every other deadline.
  std::future<client_report> add(client_options o, script s) {
    s.timeout = scaled(s.timeout);
    auto promise = std::make_shared<std::promise<client_report>>();
    auto future = promise->get_future();
    asio::post(io_, [this, o = std::move(o), s = std::move(s), promise]() mutable {
      run_script(io_, std::move(o), std::move(s), [promise](client_report r) { promise->set_value(std::move(r)); });
    });
    return future;
  }

  asio::io_context& io() { return io_; }

 private:
  asio::io_context io_;
  asio::executor_work_guard<asio::io_context::executor_type> work_;
  std::thread thread_;
};

}  // namespace sealwire::chat::test
