// SPDX-License-Identifier: Apache-2.0
// sealwire::record::stream over Asio: socketpairs and loopback TCP, sync and
// async (callbacks, coroutines, futures), shutdown, cancellation, EOF.
#include "stream_pair.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/local/connect_pair.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/asio/write.hpp>

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <future>
#include <random>
#include <stdexcept>
#include <thread>

namespace sealwire::record::test {
namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using namespace std::chrono_literals;
using sealwire::test::deadline_guard;
using sealwire::test::ready_within;
using sealwire::test::runs_to_completion;
using sealwire::test::shutdown_on_exit;

// Every blocking call and every wait below has a deadline (scaled by
// SEALWIRE_TEST_TIMEOUT_SCALE), and every socket another thread may be
// blocked on is shut down when the test's scope exits, so that a regression
// (a handshake that never completes, a read that never returns) fails the
// test with a message instead of hanging the binary.

TEST(RecordStream, SyncOverASocketpair) {
  fixture_keys k;
  asio::io_context io;
  stream<local_socket> a(io), b(io);
  asio::local::connect_pair(a.next_layer(), b.next_layer());
  const bytes up = pattern(300000), down = pattern(5000);
  auto server = std::async(std::launch::async, [&] {
    b.handshake(k.sc);
    bytes got(up.size());
    asio::read(b, asio::buffer(got));
    asio::write(b, asio::buffer(down));
    b.shutdown();
    boost::system::error_code ec;
    std::uint8_t one;
    const std::size_t n = b.read_some(asio::buffer(&one, 1), ec);
    EXPECT_EQ(n, 0u);
    EXPECT_EQ(ec, asio::error::eof);
    return got;
  });
  shutdown_on_exit unblock_server(a.next_layer(), b.next_layer());
  {
    deadline_guard guard({a.next_layer().native_handle(), b.next_layer().native_handle()}, 30s, "the exchange");
    a.handshake(k.cc);
    EXPECT_EQ(a.native_handle()->aead(), record_aead::chacha20_poly1305);
    asio::write(a, asio::buffer(up));
    bytes got(down.size());
    asio::read(a, asio::buffer(got));
    EXPECT_EQ(got, down);
    boost::system::error_code ec;
    std::uint8_t one;
    EXPECT_EQ(a.read_some(asio::buffer(&one, 1), ec), 0u);
    EXPECT_EQ(ec, asio::error::eof);  // the server's close record, then its end
    a.shutdown();
  }
  ASSERT_TRUE(ready_within(server, 10s, "the server's side"));
  EXPECT_EQ(server.get(), up);
}

// A synchronous reader over loopback TCP that sometimes finds the next
// record already there and sometimes gives up its turn, finds nothing and
// blocks (the writer pauses): every byte arrives in order, whatever the write
// and read sizes, and the writer's close ends the reads with eof.
TEST(RecordStream, SyncReaderOverLoopbackTcpThroughBurstsAndPauses) {
  fixture_keys k;
  asio::io_context io;
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::address_v4::loopback(), 0));
  stream<tcp::socket> reader(io), writer(io);
  writer.next_layer().connect(acceptor.local_endpoint());
  acceptor.accept(reader.next_layer());
  const bytes data = pattern(1500000);
  auto sent = std::async(std::launch::async, [&] {
    writer.handshake(k.cc);
    std::mt19937 rng(2201);
    std::size_t at = 0;
    while (at < data.size()) {
      const std::size_t n = std::min(data.size() - at, std::size_t{1} + rng() % 40000);
      asio::write(writer, asio::buffer(data.data() + at, n));
      at += n;
      if (rng() % 8 == 0) std::this_thread::sleep_for(2ms);  // the reader drains and blocks
    }
    writer.shutdown();
    return at;
  });
  shutdown_on_exit unblock(reader.next_layer(), writer.next_layer());
  deadline_guard guard({reader.next_layer().native_handle(), writer.next_layer().native_handle()}, 30s,
                       "the transfer");
  reader.handshake(k.sc);
  std::mt19937 rng(2202);
  bytes got;
  bytes buf(70000);
  boost::system::error_code ec;
  for (;;) {
    const std::size_t want = 1 + rng() % buf.size();
    const std::size_t n = reader.read_some(asio::buffer(buf.data(), want), ec);
    if (ec) break;
    ASSERT_NE(n, 0u);
    got.insert(got.end(), buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n));
  }
  EXPECT_EQ(ec, asio::error::eof);
  ASSERT_TRUE(ready_within(sent, 10s, "the writer"));
  EXPECT_EQ(sent.get(), data.size());
  EXPECT_EQ(got.size(), data.size());
  EXPECT_TRUE(got == data);
}

