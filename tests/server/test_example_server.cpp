// SPDX-License-Identifier: Apache-2.0
// The example server of docs/embedding.md (examples/server), driven in
// process: many clients at once, the timeouts, backpressure, the client
// allow-list, key rotation, a graceful stop, and a tampered record counted
// as an authentication failure. No test asserts a duration: timeouts are set
// short so that the tests finish soon, and each check is on what happened.
// Every timeout and deadline is scaled by SEALWIRE_TEST_TIMEOUT_SCALE
// (deadlines.hpp), and every blocking call has a deadline, so that a hung
// handshake fails the test instead of holding the binary.
#include "deadlines.hpp"
#include "echo_server.hpp"

#include <sealwire/crypto/random.hpp>
#include <sealwire/record/stream.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <latch>
#include <set>
#include <thread>
#include <vector>

namespace sealwire::examples::test {
namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;
using namespace std::chrono_literals;
constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);
using sealwire::test::deadline_guard;
using sealwire::test::scaled;

constexpr int many_clients = sealwire::test::sanitizer_build ? 12 : 48;

std::shared_ptr<const hpke::private_key> new_key() {
  return std::make_shared<const hpke::private_key>(hpke::generate_key_pair().value().priv);
}

std::shared_ptr<const record::server_config> server_config(std::shared_ptr<const hpke::private_key> key) {
  auto cfg = std::make_shared<record::server_config>();
  cfg->static_key = std::move(key);
  return cfg;
}

std::shared_ptr<const record::client_config> client_config(const hpke::public_key& server_key,
                                                           std::shared_ptr<const hpke::private_key> client_key = {}) {
  auto cfg = std::make_shared<record::client_config>();
  cfg->server_key = server_key;
  cfg->client_key = std::move(client_key);
  return cfg;
}

server_settings settings_for(std::shared_ptr<const record::server_config> cfg) {
  server_settings s;
  s.config = std::move(cfg);
  s.threads = 2;
  s.handshake_timeout = scaled(s.handshake_timeout);
  s.idle_timeout = scaled(s.idle_timeout);
  s.close_timeout = scaled(2s);  // clients that do not answer a close record hold stop() no longer
  return s;
}

std::vector<std::uint8_t> random_message(std::size_t n) {
  std::vector<std::uint8_t> m(n);
  crypto::random_bytes(m).value();
  return m;
}

// A blocking client on its own io_context.
struct client {
  asio::io_context io;
  record::stream<tcp::socket> stream{io};

  error_code connect(const tcp::endpoint& server, std::shared_ptr<const record::client_config> cfg) {
    error_code ec;
    stream.next_layer().connect(server, ec);
    if (ec) return ec;
    deadline_guard guard({stream.next_layer().native_handle()}, 10s, "the client's handshake");
    stream.handshake(std::move(cfg), ec);
    return ec;
  }
  std::vector<std::uint8_t> echo(const std::vector<std::uint8_t>& m) {
    deadline_guard guard({stream.next_layer().native_handle()}, 10s, "the echo");
    asio::write(stream, asio::buffer(m));
    std::vector<std::uint8_t> back(m.size());
    asio::read(stream, asio::buffer(back));
    return back;
  }
  // read_to_end reads until an error and returns it (eof after a close record).
  error_code read_to_end() {
    std::array<std::uint8_t, 4096> buf;
    error_code ec;
    deadline_guard guard({stream.next_layer().native_handle()}, 10s, "reading to the end");
    while (!ec) (void)stream.read_some(asio::buffer(buf), ec);
    return ec;
  }
};

