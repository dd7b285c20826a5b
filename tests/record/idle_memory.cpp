// SPDX-License-Identifier: Apache-2.0
// Counts the heap an idle established connection holds (the sans-IO core and
// the Asio stream on a socket, record limits at their defaults), for
// docs/embedding.md and issue 22 item 8: N stream pairs over socketpairs,
// every handshake done, then an async_read_some outstanding on every end (a
// server waiting for its clients). Every allocation in this process goes
// through the counting operator new below, which adds what malloc really
// reserved (malloc_usable_size); kernel socket buffers are not heap.
//
//   sealwire-record-idle-memory [PAIRS]     (default 1000: 2000 connections)
//
// Prints the figures, then sends one 16 KiB message each way on every pair
// (the buffers come back while data flows) and counts again once the reads
// wait. "idle memory ok" when every message arrived intact and an idle
// connection holds at most 32 KiB.
#include <sealwire/record/stream.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/connect_pair.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

#include <malloc.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <list>
#include <new>
#include <vector>

namespace {

std::atomic<long long> live_bytes{0};

void* counted(void* p) {
  if (p == nullptr) throw std::bad_alloc();
  live_bytes.fetch_add(static_cast<long long>(malloc_usable_size(p)), std::memory_order_relaxed);
  return p;
}
void* counted_or_null(void* p) noexcept {
  if (p != nullptr) live_bytes.fetch_add(static_cast<long long>(malloc_usable_size(p)), std::memory_order_relaxed);
  return p;
}
void uncounted(void* p) noexcept {
  if (p == nullptr) return;
  live_bytes.fetch_sub(static_cast<long long>(malloc_usable_size(p)), std::memory_order_relaxed);
  std::free(p);
}
void* aligned(std::size_t n, std::align_val_t a) {
  const auto al = static_cast<std::size_t>(a);
  return counted(std::aligned_alloc(al, (n + al - 1) / al * al));
}

}  // namespace