// The deadlines themselves: a handshake whose peer never answers fails at
// its deadline with a message naming it, instead of hanging the binary.
TEST(RecordStream, AHandshakeThatNeverCompletesFailsAtItsDeadline) {
  fixture_keys k;
  asio::io_context io;
  stream<local_socket> a(io);
  local_socket silent(io);  // connected, never reads or writes
  asio::local::connect_pair(a.next_layer(), silent);
  boost::system::error_code ec;
  EXPECT_NONFATAL_FAILURE(
      {
        deadline_guard guard({a.next_layer().native_handle()}, 200ms, "the silent peer's handshake");
        a.handshake(k.cc, ec);
      },
      "the silent peer's handshake: not done within");
  EXPECT_TRUE(ec) << "a handshake with a silent peer succeeded";
}

TEST(RecordStream, SyncErrorsThrowOrReport) {
  fixture_keys k;
  asio::io_context io;
  stream<local_socket> a(io), b(io);
  asio::local::connect_pair(a.next_layer(), b.next_layer());
  // Before the handshake.
  boost::system::error_code ec;
  std::uint8_t buf[4];
  a.read_some(asio::buffer(buf), ec);
  EXPECT_EQ(ec, record_errc::bad_state);
  EXPECT_THROW(a.write_some(asio::buffer(buf)), boost::system::system_error);
  // A wrong pinned key: the server holds no key the client pinned and ends
  // the connection silently (docs/protocol.md 3.4); the client sees the
  // stream end.
  auto other = make_key(hpke::kem_id::x25519);
  auto server = std::async(std::launch::async, [&] {
    boost::system::error_code sec, ignored;
    b.handshake(k.sc, sec);
    b.next_layer().shutdown(asio::socket_base::shutdown_both, ignored);
    return sec;
  });
  shutdown_on_exit unblock_server(a.next_layer(), b.next_layer());
  {
    deadline_guard guard({a.next_layer().native_handle(), b.next_layer().native_handle()}, 10s, "the handshake");
    a.handshake(client_cfg(*other), ec);
  }
  EXPECT_EQ(ec, record_errc::truncated);
  a.next_layer().close();
  ASSERT_TRUE(ready_within(server, 10s, "the server's handshake after the client closed"));
  EXPECT_EQ(server.get(), record_errc::unknown_server_key);
}

