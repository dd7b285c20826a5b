// SPDX-License-Identifier: Apache-2.0
// The echo chat's group-mode client: group_member (the MLS side) on a line
// connection, a scripted member (tests, demo, benchmark) and the terminal.
#include "chat.hpp"
#include "group_member.hpp"
#include "line_client.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>

#include <iostream>
#include <thread>
#include <unordered_map>

namespace sealwire::chat {

using detail::line_client;
using detail::use_tuple;
namespace asio = boost::asio;
using asio::awaitable;
using clock_type = std::chrono::steady_clock;

struct group_chat::impl : std::enable_shared_from_this<impl> {
  impl(asio::io_context& io, const client_options& o, const std::string& group, group_events e)
      : client(std::make_shared<line_client>(io)),
        options(o),
        events(std::move(e)),
        member(o.nick, group,
               group_member_callbacks{[this](const std::string& line) { client->send(line + "\n"); },
                                      [this](const std::string& who, const std::string& text) {
                                        if (events.message) events.message(who, text);
                                      },
                                      [this](const std::string& text) {
                                        if (events.notice) events.notice(text);
                                      }}) {}

  awaitable<void> run(std::shared_ptr<impl> self, asio::io_context& io) {
    if (auto ec = co_await client->connect(options)) {
      if (client->error_.empty()) client->error_ = "connect/handshake: " + ec.message();
    } else {
      asio::co_spawn(io, client->writer(client), asio::detached);
      client->send("/nick " + options.nick + "\n");
      member.start();
      while (auto line = co_await client->read_line()) {
        if (line->rfind("G ", 0) == 0) {
          member.on_line(*line);
        } else if (line->rfind("* ", 0) == 0 && events.server_notice) {
          events.server_notice(*line);
        }
      }
    }
    client->close();
    done = true;
    if (events.closed) events.closed();
    static_cast<void>(self);
  }

