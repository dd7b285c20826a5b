// SPDX-License-Identifier: Apache-2.0
// sealwire-udp-echo: a UDP echo server and client over the datagram channel
// (docs/protocol.md 9), keyed from a record::stream handshake over TCP
// through the exporter. The client sends numbered messages through a fault
// injector (--loss, --reorder, --corrupt) and prints how many echoes came
// back, how many were lost, and how many datagrams the server rejected.
//
//   sealwire-udp-echo server --listen 127.0.0.1:7000
//   sealwire-udp-echo client --connect 127.0.0.1:7000 --server-key HEX --loss 0.1 --reorder 0.1
//
// Over the stream (lines): the server sends "udp PORT", the client answers
// "udp PORT"; both connect their UDP sockets to the other's port. When the
// client is done it sends "done"; the server answers "stats RECEIVED
// REJECTED" (its channel's counts) and both shut the stream down.
#include <sealwire/crypto/hex.hpp>
#include <sealwire/record/datagram_socket.hpp>
#include <sealwire/record/stream.hpp>

#include "endpoint.hpp"
#include "faults.hpp"

#include <CLI/CLI.hpp>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <cstdio>
#include <set>
#include <string>

namespace asio = boost::asio;
using asio::ip::tcp;
using asio::ip::udp;
using namespace sealwire;
using namespace asio::experimental::awaitable_operators;
using namespace std::chrono_literals;

namespace {

// The exporter context of this application's channel (docs/protocol.md 9.1).
const std::string channel_context = "sealwire udp echo";

using tcp_stream = record::stream<tcp::socket>;

asio::awaitable<std::string> read_line(tcp_stream& s, std::string& buf) {
  const std::size_t n = co_await asio::async_read_until(s, asio::dynamic_buffer(buf), '\n', asio::use_awaitable);
  std::string line = buf.substr(0, n - 1);
  buf.erase(0, n);
  co_return line;
}

asio::awaitable<void> write_line(tcp_stream& s, std::string line) {
  line += '\n';
  co_await asio::async_write(s, asio::buffer(line), asio::use_awaitable);
}

std::uint16_t parse_port_line(const std::string& line) {
  if (line.rfind("udp ", 0) != 0) throw std::runtime_error("expected 'udp PORT', got '" + line + "'");
  return static_cast<std::uint16_t>(std::stoul(line.substr(4)));
}

// open_datagram_socket keys the channel from the handshake and binds a UDP
// socket beside the stream's local address.
std::pair<record::datagram::channel, udp::socket> open_datagram(tcp_stream& s) {
  auto ch = record::datagram::channel::from_connection(*s.native_handle(), {}, bytes_of(channel_context));
  if (!ch) throw boost::system::system_error(ch.error());
  udp::socket sock(s.get_executor(), udp::endpoint(s.next_layer().local_endpoint().address(), 0));
  return {std::move(*ch), std::move(sock)};
}

// ---- server ----

asio::awaitable<void> echo_loop(record::datagram_socket& ds, std::uint64_t& echoed) {
  std::vector<std::uint8_t> buf(2048);
  for (;;) {
    const std::size_t n = co_await ds.async_receive(asio::buffer(buf), asio::use_awaitable);
    co_await ds.async_send(asio::buffer(buf.data(), n), asio::use_awaitable);
    ++echoed;
  }
}

asio::awaitable<void> session(tcp::socket socket, std::shared_ptr<const record::server_config> cfg) {
  tcp_stream s(std::move(socket));
  co_await s.async_handshake(cfg, asio::use_awaitable);
  auto [ch, sock] = open_datagram(s);
  const udp::endpoint local = sock.local_endpoint();
  co_await write_line(s, "udp " + std::to_string(local.port()));
  std::string buf;
  const std::uint16_t peer_port = parse_port_line(co_await read_line(s, buf));
  sock.connect(udp::endpoint(s.next_layer().remote_endpoint().address(), peer_port));
  record::datagram_socket ds(std::move(sock), std::move(ch));
  std::uint64_t echoed = 0;
  // Echo until the client's "done" arrives on the stream (which cancels the loop).
  co_await (echo_loop(ds, echoed) || read_line(s, buf));
  const auto st = ds.channel().statistics();
  const std::uint64_t rejected = st.forged + st.replayed + st.stale_epoch + st.malformed;
  co_await write_line(s, "stats " + std::to_string(st.delivered) + " " + std::to_string(rejected));
  co_await s.async_shutdown(asio::use_awaitable);
  std::printf("session: echoed %llu, rejected %llu\n", static_cast<unsigned long long>(echoed),
              static_cast<unsigned long long>(rejected));
  std::fflush(stdout);
}

int run_server(const std::string& listen, int sessions) {
  asio::io_context io;
  auto key = std::make_shared<const hpke::private_key>(hpke::generate_key_pair().value().priv);
  auto cfg = std::make_shared<record::server_config>();
  cfg->static_key = key;
  tcp::acceptor acceptor(io, tools::parse_endpoint(listen));
  std::printf("server key %s\nlistening on %s:%u\n", crypto::to_hex(key->public_key().bytes()).c_str(),
              acceptor.local_endpoint().address().to_string().c_str(), acceptor.local_endpoint().port());
  std::fflush(stdout);
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        for (int i = 0; sessions == 0 || i < sessions; ++i) {
          tcp::socket sock = co_await acceptor.async_accept(asio::use_awaitable);
          try {
            co_await session(std::move(sock), cfg);
          } catch (const std::exception& e) {
            std::fprintf(stderr, "session failed: %s\n", e.what());
          }
        }
      },
      asio::detached);
  io.run();
  return 0;
}