TEST(RecordStream, AsyncCallbacksOverLoopbackTcp) {
  fixture_keys k;
  asio::io_context io;
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::address_v4::loopback(), 0));
  stream<tcp::socket> server(io), client(io);
  const bytes up = pattern(200000), down = pattern(100000);
  bytes server_got(up.size()), client_got(down.size());
  boost::system::error_code server_ec, client_ec;
  bool server_done = false, client_done = false;

  acceptor.async_accept(server.next_layer(), [&](boost::system::error_code ec) {
    ASSERT_FALSE(ec);
    server.async_handshake(k.sc, [&](boost::system::error_code hec) {
      ASSERT_FALSE(hec) << hec.message();
      asio::async_read(server, asio::buffer(server_got), [&](boost::system::error_code rec, std::size_t) {
        ASSERT_FALSE(rec) << rec.message();
        asio::async_write(server, asio::buffer(down), [&](boost::system::error_code wec, std::size_t) {
          ASSERT_FALSE(wec);
          server.async_shutdown([&](boost::system::error_code sec) {
            server_ec = sec;
            server_done = true;
          });
        });
      });
    });
  });
  client.next_layer().async_connect(acceptor.local_endpoint(), [&](boost::system::error_code ec) {
    ASSERT_FALSE(ec);
    client.async_handshake(k.cc, [&](boost::system::error_code hec) {
      ASSERT_FALSE(hec) << hec.message();
      asio::async_write(client, asio::buffer(up), [&](boost::system::error_code wec, std::size_t n) {
        ASSERT_FALSE(wec);
        EXPECT_EQ(n, up.size());
        asio::async_read(client, asio::buffer(client_got), [&](boost::system::error_code rec, std::size_t) {
          ASSERT_FALSE(rec);
          std::uint8_t* one = new std::uint8_t;
          client.async_read_some(asio::buffer(one, 1), [&, one](boost::system::error_code eec, std::size_t n2) {
            delete one;
            EXPECT_EQ(n2, 0u);
            client_ec = eec;
            // The server's shutdown waits for this side's close record.
            client.async_shutdown([&](boost::system::error_code sec) {
              EXPECT_FALSE(sec) << sec.message();
              client_done = true;
            });
          });
        });
      });
    });
  });
  ASSERT_TRUE(runs_to_completion(io, 30s, "the exchange over TCP"));
  EXPECT_TRUE(server_done && client_done);
  EXPECT_FALSE(server_ec);
  EXPECT_EQ(client_ec, asio::error::eof);
  EXPECT_EQ(server_got, up);
  EXPECT_EQ(client_got, down);
}

TEST(RecordStream, Coroutines) {
  fixture_keys k;
  asio::io_context io;
  stream<local_socket> a(io), b(io);
  asio::local::connect_pair(a.next_layer(), b.next_layer());
  bytes echoed;
  auto server = [&]() -> asio::awaitable<void> {
    co_await b.async_handshake(k.sc, asio::use_awaitable);
    std::uint8_t buf[1000];
    for (;;) {
      auto [ec, n] = co_await b.async_read_some(asio::buffer(buf), asio::as_tuple(asio::use_awaitable));
      if (ec == asio::error::eof) break;
      EXPECT_FALSE(ec) << ec.message();
      if (ec) break;
      co_await asio::async_write(b, asio::buffer(buf, n), asio::use_awaitable);
    }
    co_await b.async_shutdown(asio::use_awaitable);
  };
  auto client = [&]() -> asio::awaitable<void> {
    co_await a.async_handshake(k.cc, asio::use_awaitable);
    const bytes msg = pattern(50000);
    co_await asio::async_write(a, asio::buffer(msg), asio::use_awaitable);
    // A half close: send the close record, keep reading (the server echoes,
    // then answers with its close).
    co_await a.async_shutdown(record::shutdown_mode::send_only, asio::use_awaitable);
    echoed.resize(msg.size());
    co_await asio::async_read(a, asio::buffer(echoed), asio::use_awaitable);
    EXPECT_EQ(echoed, msg);
  };
  asio::co_spawn(io, server(), [](std::exception_ptr e) { EXPECT_FALSE(e); });
  asio::co_spawn(io, client(), [](std::exception_ptr e) { EXPECT_FALSE(e); });
  ASSERT_TRUE(runs_to_completion(io, 30s, "the coroutines"));
  EXPECT_EQ(echoed.size(), 50000u);
}

