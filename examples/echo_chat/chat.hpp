// SPDX-License-Identifier: Apache-2.0
// The echo chat: a chat room server and its clients on sealwire::record::stream
// over TCP, with C++20 coroutines on Boost.Asio. The executables
// (sealwire-chat-server, sealwire-chat-client, sealwire-demo) and the load and
// fault tests all use this library.
//
// Application protocol, inside the record stream: lines of UTF-8 text ending
// in '\n'. A client sends chat lines and commands (/nick NAME, /who, /quit);
// the server sends "NICK: text" for every chat line (to everyone, the sender
// included) and "* ..." for notices.
#pragma once

#include "keys.hpp"

#include <sealwire/hpke/hpke.hpp>
#include <sealwire/record/config.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace sealwire::chat {

// ---- server ----

// limits: what one connection may cost the server.
struct limits {
  std::size_t max_connections = 1024;                       // beyond this, new connections are refused
  std::size_t max_message_size = 4096;                      // bytes per line, without the newline
  std::size_t max_outbound_buffer = 256 * 1024;             // queued output per connection; over it: disconnected
  std::chrono::milliseconds handshake_timeout{10'000};      // from accept to a completed handshake
  std::chrono::milliseconds idle_timeout{5 * 60'000};       // without receiving anything
  // Inbound, the record layer holds at most max_record_size + its plaintext
  // buffer (max_inbound_buffer) and the chat at most one partial line.
  std::size_t max_inbound_buffer = 32 * 1024;
  // The kernel's send buffer per connection (SO_SNDBUF; 0: the system's
  // default). Bytes there are outside max_outbound_buffer, so a smaller value
  // notices a client that stopped reading sooner.
  std::size_t socket_send_buffer = 0;
};

struct server_options {
  boost::asio::ip::tcp::endpoint listen;
  hpke::kem_id kem = hpke::kem_id::x25519;
  std::shared_ptr<const hpke::private_key> key;
  unsigned threads = 0;  // worker threads; 0: one per core
  chat::limits limits;
};

// server_stats: the server's own accounting, readable at any time.
struct server_stats {
  std::uint64_t connections_now = 0;
  std::uint64_t connections_total = 0;
  std::uint64_t handshakes = 0;
  std::uint64_t refused = 0;
  std::uint64_t lines_in = 0;         // chat lines received
  std::uint64_t lines_out = 0;        // batches of lines and notices put into outgoing queues
  std::uint64_t bytes_in = 0;         // application bytes received
  std::uint64_t bytes_out = 0;        // application bytes written
  std::int64_t buffered_now = 0;      // bytes queued in or out across all connections (never negative)
  std::int64_t buffered_peak = 0;
  std::map<std::string, std::uint64_t> disconnects;  // reason -> count
};

class server {
 public:
  explicit server(server_options options);
  ~server();
  server(const server&) = delete;
  server& operator=(const server&) = delete;

  // start binds, listens and serves on the worker threads (an
  // asio::thread_pool of options.threads); returns the bound endpoint.
  boost::asio::ip::tcp::endpoint start();
  // stop closes the listener and every connection, waits for them to close
  // and joins the worker threads. Idempotent; the destructor calls it. Not
  // from one of the server's own threads (it would join itself).
  void stop();
  [[nodiscard]] server_stats stats() const;

  struct state;  // shared with the sessions

 private:
  std::shared_ptr<state> state_;
  bool started_ = false, stopped_ = false;
};

// ---- client ----

struct client_options {
  std::string host = "127.0.0.1";
  std::uint16_t port = 0;
  hpke::kem_id kem = hpke::kem_id::x25519;
  hpke::public_key server_key;
  std::string nick;
};

// A scripted run: join, optionally wait at a barrier, send `count` messages
// (at most `window` unanswered at a time), and read until every expected
// line has arrived; check that each sender's messages arrive once and in order.
struct script {
  std::size_t count = 10;
  std::size_t size = 32;                  // payload bytes per message
  std::size_t window = 8;                 // messages in flight
  std::chrono::milliseconds interval{0};  // pause after each message
  std::size_t expect_total = 0;           // chat lines to receive in all (0: only our own echoes)
  std::function<void()> joined;           // called once the server confirmed our nick
  std::function<bool()> may_start;        // polled until true before sending (a barrier); unset: start at once
  std::function<void(const std::string&)> on_line;  // every line received (for transcripts)
  std::chrono::milliseconds timeout{60'000};
};

struct client_report {
  bool ok = false;
  std::string error;
  std::size_t sent = 0;
  std::size_t own_received = 0;
  std::size_t received = 0;      // chat lines from anyone
  std::size_t out_of_order = 0;  // lost, duplicated or reordered lines seen
  std::uint64_t bytes_sent = 0, bytes_received = 0;
  std::chrono::microseconds handshake{0}, total{0};
};

// run_script runs one scripted client on `io` (the caller runs io, on one thread).
void run_script(boost::asio::io_context& io, client_options options, script s,
                std::function<void(client_report)> done);

// run_interactive: stdin lines out, incoming lines to stdout, until /quit or EOF.
int run_interactive(const client_options& options);

// make_message / parse_message: the scripted clients' payload "m <index> <padding>".
[[nodiscard]] std::string make_message(std::size_t index, std::size_t size);
[[nodiscard]] std::optional<std::size_t> message_index(const std::string& text);

}  // namespace sealwire::chat
