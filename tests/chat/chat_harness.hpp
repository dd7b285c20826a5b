// SPDX-License-Identifier: Apache-2.0
// Echo chat test harness: a server on loopback and scripted clients on an
// io_context in a background thread.
#pragma once

#include "chat.hpp"
#include "vectors.hpp"

#include <sealwire/record/stream.hpp>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>

#include <gtest/gtest.h>

#include <sys/socket.h>

#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>

namespace sealwire::chat::test {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

// Smaller counts under AddressSanitizer, which is several times slower.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool sanitized = true;
#else
inline constexpr bool sanitized = false;
#endif

struct running_server {
  explicit running_server(chat::limits lim, unsigned threads = 0) {
    auto kp = tools::generate_keys(hpke::kem_id::x25519);
    public_key = kp.pub;
    server_options o;
    o.listen = {asio::ip::make_address("127.0.0.1"), 0};
    o.key = std::make_shared<const hpke::private_key>(std::move(kp.priv));
    o.threads = threads;
    o.limits = lim;
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

  // wait_for polls the server's stats until pred holds or the time is up.
  template <class Pred>
  bool wait_for(Pred pred, std::chrono::milliseconds limit) const {
    const auto until = std::chrono::steady_clock::now() + limit;
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

// deadline_guard shuts a socket down if it is still in use when the time is
// up, so that a blocking read in a test fails instead of hanging the binary.
class deadline_guard {
 public:
  deadline_guard(int fd, std::chrono::milliseconds limit)
      : thread_([this, fd, limit] {
          std::unique_lock lock(mutex_);
          if (!cv_.wait_for(lock, limit, [this] { return done_; })) {
            fired_ = true;
            ::shutdown(fd, SHUT_RDWR);
          }
        }) {}
  ~deadline_guard() {
    {
      const std::lock_guard lock(mutex_);
      done_ = true;
    }
    cv_.notify_one();
    thread_.join();
  }
  deadline_guard(const deadline_guard&) = delete;
  deadline_guard& operator=(const deadline_guard&) = delete;
  [[nodiscard]] bool fired() {
    const std::lock_guard lock(mutex_);
    return fired_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false, fired_ = false;
  std::thread thread_;
};

// expect_closed checks that the peer closed the socket: reads reach EOF or
// a reset within the limit.
inline void expect_closed(tcp::socket& s, std::chrono::milliseconds limit = std::chrono::seconds(10)) {
  deadline_guard guard(s.native_handle(), limit);
  std::uint8_t buf[4096];
  boost::system::error_code ec;
  while (!ec) s.read_some(asio::buffer(buf), ec);
  EXPECT_FALSE(guard.fired()) << "the server did not close the connection";
  EXPECT_TRUE(ec == asio::error::eof || ec == asio::error::connection_reset) << ec.message();
}

// blocking_client is a client for fault tests: raw TCP or after the
// handshake, with a line reader guarded by a deadline.
struct blocking_client {
  blocking_client(asio::io_context& io, const tcp::endpoint& ep) : stream(tcp::socket(io)) {
    stream.next_layer().connect(ep);
  }
  void handshake(const hpke::public_key& server_key) {
    auto cfg = std::make_shared<record::client_config>();
    cfg->server_key = server_key;
    stream.handshake(cfg);
  }
  void send(const std::string& text) { asio::write(stream, asio::buffer(text)); }
  // next_line_starting returns the first line that starts with prefix, or
  // "" if none arrives within the limit.
  std::string next_line_starting(const std::string& prefix,
                                 std::chrono::milliseconds limit = std::chrono::seconds(10)) {
    deadline_guard guard(stream.next_layer().native_handle(), limit);
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
  std::future<client_report> add(client_options o, script s) {
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