// ---- client ----

struct client_options {
  std::string connect, server_key;
  int count = 1000;
  examples::fault_rates faults;
  std::uint64_t seed = 1;
};

asio::awaitable<int> client(client_options o) {
  auto exec = co_await asio::this_coro::executor;
  const auto pk_bytes = crypto::from_hex(o.server_key);
  if (!pk_bytes) throw std::runtime_error("--server-key: not hex");
  auto pk = hpke::public_key::from(pk_bytes->size() == 56 ? hpke::kem_id::x448 : hpke::kem_id::x25519, *pk_bytes);
  if (!pk) throw std::runtime_error("--server-key: not an X25519 or X448 public key");
  auto cfg = std::make_shared<record::client_config>();
  cfg->server_key = *pk;

  tcp_stream s(exec);
  const auto [host, port] = tools::split_host_port(o.connect);
  co_await s.next_layer().async_connect(tcp::endpoint(asio::ip::make_address(host), port), asio::use_awaitable);
  co_await s.async_handshake(cfg, asio::use_awaitable);
  auto [ch, sock] = open_datagram(s);
  std::string buf;
  const std::uint16_t server_port = parse_port_line(co_await read_line(s, buf));
  co_await write_line(s, "udp " + std::to_string(sock.local_endpoint().port()));
  sock.connect(udp::endpoint(s.next_layer().remote_endpoint().address(), server_port));
  record::datagram_socket ds(std::move(sock), std::move(ch));

  // Send through the fault injector (sealed here, sent raw), paced so that
  // neither side's socket buffer overflows, while the echoes are collected
  // until none arrived for 500 ms after the last send.
  examples::fault_injector faults(o.faults, o.seed);
  std::set<std::string> echoes;
  std::uint64_t unexpected = 0;
  bool sending = true;
  auto send_loop = [&]() -> asio::awaitable<void> {
    std::vector<std::uint8_t> d(1200);
    asio::steady_timer pace(exec);
    auto send_all = [&](std::vector<examples::fault_injector::datagram> out) {
      for (auto& x : out) ds.next_layer().send(asio::buffer(x));
    };
    for (int i = 0; i < o.count; ++i) {
      const std::string msg = "echo #" + std::to_string(i);
      const std::size_t n = ds.channel().seal(d, bytes_of(msg)).value();
      send_all(faults.pass(std::vector<std::uint8_t>(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(n))));
      if (i % 16 == 15) {
        pace.expires_after(1ms);
        co_await pace.async_wait(asio::use_awaitable);
      }
    }
    send_all(faults.flush());
    sending = false;
  };
  auto receive_loop = [&]() -> asio::awaitable<void> {
    std::vector<std::uint8_t> rbuf(2048);
    asio::steady_timer idle(exec);
    for (;;) {
      idle.expires_after(500ms);
      auto r = co_await (ds.async_receive(asio::buffer(rbuf), asio::use_awaitable) ||
                         idle.async_wait(asio::use_awaitable));
      if (r.index() == 1) {
        if (sending) continue;
        break;
      }
      const std::string echo(rbuf.begin(), rbuf.begin() + static_cast<std::ptrdiff_t>(std::get<0>(r)));
      if (echo.rfind("echo #", 0) != 0 || !echoes.insert(echo).second) ++unexpected;
    }
  };
  co_await (send_loop() && receive_loop());
  co_await write_line(s, "done");
  const std::string stats = co_await read_line(s, buf);
  co_await s.async_shutdown(asio::use_awaitable);

  unsigned long long server_received = 0, server_rejected = 0;
  if (std::sscanf(stats.c_str(), "stats %llu %llu", &server_received, &server_rejected) != 2) {
    throw std::runtime_error("bad stats line from the server");
  }
  const auto st = ds.channel().statistics();
  std::printf("sent %d (injected: lost %llu, reordered %llu, corrupted %llu)\n", o.count,
              static_cast<unsigned long long>(faults.lost()), static_cast<unsigned long long>(faults.reordered()),
              static_cast<unsigned long long>(faults.corrupted()));
  std::printf("delivered %zu lost %zu rejected %llu (server received %llu; client rejected %llu; unexpected %llu)\n",
              echoes.size(), static_cast<std::size_t>(o.count) - echoes.size(), server_rejected, server_received,
              static_cast<unsigned long long>(st.forged + st.replayed + st.stale_epoch + st.malformed),
              static_cast<unsigned long long>(unexpected));
  co_return unexpected == 0 && !echoes.empty() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("sealwire UDP echo: the datagram channel keyed from a stream handshake");
  app.require_subcommand(1);
  std::string listen = "127.0.0.1:0";
  int sessions = 0;
  auto* server = app.add_subcommand("server", "run the echo server");
  server->add_option("--listen", listen, "HOST:PORT of the TCP listener (port 0: any)");
  server->add_option("--sessions", sessions, "stop after this many clients (0: never)");
  client_options o;
  auto* cl = app.add_subcommand("client", "send messages and count the echoes");
  cl->add_option("--connect", o.connect, "the server's HOST:PORT")->required();
  cl->add_option("--server-key", o.server_key, "the server's public key (hex, as it prints)")->required();
  cl->add_option("--count", o.count, "messages to send")->check(CLI::Range(1, 1000000));
  cl->add_option("--loss", o.faults.loss, "probability a datagram is lost")->check(CLI::Range(0.0, 1.0));
  cl->add_option("--reorder", o.faults.reorder, "probability a datagram is held behind the next")
      ->check(CLI::Range(0.0, 1.0));
  cl->add_option("--corrupt", o.faults.corrupt, "probability a datagram has a byte changed")
      ->check(CLI::Range(0.0, 1.0));
  cl->add_option("--seed", o.seed, "seed of the fault injector");
  CLI11_PARSE(app, argc, argv);
  try {
    if (server->parsed()) return run_server(listen, sessions);
    asio::io_context io;
    int rc = 1;
    asio::co_spawn(io, client(o), [&](std::exception_ptr e, int r) {
      if (e) std::rethrow_exception(e);
      rc = r;
    });
    io.run();
    return rc;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
