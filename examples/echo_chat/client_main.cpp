// SPDX-License-Identifier: Apache-2.0
// sealwire-chat-client: join an echo chat room.
//   sealwire-chat-client connect 127.0.0.1:7000 --server-key server.pub --nick alice
//   sealwire-chat-client connect 127.0.0.1:7000 --server-key HEX --nick bot --script 100
//   sealwire-chat-client connect 127.0.0.1:7000 --server-key server.pub --nick alice --group team
#include "chat.hpp"
#include "endpoint.hpp"

#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include "log_bridge.hpp"

#include <cstdio>

using namespace sealwire;

int main(int argc, char** argv) {
  CLI::App app("sealwire echo chat client");
  app.require_subcommand(1);
  std::string target, server_key, nick, group;
  std::size_t script_count = 0, size = 32, window = 8;
  long timeout_s = 60;
  auto* connect = app.add_subcommand("connect", "connect to a chat server");
  connect->add_option("address", target, "HOST:PORT")->required();
  connect->add_option("--server-key", server_key, "the server's public key: a .pub file or hex")->required();
  connect->add_option("--nick", nick, "nickname");
  connect->add_option("--script", script_count, "scripted mode: send N messages, wait for all N to come back, "
                                                "print a summary and exit (0: interactive)");
  connect->add_option("--size", size, "scripted message size in bytes")->capture_default_str();
  connect->add_option("--window", window, "scripted messages in flight")->capture_default_str();
  connect->add_option("--group", group, "group mode: an end-to-end encrypted group (MLS) that the server only "
                                        "relays; needs --nick (your identity in the group)");
  connect->add_option("--timeout", timeout_s, "scripted mode: give up after this many seconds")->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  tools::route_library_log();  // the library logs at debug: shown when spdlog's level allows

  try {
    chat::client_options opts;
    std::tie(opts.host, opts.port) = tools::split_host_port(target);
    if (opts.port == 0) throw std::invalid_argument(target + ": port 0 cannot be connected to");
    std::tie(opts.kem, opts.server_key) = tools::parse_public_key(server_key);
    opts.nick = nick;
    if (!group.empty()) {
      if (nick.empty()) throw std::invalid_argument("--group needs --nick");
      if (script_count != 0) throw std::invalid_argument("--group is interactive (scripted groups: sealwire-demo)");
      return chat::run_group_interactive(opts, group);
    }
    if (script_count == 0) return chat::run_interactive(opts);

    if (opts.nick.empty()) opts.nick = "bot-" + std::to_string(::getpid());
    boost::asio::io_context io;
    chat::script s;
    s.count = script_count;
    s.size = size;
    s.window = std::max<std::size_t>(1, window);
    s.timeout = std::chrono::seconds(timeout_s);
    chat::client_report report;
    chat::run_script(io, opts, s, [&](chat::client_report r) { report = std::move(r); });
    io.run();
    const double secs = static_cast<double>(report.total.count()) / 1e6;
    std::printf("%s: %s; sent %zu, echoed %zu, received %zu lines, %llu bytes out, %llu bytes in, handshake %.2f ms, "
                "%.0f messages/s\n",
                opts.nick.c_str(), report.ok ? "ok" : report.error.c_str(), report.sent, report.own_received,
                report.received, static_cast<unsigned long long>(report.bytes_sent),
                static_cast<unsigned long long>(report.bytes_received),
                static_cast<double>(report.handshake.count()) / 1e3, secs > 0 ? static_cast<double>(report.own_received) / secs : 0.0);
    return report.ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sealwire-chat-client: %s\n", e.what());
    return 1;
  }
}
