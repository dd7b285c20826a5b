// SPDX-License-Identifier: Apache-2.0
// The echo chat client: scripted (tests, demo) and interactive.
#include "chat.hpp"
#include "line_client.hpp"

#include <sealwire/record/stream.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <spdlog/spdlog.h>

#include <deque>
#include <iostream>
#include <unordered_map>

namespace sealwire::chat {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using asio::awaitable;
using clock_type = std::chrono::steady_clock;
namespace {
using detail::line_client;
using detail::use_tuple;

struct script_state {
  client_options options;
  script s;
  client_report report;
  std::function<void(client_report)> done;
  std::shared_ptr<line_client> client;
  std::unordered_map<std::string, std::size_t> next_index;  // per sender
  bool joined = false;
  std::size_t in_flight = 0;
  clock_type::time_point started;
  bool timed_out = false;    // set by the deadline timer's handler
  bool reader_done = false;  // set when the reader coroutine ends
};

bool finished(const script_state& st) {
  return st.report.own_received >= st.s.count && (st.s.expect_total == 0 || st.report.received >= st.s.expect_total);
}

awaitable<void> script_reader(std::shared_ptr<script_state> st) {
  auto& c = *st->client;
  bool quit_sent = false;
  while (auto line = co_await c.read_line()) {
    if (st->s.on_line) st->s.on_line(*line);
    if (line->rfind("* ", 0) == 0) {
      if (!st->joined && *line == "* you are " + st->options.nick) {
        st->joined = true;
        if (st->s.joined) st->s.joined();
        c.progress_.cancel();
      }
      continue;
    }
    const auto colon = line->find(": ");
    if (colon == std::string::npos) continue;
    const std::string sender = line->substr(0, colon);
    const auto index = message_index(line->substr(colon + 2));
    if (!index) continue;
    ++st->report.received;
    // Each sender's lines must arrive once and in order. With expect_total
    // every client was present from the start, so every sender begins at 0;
    // otherwise a sender first seen mid-stream sets the starting point.
    auto [it, first] = st->next_index.try_emplace(sender, 0);
    if (!(first && st->s.expect_total == 0) && *index != it->second) ++st->report.out_of_order;
    it->second = *index + 1;
    if (sender == st->options.nick) {
      ++st->report.own_received;
      --st->in_flight;
      c.progress_.cancel();  // the sender may go on
    }
    if (!quit_sent && finished(*st)) {
      c.send("/quit\n");
      quit_sent = true;
    }
  }
  // The server answers /quit with "* bye" and its close record: a clean end.
  c.close();
}

awaitable<void> script_main(std::shared_ptr<script_state> st, asio::io_context& io) {
  st->started = clock_type::now();
  st->client = std::make_shared<line_client>(io);
  auto& c = *st->client;
  // Handlers keep the state alive through `st`, never this frame's locals.
  asio::steady_timer deadline(io);
  deadline.expires_after(st->s.timeout);
  deadline.async_wait([st](boost::system::error_code ec) {
    if (ec) return;
    st->timed_out = true;
    st->client->close();
  });

  const auto t0 = clock_type::now();
  if (auto ec = co_await c.connect(st->options)) {
    st->report.error = "connect/handshake: " + ec.message();
  } else {
    st->report.handshake = std::chrono::duration_cast<std::chrono::microseconds>(clock_type::now() - t0);
    asio::co_spawn(io, c.writer(st->client), asio::detached);
    c.send("/nick " + st->options.nick + "\n");
    // The reader runs beside this coroutine, which sends.
    // Its end is signalled like every other event this coroutine waits
    // for: by cancelling progress_ (all of this runs on one thread, so a
    // condition checked just before the wait cannot be missed).
    asio::co_spawn(io, script_reader(st), [st](std::exception_ptr) {
      st->reader_done = true;
      st->client->progress_.cancel();
    });
    auto wait_for_progress = [&]() -> awaitable<void> {
      c.progress_.expires_at(clock_type::time_point::max());
      co_await c.progress_.async_wait(use_tuple);
    };
    while (!st->joined && !c.closed_) co_await wait_for_progress();  // the reader signals the join
    asio::steady_timer wait(io);
    if (st->s.may_start) {
      // may_start is a predicate the caller owns (a barrier over clients on
      // other threads): polled.
      while (!st->s.may_start() && !c.closed_) {
        wait.expires_after(std::chrono::milliseconds(2));
        co_await wait.async_wait(use_tuple);
      }
    }
    for (std::size_t i = 0; i < st->s.count && !c.closed_; ++i) {
      while (st->in_flight >= st->s.window && !c.closed_) co_await wait_for_progress();
      if (c.closed_) break;
      c.send(make_message(i, st->s.size) + "\n");
      ++st->in_flight;
      ++st->report.sent;
      if (st->s.interval.count() > 0) {
        wait.expires_after(st->s.interval);
        co_await wait.async_wait(use_tuple);
      }
    }
    while (!st->reader_done) co_await wait_for_progress();
  }
  deadline.cancel();
  if (st->timed_out && st->report.error.empty()) st->report.error = "timed out";
  if (st->report.error.empty()) st->report.error = c.error_;
  st->report.bytes_sent = c.bytes_sent_;
  st->report.bytes_received = c.bytes_received_;
  st->report.total = std::chrono::duration_cast<std::chrono::microseconds>(clock_type::now() - st->started);
  st->report.ok = st->report.error.empty() && finished(*st) && st->report.out_of_order == 0 &&
                  (st->s.expect_total == 0 || st->report.received == st->s.expect_total);
  if (!st->report.ok && st->report.error.empty()) {
    st->report.error = "incomplete: " + std::to_string(st->report.own_received) + "/" + std::to_string(st->s.count) +
                       " own, " + std::to_string(st->report.received) + " in all, " +
                       std::to_string(st->report.out_of_order) + " out of order";
  }
  st->done(st->report);
}

}  // namespace

std::string make_message(std::size_t index, std::size_t size) {
  static constexpr std::string_view phrases[] = {
      "hello, everyone", "sealed with ChaCha20-Poly1305", "this line crossed the wire in a record",
      "keys from an HPKE handshake", "nothing is released before its tag verifies", "fragment by fragment",
      "good morning from the loopback interface", "the server echoes it to all of us"};
  std::string m = "m " + std::to_string(index);
  if (m.size() + 1 < size) {
    m += ' ';
    const std::string_view p = phrases[index % (sizeof phrases / sizeof phrases[0])];
    for (std::size_t i = 0; m.size() < size; ++i) m += i < p.size() ? p[i] : (i == p.size() ? ' ' : '.');
  }
  return m;
}

std::optional<std::size_t> message_index(const std::string& text) {
  if (text.size() < 3 || text[0] != 'm' || text[1] != ' ') return std::nullopt;
  std::size_t v = 0, i = 2;
  for (; i < text.size() && text[i] != ' '; ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    v = v * 10 + static_cast<std::size_t>(text[i] - '0');
  }
  if (i == 2) return std::nullopt;
  return v;
}

void run_script(asio::io_context& io, client_options options, script s, std::function<void(client_report)> done) {
  auto st = std::make_shared<script_state>();
  st->options = std::move(options);
  st->s = std::move(s);
  st->done = std::move(done);
  asio::co_spawn(io, script_main(st, io), asio::detached);
}

namespace {

// controls_terminal: a C1 control (U+0080..U+009F); a bidirectional
// formatting character (Unicode UAX #9: ALM U+061C, LRM/RLM U+200E/F,
// LRE..RLO U+202A..U+202E, LRI..PDI U+2066..U+2069), with which a sender
// could make the rest of a line display in another order than it was written
// (the "Trojan Source" trick, CVE-2021-42574); the line and paragraph
// separators (U+2028/9), which some terminals break lines at; or an invisible
// character that only hides text or makes one nickname look like another
// (zero width space U+200B, word joiner U+2060, zero width no-break space
// U+FEFF). The zero width joiner and non-joiner (U+200C/D) stay: emoji
// sequences and Persian or Indic text need them.
bool controls_terminal(char32_t cp) {
  return (cp >= 0x80 && cp <= 0x9f) || cp == 0x61c || cp == 0x200b || cp == 0x200e || cp == 0x200f ||
         cp == 0x2028 || cp == 0x2029 || (cp >= 0x202a && cp <= 0x202e) || cp == 0x2060 ||
         (cp >= 0x2066 && cp <= 0x2069) || cp == 0xfeff;
}

}  // namespace

std::string terminal_safe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b < 0x80) {
      out.push_back((b < 0x20 && b != '\t') || b == 0x7f ? '?' : static_cast<char>(b));
      ++i;
      continue;
    }
    // A multi-byte sequence (RFC 3629 section 4): its length and the range
    // of its second byte, which excludes overlong forms, surrogates and
    // code points past U+10FFFF; further bytes are 0x80..0xBF.
    std::size_t len = 0;
    unsigned lo = 0x80, hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) {
      len = 2;
    } else if (b >= 0xe0 && b <= 0xef) {
      len = 3;
      if (b == 0xe0) lo = 0xa0;
      if (b == 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      len = 4;
      if (b == 0xf0) lo = 0x90;
      if (b == 0xf4) hi = 0x8f;
    }
    bool valid = len != 0 && i + len <= text.size();
    for (std::size_t j = 1; valid && j < len; ++j) {
      const auto c = static_cast<unsigned char>(text[i + j]);
      valid = j == 1 ? c >= lo && c <= hi : c >= 0x80 && c <= 0xbf;
    }
    if (!valid) {
      out.push_back('?');  // this byte only; the next one starts afresh
      ++i;
      continue;
    }
    // The code point: the lead byte's payload bits, then six per further byte.
    char32_t cp = b & (0x7fu >> len);
    for (std::size_t j = 1; j < len; ++j) cp = (cp << 6) | (static_cast<unsigned char>(text[i + j]) & 0x3fu);
    if (controls_terminal(cp)) {
      out.push_back('?');
    } else {
      out.append(text.substr(i, len));
    }
    i += len;
  }
  return out;
}

