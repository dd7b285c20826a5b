// SPDX-License-Identifier: Apache-2.0
// Fixtures shared by the record::stream tests: keys and configurations, two
// streams over a socketpair with the handshake done, a byte pattern.
#pragma once

#include <sealwire/record/stream.hpp>

#include "deadlines.hpp"
#include "harness.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/connect_pair.hpp>
#include <boost/asio/local/stream_protocol.hpp>

#include <chrono>
#include <future>
#include <memory>
#include <stdexcept>

namespace sealwire::record::test {

using local_socket = boost::asio::local::stream_protocol::socket;

struct fixture_keys {
  std::shared_ptr<const hpke::private_key> server = make_key(hpke::kem_id::x25519);
  std::shared_ptr<const client_config> cc = client_cfg(*server);
  std::shared_ptr<const server_config> sc = server_cfg(server);
};

// Two streams over a socketpair, handshake done (a: client, b: server). A
// failed or hung handshake throws (failing the test) without leaving the
// server's thread blocked.
struct handshaken_pair {
  handshaken_pair() {
    using namespace std::chrono_literals;
    boost::asio::local::connect_pair(a.next_layer(), b.next_layer());
    auto server = std::async(std::launch::async, [this] { b.handshake(k.sc); });
    sealwire::test::shutdown_on_exit unblock_server(a.next_layer(), b.next_layer());
    {
      sealwire::test::deadline_guard guard({a.next_layer().native_handle(), b.next_layer().native_handle()}, 10s,
                                           "the handshake");
      a.handshake(k.cc);
    }
    if (auto done = sealwire::test::ready_within(server, 10s, "the server's handshake"); !done) {
      throw std::runtime_error(done.message());
    }
    server.get();
    unblock_server.dismiss();
  }
  fixture_keys k;
  boost::asio::io_context io;
  stream<local_socket> a{io}, b{io};
};

inline bytes pattern(std::size_t n) {
  bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(i * 7 + (i >> 9));
  return b;
}

}  // namespace sealwire::record::test