TEST(RecordStream, Futures) {
  fixture_keys k;
  asio::io_context io;
  stream<local_socket> a(io), b(io);
  asio::local::connect_pair(a.next_layer(), b.next_layer());
  auto work = asio::make_work_guard(io);
  std::thread runner([&] { io.run(); });
  // However the test ends (an ASSERT below returns early), the runner is
  // stopped and joined before the streams and the io_context go.
  sealwire::test::scope_exit join_runner([&] {
    work.reset();
    io.stop();
    runner.join();
  });
  auto hs_server = b.async_handshake(k.sc, asio::use_future);
  auto hs_client = a.async_handshake(k.cc, asio::use_future);
  ASSERT_TRUE(ready_within(hs_client, 10s, "the client's handshake"));
  ASSERT_TRUE(ready_within(hs_server, 10s, "the server's handshake"));
  EXPECT_NO_THROW(hs_client.get());
  EXPECT_NO_THROW(hs_server.get());
  const bytes msg = pattern(1234);
  auto w = asio::async_write(a, asio::buffer(msg), asio::use_future);
  bytes got(msg.size());
  auto r = asio::async_read(b, asio::buffer(got), asio::use_future);
  ASSERT_TRUE(ready_within(w, 10s, "the write"));
  ASSERT_TRUE(ready_within(r, 10s, "the read"));
  EXPECT_EQ(w.get(), msg.size());
  EXPECT_EQ(r.get(), msg.size());
  EXPECT_EQ(got, msg);
  // An error through a future: reading past the peer's close.
  auto closing = a.async_shutdown(record::shutdown_mode::send_only, asio::use_future);
  ASSERT_TRUE(ready_within(closing, 10s, "the shutdown"));
  EXPECT_NO_THROW(closing.get());
  std::uint8_t one;
  auto eof = b.async_read_some(asio::buffer(&one, 1), asio::use_future);
  ASSERT_TRUE(ready_within(eof, 10s, "the read past the close"));
  EXPECT_THROW(eof.get(), boost::system::system_error);
}

TEST(RecordStream, NeverCompletesInsideTheInitiatingCall) {
  fixture_keys k;
  asio::io_context io;
  stream<local_socket> a(io), b(io);
  asio::local::connect_pair(a.next_layer(), b.next_layer());
  auto server = std::async(std::launch::async, [&] { b.handshake(k.sc); asio::write(b, asio::buffer(pattern(100))); });
  shutdown_on_exit unblock_server(a.next_layer(), b.next_layer());
  {
    deadline_guard guard({a.next_layer().native_handle(), b.next_layer().native_handle()}, 10s, "the handshake");
    a.handshake(k.cc);
  }
  ASSERT_TRUE(ready_within(server, 10s, "the server's handshake and write"));
  server.get();
  std::uint8_t buf[10];
  // completes_later starts an operation whose handler expects (error, size)
  // and checks that the handler runs from the io_context, not inside the call.
  auto completes_later = [&](auto initiate, boost::system::error_code want_ec, std::size_t want_n) {
    bool done = false;
    initiate([&](boost::system::error_code ec, std::size_t n) {
      EXPECT_EQ(ec, want_ec);
      EXPECT_EQ(n, want_n);
      done = true;
    });
    EXPECT_FALSE(done);
    io.restart();
    EXPECT_TRUE(runs_to_completion(io, 10s, "the operation"));
    EXPECT_TRUE(done);
  };
  auto read10 = [&](auto handler) { a.async_read_some(asio::buffer(buf), handler); };
  completes_later(read10, {}, 10);
  // Now 90 bytes are already decrypted: the data is ready, yet the handler
  // must still run later, from the io_context.
  completes_later(read10, {}, 10);
  // A zero-length write, and an error known at initiation (a closed stream).
  completes_later([&](auto handler) { a.async_write_some(asio::buffer(buf, 0), handler); }, {}, 0);
  ASSERT_NO_THROW(a.shutdown());
  completes_later([&](auto handler) { a.async_write_some(asio::buffer(buf), handler); },
                  make_error_code(record_errc::closed), 0);
}

