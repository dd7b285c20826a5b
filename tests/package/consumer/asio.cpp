// SPDX-License-Identifier: Apache-2.0
// Uses sealwire::asio from an installed package: a record stream over a
// local socket pair, handshake and one message.
#include <sealwire/record/stream.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/connect_pair.hpp>
#include <boost/asio/local/stream_protocol.hpp>

#include <cstdio>
#include <memory>

int main() {
  namespace asio = boost::asio;
  using socket = asio::local::stream_protocol::socket;
  using namespace sealwire;
  asio::io_context io;
  record::stream<socket> a(io), b(io);
  asio::local::connect_pair(a.next_layer(), b.next_layer());
  auto key = std::make_shared<const hpke::private_key>(hpke::generate_key_pair().value().priv);
  auto sc = std::make_shared<record::server_config>();
  sc->static_key = key;
  auto cc = std::make_shared<record::client_config>();
  cc->server_key = key->public_key();
  bool ok = false;
  char buf[16];
  b.async_handshake(sc, [&](boost::system::error_code ec) {
    if (ec) return;
    b.async_read_some(asio::buffer(buf), [&](boost::system::error_code rec, std::size_t n) { ok = !rec && n == 5; });
  });
  a.async_handshake(cc, [&](boost::system::error_code ec) {
    if (!ec) asio::async_write(a, asio::buffer("hello", 5), [](boost::system::error_code, std::size_t) {});
  });
  io.run();
  std::printf("asio: %d\n", ok);
  return ok ? 0 : 1;
}
