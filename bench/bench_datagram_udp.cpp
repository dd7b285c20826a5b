// SPDX-License-Identifier: Apache-2.0
// Loopback UDP echo through the datagram channel (docs/protocol.md 9) beside
// plain UDP, same run, same socket code: a client on the benchmark thread
// and an echo server on a second thread, two UDP sockets on 127.0.0.1
// connected to each other. Each iteration sends a burst of `burst` messages
// of 100 or 1200 bytes, then waits for their echoes; an echo not back within
// `wait_ms` of the last one is counted lost (loopback may drop when a socket
// buffer is full), so an iteration never hangs. The sealwire rows seal each
// message into a datagram of its own (message + 19 bytes: 16-bit sequence
// numbers, one record) and the server opens it and seals the echo back; the
// plain rows send the message bytes as they are.
//
// Counters: packets_per_second (echoes back per wall-clock second: each is
// two datagrams, one each way), delivered (the fraction of echoes that came
// back), and the bytes of message echoed per second (the report's GB/s).
#include "common.hpp"

#include <sealwire/record/datagram/channel.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <optional>
#include <thread>

namespace sealwire::bench {
namespace {

using record::datagram::channel;

constexpr std::size_t burst = 32;  // messages in flight per iteration
constexpr int wait_ms = 200;       // an echo not back this long after the previous one is lost
constexpr int server_poll_ms = 20; // how often the echo server looks at its stop flag

// udp_socket is a UDP socket bound to 127.0.0.1 on an ephemeral port.
class udp_socket {
 public:
  udp_socket() : fd_(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) {
    if (fd_ < 0) return;
    const int bufsize = 1 << 21;  // room for a whole burst of either size
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &bufsize, sizeof bufsize);
    ::setsockopt(fd_, SOL_SOCKET, SO_SNDBUF, &bufsize, sizeof bufsize);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) close();
  }
  udp_socket(const udp_socket&) = delete;
  udp_socket& operator=(const udp_socket&) = delete;
  ~udp_socket() { close(); }

  [[nodiscard]] int fd() const noexcept { return fd_; }
  // connect_to connects this socket to the other's address.
  [[nodiscard]] bool connect_to(const udp_socket& other) const {
    sockaddr_in a{};
    socklen_t len = sizeof a;
    if (fd_ < 0 || other.fd_ < 0 || ::getsockname(other.fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0) return false;
    return ::connect(fd_, reinterpret_cast<sockaddr*>(&a), len) == 0;
  }

 private:
  void close() noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  int fd_;
};

// readable waits up to `ms` for a datagram.
bool readable(int fd, int ms) {
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, ms) > 0 && (p.revents & POLLIN) != 0;
}

// endpoint is one side's socket code; with a channel it protects every
// message, without it sends the bytes as they are. Everything else is shared.
struct endpoint {
  int fd = -1;
  std::optional<channel> ch;
  bytes out = bytes(record::datagram::max_udp_payload);
  bytes in = bytes(record::datagram::max_udp_payload);
  std::vector<record::datagram::message> opened;
  std::vector<std::span<std::uint8_t>> got;

  // send sends one message as one datagram.
  bool send(bytes_view msg) {
    if (!ch) return ::send(fd, msg.data(), msg.size(), 0) == static_cast<ssize_t>(msg.size());
    const auto n = ch->seal(out, msg);
    return n && ::send(fd, out.data(), *n, 0) == static_cast<ssize_t>(*n);
  }

  // receive reads one datagram (one is ready) and sets `got` to the
  // messages it carries: the datagram itself, or what the channel released.
  void receive() {
    got.clear();
    const ssize_t n = ::recv(fd, in.data(), in.size(), 0);
    if (n < 0) return;
    const std::span<std::uint8_t> d(in.data(), static_cast<std::size_t>(n));
    if (!ch) {
      got.push_back(d);
      return;
    }
    opened.clear();
    if (!ch->open(d, opened)) return;
    for (const auto& m : opened) got.push_back(m.data);
  }
};

channel make_channel(bool side_a) {
  const bytes x(32, 0x11), y(32, 0x22);
  record::datagram::config cfg;
  cfg.max_datagram_size = 1472;  // an Ethernet MTU: room for a 1200-byte message
  return channel::from_secrets(record::record_aead::chacha20_poly1305, hpke::kdf_id::hkdf_sha256, side_a ? x : y,
                               side_a ? y : x, cfg)
      .value();
}

void echo(benchmark::State& st, std::size_t size, bool protect) {
  udp_socket cs, ss;
  if (!cs.connect_to(ss) || !ss.connect_to(cs)) {
    st.SkipWithError("no loopback UDP sockets");
    return;
  }
  endpoint client{cs.fd()}, server{ss.fd()};
  if (protect) {
    client.ch.emplace(make_channel(true));
    server.ch.emplace(make_channel(false));
  }
  std::atomic<bool> stop{false};
  std::thread echo_server([&] {
    while (!stop.load(std::memory_order_relaxed)) {
      if (!readable(server.fd, server_poll_ms)) continue;
      server.receive();
      for (const auto m : server.got) server.send(m);
    }
  });

  bytes msg = pattern(size);
  std::uint64_t next_id = 0, received = 0, lost = 0;
  bool send_failed = false;
  std::array<bool, burst> seen{};
  const auto t0 = std::chrono::steady_clock::now();
  measure(st, 0, [&] {
    // Each message carries its number; a late echo of an earlier burst is ignored.
    const std::uint64_t first = next_id;
    for (std::size_t i = 0; i < burst; ++i, ++next_id) {
      std::memcpy(msg.data(), &next_id, sizeof next_id);
      send_failed = !client.send(msg) || send_failed;
    }
    seen.fill(false);
    std::size_t back = 0;
    while (back < burst && readable(client.fd, wait_ms)) {
      client.receive();
      for (const auto m : client.got) {
        std::uint64_t id = 0;
        if (m.size() != size) continue;
        std::memcpy(&id, m.data(), sizeof id);
        if (id < first || id - first >= burst || seen[id - first]) continue;
        seen[id - first] = true;
        ++back;
      }
    }
    received += back;
    lost += burst - back;
  });
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - t0;
  stop.store(true);
  echo_server.join();

  st.SetBytesProcessed(static_cast<std::int64_t>(received * size));
  st.counters["packets_per_second"] = static_cast<double>(received) / wall.count();
  // The fraction of echoes that came back (1 when none was lost): a lost
  // count would be 0 in every repetition, whose coefficient of variation is
  // NaN, which Google Benchmark writes into its JSON as an invalid literal.
  st.counters["delivered"] = static_cast<double>(received) / static_cast<double>(received + lost);
  if (send_failed) st.SkipWithError("a send failed");
  if (received == 0) st.SkipWithError("no echo came back");
}

void register_udp_echo() {
  for (std::size_t n : {100u, 1200u}) {
    add("datagram.udp_echo", n, "sealwire", [n](benchmark::State& st) { echo(st, n, true); });
    add("datagram.udp_echo", n, "plain_udp", [n](benchmark::State& st) { echo(st, n, false); });
  }
}

const registrar reg(&register_udp_echo);

}  // namespace
}  // namespace sealwire::bench