void* operator new(std::size_t n) { return counted(std::malloc(n == 0 ? 1 : n)); }
void* operator new[](std::size_t n) { return counted(std::malloc(n == 0 ? 1 : n)); }
void* operator new(std::size_t n, std::align_val_t a) { return aligned(n == 0 ? 1 : n, a); }
void* operator new[](std::size_t n, std::align_val_t a) { return aligned(n == 0 ? 1 : n, a); }
// The nothrow forms too (the record layer allocates its buffers with them):
// a sanitizer's own versions would otherwise allocate what ours free.
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return counted_or_null(std::malloc(n == 0 ? 1 : n)); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  return counted_or_null(std::malloc(n == 0 ? 1 : n));
}
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  const auto al = static_cast<std::size_t>(a);
  return counted_or_null(std::aligned_alloc(al, (std::max<std::size_t>(n, 1) + al - 1) / al * al));
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t& t) noexcept {
  return operator new(n, a, t);
}
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { uncounted(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { uncounted(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { uncounted(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { uncounted(p); }
void operator delete(void* p) noexcept { uncounted(p); }
void operator delete[](void* p) noexcept { uncounted(p); }
void operator delete(void* p, std::size_t) noexcept { uncounted(p); }
void operator delete[](void* p, std::size_t) noexcept { uncounted(p); }
void operator delete(void* p, std::align_val_t) noexcept { uncounted(p); }
void operator delete[](void* p, std::align_val_t) noexcept { uncounted(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { uncounted(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { uncounted(p); }

using namespace sealwire;
namespace asio = boost::asio;
using socket_type = asio::local::stream_protocol::socket;
using stream_type = record::stream<socket_type>;

namespace {

struct pair_state {
  explicit pair_state(asio::io_context& io) : client(io), server(io) {}
  stream_type client, server;
  std::uint8_t client_byte = 0, server_byte = 0;  // the outstanding reads' buffers
  bool client_read_done = false, server_read_done = false;
  boost::system::error_code client_ec, server_ec;
};

// start_reads leaves an async_read_some waiting on both ends of every pair.
void start_reads(std::list<pair_state>& pairs) {
  for (auto& p : pairs) {
    p.client_read_done = p.server_read_done = false;
    p.client.async_read_some(asio::buffer(&p.client_byte, 1), [&p](boost::system::error_code ec, std::size_t) {
      p.client_ec = ec;
      p.client_read_done = true;
    });
    p.server.async_read_some(asio::buffer(&p.server_byte, 1), [&p](boost::system::error_code ec, std::size_t) {
      p.server_ec = ec;
      p.server_read_done = true;
    });
  }
}

// settle runs every handler that is ready, until none is (the reactor
// reports at most 128 sockets a turn).
void settle(asio::io_context& io) {
  io.restart();
  while (io.poll() != 0) {
  }
}

double per_connection(long long bytes, std::size_t pairs) {
  return static_cast<double>(bytes) / static_cast<double>(2 * pairs);
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t pairs = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 1000;
  if (pairs == 0) return 2;
  // Two descriptors per pair.
  rlimit fds{};
  if (getrlimit(RLIMIT_NOFILE, &fds) == 0 && fds.rlim_cur < 2 * pairs + 64) {
    fds.rlim_cur = std::min<rlim_t>(fds.rlim_max, 2 * pairs + 64);
    setrlimit(RLIMIT_NOFILE, &fds);
    if (fds.rlim_cur < 2 * pairs + 64) pairs = (fds.rlim_cur - 64) / 2;
  }

  auto key = std::make_shared<const hpke::private_key>(hpke::generate_key_pair().value().priv);
  auto cc = std::make_shared<record::client_config>();
  cc->server_key = key->public_key();
  auto sc = std::make_shared<record::server_config>();
  sc->static_key = key;
  std::shared_ptr<const record::client_config> ccfg = cc;
  std::shared_ptr<const record::server_config> scfg = sc;

  asio::io_context io(1);
  std::list<pair_state> list;
  // Whatever the first pair allocates once for all (Asio's reactor, the
  // CPU dispatch tables, the logger) is set up before the count starts.
  const auto warm = [&] {
    auto& p = list.emplace_back(io);
    asio::local::connect_pair(p.client.next_layer(), p.server.next_layer());
  };
  warm();
  list.front().client.async_handshake(ccfg, [](boost::system::error_code) {});
  list.front().server.async_handshake(scfg, [](boost::system::error_code) {});
  io.run();
  io.restart();

  const long long base = live_bytes.load();
  std::size_t failed = 0;
  for (std::size_t i = 1; i < pairs; ++i) warm();
  for (auto it = std::next(list.begin()); it != list.end(); ++it) {
    it->client.async_handshake(ccfg, [&failed](boost::system::error_code ec) { failed += ec ? 1 : 0; });
    it->server.async_handshake(scfg, [&failed](boost::system::error_code ec) { failed += ec ? 1 : 0; });
  }
  io.run();
  io.restart();
  const std::size_t counted_pairs = pairs - 1;
  const long long after_handshake = live_bytes.load() - base;
  start_reads(list);
  settle(io);  // every read reaches its wait for the peer
  const long long reading = live_bytes.load() - base;

  // Data flows once on every pair: 16 KiB each way, then the reads wait again.
  std::vector<std::uint8_t> message(16 * 1024);
  for (std::size_t i = 0; i < message.size(); ++i) message[i] = static_cast<std::uint8_t>(i * 31 + 7);
  std::size_t wrong = 0;
  for (auto& p : list) {
    asio::write(p.client, asio::buffer(message));
    asio::write(p.server, asio::buffer(message));
  }
  settle(io);  // the outstanding reads take their first byte
  for (auto& p : list) {
    if (!p.client_read_done || !p.server_read_done || p.client_ec || p.server_ec ||
        p.client_byte != message[0] || p.server_byte != message[0]) {
      ++wrong;
      continue;
    }
    std::vector<std::uint8_t> back(message.size() - 1);
    asio::read(p.server, asio::buffer(back));
    if (!std::equal(back.begin(), back.end(), message.begin() + 1)) ++wrong;
    asio::read(p.client, asio::buffer(back));
    if (!std::equal(back.begin(), back.end(), message.begin() + 1)) ++wrong;
  }
  start_reads(list);
  settle(io);
  const long long after_data = live_bytes.load() - base;

  for (auto& p : list) {
    boost::system::error_code ignored;
    p.client.lowest_layer().close(ignored);
    p.server.lowest_layer().close(ignored);
  }
  io.restart();
  io.run();  // the reads end (operation_aborted); then the streams may go
  list.clear();

  const double hs = per_connection(after_handshake, counted_pairs);
  const double idle = per_connection(reading, counted_pairs);
  const double idle_after = per_connection(after_data, counted_pairs);
  std::printf("connections: %zu (%zu stream pairs over socketpairs, record limits at their defaults)\n",
              2 * counted_pairs, counted_pairs);
  std::printf("heap per connection, handshake done, nothing outstanding: %.0f bytes (%.1f KiB)\n", hs, hs / 1024);
  std::printf("heap per connection, idle with a read waiting:            %.0f bytes (%.1f KiB)\n", idle,
              idle / 1024);
  std::printf("heap per connection, idle again after 16 KiB each way:    %.0f bytes (%.1f KiB)\n", idle_after,
              idle_after / 1024);
  std::printf("handshake failures: %zu, messages wrong: %zu\n", failed, wrong);
  const bool ok = failed == 0 && wrong == 0 && idle <= 32 * 1024 && idle_after <= 32 * 1024;
  std::printf("%s\n", ok ? "idle memory ok" : "idle memory check FAILED");
  return ok ? 0 : 1;
}
