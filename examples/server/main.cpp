// SPDX-License-Identifier: Apache-2.0
// sealwire-echo-server: the example server of docs/embedding.md. It echoes
// what each client sends, over the record protocol.
//   sealwire-echo-server --key server.key                        any client
//   sealwire-echo-server --key server.key --allow clients.txt    only clients whose key is listed
// Keys come from sealwire-chat-server keygen (the same key files). SIGHUP
// reads the key file and the allow-list again (key rotation: new connections
// use the new key); SIGINT or SIGTERM stop the server gracefully.
#include "echo_server.hpp"
#include "endpoint.hpp"
#include "keys.hpp"
#include "log_bridge.hpp"

#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <csignal>
#include <cstdio>
#include <set>
#include <string>

using namespace sealwire;

namespace {

// load_config reads the key file and the allow-list into a record config.
std::shared_ptr<const record::server_config> load_config(const std::string& key_file, const std::string& allow_file) {
  auto cfg = std::make_shared<record::server_config>();
  auto [kem, key] = tools::read_private_key(key_file);
  cfg->static_key = std::make_shared<const hpke::private_key>(std::move(key));
  spdlog::info("server key {} {}", hpke::to_string(kem), tools::fingerprint(cfg->static_key->public_key()));
  if (!allow_file.empty()) {
    // Client authentication: a client must prove a key, and the key must be
    // on the list. The policy runs only for keys the client proved it holds.
    std::set<std::string> allowed;  // the keys' bytes
    for (const auto& [client_kem, pub] : tools::read_public_keys(allow_file)) {
      if (client_kem != kem) spdlog::warn("{}: a {} key cannot authenticate to a {} server", allow_file,
                                          hpke::to_string(client_kem), hpke::to_string(kem));
      allowed.emplace(reinterpret_cast<const char*>(pub.bytes().data()), pub.bytes().size());
    }
    spdlog::info("{} client key(s) allowed", allowed.size());
    cfg->require_client_auth = true;
    cfg->accept_client = [allowed = std::move(allowed)](std::span<const std::uint8_t> client_key) {
      return allowed.count(std::string(reinterpret_cast<const char*>(client_key.data()), client_key.size())) != 0;
    };
  }
  return cfg;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("sealwire example server: echoes what each client sends, over the record protocol");
  std::string listen = "127.0.0.1:7100", key_file = "server.key", allow_file, level = "info";
  examples::server_settings settings;
  long handshake_ms = settings.handshake_timeout.count(), idle_ms = settings.idle_timeout.count();
  app.add_option("--listen", listen, "HOST:PORT to listen on")->capture_default_str();
  app.add_option("--key", key_file, "the server's private key file (sealwire-chat-server keygen)")->capture_default_str();
  app.add_option("--allow", allow_file, "file of client public keys allowed in, one per line (default: any client)");
  app.add_option("--threads", settings.threads, "worker threads (0: one per core)")->capture_default_str();
  app.add_option("--max-connections", settings.max_connections, "connections served at once")->capture_default_str();
  app.add_option("--handshake-timeout-ms", handshake_ms, "time allowed for the handshake")->capture_default_str();
  app.add_option("--idle-timeout-ms", idle_ms, "time a read or write may wait")->capture_default_str();
  app.add_option("--log-level", level, "trace, debug, info, warn, error or off")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  try {
    spdlog::set_level(spdlog::level::from_str(level));
    tools::route_library_log();  // the library's log hook, into spdlog
    // The signals are waited for below: block them before any worker thread
    // exists, so that every thread inherits the mask.
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);

    settings.listen = tools::parse_endpoint(listen);
    settings.config = load_config(key_file, allow_file);
    settings.handshake_timeout = std::chrono::milliseconds(handshake_ms);
    settings.idle_timeout = std::chrono::milliseconds(idle_ms);
    examples::echo_server server(settings);
    server.start();
    const auto ep = server.local_endpoint();
    std::printf("listening on %s:%u\n", ep.address().to_string().c_str(), ep.port());
    std::fflush(stdout);

    for (;;) {
      int sig = 0;
      sigwait(&signals, &sig);
      if (sig != SIGHUP) break;
      try {
        server.replace_config(load_config(key_file, allow_file));  // rotation: new connections only
        spdlog::info("SIGHUP: key and allow-list reloaded");
      } catch (const std::exception& e) {
        spdlog::error("SIGHUP: kept the old config: {}", e.what());
      }
    }
    spdlog::info("stopping: sending close records");
    server.stop();
    const auto c = server.counters();
    spdlog::info("served {} connections: {} closed cleanly, {} timed out, {} authentication failures, "
                 "{} protocol errors, {} truncated, {} transport errors, {} refused (busy)",
                 c.accepted, c.closed_cleanly, c.timeouts, c.authentication_failures, c.protocol_errors, c.truncated,
                 c.transport_errors, c.refused_busy);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sealwire-echo-server: %s\n", e.what());
    return 1;
  }
}
