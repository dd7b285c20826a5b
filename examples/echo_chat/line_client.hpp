// SPDX-License-Identifier: Apache-2.0
// The echo chat client's connection: the record stream over TCP with a line
// reader and a serialised line writer (used by the pairwise and group clients).
#pragma once

#include "chat.hpp"

#include <sealwire/record/stream.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <deque>
#include <optional>
#include <string>

namespace sealwire::chat::detail {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using asio::awaitable;
using clock_type = std::chrono::steady_clock;
inline constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

inline std::shared_ptr<const record::client_config> record_config(const client_options& o) {
  auto c = std::make_shared<record::client_config>();
  c->server_key = o.server_key;
  return c;
}

// line_client: a client connection with a line reader and a serialised line writer.
class line_client : public std::enable_shared_from_this<line_client> {
 public:
  explicit line_client(asio::io_context& io) : stream_(io), signal_(io), progress_(io) {}

  awaitable<boost::system::error_code> connect(const client_options& o) {
    tcp::resolver resolver(stream_.get_executor());
    auto [rec, endpoints] = co_await resolver.async_resolve(o.host, std::to_string(o.port), use_tuple);
    if (rec) co_return rec;
    auto [cec, ep] = co_await asio::async_connect(stream_.next_layer(), endpoints, use_tuple);
    if (cec) co_return cec;
    boost::system::error_code ignored;
    stream_.next_layer().set_option(tcp::no_delay(true), ignored);
    auto [hec] = co_await stream_.async_handshake(record_config(o), use_tuple);
    co_return hec;
  }

  // send queues a line (with its newline); the writer sends queued lines in batches.
  void send(std::string line) {
    bytes_sent_ += line.size();
    queue_.push_back(std::move(line));
    signal_.cancel();
  }

  awaitable<void> writer(std::shared_ptr<line_client> self) {
    std::string batch;
    while (!closed_) {
      if (queue_.empty()) {
        signal_.expires_at(clock_type::time_point::max());
        co_await signal_.async_wait(use_tuple);
        continue;
      }
      batch.clear();
      while (!queue_.empty() && batch.size() < 16 * 1024) {
        batch += queue_.front();
        queue_.pop_front();
      }
      auto [ec, n] = co_await asio::async_write(stream_, asio::buffer(batch), use_tuple);
      if (ec) {
        if (!closed_ && error_.empty()) error_ = "write: " + ec.message();
        close();
        co_return;
      }
    }
    static_cast<void>(self);
  }

  // read_line returns the next line (without '\n'), or nullopt at the end.
  awaitable<std::optional<std::string>> read_line() {
    for (;;) {
      const auto nl = in_.find('\n', scan_from_);
      if (nl != std::string::npos) {
        std::string line = in_.substr(0, nl);
        in_.erase(0, nl + 1);
        scan_from_ = 0;
        co_return line;
      }
      scan_from_ = in_.size();
      if (in_.size() > max_line) {
        if (error_.empty()) error_ = "read: a line longer than " + std::to_string(max_line) + " bytes";
        co_return std::nullopt;
      }
      char buf[8192];
      auto [ec, n] = co_await stream_.async_read_some(asio::buffer(buf), use_tuple);
      if (ec) {
        if (ec != asio::error::eof && !closed_ && error_.empty()) error_ = "read: " + ec.message();
        co_return std::nullopt;
      }
      bytes_received_ += n;
      in_.append(buf, n);
    }
  }

  void close() {
    closed_ = true;
    signal_.cancel();
    progress_.cancel();
    boost::system::error_code ignored;
    stream_.lowest_layer().close(ignored);
  }

  static constexpr std::size_t max_line = 1 << 20;  // bounds what a server can make us buffer
  record::stream<tcp::socket> stream_;
  asio::steady_timer signal_;    // wakes the writer
  asio::steady_timer progress_;  // wakes the scripted sender (joined, echoes, the reader's end)
  std::deque<std::string> queue_;
  std::string in_;
  std::size_t scan_from_ = 0;
  bool closed_ = false;
  std::string error_;
  std::uint64_t bytes_sent_ = 0, bytes_received_ = 0;
};

}  // namespace sealwire::chat::detail