int run_interactive(const client_options& options) {
  // Shared with the stdin thread, which may outlive this function (it can
  // sit in getline when the server ends the connection): posting to an
  // io_context that no longer runs is harmless, posting to a destroyed one
  // is not.
  auto io = std::make_shared<asio::io_context>();
  auto c = std::make_shared<line_client>(*io);
  int status = 0;
  asio::co_spawn(
      *io,
      [&]() -> awaitable<void> {
        if (auto ec = co_await c->connect(options)) {
          std::cerr << "sealwire-chat-client: " << ec.message() << "\n";
          status = 1;
          co_return;
        }
        std::cerr << "connected to " << options.host << ":" << options.port << ", server key "
                  << tools::kem_title(options.server_key.kem()) << " " << tools::fingerprint(options.server_key)
                  << "\n";
        asio::co_spawn(*io, c->writer(c), asio::detached);
        if (!options.nick.empty()) c->send("/nick " + options.nick + "\n");
        // An empty line every minute keeps a reading-only user inside the
        // server's idle timeout (the server ignores empty lines).
        auto keepalive = std::make_shared<asio::steady_timer>(*io);
        asio::co_spawn(
            *io,
            [c, keepalive]() -> awaitable<void> {
              while (!c->closed_) {
                keepalive->expires_after(std::chrono::seconds(60));
                co_await keepalive->async_wait(use_tuple);
                if (!c->closed_) c->send("\n");
              }
            },
            asio::detached);
        std::thread([io, c] {
          std::string line;
          while (std::getline(std::cin, line)) {
            asio::post(*io, [c, line] { c->send(line + "\n"); });
            if (line == "/quit") return;
          }
          asio::post(*io, [c] { c->send("/quit\n"); });
        }).detach();
        while (auto line = co_await c->read_line()) {
          // Controls (the server refuses C0 ones, not C1 or bad UTF-8) shown harmlessly.
          std::cout << terminal_safe(*line) << std::endl;
        }
        if (!c->error_.empty()) {
          std::cerr << "sealwire-chat-client: " << c->error_ << "\n";
          status = 1;
        }
        c->close();
        keepalive->cancel();
      },
      asio::detached);
  io->run();
  return status;
}

}  // namespace sealwire::chat
