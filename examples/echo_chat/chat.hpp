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
//
// Group mode (end to end): "/group NAME" and the other "/g..." commands of
// group_relay.hpp carry MLS messages (RFC 9420) as base64 blobs; the server
// relays them in one order per group and never reads them. group_member.hpp
// is a client's side of it; docs/echo-chat.md describes the sub-protocol.
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
#include <string_view>
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
  // Group mode: a "/g..." line (base64 MLS blobs) may be this long; a Welcome
  // for 50 members is about 14 KB of base64, a Commit about 6 KB.
  std::size_t max_group_line = 64 * 1024;
  std::size_t max_groups = 256;                // groups at once; beyond: "/group" refused
  std::size_t max_group_subscribers = 256;     // connections per group
  std::size_t max_pending_key_packages = 64;   // KeyPackages waiting to be added, per group
  std::size_t max_key_package = 8 * 1024;      // bytes of one KeyPackage's base64 (/gkp)
};

// relay_observer sees every group payload the server relays: the group's
// name, the kind ("kp", "welcome", "commit", "msg") and the line's base64
// blob(s) as sent. Called on a server thread (the sender's connection's),
// after the relay's lock is released: it may call back into the server
// (stats()), but it delays that connection while it runs. One connection's
// payloads arrive in the order the relay took them; payloads of different
// connections may arrive from several threads at once and in another order
// than the relay's, and a subscriber may receive a line before the observer
// sees it.
using relay_observer = std::function<void(const std::string& group, const std::string& kind, const std::string& payload)>;

struct server_options {
  boost::asio::ip::tcp::endpoint listen;
  hpke::kem_id kem = hpke::kem_id::x25519;
  std::shared_ptr<const hpke::private_key> key;
  unsigned threads = 0;  // worker threads; 0: one per core
  chat::limits limits;
  relay_observer observer;  // optional (the demo's scan of relayed bytes)
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
  // The caps' accounting: bytes queued in or out across all connections
  // (never negative), a line counted once per connection that queued it.
  std::int64_t buffered_now = 0;
  std::int64_t buffered_peak = 0;
  // Real memory of the outgoing lines: each line's bytes once, however many
  // connections queue it (they share it), while any holds it; and the
  // queues' entries (a shared pointer each). The group relay's lines are
  // outside these counts.
  std::int64_t line_bytes_now = 0, line_bytes_peak = 0;
  std::int64_t queue_entries_now = 0, queue_entries_peak = 0;
  std::map<std::string, std::uint64_t> disconnects;  // reason -> count
  // Group relay (group_relay.hpp).
  std::uint64_t groups_now = 0;
  std::uint64_t group_subscribers = 0;      // connections in a group now
  std::uint64_t pending_key_packages = 0;   // held now, across groups
  std::uint64_t pending_bytes = 0;          // their bytes (the relay's only stored payloads)
  std::uint64_t group_relayed = 0;          // group payloads relayed (each counted once, not per recipient)
  std::uint64_t commits_accepted = 0, commits_rejected = 0;
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

// terminal_safe returns text as the terminal clients print it: what another
// client sent cannot drive the terminal. Each C0 control but tab, DEL, each
// C1 control (U+0080..U+009F, two bytes in UTF-8), each bidirectional
// formatting character (U+061C, U+200E/F, U+202A..U+202E, U+2066..U+2069,
// which reorder how the rest of a line displays), the line and paragraph
// separators (U+2028/9), the invisible U+200B, U+2060 and U+FEFF, and each
// byte that is not
// part of well-formed UTF-8 (RFC 3629 section 4: overlong forms, surrogates,
// stray continuation bytes such as a raw 0x9B CSI) becomes one '?'.
[[nodiscard]] std::string terminal_safe(std::string_view text);

// ---- group mode client (group_client.cpp; the MLS side is group_member.hpp) ----

class group_member;

struct group_events {
  std::function<void(const std::string& sender, const std::string& text)> message;  // verified plaintext only
  std::function<void(const std::string& text)> notice;                              // group events
  std::function<void(const std::string& line)> server_notice;                       // the room's "* ..." lines
  std::function<void()> closed;                                                     // the connection ended
};

// group_chat is a group-mode client on an io_context: it connects, sets its
// nick, subscribes to the group and follows it. Every call, and every
// callback, happens on the io_context's thread.
class group_chat {
 public:
  static std::shared_ptr<group_chat> start(boost::asio::io_context& io, const client_options& options,
                                           const std::string& group, group_events events);
  ~group_chat();
  bool say(const std::string& text);  // false: not in the group (yet)
  bool leave();                       // ask the group to remove us
  void update();                      // commit a fresh leaf key
  void quit();                        // "/quit": the server closes the connection
  void close();                       // end the connection now
  void ping();                        // an empty line (the server ignores it; it resets the idle timeout)
  void send_line(const std::string& line);  // a raw line to the server (tests: a member's forged Commit)
  [[nodiscard]] group_member& member();
  [[nodiscard]] bool closed() const;
  [[nodiscard]] const std::string& error() const;
  [[nodiscard]] std::uint64_t bytes_sent() const;
  [[nodiscard]] std::uint64_t bytes_received() const;

  struct impl;

 private:
  explicit group_chat(std::shared_ptr<impl> i) : impl_(std::move(i)) {}
  std::shared_ptr<impl> impl_;
};

// A scripted group member: join the group, wait until it has expect_members
// members (and may_start), send `count` messages (at most `window` not yet
// echoed back by the relay), read until expect_total messages from the
// others arrived, each sender's in order, then quit.
struct group_script {
  std::string group = "demo";
  std::size_t count = 10;
  std::size_t size = 32;
  std::size_t window = 8;
  std::size_t expect_members = 1;
  std::size_t expect_total = 0;  // messages from the other members
  std::function<void()> ready;   // once the group has expect_members members
  std::function<bool()> may_start;
  std::function<void(const std::string&)> on_line;  // "sender: text" and "* notice" (transcripts)
  std::chrono::milliseconds timeout{60'000};
};

struct group_report {
  bool ok = false;
  std::string error;
  std::size_t sent = 0, own_received = 0, received = 0, out_of_order = 0;
  std::uint64_t epoch = 0;
  std::size_t members = 0;
  std::uint64_t commits_sent = 0, commits_lost = 0, commits_refused = 0, undecryptable = 0;
  std::uint64_t bytes_sent = 0, bytes_received = 0;
  std::chrono::microseconds total{0};
};

void run_group_script(boost::asio::io_context& io, const client_options& options, group_script s,
                      std::function<void(group_report)> done);

// run_group_interactive: group mode on a terminal (stdin lines to the group;
// /who, /leave, /update, /quit), until /quit or EOF.
int run_group_interactive(const client_options& options, const std::string& group);

// make_message / parse_message: the scripted clients' payload "m <index> <padding>".
[[nodiscard]] std::string make_message(std::size_t index, std::size_t size);
[[nodiscard]] std::optional<std::size_t> message_index(const std::string& text);

}  // namespace sealwire::chat
