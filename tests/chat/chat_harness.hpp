// Echo chat test harness: a server on loopback and scripted clients on an
// io_context in a background thread.
#pragma once

#include "chat.hpp"
#include "vectors.hpp"

#include <sealwire/record/stream.hpp>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <future>
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
    auto kp = generate_keys(hpke::kem_id::x25519);
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
