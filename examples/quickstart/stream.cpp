// SPDX-License-Identifier: Apache-2.0
// Quickstart: a record::stream server and client with Asio coroutines, on
// loopback in one process (the server pins nothing; the client pins the
// server's public key).
#include <sealwire/record/stream.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <array>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

namespace asio = boost::asio;
using asio::ip::tcp;
using namespace sealwire;
using namespace std::chrono_literals;

// [quickstart]
// The server: accept, handshake with its static key, echo one message.
asio::awaitable<void> serve(tcp::acceptor& acceptor, std::shared_ptr<const record::server_config> config) {
  record::stream<tcp::socket> stream(co_await acceptor.async_accept(asio::use_awaitable));
  stream.set_timeouts({.handshake = 10s, .idle = 60s, .shutdown = 5s});  // optional; none by default
  co_await stream.async_handshake(config, asio::use_awaitable);
  std::array<char, 1024> buffer;
  const std::size_t n = co_await stream.async_read_some(asio::buffer(buffer), asio::use_awaitable);
  co_await asio::async_write(stream, asio::buffer(buffer.data(), n), asio::use_awaitable);
  co_await stream.async_shutdown(asio::use_awaitable);  // sends its close record, waits for the client's
}

// The client: connect, handshake against the pinned server key, send, read the echo.
asio::awaitable<std::string> talk(tcp::endpoint server, std::shared_ptr<const record::client_config> config) {
  record::stream<tcp::socket> stream(co_await asio::this_coro::executor);
  co_await stream.next_layer().async_connect(server, asio::use_awaitable);
  co_await stream.async_handshake(config, asio::use_awaitable);
  co_await asio::async_write(stream, asio::buffer(std::string("hello over sealwire")), asio::use_awaitable);
  std::array<char, 1024> buffer;
  const std::size_t n = co_await stream.async_read_some(asio::buffer(buffer), asio::use_awaitable);
  co_await stream.async_shutdown(asio::use_awaitable);  // close records both ways
  co_return std::string(buffer.data(), n);
}

int main() {
  asio::io_context io;
  // The server's static key; clients pin its public half.
  auto server_key = std::make_shared<const hpke::private_key>(hpke::generate_key_pair().value().priv);
  auto server_config = std::make_shared<record::server_config>();
  server_config->static_key = server_key;
  auto client_config = std::make_shared<record::client_config>();
  client_config->server_key = server_key->public_key();

  tcp::acceptor acceptor(io, {asio::ip::make_address("127.0.0.1"), 0});
  asio::co_spawn(io, serve(acceptor, server_config), asio::detached);
  std::string reply;
  asio::co_spawn(io, talk(acceptor.local_endpoint(), client_config),
                 [&](std::exception_ptr e, std::string r) {
                   if (e) std::rethrow_exception(e);
                   reply = std::move(r);
                 });
  io.run();
  // [quickstart]
  std::printf("echo: %s\n", reply.c_str());
  return reply == "hello over sealwire" ? 0 : 1;
}
