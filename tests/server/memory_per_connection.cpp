// SPDX-License-Identifier: Apache-2.0
// Measures the heap the example server (examples/server) holds per open
// connection at the record layer's default limits, for docs/embedding.md:
// once every connection finished its handshake and is idle, and again after
// each echoed one 16 KiB message (every buffer then at its working size).
// The clients run in a child process, so that only the server's heap is
// counted (glibc's mallinfo2: bytes in use, every arena). Kernel socket
// buffers are not heap and not counted.
//
//   sealwire-server-memory [CONNECTIONS]     (default 200)
//
// Prints the figures and "memory ok" when the run completed and the working
// size stays under a sanity bound (1 MiB per connection).
#include "echo_server.hpp"

#include <sealwire/record/stream.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <list>
#include <thread>
#include <vector>

using namespace sealwire;
namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

std::size_t heap_in_use() { return mallinfo2().uordblks; }

void send_byte(int fd, char c) {
  if (::write(fd, &c, 1) != 1) std::exit(2);
}
char wait_byte(int fd) {
  char c = 0;
  if (::read(fd, &c, 1) != 1) std::exit(2);
  return c;
}

// The clients: connect n, handshake each, then on command echo one message
// on each, then close them all.
int run_clients(int n, unsigned short port, const hpke::public_key& server_key, int from_parent, int to_parent) {
  asio::io_context io;
  auto cfg = std::make_shared<record::client_config>();
  cfg->server_key = server_key;
  std::list<record::stream<tcp::socket>> streams;
  for (int i = 0; i < n; ++i) {
    auto& s = streams.emplace_back(io);
    s.next_layer().connect({asio::ip::make_address("127.0.0.1"), port});
    s.handshake(cfg);
  }
  send_byte(to_parent, 'h');
  wait_byte(from_parent);
  std::vector<std::uint8_t> message(16 * 1024, 0x5a), back(message.size());
  for (auto& s : streams) {
    asio::write(s, asio::buffer(message));
    asio::read(s, asio::buffer(back));
    if (back != message) return 3;
  }
  send_byte(to_parent, 'e');
  wait_byte(from_parent);
  for (auto& s : streams) s.shutdown();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 200;
  if (n <= 0) return 2;
  auto key = std::make_shared<const hpke::private_key>(hpke::generate_key_pair().value().priv);
  int down[2], up[2];
  if (::pipe(down) != 0 || ::pipe(up) != 0) return 2;
  // The listening socket first (its port goes to the child), the threads
  // after the fork.
  asio::io_context probe;
  tcp::acceptor reserve(probe, {asio::ip::make_address("127.0.0.1"), 0});
  const unsigned short port = reserve.local_endpoint().port();
  reserve.close();
  const pid_t child = ::fork();
  if (child < 0) return 2;
  if (child == 0) {
    wait_byte(down[0]);  // the server listens
    std::_Exit(run_clients(n, port, key->public_key(), down[0], up[1]));
  }

  examples::server_settings settings;
  settings.listen = {asio::ip::make_address("127.0.0.1"), port};
  auto cfg = std::make_shared<record::server_config>();
  cfg->static_key = key;
  settings.config = cfg;
  settings.threads = 1;
  settings.max_connections = static_cast<std::size_t>(n) + 1;
  examples::echo_server server(settings);
  server.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the pool's threads settle
  const std::size_t base = heap_in_use();
  send_byte(down[1], 'l');

  wait_byte(up[0]);  // every client finished its handshake
  while (server.counters().handshakes < static_cast<std::uint64_t>(n))
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const std::size_t idle = heap_in_use();
  send_byte(down[1], 'e');
  wait_byte(up[0]);  // every client had its echo
  const std::size_t working = heap_in_use();
  send_byte(down[1], 'c');
  int status = 0;
  ::waitpid(child, &status, 0);
  server.stop();
  const auto c = server.counters();

  const double per_idle = static_cast<double>(idle - base) / n;
  const double per_working = static_cast<double>(working - base) / n;
  std::printf("connections: %d (record limits at their defaults)\n", n);
  std::printf("heap per connection, idle after the handshake: %.0f bytes (%.1f KiB)\n", per_idle, per_idle / 1024);
  std::printf("heap per connection, after a 16 KiB echo:       %.0f bytes (%.1f KiB)\n", per_working,
              per_working / 1024);
  const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && c.closed_cleanly == static_cast<std::uint64_t>(n) &&
                  per_working < 1024.0 * 1024.0;
  std::printf("%s\n", ok ? "memory ok" : "memory check FAILED");
  return ok ? 0 : 1;
}
