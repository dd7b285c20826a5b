// SPDX-License-Identifier: Apache-2.0
// Messages per second through the echo chat server (examples/echo_chat), in
// group mode (MLS PrivateMessages relayed as opaque blobs; every member
// opens every other member's messages: AEAD and an Ed25519 verification
// each) beside the pairwise room (the server opens each line from its
// sender's record stream and seals it into every member's), same run, same
// member counts, 64-byte messages. Server (one worker thread) and members
// (on the benchmark thread) share the process; connecting and joining happen
// before the timed loop.
//
// Each iteration: every member sends `per_member` messages; it ends when
// every member has every message (its own echo included). Counters:
// messages_per_second (messages sent), deliveries_per_second (messages
// delivered to members).
#include "common.hpp"

#include "chat.hpp"
#include "group_member.hpp"
#include "line_client.hpp"

#include <sealwire/hpke/hpke.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>

#include <spdlog/spdlog.h>

#include <chrono>
#include <memory>

namespace sealwire::bench {
namespace {

namespace asio = boost::asio;
constexpr std::size_t per_member = 16;
constexpr std::size_t message_size = 64;

struct fixture {
  explicit fixture() {
    spdlog::set_level(spdlog::level::warn);
    auto kp = tools::generate_keys(hpke::kem_id::x25519);
    pub = kp.pub;
    chat::server_options so;
    so.listen = {asio::ip::make_address("127.0.0.1"), 0};
    so.key = std::make_shared<const hpke::private_key>(std::move(kp.priv));
    so.threads = 1;
    srv = std::make_unique<chat::server>(std::move(so));
    port = srv->start().port();
  }
  ~fixture() { srv->stop(); }
  chat::client_options client(const std::string& nick) const {
    chat::client_options o;
    o.port = port;
    o.server_key = pub;
    o.nick = nick;
    return o;
  }
  template <class Pred>
  bool run_until(Pred pred) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!pred() && std::chrono::steady_clock::now() < until) {
      if (io.stopped()) io.restart();
      io.run_for(std::chrono::milliseconds(1));
    }
    return pred();
  }
  hpke::public_key pub;
  std::unique_ptr<chat::server> srv;
  std::uint16_t port = 0;
  asio::io_context io;
};

void report(benchmark::State& st, std::size_t members, std::chrono::duration<double> wall) {
  const auto sent = static_cast<double>(st.iterations() * members * per_member);
  st.counters["messages_per_second"] = sent / wall.count();
  st.counters["deliveries_per_second"] = sent * static_cast<double>(members) / wall.count();
  st.SetBytesProcessed(static_cast<std::int64_t>(sent) * static_cast<std::int64_t>(message_size));
}

void group_mode(benchmark::State& st, std::size_t members) {
  fixture f;
  std::vector<std::shared_ptr<chat::group_chat>> chats;
  std::size_t delivered = 0;
  for (std::size_t i = 0; i < members; ++i) {
    chat::group_events ev;
    ev.message = [&](const std::string&, const std::string&) { ++delivered; };
    chats.push_back(chat::group_chat::start(f.io, f.client("m" + std::to_string(i)), "bench", std::move(ev)));
    if (!f.run_until([&] {
          for (auto& c : chats)
            if (!c->member().in_group() || c->member().member_count() != i + 1) return false;
          return true;
        }))
      return st.SkipWithError("the group did not form");
  }
  std::size_t index = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (auto _ : st) {
    const std::size_t want = delivered + members * members * per_member;
    for (std::size_t k = 0; k < per_member; ++k, ++index)
      for (auto& c : chats) c->say(chat::make_message(index, message_size));
    if (!f.run_until([&] { return delivered >= want; })) return st.SkipWithError("messages missing");
  }
  report(st, members, std::chrono::steady_clock::now() - t0);
  for (auto& c : chats) c->close();
  f.run_until([&] {
    for (auto& c : chats)
      if (!c->closed()) return false;
    return true;
  });
}

void pairwise_mode(benchmark::State& st, std::size_t members) {
  fixture f;
  struct member {
    std::shared_ptr<chat::detail::line_client> c;
    bool joined = false, done = false;
  };
  std::vector<std::shared_ptr<member>> ms;
  std::size_t delivered = 0;
  for (std::size_t i = 0; i < members; ++i) {
    auto m = std::make_shared<member>();
    m->c = std::make_shared<chat::detail::line_client>(f.io);
    const auto o = f.client("p" + std::to_string(i));
    asio::co_spawn(
        f.io,
        [m, o, &f, &delivered]() -> asio::awaitable<void> {
          if (!co_await m->c->connect(o)) {
            asio::co_spawn(f.io, m->c->writer(m->c), asio::detached);
            m->c->send("/nick " + o.nick + "\n");
            while (auto line = co_await m->c->read_line()) {
              if (*line == "* you are " + o.nick) m->joined = true;
              const auto colon = line->find(": ");
              if (colon != std::string::npos && chat::message_index(line->substr(colon + 2))) ++delivered;
            }
          }
          m->done = true;
        },
        asio::detached);
    ms.push_back(std::move(m));
  }
  if (!f.run_until([&] {
        for (auto& m : ms)
          if (!m->joined) return false;
        return true;
      }))
    return st.SkipWithError("the room did not fill");
  std::size_t index = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (auto _ : st) {
    const std::size_t want = delivered + members * members * per_member;
    for (std::size_t k = 0; k < per_member; ++k, ++index)
      for (auto& m : ms) m->c->send(chat::make_message(index, message_size) + "\n");
    if (!f.run_until([&] { return delivered >= want; })) return st.SkipWithError("messages missing");
  }
  report(st, members, std::chrono::steady_clock::now() - t0);
  for (auto& m : ms) m->c->close();
  f.run_until([&] {
    for (auto& m : ms)
      if (!m->done) return false;
    return true;
  });
}

void register_chat() {
  for (std::size_t n : {4u, 16u}) {
    add("chat.messages", n, "group_mls", [n](benchmark::State& st) { group_mode(st, n); });
    add("chat.messages", n, "pairwise", [n](benchmark::State& st) { pairwise_mode(st, n); });
  }
}

const registrar reg(&register_chat);

}  // namespace
}  // namespace sealwire::bench