  std::shared_ptr<line_client> client;
  client_options options;
  group_events events;
  group_member member;
  bool done = false;
};

std::shared_ptr<group_chat> group_chat::start(asio::io_context& io, const client_options& options,
                                              const std::string& group, group_events events) {
  auto i = std::make_shared<impl>(io, options, group, std::move(events));
  asio::co_spawn(io, i->run(i, io), asio::detached);
  return std::shared_ptr<group_chat>(new group_chat(std::move(i)));
}

group_chat::~group_chat() = default;
bool group_chat::say(const std::string& text) { return !impl_->client->closed_ && impl_->member.say(text); }
bool group_chat::leave() { return !impl_->client->closed_ && impl_->member.leave(); }
void group_chat::update() { impl_->member.update(); }
void group_chat::quit() {
  impl_->member.set_passive();
  if (!impl_->client->closed_) impl_->client->send("/quit\n");
}
void group_chat::close() { impl_->client->close(); }
void group_chat::send_line(const std::string& line) {
  if (!impl_->client->closed_) impl_->client->send(line + "\n");
}
void group_chat::ping() {
  if (!impl_->client->closed_) impl_->client->send("\n");
}
group_member& group_chat::member() { return impl_->member; }
bool group_chat::closed() const { return impl_->done; }
const std::string& group_chat::error() const { return impl_->client->error_; }
std::uint64_t group_chat::bytes_sent() const { return impl_->client->bytes_sent_; }
std::uint64_t group_chat::bytes_received() const { return impl_->client->bytes_received_; }

// ---- scripted member ----

namespace {

struct group_script_state {
  group_script s;
  client_options options;
  group_report report;
  std::function<void(group_report)> done;
  std::shared_ptr<group_chat> chat;
  std::unordered_map<std::string, std::size_t> next_index;  // per sender
  std::size_t in_flight = 0;
  bool ready = false, quit_sent = false, finished_reported = false;
  clock_type::time_point started;
  std::unique_ptr<asio::steady_timer> tick, deadline;
};

bool script_finished(const group_script_state& st) {
  return st.report.own_received >= st.s.count && st.report.received >= st.s.expect_total;
}

void finish(const std::shared_ptr<group_script_state>& st, std::string error) {
  if (st->finished_reported) return;
  st->finished_reported = true;
  st->tick->cancel();
  st->deadline->cancel();
  auto& r = st->report;
  if (!st->chat->error().empty() && error.empty()) error = st->chat->error();
  auto& m = st->chat->member();
  r.epoch = m.epoch();
  r.members = m.member_count();
  r.commits_sent = m.stats().commits_sent;
  r.commits_lost = m.stats().commits_lost;
  r.commits_refused = m.stats().commits_refused;
  r.undecryptable = m.stats().undecryptable;
  r.bytes_sent = st->chat->bytes_sent();
  r.bytes_received = st->chat->bytes_received();
  r.total = std::chrono::duration_cast<std::chrono::microseconds>(clock_type::now() - st->started);
  r.ok = error.empty() && script_finished(*st) && r.out_of_order == 0 && r.received == st->s.expect_total;
  if (!r.ok && error.empty())
    error = "incomplete: " + std::to_string(r.own_received) + "/" + std::to_string(st->s.count) + " own, " +
            std::to_string(r.received) + "/" + std::to_string(st->s.expect_total) + " from others, " +
            std::to_string(r.out_of_order) + " out of order, " + std::to_string(r.members) + " members";
  r.error = std::move(error);
  auto done = std::move(st->done);
  done(r);
}

// pump sends while the window allows, and quits once everything arrived.
void pump(const std::shared_ptr<group_script_state>& st) {
  auto& c = *st->chat;
  if (!st->ready && c.member().in_group() && c.member().member_count() >= st->s.expect_members) {
    st->ready = true;
    if (st->s.ready) st->s.ready();
  }
  if (!st->ready || (st->s.may_start && !st->s.may_start())) return;
  while (st->report.sent < st->s.count && st->in_flight < st->s.window) {
    if (!c.say(make_message(st->report.sent, st->s.size))) return;
    ++st->report.sent;
    ++st->in_flight;
  }
  if (!st->quit_sent && script_finished(*st)) {
    st->quit_sent = true;
    c.quit();
  }
}

void schedule_tick(const std::shared_ptr<group_script_state>& st) {
  // may_start is a predicate over other clients (a barrier): polled.
  st->tick->expires_after(std::chrono::milliseconds(2));
  st->tick->async_wait([st](boost::system::error_code ec) {
    if (ec || st->finished_reported) return;
    pump(st);
    if (!st->ready || st->report.sent < st->s.count) schedule_tick(st);
  });
}

}  // namespace

void run_group_script(asio::io_context& io, const client_options& options, group_script s,
                      std::function<void(group_report)> done) {
  auto st = std::make_shared<group_script_state>();
  st->s = std::move(s);
  st->options = options;
  st->done = std::move(done);
  st->started = clock_type::now();
  st->tick = std::make_unique<asio::steady_timer>(io);
  st->deadline = std::make_unique<asio::steady_timer>(io);
  std::weak_ptr<group_script_state> weak = st;
  group_events ev;
  ev.message = [weak](const std::string& sender, const std::string& text) {
    auto p = weak.lock();
    if (!p) return;
    if (p->s.on_line) p->s.on_line(sender + ": " + text);
    const auto index = message_index(text);
    if (!index) return;
    auto [it, first] = p->next_index.try_emplace(sender, 0);
    if (*index != it->second) ++p->report.out_of_order;
    it->second = *index + 1;
    if (sender == p->options.nick) {
      ++p->report.own_received;
      if (p->in_flight > 0) --p->in_flight;
    } else {
      ++p->report.received;
    }
    pump(p);
  };
  ev.notice = [weak](const std::string& text) {
    auto p = weak.lock();
    if (!p) return;
    if (p->s.on_line) p->s.on_line("* " + text);
    pump(p);
  };
  ev.closed = [weak] {
    if (auto p = weak.lock()) finish(p, {});
  };
  st->chat = group_chat::start(io, options, st->s.group, std::move(ev));
  st->deadline->expires_after(st->s.timeout);
  // The deadline's handler holds the state until finish() cancels it.
  st->deadline->async_wait([st](boost::system::error_code ec) {
    if (ec || st->finished_reported) return;
    st->chat->close();
    finish(st, "timed out");
  });
  schedule_tick(st);
}

// ---- terminal ----

int run_group_interactive(const client_options& options, const std::string& group) {
  // Shared with the stdin thread, which may outlive this function (see run_interactive).
  auto io = std::make_shared<asio::io_context>();
  int status = 0;
  group_events ev;
  ev.message = [&](const std::string& who, const std::string& text) { std::cout << terminal_safe(who) << ": " << terminal_safe(text) << std::endl; };
  ev.notice = [&](const std::string& text) { std::cout << "* " << terminal_safe(text) << std::endl; };
  ev.server_notice = [&](const std::string& line) { std::cout << terminal_safe(line) << std::endl; };
  auto chat = group_chat::start(*io, options, group, std::move(ev));
  auto keepalive = std::make_shared<asio::steady_timer>(*io);
  asio::co_spawn(
      *io,
      [chat, keepalive]() -> awaitable<void> {
        while (!chat->closed()) {
          keepalive->expires_after(std::chrono::seconds(60));
          co_await keepalive->async_wait(use_tuple);
          if (!chat->closed()) chat->ping();  // an empty line keeps the link inside the server's idle timeout
        }
      },
      asio::detached);
  std::thread([io, chat] {
    std::string line;
    while (std::getline(std::cin, line)) {
      asio::post(*io, [chat, line] {
        auto& m = chat->member();
        if (line == "/who") {
          std::cout << "* group epoch " << m.epoch() << ", " << m.member_count() << " members:" << std::endl;
          for (const auto& w : m.who()) std::cout << "*   " << w << std::endl;
        } else if (line == "/leave") {
          if (!chat->leave()) std::cout << "* not in the group" << std::endl;
        } else if (line == "/update") {
          chat->update();
        } else if (line == "/quit") {
          chat->quit();
        } else if (!line.empty() && line[0] == '/') {
          std::cout << "* group mode commands: /who, /leave, /update, /quit" << std::endl;
        } else if (!line.empty() && !chat->say(line)) {
          std::cout << "* not in the group yet; line not sent" << std::endl;
        }
      });
      if (line == "/quit") return;
    }
    asio::post(*io, [chat] { chat->quit(); });
  }).detach();
  asio::co_spawn(
      *io,
      [chat, keepalive, &status]() -> awaitable<void> {
        asio::steady_timer t(co_await asio::this_coro::executor);
        while (!chat->closed()) {
          t.expires_after(std::chrono::milliseconds(50));
          co_await t.async_wait(use_tuple);
        }
        keepalive->cancel();
        if (!chat->error().empty()) {
          std::cerr << "sealwire-chat-client: " << chat->error() << "\n";
          status = 1;
        }
      },
      asio::detached);
  io->run();
  return status;
}

}  // namespace sealwire::chat