TEST(RecordStream, CancelledReadCanBeRepeated) {
  handshaken_pair p;
  auto& io = p.io;
  auto& a = p.a;
  auto& b = p.b;
  asio::cancellation_signal cancel;
  std::uint8_t buf[100];
  boost::system::error_code first;
  a.async_read_some(asio::buffer(buf), asio::bind_cancellation_slot(cancel.slot(), [&](boost::system::error_code ec, std::size_t) {
                      first = ec;
                    }));
  io.poll();
  // Half a record arrives, then the read is cancelled.
  bytes wire;
  {
    auto* conn = b.native_handle();
    ASSERT_TRUE(conn->write(to_bytes("after cancellation")).has_value());
    wire = take_pending(*conn);
  }
  asio::write(b.next_layer(), asio::buffer(wire.data(), 10));
  for (int i = 0; i < 100 && a.next_layer().available() != 0; ++i) {
    io.poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_EQ(a.next_layer().available(), 0u);  // the stream took the partial record
  cancel.emit(asio::cancellation_type::terminal);
  ASSERT_TRUE(runs_to_completion(io, 10s, "the cancelled read"));
  EXPECT_EQ(first, asio::error::operation_aborted);
  // The rest arrives; a new read gets the whole record.
  io.restart();
  asio::write(b.next_layer(), asio::buffer(wire.data() + 10, wire.size() - 10));
  std::size_t n = 0;
  a.async_read_some(asio::buffer(buf), [&](boost::system::error_code ec, std::size_t got) {
    EXPECT_FALSE(ec) << ec.message();
    n = got;
  });
  ASSERT_TRUE(runs_to_completion(io, 10s, "the repeated read"));
  EXPECT_EQ(std::string(buf, buf + n), "after cancellation");
}

TEST(RecordStream, EndOfInputMidRecordIsTruncated) {
  handshaken_pair p;
  auto& io = p.io;
  auto& a = p.a;
  auto& b = p.b;
  auto* conn = b.native_handle();
  ASSERT_TRUE(conn->write(pattern(500)).has_value());
  const bytes wire = take_pending(*conn);
  asio::write(b.next_layer(), asio::buffer(wire.data(), wire.size() - 1));
  b.next_layer().close();
  boost::system::error_code ec;
  bool done = false;
  std::uint8_t buf[1000];
  a.async_read_some(asio::buffer(buf), [&](boost::system::error_code e, std::size_t n) {
    ec = e;
    EXPECT_EQ(n, 0u);
    done = true;
  });
  ASSERT_TRUE(runs_to_completion(io, 10s, "the read"));
  EXPECT_TRUE(done);
  EXPECT_EQ(ec, record_errc::truncated);
  // Sticky: the sync form reports the same.
  a.read_some(asio::buffer(buf), ec);
  EXPECT_EQ(ec, record_errc::truncated);
}

TEST(RecordStream, TamperedRecordOnTheWireFailsTheRead) {
  handshaken_pair p;
  auto& a = p.a;
  auto& b = p.b;
  auto* conn = b.native_handle();
  ASSERT_TRUE(conn->write(to_bytes("first")).has_value());
  ASSERT_TRUE(conn->write(to_bytes("second")).has_value());
  bytes wire = take_pending(*conn);
  wire.back() ^= 0x80;
  asio::write(b.next_layer(), asio::buffer(wire));
  std::uint8_t buf[100];
  boost::system::error_code ec;
  deadline_guard guard({a.next_layer().native_handle()}, 10s, "the reads");
  const std::size_t n = a.read_some(asio::buffer(buf), ec);
  EXPECT_FALSE(ec);
  EXPECT_EQ(std::string(buf, buf + n), "first");
  EXPECT_EQ(a.read_some(asio::buffer(buf), ec), 0u);
  EXPECT_EQ(ec, record_errc::bad_record_mac);
}

TEST(RecordStream, KeyUpdateThroughTheStreamAndDataAfterCloseIsAnError) {
  handshaken_pair p;
  auto& a = p.a;
  auto& b = p.b;
  deadline_guard guard({b.next_layer().native_handle()}, 10s, "the reads");
  a.update_keys();
  asio::write(a, asio::buffer(to_bytes("after update")));
  std::uint8_t buf[100];
  std::size_t n = b.read_some(asio::buffer(buf));
  EXPECT_EQ(std::string(buf, buf + n), "after update");
  // A close record followed by more bytes: an error, not a clean end of file.
  a.shutdown();
  asio::write(a.next_layer(), asio::buffer(std::string("junk")));
  boost::system::error_code ec;
  n = b.read_some(asio::buffer(buf), ec);
  EXPECT_EQ(n, 0u);
  EXPECT_EQ(ec, record_errc::unexpected_record);
}

}  // namespace
}  // namespace sealwire::record::test
