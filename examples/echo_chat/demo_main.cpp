// SPDX-License-Identifier: Apache-2.0
// sealwire-demo: the echo chat on loopback. Starts a server, lets several
// scripted clients chat through it, prints what one of them saw and a summary.
#include "chat.hpp"

#include <sealwire/crypto/aead.hpp>
#include <sealwire/crypto/cpu.hpp>

#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include "log_bridge.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <thread>

using namespace sealwire;
using clock_type = std::chrono::steady_clock;

int main(int argc, char** argv) {
  CLI::App app("sealwire demo: an end-to-end encrypted echo chat on loopback");
  std::size_t clients = 16, messages = 200, size = 48, transcript_lines = 14;
  app.add_option("--clients", clients, "chat clients")->capture_default_str()->check(CLI::Range(1, 5000));
  app.add_option("--messages", messages, "messages each client sends")->capture_default_str();
  app.add_option("--size", size, "bytes per message")->capture_default_str()->check(CLI::Range(8, 4000));
  app.add_option("--transcript", transcript_lines, "transcript lines to show")->capture_default_str();
  std::size_t window = 8;
  app.add_option("--window", window, "messages each client has in flight")->capture_default_str()->check(CLI::Range(1, 64));
  bool verbose = false;
  app.add_flag("--verbose", verbose, "show the server's log");
  CLI11_PARSE(app, argc, argv);
  spdlog::set_level(verbose ? spdlog::level::info : spdlog::level::warn);
  tools::route_library_log();

  static const char* const names[] = {"alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi",
                                      "ivan", "judy", "mallory", "niaj", "olivia", "peggy", "rupert", "sybil"};
  auto nick = [](std::size_t i) {
    const std::size_t n = sizeof names / sizeof names[0];
    return i < n ? std::string(names[i]) : std::string(names[i % n]) + "-" + std::to_string(i / n);
  };

  std::printf("sealwire demo: an encrypted echo chat on loopback\n\n");
  std::printf("  CPU level       %s (set SEALWIRE_CPU=portable|sse41|avx2|avx512 to force a lower one)\n",
              std::string(crypto::cpu::name(crypto::cpu::active_level())).c_str());
  {
    crypto::aead_sealer probe;
    const std::uint8_t key[32] = {}, nonce[12] = {};
    static_cast<void>(probe.init(crypto::aead_algorithm::chacha20_poly1305, key, nonce));
    std::printf("  record AEAD     ChaCha20-Poly1305 (%s)\n", std::string(probe.cipher_provider()).c_str());
  }
  auto kp = tools::generate_keys(record::default_kem);
  std::printf("  key exchange    %s, post-quantum hybrid (HPKE KEM 0x%04x)\n",
              tools::kem_title(kp.pub.kem()).c_str(), static_cast<unsigned>(kp.pub.kem()));
  std::printf("  server key      %s\n", tools::fingerprint(kp.pub).c_str());

  // Both ends of every connection live in this process: two descriptors per client.
  rlimit fds{};
  if (getrlimit(RLIMIT_NOFILE, &fds) == 0 && fds.rlim_cur < 2 * clients + 64) {
    fds.rlim_cur = std::min<rlim_t>(fds.rlim_max, 2 * clients + 64);
    setrlimit(RLIMIT_NOFILE, &fds);
  }
  chat::server_options so;
  so.listen = {boost::asio::ip::make_address("127.0.0.1"), 0};
  so.limits.max_connections = clients + 16;
  // Every client may have `window` lines in flight, and all of them can be
  // queued for one reader at once: size the outbound cap for that, twice.
  so.limits.max_outbound_buffer =
      std::max<std::size_t>(so.limits.max_outbound_buffer, 2 * clients * window * (size + 24));
  so.key = std::make_shared<const hpke::private_key>(std::move(kp.priv));
  chat::server server(std::move(so));
  const auto ep = server.start();
  std::printf("  server          %s:%u\n", ep.address().to_string().c_str(), ep.port());
  std::printf("  clients         %zu, each sending %zu messages of %zu bytes\n\n", clients, messages, size);
  std::fflush(stdout);

  boost::asio::io_context io;
  std::size_t joined = 0, finished = 0;
  clock_type::time_point all_joined{};
  std::vector<chat::client_report> reports(clients);
  std::vector<std::string> transcript;
  const auto t0 = clock_type::now();
  for (std::size_t i = 0; i < clients; ++i) {
    chat::client_options co;
    co.port = ep.port();
    co.server_key = kp.pub;
    co.nick = nick(i);
    chat::script s;
    s.count = messages;
    s.size = size;
    s.expect_total = clients * messages;
    s.window = window;
    s.timeout = std::chrono::seconds(300);
    s.joined = [&] {
      if (++joined == clients) all_joined = clock_type::now();
    };
    s.may_start = [&] { return joined == clients; };
    if (i == 0) {
      // The first notices, then chat lines (join and rename notices skipped).
      s.on_line = [&, notices = std::size_t{0}](const std::string& line) mutable {
        if (transcript.size() >= transcript_lines) return;
        const bool notice = line.rfind("* ", 0) == 0;
        if (notice && ++notices > 3) return;
        transcript.push_back(line);
      };
    }
    chat::run_script(io, co, s, [&, i](chat::client_report r) {
      reports[i] = std::move(r);
      ++finished;
    });
  }
  io.run();
  const auto t_end = clock_type::now();
  server.stop();

  std::printf("transcript, as %s saw it:\n", nick(0).c_str());
  for (const auto& line : transcript) std::printf("  | %s\n", line.c_str());
  std::printf("  | ...\n\n");

  std::size_t ok = 0, sent = 0, received = 0, disorder = 0;
  std::uint64_t bytes = 0;
  for (const auto& r : reports) {
    ok += r.ok;
    sent += r.sent;
    received += r.received;
    disorder += r.out_of_order;
    bytes += r.bytes_sent + r.bytes_received;
    if (!r.ok) std::printf("  client failed: %s\n", r.error.c_str());
  }
  if (joined != clients) all_joined = t_end;  // not everyone joined: the rates below cover the whole run
  const double join_s = std::chrono::duration<double>(all_joined - t0).count();
  const double chat_s = std::chrono::duration<double>(t_end - all_joined).count();
  const auto stats = server.stats();
  std::printf("summary:\n");
  std::printf("  clients         %zu connected, %zu finished cleanly\n", clients, ok);
  std::printf("  handshakes      %llu in %.1f ms (%.0f handshakes/s, server and clients sharing %u cores)\n",
              static_cast<unsigned long long>(stats.handshakes), join_s * 1e3, static_cast<double>(clients) / join_s,
              std::max(1u, std::thread::hardware_concurrency()));
  std::printf("  messages        %zu sent, %zu lines delivered (%zu expected), %zu lost/duplicated/reordered\n", sent,
              received, clients * clients * messages, disorder);
  std::printf("  throughput      %.0f messages/s in, %.0f lines/s delivered, %.1f MB of application data\n",
              static_cast<double>(sent) / chat_s, static_cast<double>(received) / chat_s,
              static_cast<double>(bytes) / 1e6);
  std::printf("  server          peak %lld bytes buffered across all connections\n",
              static_cast<long long>(stats.buffered_peak));
  // The chat's own queues above count a line once per recipient; the
  // process's peak resident memory (server and clients, both ends of every
  // connection in this process) is what the heap really reached.
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) == 0)
    std::printf("  process         peak resident memory %.1f MiB (server and clients)\n",
                static_cast<double>(usage.ru_maxrss) / 1024.0);
  const bool good = ok == clients && received == clients * clients * messages && disorder == 0;
  std::printf("\n%s\n", good ? "demo ok" : "demo FAILED");
  return good ? 0 : 1;
}
