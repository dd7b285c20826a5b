// SPDX-License-Identifier: Apache-2.0
// The example server (echo_server.hpp).
//
// Threads and strands: the workers are an asio::thread_pool. Every
// connection's socket is created on its own strand (accept with
// make_strand(pool)), and the connection's coroutines (the echo loop and its
// watchdog) run on that strand, so a connection's state is only ever touched
// by one thread at a time without a lock. The server-wide state (the
// registry of open connections, the config, the counters) is guarded by a
// mutex or atomic.
//
// One read and one write: the echo loop reads, then writes what it read,
// then reads again: never two reads or two writes outstanding. stop()
// interrupts the outstanding read through per-operation cancellation; the
// loop's async_shutdown then sends its close record and waits for the
// client's.
//
// Timeouts: each connection has one steady_timer (its deadline), pushed
// forward before every operation; the watchdog coroutine waits on it and
// closes the socket when it passes, which ends the outstanding operation.
#include "echo_server.hpp"

#include <sealwire/crypto/log.hpp>
#include <sealwire/record/stream.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <map>
#include <mutex>
#include <thread>

namespace sealwire::examples {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;
using asio::awaitable;
constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

namespace {

// outcome is how a connection ended, by the category of its error.
enum class outcome { clean, truncated, authentication, protocol, timeout, transport };

// [classify]
outcome classify(const error_code& ec, bool timed_out) {
  if (timed_out) return outcome::timeout;
  if (!ec || ec == asio::error::eof) return outcome::clean;  // eof: the peer's close record arrived
  const std::error_code sec = ec;  // sealwire's codes travel inside Asio's error_code
  if (sec == record_errc::truncated) return outcome::truncated;
  // One test for every layer's authentication failure (bad_record_mac, a
  // handshake that did not open, a server key mismatch on the client side).
  if (sec == condition::authentication_failed) return outcome::authentication;
  if (sec.category() == record_category() || sec.category() == hpke_category() ||
      sec.category() == crypto_category())
    return outcome::protocol;
  return outcome::transport;  // the socket's own errors: reset, broken pipe, ...
}
// [classify]

const char* outcome_name(outcome o) {
  switch (o) {
    case outcome::clean: return "closed";
    case outcome::truncated: return "truncated (no close record)";
    case outcome::authentication: return "authentication failure";
    case outcome::protocol: return "protocol error";
    case outcome::timeout: return "timed out";
    case outcome::transport: return "transport error";
  }
  return "?";
}

unsigned worker_count(unsigned asked) { return asked != 0 ? asked : std::max(1u, std::thread::hardware_concurrency()); }

}  // namespace

// connection: one client, touched only on its strand (the socket's executor).
struct connection {
  connection(tcp::socket socket, std::uint64_t number)
      : stream(std::move(socket)), deadline(stream.get_executor()), id(number) {}

  record::stream<tcp::socket> stream;
  asio::steady_timer deadline;
  asio::cancellation_signal stop_signal;  // cancels the outstanding read at stop()
  std::uint64_t id;
  bool established = false;  // the handshake completed
  bool stopping = false;     // stop() asked this connection to close
  bool timed_out = false;  // the watchdog closed the socket
  bool finished = false;   // the echo loop returned

  void arm(std::chrono::milliseconds timeout) { deadline.expires_after(timeout); }
};

struct echo_server::state : std::enable_shared_from_this<echo_server::state> {
  explicit state(server_settings s)
      : settings(std::move(s)), config(settings.config), pool(worker_count(settings.threads)),
        acceptor(asio::make_strand(pool)) {}

  server_settings settings;

  std::mutex mutex;  // guards config, connections, counters and stopped
  std::shared_ptr<const record::server_config> config;
  std::map<std::uint64_t, std::weak_ptr<connection>> connections;
  server_counters counts;
  bool stopped = false;

  // The worker threads: declared before every I/O object that uses them, so
  // they outlive them.
  asio::thread_pool pool;
  tcp::acceptor acceptor;

