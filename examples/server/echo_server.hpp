// SPDX-License-Identifier: Apache-2.0
// A complete minimal server on sealwire::record::stream: it accepts many
// clients, runs each connection's handshake and echo loop as a coroutine on
// its own strand, bounds every connection in time (handshake and idle
// timeouts) and in number, counts how connections end by error category,
// takes a new key and client policy without a restart, and stops gracefully
// (a close record to every client, then reading to the end of its input).
// docs/embedding.md walks through it; main.cpp is the executable around it.
#pragma once

#include <sealwire/record/config.hpp>

#include <boost/asio/ip/tcp.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace sealwire::examples {

// server_settings: everything the server needs. The record config holds the
// static key, the client policy and the record layer's limits.
struct server_settings {
  boost::asio::ip::tcp::endpoint listen{boost::asio::ip::make_address("127.0.0.1"), 0};
  std::shared_ptr<const record::server_config> config;
  unsigned threads = 0;                                    // worker threads; 0: one per core
  std::size_t max_connections = 1000;                      // beyond this, new connections are closed at once
  std::chrono::milliseconds handshake_timeout{10'000};     // from accept to a completed handshake
  std::chrono::milliseconds idle_timeout{60'000};          // waiting for a record or for the peer to take one
  std::chrono::milliseconds close_timeout{5'000};          // waiting for the peer's close record at stop()
};

// server_counters: how many connections did what, by the category of the
// error that ended them (docs/embedding.md, "Error handling").
struct server_counters {
  std::uint64_t accepted = 0;                 // connections taken from the listening socket
  std::uint64_t refused_busy = 0;             // closed at once: max_connections were open
  std::uint64_t handshakes = 0;               // handshakes that completed
  std::uint64_t active = 0;                   // open now
  std::uint64_t closed_cleanly = 0;           // ended by close records (either side first)
  std::uint64_t truncated = 0;                // the transport ended without a close record
  std::uint64_t authentication_failures = 0;  // a record or handshake message failed authentication
  std::uint64_t protocol_errors = 0;          // other record-layer errors (refused client, bad message, ...)
  std::uint64_t timeouts = 0;                 // handshake, idle or close timeout
  std::uint64_t transport_errors = 0;         // the socket failed (reset, ...)
};

// echo_server sends every byte a client sends back to it, over the record
// protocol. Construct, start(), and stop() (or destroy) when done; every
// member function may be called from any thread.
class echo_server {
 public:
  explicit echo_server(server_settings settings);
  // The destructor stops the server (see stop()).
  ~echo_server();
  echo_server(const echo_server&) = delete;
  echo_server& operator=(const echo_server&) = delete;

  // start begins accepting on the worker threads.
  void start();
  // local_endpoint is the listening address (the port, when 0 was asked for).
  [[nodiscard]] boost::asio::ip::tcp::endpoint local_endpoint() const;
  // replace_config installs a new record config (a rotated key, a new client
  // allow-list) for the connections accepted from now on; open connections
  // keep the config they started with.
  void replace_config(std::shared_ptr<const record::server_config> config);
  // stop closes the listening socket, sends every client a close record,
  // waits (at most close_timeout) for each to close in turn, and returns once
  // every connection and worker thread has finished. Idempotent. Not from
  // one of the server's own threads (it waits for them).
  void stop();
  // counters is a snapshot of the counters.
  [[nodiscard]] server_counters counters() const;

 private:
  struct state;
  std::shared_ptr<state> state_;
};

}  // namespace sealwire::examples
