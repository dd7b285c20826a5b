// SPDX-License-Identifier: Apache-2.0
// Load: many clients chatting through one server. Every client must receive
// every chat line exactly once, each sender's lines in order.
#include "chat_harness.hpp"

#include <atomic>
#include <cstdio>

namespace sealwire::chat::test {
namespace {

TEST(ChatLoad, EveryClientGetsEveryMessageOnceAndInOrder) {
  const std::size_t clients = sanitized ? 40 : 200;
  const std::size_t messages = sanitized ? 40 : 200;
  chat::limits lim;
  lim.max_connections = clients + 8;
  running_server server(lim);
  std::atomic<std::size_t> joined{0};
  std::vector<std::future<client_report>> reports;
  const auto t0 = std::chrono::steady_clock::now();
  {
    client_pool pool;
    for (std::size_t i = 0; i < clients; ++i) {
      script s;
      s.count = messages;
      s.size = 40;
      s.window = 4;
      s.expect_total = clients * messages;
      s.joined = [&] { ++joined; };
      s.may_start = [&] { return joined.load() == clients; };
      s.timeout = std::chrono::seconds(100);
      reports.push_back(pool.add(server.client("user" + std::to_string(i)), s));
    }
    // Each script ends at its own (scaled) timeout; the margin covers the rest.
    for (auto& f : reports) ASSERT_TRUE(ready_within(f, std::chrono::seconds(110), "a load client"));
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  std::size_t ok = 0, received = 0, disorder = 0, sent = 0;
  for (auto& f : reports) {
    const client_report r = f.get();
    EXPECT_TRUE(r.ok) << r.error;
    ok += r.ok;
    sent += r.sent;
    received += r.received;
    disorder += r.out_of_order;
  }
  const auto stats = server.srv->stats();
  std::printf("load: %zu clients x %zu messages: %zu sent, %zu delivered (expected %zu), %zu lost/duplicated/"
              "reordered, %zu clients ok; %.1f s, %.0f deliveries/s; server: %llu handshakes, peak %llu bytes buffered\n",
              clients, messages, sent, received, clients * clients * messages, disorder, ok, secs,
              static_cast<double>(received) / secs, static_cast<unsigned long long>(stats.handshakes),
              static_cast<unsigned long long>(stats.buffered_peak));
  EXPECT_EQ(ok, clients);
  EXPECT_EQ(sent, clients * messages);
  EXPECT_EQ(received, clients * clients * messages);
  EXPECT_EQ(disorder, 0u);
  EXPECT_EQ(stats.lines_in, clients * messages);
  EXPECT_EQ(stats.handshakes, clients);
}

}  // namespace
}  // namespace sealwire::chat::test
