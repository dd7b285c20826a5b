// SPDX-License-Identifier: Apache-2.0
// record::stream's deadlines (handshake, idle, shutdown) and its shutdown
// that waits for the peer's close record. Peers that never answer, stall or
// never close; timers that must not fire after success; cancelled and
// destroyed streams with timers pending. The tests assert errors, never
// times: the stream's deadlines are short so that the tests are quick, and
// every wait of the test itself has a (scaled) deadline.
#include "stream_pair.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/asio/deferred.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/write.hpp>

#include <gtest/gtest.h>

#include <future>
#include <string>
#include <thread>

namespace sealwire::record::test {
namespace {

namespace asio = boost::asio;
using error_code = boost::system::error_code;
using namespace std::chrono_literals;
using sealwire::test::ready_within;
using sealwire::test::runs_to_completion;
using sealwire::test::scaled;

// A deadline for the stream that ends an operation which would otherwise
// wait forever: short, since nothing else is waited for.
constexpr auto short_deadline = 30ms;

// outcome records an operation's completion.
struct outcome {
  bool done = false;
  error_code ec;
  std::size_t n = 0;
  auto handler() {
    return [this](error_code e, std::size_t k = 0) {
      done = true;
      ec = e;
      n = k;
    };
  }
};

// A peer that connects and never sends a byte: the handshake times out, on
// either side, and the stream stays failed (sync and async) afterwards.
TEST(RecordStream, HandshakeTimeoutWhenThePeerNeverAnswers) {
  fixture_keys k;
  asio::io_context io;
  stream<local_socket> client(io), server(io);
  local_socket silent_server(io), silent_client(io);
  asio::local::connect_pair(client.next_layer(), silent_server);
  asio::local::connect_pair(silent_client, server.next_layer());
  client.set_timeouts({.handshake = short_deadline});
  server.set_timeouts({.handshake = short_deadline});
  outcome c, s;
  client.async_handshake(k.cc, [&](error_code ec) { c.handler()(ec); });
  server.async_handshake(k.sc, [&](error_code ec) { s.handler()(ec); });
  ASSERT_TRUE(runs_to_completion(io, 10s, "the handshakes with silent peers"));
  ASSERT_TRUE(c.done && s.done);
  EXPECT_EQ(c.ec, stream_errc::handshake_timeout) << c.ec.message();
  EXPECT_EQ(s.ec, stream_errc::handshake_timeout) << s.ec.message();
  EXPECT_TRUE(std::error_code(c.ec) == std::errc::timed_out);
  EXPECT_EQ(c.ec.message(), "handshake timed out");
  // Sticky: every later operation reports it, the synchronous ones too.
  std::uint8_t buf[8];
  error_code ec;
  EXPECT_EQ(client.read_some(asio::buffer(buf), ec), 0u);
  EXPECT_EQ(ec, stream_errc::handshake_timeout);
  EXPECT_THROW(client.write_some(asio::buffer(buf)), boost::system::system_error);
  client.shutdown(ec);
  EXPECT_EQ(ec, stream_errc::handshake_timeout);
  outcome r;
  io.restart();
  client.async_read_some(asio::buffer(buf), r.handler());
  ASSERT_TRUE(runs_to_completion(io, 10s, "the read after the timeout"));
  EXPECT_EQ(r.ec, stream_errc::handshake_timeout);
}

// A peer that stops sending: the pending read ends with idle_timeout, even
// when half a record arrived first (progress restarts the deadline, then
// nothing more comes). Two threads run the io_context and the reads go
// through a strand, so the timer's handler and the operation's steps must
// not race (TSan).
TEST(RecordStream, IdleTimeoutEndsAReadWhenThePeerStalls) {
  handshaken_pair p;
  p.a.set_timeouts({.idle = short_deadline});
  auto* conn = p.b.native_handle();
  ASSERT_TRUE(conn->write(to_bytes("whole record")).has_value());
  bytes wire = take_pending(*conn);
  ASSERT_TRUE(conn->write(to_bytes("half a record")).has_value());
  const bytes half = take_pending(*conn);
  wire.insert(wire.end(), half.begin(), half.begin() + static_cast<std::ptrdiff_t>(half.size() / 2));
  asio::write(p.b.next_layer(), asio::buffer(wire));
  auto strand = asio::make_strand(p.io);
  std::promise<std::pair<error_code, std::string>> first;
  std::promise<error_code> second;
  std::uint8_t buf[64];
  p.a.async_read_some(asio::buffer(buf), asio::bind_executor(strand, [&](error_code ec, std::size_t n) {
                        first.set_value({ec, std::string(buf, buf + n)});
                        p.a.async_read_some(asio::buffer(buf), asio::bind_executor(strand, [&](error_code ec2, std::size_t) {
                                              second.set_value(ec2);
                                            }));
                      }));
  std::thread runner1([&] { p.io.run(); }), runner2([&] { p.io.run(); });
  auto f1 = first.get_future();
  auto f2 = second.get_future();
  const bool ok = ready_within(f1, 10s, "the first read") && ready_within(f2, 10s, "the stalled read");
  if (!ok) p.io.stop();
  runner1.join();
  runner2.join();
  ASSERT_TRUE(ok);
  EXPECT_EQ(f1.get(), std::make_pair(error_code(), std::string("whole record")));
  EXPECT_EQ(f2.get(), stream_errc::idle_timeout);
  // Sticky for the other direction as well.
  error_code ec;
  p.a.write_some(asio::buffer(buf, 1), ec);
  EXPECT_EQ(ec, stream_errc::idle_timeout);
}

// The timeout arrives through every completion token: a coroutine, a
// future (the io_context on another thread) and a deferred operation.
TEST(RecordStream, IdleTimeoutThroughCoroutinesFuturesAndDeferred) {
  std::uint8_t buf[8];
  {
    handshaken_pair p;
    p.a.set_timeouts({.idle = short_deadline});
    error_code got;
    asio::co_spawn(
        p.io,
        [&]() -> asio::awaitable<void> {
          auto [ec, n] = co_await p.a.async_read_some(asio::buffer(buf), asio::as_tuple(asio::use_awaitable));
          got = ec;
          EXPECT_EQ(n, 0u);
        },
        [](std::exception_ptr e) { EXPECT_FALSE(e); });
    ASSERT_TRUE(runs_to_completion(p.io, 10s, "the coroutine"));
    EXPECT_EQ(got, stream_errc::idle_timeout);
  }
  {
    handshaken_pair p;
    p.a.set_timeouts({.idle = short_deadline});
    auto read = p.a.async_read_some(asio::buffer(buf), asio::use_future);  // started before the runner
    std::thread runner([&] { p.io.run(); });
    sealwire::test::scope_exit join_runner([&] {
      if (!runner.joinable()) return;
      p.io.stop();
      runner.join();
    });
    ASSERT_TRUE(ready_within(read, 10s, "the read"));
    // The runner has no work left once the read completed: join it before
    // get(), so that the promise (and the exception it holds) is released on
    // the runner before the exception is used here. (libstdc++'s exception
    // reference count is invisible to ThreadSanitizer.)
    runner.join();
    try {
      read.get();
      ADD_FAILURE() << "the read did not time out";
    } catch (const boost::system::system_error& e) {
      EXPECT_EQ(e.code(), stream_errc::idle_timeout);
    }
  }
  {
    handshaken_pair p;
    p.a.set_timeouts({.idle = short_deadline});
    auto read = p.a.async_read_some(asio::buffer(buf), asio::deferred);
    outcome r;
    std::move(read)(r.handler());
    ASSERT_TRUE(runs_to_completion(p.io, 10s, "the deferred read"));
    EXPECT_EQ(r.ec, stream_errc::idle_timeout);
  }
}

// A peer that never reads: the write stalls once the socket buffers are
// full, and ends with idle_timeout, reporting how much it took.
TEST(RecordStream, IdleTimeoutEndsAWriteThePeerNeverTakes) {
  handshaken_pair p;
  p.a.set_timeouts({.idle = short_deadline});
  const bytes big = pattern(2 << 20);  // far more than the socket buffers hold
  outcome w;
  asio::async_write(p.a, asio::buffer(big), w.handler());
  ASSERT_TRUE(runs_to_completion(p.io, 10s, "the stalled write"));
  ASSERT_TRUE(w.done);
  EXPECT_EQ(w.ec, stream_errc::idle_timeout) << w.ec.message();
  EXPECT_LT(w.n, big.size());
}

// A peer that never sends its close record: async_shutdown sends ours and
// ends with shutdown_timeout; the peer did get our close.
TEST(RecordStream, ShutdownTimeoutWhenThePeerNeverCloses) {
  handshaken_pair p;
  p.a.set_timeouts({.shutdown = short_deadline});
  outcome s;
  p.a.async_shutdown([&](error_code ec) { s.handler()(ec); });
  ASSERT_TRUE(runs_to_completion(p.io, 10s, "the shutdown"));
  ASSERT_TRUE(s.done);
  EXPECT_EQ(s.ec, stream_errc::shutdown_timeout) << s.ec.message();
  std::uint8_t buf[8];
  error_code ec;
  sealwire::test::deadline_guard guard({p.b.next_layer().native_handle()}, 10s, "the peer's read");
  EXPECT_EQ(p.b.read_some(asio::buffer(buf), ec), 0u);
  EXPECT_EQ(ec, asio::error::eof);
}

// Both sides shut down at once and wait for each other: both succeed, and
// application data that arrives before the peer's close is discarded and
// counted. After the shutdown a read reports eof.
TEST(RecordStream, ShutdownBothWaysDiscardsAndCountsDataBeforeThePeersClose) {
  handshaken_pair p;
  const auto generous = scaled(10s);  // must not expire: success is asserted
  p.a.set_timeouts({.shutdown = generous});
  p.b.set_timeouts({.shutdown = generous});
  const bytes unread = pattern(100000);  // more than one record, more than one socket read
  asio::write(p.b, asio::buffer(unread));
  outcome sa, sb;
  p.a.async_shutdown([&](error_code ec) { sa.handler()(ec); });
  p.b.async_shutdown([&](error_code ec) { sb.handler()(ec); });
  ASSERT_TRUE(runs_to_completion(p.io, 10s, "the shutdowns"));
  ASSERT_TRUE(sa.done && sb.done);
  EXPECT_FALSE(sa.ec) << sa.ec.message();
  EXPECT_FALSE(sb.ec) << sb.ec.message();
  EXPECT_EQ(p.a.bytes_discarded_at_shutdown(), unread.size());
  EXPECT_EQ(p.b.bytes_discarded_at_shutdown(), 0u);
  std::uint8_t buf[8];
  error_code ec;
  EXPECT_EQ(p.a.read_some(asio::buffer(buf), ec), 0u);
  EXPECT_EQ(ec, asio::error::eof);
  EXPECT_EQ(p.b.read_some(asio::buffer(buf), ec), 0u);
  EXPECT_EQ(ec, asio::error::eof);
}

// The peer closed first and this side read to eof: the shutdown only sends
// its close. A peer's close that arrived but was not read yet is read by
// the shutdown (with the data before it).
TEST(RecordStream, ShutdownAfterThePeersClose) {
  handshaken_pair p;
  asio::write(p.b, asio::buffer(std::string("tail")));
  p.b.shutdown();  // send only
  outcome s1;
  p.a.async_shutdown([&](error_code ec) { s1.handler()(ec); });
  ASSERT_TRUE(runs_to_completion(p.io, 10s, "the shutdown"));
  EXPECT_FALSE(s1.ec) << s1.ec.message();
  EXPECT_EQ(p.a.bytes_discarded_at_shutdown(), 4u);
  std::uint8_t buf[8];
  error_code ec;
  EXPECT_EQ(p.b.read_some(asio::buffer(buf), ec), 0u);
  EXPECT_EQ(ec, asio::error::eof);

  // The other way round: read everything up to eof, then shut down.
  handshaken_pair q;
  asio::write(q.b, asio::buffer(std::string("kept")));
  q.b.shutdown();
  std::string got;
  for (;;) {
    const std::size_t n = q.a.read_some(asio::buffer(buf), ec);
    if (ec) break;
    got.append(buf, buf + n);
  }
  EXPECT_EQ(ec, asio::error::eof);
  EXPECT_EQ(got, "kept");
  outcome s2;
  q.a.async_shutdown([&](error_code e) { s2.handler()(e); });
  ASSERT_TRUE(runs_to_completion(q.io, 10s, "the shutdown after eof"));
  EXPECT_FALSE(s2.ec) << s2.ec.message();
  EXPECT_EQ(q.a.bytes_discarded_at_shutdown(), 0u);
}

// The transport ends without the peer's close: the shutdown is truncated.
TEST(RecordStream, ShutdownSeesTheTransportEndWithoutAClose) {
  handshaken_pair p;
  outcome s;
  p.a.async_shutdown([&](error_code ec) { s.handler()(ec); });
  p.io.poll();  // our close is sent, the shutdown reads
  // The peer ends its side of the transport without a close record (a
  // half-closed socket: closing it with our close record unread would reset
  // the connection instead).
  p.b.next_layer().shutdown(local_socket::shutdown_send);
  ASSERT_TRUE(runs_to_completion(p.io, 10s, "the shutdown"));
  ASSERT_TRUE(s.done);
  EXPECT_EQ(s.ec, record_errc::truncated) << s.ec.message();
}

// Waiting for the peer's close reads, so it is refused while a read is
// outstanding (and changes nothing); the half close is what a writer beside
// a reader uses.
TEST(RecordStream, ShutdownWaitingForThePeerIsRefusedWhileAReadIsOutstanding) {
  handshaken_pair p;
  std::uint8_t buf[8];
  outcome r, refused, half;
  p.a.async_read_some(asio::buffer(buf), r.handler());
  p.a.async_shutdown([&](error_code ec) { refused.handler()(ec); });
  p.io.poll();
  EXPECT_TRUE(refused.done);
  EXPECT_EQ(refused.ec, stream_errc::read_in_progress);
  EXPECT_FALSE(r.done);
  EXPECT_FALSE(p.a.native_handle()->closed());  // nothing was sent
  p.a.async_shutdown(shutdown_mode::send_only, [&](error_code ec) { half.handler()(ec); });
  p.b.shutdown();  // the peer answers: the outstanding read sees eof
  ASSERT_TRUE(runs_to_completion(p.io, 10s, "the half close and the read"));
  EXPECT_FALSE(half.ec) << half.ec.message();
  EXPECT_EQ(r.ec, asio::error::eof);
  error_code ec;
  EXPECT_EQ(p.b.read_some(asio::buffer(buf), ec), 0u);
  EXPECT_EQ(ec, asio::error::eof);
}

// Deadlines end with their operation: after each operation succeeds, the
// next one on the same lane waits well past the earlier deadline and still
// succeeds (a leaked timer would cancel it with the earlier timeout).
TEST(RecordStream, TimersDoNotFireAfterSuccess) {
  fixture_keys k;
  asio::io_context io;
  stream<local_socket> a(io), b(io);
  asio::local::connect_pair(a.next_layer(), b.next_layer());
  const auto t = scaled(50ms);
  const auto later = t + t / 2;
  a.set_timeouts({.handshake = t, .idle = t, .shutdown = t});
  b.set_timeouts({.handshake = scaled(10s)});
  outcome ha, hb;
  a.async_handshake(k.cc, [&](error_code ec) { ha.handler()(ec); });
  b.async_handshake(k.sc, [&](error_code ec) { hb.handler()(ec); });
  ASSERT_TRUE(runs_to_completion(io, 10s, "the handshakes"));
  ASSERT_FALSE(ha.ec) << ha.ec.message();
  ASSERT_FALSE(hb.ec) << hb.ec.message();

  // sends_later writes text from b once `later` has passed.
  asio::steady_timer delay(io);
  auto sends_later = [&](std::string text) {
    delay.expires_after(later);
    delay.async_wait([&, text](error_code) { asio::write(b, asio::buffer(text)); });
  };

  // The handshake's deadline is over: a read without an idle deadline waits
  // past it.
  a.set_timeouts({.shutdown = t});
  std::uint8_t buf[64];
  outcome r1;
  io.restart();
  a.async_read_some(asio::buffer(buf), r1.handler());
  sends_later("late");
  ASSERT_TRUE(runs_to_completion(io, 10s, "the read after the handshake"));
  EXPECT_FALSE(r1.ec) << r1.ec.message();
  EXPECT_EQ(std::string(buf, buf + r1.n), "late");

  // A read and a write that succeed within their idle deadline, then the
  // same lanes wait past it.
  a.set_timeouts({.idle = t, .shutdown = t});
  asio::write(b, asio::buffer(std::string("prompt")));
  outcome r2, w2;
  io.restart();
  a.async_read_some(asio::buffer(buf), r2.handler());
  a.async_write_some(asio::buffer(std::string("reply")), w2.handler());
  ASSERT_TRUE(runs_to_completion(io, 10s, "the prompt exchange"));
  EXPECT_FALSE(r2.ec) << r2.ec.message();
  EXPECT_FALSE(w2.ec) << w2.ec.message();
  EXPECT_EQ(b.read_some(asio::buffer(buf)), 5u);  // "reply"
  a.set_timeouts({});
  outcome r3;
  io.restart();
  a.async_read_some(asio::buffer(buf), r3.handler());
  sends_later("later still");
  ASSERT_TRUE(runs_to_completion(io, 10s, "the read after the idle deadline"));
  EXPECT_FALSE(r3.ec) << r3.ec.message();
  // The write lane: a shutdown without deadline whose peer answers late.
  outcome s;
  io.restart();
  a.async_shutdown([&](error_code ec) { s.handler()(ec); });
  delay.expires_after(later);
  delay.async_wait([&](error_code) { b.shutdown(); });
  ASSERT_TRUE(runs_to_completion(io, 10s, "the shutdown"));
  EXPECT_FALSE(s.ec) << s.ec.message();
  EXPECT_EQ(b.read_some(asio::buffer(buf), s.ec), 0u);
  EXPECT_EQ(s.ec, asio::error::eof);
}

// The caller's own cancellation is not a timeout: the read ends with
// operation_aborted, the stream stays usable, and the deadline it had armed
// is gone. Then a stream is destroyed while its disarmed timer's wait is
// still queued, and another from inside its timed-out handshake's handler:
// the queued handlers find nothing (clean under ASan and TSan).
TEST(RecordStream, CancelledAndDestroyedStreamsWithTimersPending) {
  auto p = std::make_unique<handshaken_pair>();
  p->a.set_timeouts({.idle = scaled(60s)});
  asio::cancellation_signal cancel;
  std::uint8_t buf[64];
  outcome r1;
  p->a.async_read_some(asio::buffer(buf), asio::bind_cancellation_slot(cancel.slot(), r1.handler()));
  p->io.poll();
  cancel.emit(asio::cancellation_type::terminal);
  while (!r1.done && p->io.run_one_for(scaled(10s)) != 0) {
  }
  ASSERT_TRUE(r1.done);
  EXPECT_EQ(r1.ec, asio::error::operation_aborted);
  // Deferred: the operation starts when the deferred object is invoked.
  auto read = p->a.async_read_some(asio::buffer(buf), asio::deferred);
  asio::write(p->b, asio::buffer(std::string("still usable")));
  outcome r2;
  std::move(read)(r2.handler());
  while (!r2.done && p->io.run_one_for(scaled(10s)) != 0) {
  }
  EXPECT_FALSE(r2.ec) << r2.ec.message();
  EXPECT_EQ(std::string(buf, buf + r2.n), "still usable");
  // The cancelled wait of the disarmed deadline may still be queued: the
  // stream (its timers moved along) goes first, then the handlers run.
  { stream<local_socket> gone(std::move(p->a)); }
  ASSERT_TRUE(runs_to_completion(p->io, 10s, "the queued handlers"));
  p.reset();

  // A stream destroyed by its own timed-out handshake's handler.
  fixture_keys k;
  asio::io_context io2;
  auto s = std::make_unique<stream<local_socket>>(io2);
  local_socket silent(io2);
  asio::local::connect_pair(s->next_layer(), silent);
  s->set_timeouts({.handshake = short_deadline, .idle = short_deadline, .shutdown = short_deadline});
  error_code hec;
  s->async_handshake(k.cc, [&](error_code ec) {
    hec = ec;
    s.reset();
  });
  ASSERT_TRUE(runs_to_completion(io2, 10s, "the timed-out handshake"));
  EXPECT_EQ(hec, stream_errc::handshake_timeout);
  EXPECT_EQ(s, nullptr);
}

}  // namespace
}  // namespace sealwire::record::test
