// SPDX-License-Identifier: Apache-2.0
// sealwire-chat-server: the echo chat room.
//   sealwire-chat-server keygen --out server        writes server.key (0600) and server.pub
//   sealwire-chat-server keygen --out server --force   replaces them
//   sealwire-chat-server serve --listen 127.0.0.1:7000 --key server.key
#include "chat.hpp"
#include "endpoint.hpp"
#include "key_file.hpp"

#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include "log_bridge.hpp"

#include <csignal>
#include <cstdio>
#include <iostream>

using namespace sealwire;

int main(int argc, char** argv) {
  CLI::App app("sealwire echo chat server");
  app.require_subcommand(1);

  std::string out = "server", kem_name(hpke::to_string(record::default_kem));  // X-Wing
  auto* keygen = app.add_subcommand("keygen", "generate the server's static key pair");
  keygen->add_option("--out", out, "file prefix: writes PREFIX.key (mode 0600) and PREFIX.pub")->capture_default_str();
  keygen->add_option("--kem", kem_name, "xwing (post-quantum hybrid), x25519 or x448")
      ->check(CLI::IsMember({"xwing", "x25519", "x448"}))
      ->capture_default_str();
  bool force = false;
  keygen->add_flag("--force", force, "replace existing key files (atomically; otherwise they are never overwritten)");

  std::string listen = "127.0.0.1:7000", key_file = "server.key", level = "info";
  unsigned threads = 0;
  chat::limits lim;
  long handshake_ms = lim.handshake_timeout.count(), idle_ms = lim.idle_timeout.count();
  auto* serve = app.add_subcommand("serve", "run the chat room");
  serve->add_option("--listen", listen, "HOST:PORT to listen on")->capture_default_str();
  serve->add_option("--key", key_file, "the server's private key file")->capture_default_str();
  serve->add_option("--threads", threads, "worker threads (0: one per core)")->capture_default_str();
  serve->add_option("--max-connections", lim.max_connections, "connections served at once")->capture_default_str();
  serve->add_option("--max-message", lim.max_message_size, "longest line in bytes")->capture_default_str();
  serve->add_option("--max-outbound", lim.max_outbound_buffer,
                    "bytes queued for one client before it is disconnected")->capture_default_str();
  serve->add_option("--max-inbound", lim.max_inbound_buffer, "verified bytes buffered per client")->capture_default_str();
  serve->add_option("--socket-send-buffer", lim.socket_send_buffer,
                    "kernel send buffer per connection in bytes (0: system default)")->capture_default_str();
  serve->add_option("--handshake-timeout-ms", handshake_ms, "time allowed to complete the handshake")->capture_default_str();
  serve->add_option("--idle-timeout-ms", idle_ms, "disconnect clients silent this long")->capture_default_str();
  serve->add_option("--log-level", level, "trace, debug, info, warn, error or off")->capture_default_str();

  CLI11_PARSE(app, argc, argv);
  try {
    if (keygen->parsed()) {
      const auto kem = parse<hpke::kem_id>(kem_name).value();  // CLI11 admitted xwing, x25519 or x448 only
      auto kp = tools::generate_keys(kem);
      tools::write_key_files(out + ".key", out + ".pub", kp, kem, force);
      std::printf("wrote %s.key (private, mode 0600) and %s.pub\n", out.c_str(), out.c_str());
      std::printf("public key:  %s\n", tools::public_key_line(kp.pub, kem).c_str());
      std::printf("fingerprint: %s\n", tools::fingerprint(kp.pub).c_str());
      return 0;
    }
    spdlog::set_level(spdlog::level::from_str(level));
    tools::route_library_log();
    auto [kem, key] = tools::read_private_key(key_file);
    lim.handshake_timeout = std::chrono::milliseconds(handshake_ms);
    lim.idle_timeout = std::chrono::milliseconds(idle_ms);
    chat::server_options opts;
    opts.listen = tools::parse_endpoint(listen);
    opts.kem = kem;
    opts.key = std::make_shared<const hpke::private_key>(std::move(key));
    opts.threads = threads;
    opts.limits = lim;
    // SIGINT/SIGTERM end the server: block them before the server's worker
    // threads exist (they inherit the mask), then wait for one.
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    chat::server srv(std::move(opts));
    const auto ep = srv.start();
    std::printf("listening on %s:%u\n", ep.address().to_string().c_str(), ep.port());
    std::fflush(stdout);
    int sig = 0;
    sigwait(&set, &sig);
    spdlog::info("signal {}: stopping", sig);
    srv.stop();
    const auto s = srv.stats();
    spdlog::info("served {} connections, {} handshakes, {} lines in, {} lines out", s.connections_total, s.handshakes,
                 s.lines_in, s.lines_out);
    return 0;
  } catch (const tools::key_file_error& e) {
    const bool exists = e.code() == std::errc::file_exists;
    std::fprintf(stderr, "sealwire-chat-server: %s%s\n", e.what(), exists ? "; keygen --force replaces it" : "");
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sealwire-chat-server: %s\n", e.what());
    return 1;
  }
}