TEST(ExampleServer, ServesManyClientsAtOnce) {
  const auto key = new_key();
  echo_server server(settings_for(server_config(key)));
  server.start();
  const auto ccfg = client_config(key->public_key());

  // Every client runs concurrently as a coroutine on one io_context:
  // connect, handshake, echo three messages (one byte, one TCP segment's
  // payload, and a message of several records), close and read to the end.
  asio::io_context io;
  std::atomic<int> ok{0};
  std::vector<std::string> failures;
  std::mutex failures_mutex;
  for (int i = 0; i < many_clients; ++i) {
    asio::co_spawn(
        io,
        [&, ep = server.local_endpoint()]() -> asio::awaitable<void> {
          record::stream<tcp::socket> s(co_await asio::this_coro::executor);
          co_await s.next_layer().async_connect(ep, asio::use_awaitable);
          co_await s.async_handshake(ccfg, asio::use_awaitable);
          for (std::size_t size : {std::size_t{1}, std::size_t{1448}, std::size_t{40'000}}) {
            const auto m = random_message(size);
            co_await asio::async_write(s, asio::buffer(m), asio::use_awaitable);
            std::vector<std::uint8_t> back(size);
            co_await asio::async_read(s, asio::buffer(back), asio::use_awaitable);
            if (back != m) throw std::runtime_error("echo differs at size " + std::to_string(size));
          }
          co_await s.async_shutdown(asio::use_awaitable);
          std::array<std::uint8_t, 64> buf;
          auto [ec, n] = co_await s.async_read_some(asio::buffer(buf), use_tuple);
          if (ec != asio::error::eof) throw std::runtime_error("expected the server's close record: " + ec.message());
          ++ok;
        },
        [&](std::exception_ptr e) {
          if (!e) return;
          try {
            std::rethrow_exception(e);
          } catch (const std::exception& x) {
            const std::lock_guard lock(failures_mutex);
            failures.push_back(x.what());
          }
        });
  }
  ASSERT_TRUE(sealwire::test::runs_to_completion(io, 60s, "the clients"));
  EXPECT_TRUE(failures.empty()) << failures.front();
  EXPECT_EQ(ok.load(), many_clients);
  server.stop();
  const auto c = server.counters();
  EXPECT_EQ(c.accepted, std::uint64_t(many_clients));
  EXPECT_EQ(c.handshakes, std::uint64_t(many_clients));
  EXPECT_EQ(c.closed_cleanly, std::uint64_t(many_clients));
  EXPECT_EQ(c.active, 0u);
}

TEST(ExampleServer, ClientSilentInHandshakeTimesOut) {
  const auto key = new_key();
  auto s = settings_for(server_config(key));
  s.handshake_timeout = scaled(100ms);
  echo_server server(s);
  server.start();
  asio::io_context io;
  tcp::socket raw(io);
  raw.connect(server.local_endpoint());
  // Send nothing: the server closes the connection when the timeout passes.
  std::array<std::uint8_t, 16> buf;
  error_code ec;
  {
    deadline_guard guard({raw.native_handle()}, 10s, "the server closing a silent connection");
    (void)raw.read_some(asio::buffer(buf), ec);
  }
  EXPECT_TRUE(ec == asio::error::eof || ec == asio::error::connection_reset) << ec.message();
  server.stop();
  const auto c = server.counters();
  EXPECT_EQ(c.timeouts, 1u);
  EXPECT_EQ(c.handshakes, 0u);
}

TEST(ExampleServer, IdleClientTimesOut) {
  const auto key = new_key();
  auto s = settings_for(server_config(key));
  s.idle_timeout = scaled(100ms);
  echo_server server(s);
  server.start();
  client cl;
  ASSERT_FALSE(cl.connect(server.local_endpoint(), client_config(key->public_key())));
  // Idle: the server drops the connection; without a close record the
  // client sees a truncated stream, not a clean end.
  const auto ec = cl.read_to_end();
  EXPECT_TRUE(ec == record_errc::truncated || ec == asio::error::connection_reset) << ec.message();
  server.stop();
  EXPECT_EQ(server.counters().timeouts, 1u);
}

TEST(ExampleServer, ClientThatStopsReadingRunsIntoTheIdleTimeout) {
  // Backpressure: the server writes an echo only as fast as the client takes
  // it and reads no more meanwhile. A client that sends without reading
  // fills both directions' socket buffers; the server's write then waits
  // and the idle timeout ends the connection.
  const auto key = new_key();
  auto s = settings_for(server_config(key));
  s.idle_timeout = scaled(200ms);
  echo_server server(s);
  server.start();
  client cl;
  ASSERT_FALSE(cl.connect(server.local_endpoint(), client_config(key->public_key())));
  const auto chunk = random_message(256 * 1024);
  error_code ec;
  {
    deadline_guard guard({cl.stream.next_layer().native_handle()}, 30s, "the server ending a client that stopped reading");
    for (int i = 0; i < 4096 && !ec; ++i) asio::write(cl.stream, asio::buffer(chunk), ec);  // 1 GiB at most
  }
  EXPECT_TRUE(ec) << "the server never stopped taking data";
  server.stop();
  const auto c = server.counters();
  EXPECT_EQ(c.timeouts, 1u);
  EXPECT_EQ(c.active, 0u);
}

TEST(ExampleServer, AllowListAdmitsOnlyListedClients) {
  const auto key = new_key();
  const auto allowed_key = new_key();
  const auto other_key = new_key();
  auto cfg = std::make_shared<record::server_config>();
  cfg->static_key = key;
  cfg->require_client_auth = true;
  const auto allowed_pub = allowed_key->public_key();
  cfg->accept_client = [allowed = std::vector<std::uint8_t>(allowed_pub.bytes().begin(), allowed_pub.bytes().end())](
                           std::span<const std::uint8_t> k) { return std::equal(k.begin(), k.end(), allowed.begin(), allowed.end()); };
  echo_server server(settings_for(cfg));
  server.start();

  client listed;
  ASSERT_FALSE(listed.connect(server.local_endpoint(), client_config(key->public_key(), allowed_key)));
  const auto m = random_message(100);
  EXPECT_EQ(listed.echo(m), m);

  client unlisted;
  error_code ec = unlisted.connect(server.local_endpoint(), client_config(key->public_key(), other_key));
  if (!ec) ec = unlisted.read_to_end();  // the refusal may arrive after the client's last flight
  // The server refuses by closing: this protocol version sends no error.
  EXPECT_EQ(ec, record_errc::truncated) << "an unlisted client: " << ec.message();

  client anonymous;
  ec = anonymous.connect(server.local_endpoint(), client_config(key->public_key()));
  if (!ec) ec = anonymous.read_to_end();
  EXPECT_EQ(ec, record_errc::truncated) << "an anonymous client: " << ec.message();

  listed.stream.shutdown();
  EXPECT_EQ(listed.read_to_end(), asio::error::eof);
  server.stop();
  const auto c = server.counters();
  EXPECT_EQ(c.handshakes, 1u);
  EXPECT_EQ(c.closed_cleanly, 1u);
  EXPECT_EQ(c.protocol_errors, 2u);  // handshake_failed (refused by the policy), client_auth_required
}

TEST(ExampleServer, KeyRotationAppliesToNewConnectionsOnly) {
  const auto old_key = new_key();
  const auto new_key_ = new_key();
  echo_server server(settings_for(server_config(old_key)));
  server.start();

  client before;  // connected under the old key
  ASSERT_FALSE(before.connect(server.local_endpoint(), client_config(old_key->public_key())));
  server.replace_config(server_config(new_key_));

  client pinned_old;  // a client that still pins only the old key is refused, silently (protocol v2 3.4)
  error_code ec = pinned_old.connect(server.local_endpoint(), client_config(old_key->public_key()));
  if (!ec) ec = pinned_old.read_to_end();
  EXPECT_EQ(ec, record_errc::truncated) << ec.message();

  client pinned_new;
  ASSERT_FALSE(pinned_new.connect(server.local_endpoint(), client_config(new_key_->public_key())));
  const auto m = random_message(1448);
  EXPECT_EQ(pinned_new.echo(m), m);
  EXPECT_EQ(before.echo(m), m);  // the open connection kept its keys

  server.stop();  // both get close records
  EXPECT_EQ(pinned_new.read_to_end(), asio::error::eof);
  EXPECT_EQ(before.read_to_end(), asio::error::eof);
}

TEST(ExampleServer, StopSendsCloseRecordsAndWaitsForTheClients) {
  const auto key = new_key();
  echo_server server(settings_for(server_config(key)));
  server.start();
  constexpr int n = 6;
  std::latch connected(n);
  std::atomic<int> clean{0};
  asio::io_context io;
  for (int i = 0; i < n; ++i) {
    asio::co_spawn(
        io,
        [&, ep = server.local_endpoint(), ccfg = client_config(key->public_key())]() -> asio::awaitable<void> {
          record::stream<tcp::socket> s(co_await asio::this_coro::executor);
          co_await s.next_layer().async_connect(ep, asio::use_awaitable);
          co_await s.async_handshake(ccfg, asio::use_awaitable);
          connected.count_down();
          // Wait for the server: its close record ends this read with eof.
          std::array<std::uint8_t, 64> buf;
          auto [ec, got] = co_await s.async_read_some(asio::buffer(buf), use_tuple);
          if (ec == asio::error::eof) {
            co_await s.async_shutdown(asio::use_awaitable);  // answer with ours
            ++clean;
          }
        },
        asio::detached);
  }
  std::thread clients([&] { io.run(); });
  // An early return must not leave the thread joinable: it is stopped then.
  sealwire::test::scope_exit join_clients([&] {
    if (!clients.joinable()) return;
    io.stop();
    clients.join();
  });
  const auto until = std::chrono::steady_clock::now() + scaled(10s);
  while (!connected.try_wait() && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(5ms);
  ASSERT_TRUE(connected.try_wait()) << "the clients did not all connect within "
                                    << sealwire::test::describe_deadline(10s);
  server.stop();
  clients.join();
  EXPECT_EQ(clean.load(), n);
  const auto c = server.counters();
  EXPECT_EQ(c.closed_cleanly, std::uint64_t(n));
  EXPECT_EQ(c.active, 0u);
}

TEST(ExampleServer, StopDoesNotWaitForeverForAClientThatNeverCloses) {
  const auto key = new_key();
  auto s = settings_for(server_config(key));
  s.close_timeout = scaled(100ms);
  echo_server server(s);
  server.start();
  client cl;  // handshakes, then neither reads nor closes
  ASSERT_FALSE(cl.connect(server.local_endpoint(), client_config(key->public_key())));
  server.stop();
  EXPECT_EQ(server.counters().timeouts, 1u);
  EXPECT_EQ(cl.read_to_end(), asio::error::eof);  // the close record was sent before the timeout
}

TEST(ExampleServer, RefusesConnectionsOverTheLimit) {
  const auto key = new_key();
  auto s = settings_for(server_config(key));
  s.max_connections = 1;
  echo_server server(s);
  server.start();
  client first;
  ASSERT_FALSE(first.connect(server.local_endpoint(), client_config(key->public_key())));
  client second;
  const error_code ec = second.connect(server.local_endpoint(), client_config(key->public_key()));
  EXPECT_TRUE(ec && ec != asio::error::eof) << "a connection over the limit was served";
  const auto m = random_message(10);
  EXPECT_EQ(first.echo(m), m);
  server.stop();
  const auto c = server.counters();
  EXPECT_EQ(c.refused_busy, 1u);
  EXPECT_EQ(c.handshakes, 1u);
}

TEST(ExampleServer, TamperedRecordCountsAsAuthenticationFailure) {
  const auto key = new_key();
  echo_server server(settings_for(server_config(key)));
  server.start();
  // A client on the sans-IO connection, so that the test can flip a bit of
  // a sealed record before it goes out.
  asio::io_context io;
  tcp::socket sock(io);
  sock.connect(server.local_endpoint());
  deadline_guard guard({sock.native_handle()}, 20s, "the handshake and the server dropping the connection");
  auto conn = record::connection::client(client_config(key->public_key())).value();
  std::array<std::uint8_t, 4096> buf;
  while (!conn.handshake_complete()) {
    while (!conn.pending().empty()) {
      const auto p = conn.pending();
      asio::write(sock, asio::buffer(p.data(), p.size()));
      conn.consume(p.size());
    }
    if (conn.handshake_complete()) break;
    const std::size_t n = sock.read_some(asio::buffer(buf));
    std::size_t used = 0;
    while (used < n) {
      const std::size_t took = conn.receive(bytes_view(buf.data() + used, n - used)).value();
      if (took == 0) break;
      used += took;
    }
    ASSERT_EQ(used, n);
  }
  const auto m = random_message(300);
  ASSERT_EQ(conn.write(bytes_view(m.data(), m.size())).value(), m.size());
  std::vector<std::uint8_t> wire(conn.pending().begin(), conn.pending().end());
  wire[wire.size() - 20] ^= 0x01;  // a bit of the ciphertext
  asio::write(sock, asio::buffer(wire));
  error_code ec;
  while (!ec) (void)sock.read_some(asio::buffer(buf), ec);  // the server drops the connection
  server.stop();
  const auto c = server.counters();
  EXPECT_EQ(c.authentication_failures, 1u);
  EXPECT_EQ(c.closed_cleanly, 0u);
}

}  // namespace
}  // namespace sealwire::examples::test
