// SPDX-License-Identifier: Apache-2.0
// record::datagram_socket over UDP on loopback: sync and async messages
// both ways, a forged datagram dropped and counted while an async receive
// waits, two messages of one datagram returned by two receives, a receive
// buffer too small, and a refused oversize send completing outside the
// initiating call. (One small file: Asio is slow to compile under ASan.)
#include <sealwire/record/datagram_socket.hpp>

#include "deadlines.hpp"

#include <boost/asio/io_context.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

namespace asio = boost::asio;
using udp = asio::ip::udp;
using sealwire::record::datagram_socket;
using namespace sealwire::record::datagram;
using error_code = boost::system::error_code;
using namespace std::chrono_literals;

struct loopback {
  asio::io_context io;
  datagram_socket a, b;
  static channel make(bool side_a) {
    const std::vector<std::uint8_t> x(32, 0x11), y(32, 0x22);
    return channel::from_secrets(sealwire::record::record_aead::aes128_gcm, sealwire::hpke::kdf_id::hkdf_sha256,
                                 side_a ? x : y, side_a ? y : x)
        .value();
  }
  static udp::socket bound(asio::io_context& io) {
    udp::socket s(io, udp::endpoint(asio::ip::address_v4::loopback(), 0));
    return s;
  }
  loopback() : a(bound(io), make(true)), b(bound(io), make(false)) {
    a.next_layer().connect(b.next_layer().local_endpoint());
    b.next_layer().connect(a.next_layer().local_endpoint());
  }
};

std::string text(const std::vector<std::uint8_t>& buf, std::size_t n) {
  return std::string(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n));
}

TEST(DatagramSocket, LoopbackSyncAndAsync) {
  loopback l;
  std::vector<std::uint8_t> buf(2000);
  // Sync, both ways.
  EXPECT_EQ(l.a.send(asio::buffer(std::string("ping"))), 4u);
  EXPECT_EQ(text(buf, l.b.receive(asio::buffer(buf))), "ping");
  EXPECT_EQ(l.b.send(asio::buffer(std::string("pong"))), 4u);
  EXPECT_EQ(text(buf, l.a.receive(asio::buffer(buf))), "pong");

  // Async receive waiting while a forged datagram and then a genuine one arrive.
  bool received = false;
  error_code rec_ec;
  std::size_t rec_n = 0;
  l.b.async_receive(asio::buffer(buf), [&](error_code ec, std::size_t n) {
    received = true;
    rec_ec = ec;
    rec_n = n;
  });
  std::vector<std::uint8_t> forged(60, 0x5a);
  forged[0] = 0x20;
  l.a.next_layer().send(asio::buffer(forged));
  bool sent = false;
  l.a.async_send(asio::buffer(std::string("async hello")), [&](error_code ec, std::size_t n) {
    sent = true;
    EXPECT_FALSE(ec) << ec.message();
    EXPECT_EQ(n, 11u);
  });
  EXPECT_FALSE(sent);  // never inside the initiating call
  ASSERT_TRUE(sealwire::test::runs_to_completion(l.io, 5000ms, "the async send and receive"));
  EXPECT_TRUE(sent);
  ASSERT_TRUE(received);
  EXPECT_FALSE(rec_ec) << rec_ec.message();
  EXPECT_EQ(text(buf, rec_n), "async hello");
  const stats st = l.b.channel().statistics();
  EXPECT_EQ(st.delivered, 2u);
  EXPECT_EQ(st.forged + st.stale_epoch + st.replayed, 1u);
}

TEST(DatagramSocket, SeveralMessagesSmallBufferAndOversize) {
  loopback l;
  // Two messages in one datagram: two receives.
  const std::string m1 = "first", m2 = "second";
  const sealwire::bytes_view two[] = {sealwire::bytes_of(m1), sealwire::bytes_of(m2)};
  std::vector<std::uint8_t> d(1200);
  d.resize(l.a.channel().seal(d, two).value());
  l.a.next_layer().send(asio::buffer(d));
  std::vector<std::uint8_t> buf(100);
  EXPECT_EQ(text(buf, l.b.receive(asio::buffer(buf))), m1);
  EXPECT_EQ(l.b.last_sequence(), 0u);
  std::size_t n = 0;
  l.b.async_receive(asio::buffer(buf), [&](error_code ec, std::size_t k) {
    EXPECT_FALSE(ec);
    n = k;
  });
  ASSERT_TRUE(sealwire::test::runs_to_completion(l.io, 5000ms, "the queued receive"));
  l.io.restart();
  EXPECT_EQ(text(buf, n), m2);
  EXPECT_EQ(l.b.last_sequence(), 1u);

  // A message longer than the receive buffer: message_size, and it is dropped.
  l.a.send(asio::buffer(std::string(50, 'x')));
  error_code ec;
  std::vector<std::uint8_t> tiny(10);
  EXPECT_EQ(l.b.receive(asio::buffer(tiny), ec), 0u);
  EXPECT_EQ(ec, asio::error::message_size);

  // Oversize: refused without sending, completed outside the initiating call.
  const std::string big(2000, 'y');
  EXPECT_THROW(l.a.send(asio::buffer(big)), boost::system::system_error);
  bool done = false;
  l.a.async_send(asio::buffer(big), [&](error_code e, std::size_t k) {
    done = true;
    EXPECT_EQ(std::error_code(e), std::error_code(sealwire::datagram_errc::message_too_large));
    EXPECT_EQ(k, 0u);
  });
  EXPECT_FALSE(done);
  ASSERT_TRUE(sealwire::test::runs_to_completion(l.io, 5000ms, "the refused send"));
  EXPECT_TRUE(done);
}

}  // namespace