  awaitable<void> accept_loop();
  awaitable<void> serve(std::shared_ptr<connection> c, std::shared_ptr<const record::server_config> cfg);
  awaitable<void> watchdog(std::shared_ptr<connection> c);
  void finish(const connection& c, outcome o, const error_code& ec);
};

awaitable<void> echo_server::state::accept_loop() {
  std::uint64_t next_id = 1;
  for (;;) {
    // Each connection gets its own strand.
    auto [ec, socket] = co_await acceptor.async_accept(asio::make_strand(pool), use_tuple);
    if (ec == asio::error::operation_aborted || !acceptor.is_open()) co_return;  // stop()
    if (ec) {
      // Out of file descriptors and the like: log, pause, go on.
      spdlog::warn("accept: {}", ec.message());
      asio::steady_timer pause(acceptor.get_executor(), std::chrono::milliseconds(100));
      co_await pause.async_wait(use_tuple);
      continue;
    }
    auto c = std::make_shared<connection>(std::move(socket), next_id++);
    std::shared_ptr<const record::server_config> cfg;
    {
      const std::lock_guard lock(mutex);
      ++counts.accepted;
      if (stopped || counts.active >= settings.max_connections) {
        // Over the limit: close at once. The client sees its handshake end
        // (truncated); the kernel's listen backlog does not fill up.
        ++counts.refused_busy;
        error_code ignored;
        c->stream.lowest_layer().close(ignored);
        continue;
      }
      ++counts.active;
      connections.emplace(c->id, c);
      cfg = config;  // the config of the moment; replace_config does not touch this connection
    }
    auto self = shared_from_this();
    asio::co_spawn(c->stream.get_executor(), serve(c, std::move(cfg)), [self, c](std::exception_ptr e) {
      if (e) {  // the loop catches its errors; this would be a bug: count it, keep serving
        self->finish(*c, outcome::protocol, asio::error::fault);
      }
    });
  }
}

// [serve]
awaitable<void> echo_server::state::serve(std::shared_ptr<connection> c,
                                          std::shared_ptr<const record::server_config> cfg) {
  auto& s = c->stream;
  error_code ec;

  // The handshake, bounded by the handshake timeout (stop() shortens it to
  // the close timeout and lets it finish, so that the client gets a close
  // record rather than a dropped handshake).
  c->arm(settings.handshake_timeout);
  asio::co_spawn(s.get_executor(), watchdog(c), asio::detached);
  std::tie(ec) = co_await s.async_handshake(cfg, use_tuple);
  cfg.reset();  // the connection keeps what it needs
  if (!ec) {
    c->established = true;
    const std::lock_guard lock(mutex);
    ++counts.handshakes;
  }

  // The echo loop: one read, then one write, each bounded by a timeout.
  std::array<std::uint8_t, 16 * 1024> buffer;
  while (!ec) {
    if (c->stopping) {
      // stop(): send our close record and wait for the client's (what the
      // client still sends before it is dropped), within the close timeout.
      c->arm(settings.close_timeout);
      std::tie(ec) = co_await s.async_shutdown(use_tuple);
      break;
    }
    c->arm(settings.idle_timeout);
    auto [rec, n] = co_await s.async_read_some(
        asio::buffer(buffer), asio::bind_cancellation_slot(c->stop_signal.slot(), use_tuple));
    if (rec == asio::error::operation_aborted && c->stopping && !c->timed_out) continue;  // stop() cancelled it
    if (rec == asio::error::eof) {
      // The client closed first: answer with our close record.
      c->arm(settings.close_timeout);
      std::tie(ec) = co_await s.async_shutdown(use_tuple);
      if (!ec) ec = rec;
      break;
    }
    if (rec) {
      ec = rec;
      break;
    }
    // Backpressure: the next read starts only once the client took this
    // data; a client that stops reading runs into the idle timeout here.
    c->arm(settings.idle_timeout);
    std::tie(ec, std::ignore) = co_await asio::async_write(s, asio::buffer(buffer.data(), n), use_tuple);
  }

  c->finished = true;
  c->deadline.cancel();  // ends the watchdog
  error_code ignored;
  s.lowest_layer().shutdown(tcp::socket::shutdown_both, ignored);
  s.lowest_layer().close(ignored);
  finish(*c, classify(ec, c->timed_out), ec);
}
// [serve]

// [watchdog]
awaitable<void> echo_server::state::watchdog(std::shared_ptr<connection> c) {
  while (!c->finished) {
    co_await c->deadline.async_wait(use_tuple);
    if (c->finished) co_return;
    if (c->deadline.expiry() <= asio::steady_timer::clock_type::now()) {
      // The deadline passed: closing the socket ends the outstanding
      // operation with an error, and the loop ends.
      c->timed_out = true;
      error_code ignored;
      c->stream.lowest_layer().close(ignored);
      co_return;
    }
    // The deadline was pushed forward (the wait was cancelled): wait again.
  }
}
// [watchdog]

void echo_server::state::finish(const connection& c, outcome o, const error_code& ec) {
  {
    const std::lock_guard lock(mutex);
    connections.erase(c.id);
    --counts.active;
    switch (o) {
      case outcome::clean: ++counts.closed_cleanly; break;
      case outcome::truncated: ++counts.truncated; break;
      case outcome::authentication: ++counts.authentication_failures; break;
      case outcome::protocol: ++counts.protocol_errors; break;
      case outcome::timeout: ++counts.timeouts; break;
      case outcome::transport: ++counts.transport_errors; break;
    }
  }
  if (o == outcome::clean) {
    spdlog::debug("connection {}: closed", c.id);
  } else if (o == outcome::authentication) {
    // Worth a warning: tampering, a corrupting middlebox or a wrong key.
    spdlog::warn("connection {}: {}: {}", c.id, outcome_name(o), ec.message());
  } else {
    spdlog::info("connection {}: {}: {}", c.id, outcome_name(o), ec.message());
  }
}

// spdlog creates its registry on first use. The workers start with the
// state, so create it here, on one thread, first: its lazy creation by two
// workers at once is safe, but ThreadSanitizer cannot see the guard inside
// the uninstrumented libspdlog and reports a race.
echo_server::echo_server(server_settings settings)
    : state_((spdlog::default_logger_raw(), std::make_shared<state>(std::move(settings)))) {
  auto& st = *state_;
  if (!st.config) throw std::invalid_argument("echo_server: no record config");
  st.acceptor.open(st.settings.listen.protocol());
  st.acceptor.set_option(tcp::acceptor::reuse_address(true));
  st.acceptor.bind(st.settings.listen);
  st.acceptor.listen();
}

echo_server::~echo_server() { stop(); }

void echo_server::start() {
  asio::co_spawn(state_->acceptor.get_executor(), state_->accept_loop(), asio::detached);
}

boost::asio::ip::tcp::endpoint echo_server::local_endpoint() const { return state_->acceptor.local_endpoint(); }

void echo_server::replace_config(std::shared_ptr<const record::server_config> config) {
  if (!config) throw std::invalid_argument("echo_server: no record config");
  const std::lock_guard lock(state_->mutex);
  state_->config = std::move(config);
}

void echo_server::stop() {
  auto& st = *state_;
  std::vector<std::shared_ptr<connection>> open;
  {
    const std::lock_guard lock(st.mutex);
    if (st.stopped) return;
    st.stopped = true;
    for (auto& [id, weak] : st.connections)
      if (auto c = weak.lock()) open.push_back(std::move(c));
  }
  // The acceptor and each connection are closed on their own strands.
  asio::dispatch(st.acceptor.get_executor(), [&st] {
    error_code ignored;
    st.acceptor.close(ignored);
  });
  const auto close_timeout = st.settings.close_timeout;
  for (auto& c : open) {
    asio::dispatch(c->stream.get_executor(), [c, close_timeout] {
      if (c->finished) return;
      c->stopping = true;
      if (c->established) {
        c->stop_signal.emit(asio::cancellation_type::terminal);  // the outstanding read, if any
      } else if (c->deadline.expiry() > asio::steady_timer::clock_type::now() + close_timeout) {
        c->arm(close_timeout);  // a handshake: let it finish, within the close timeout
      }
    });
  }
  open.clear();
  // Every coroutine ends (closed by the client or by the close timeout),
  // then the pool has no more work and join() returns.
  st.pool.join();
}

server_counters echo_server::counters() const {
  const std::lock_guard lock(state_->mutex);
  return state_->counts;
}

}  // namespace sealwire::examples
