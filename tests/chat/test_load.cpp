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

// Group mode: members join one group through the relay (the server only
// forwards MLS blobs), then each sends its messages; every member must open
// every other member's messages once and in order, and the relay must hold
// nothing once everyone is in (no history, no KeyPackages waiting).
TEST(ChatLoad, GroupMembersGetEveryMessageOnceAndInOrder) {
  const std::size_t members = sanitized ? 20 : 50;
  const std::size_t messages = sanitized ? 40 : 100;
  chat::limits lim;
  lim.max_connections = members + 8;
  running_server server(lim);
  std::atomic<std::size_t> ready{0};
  std::vector<std::future<group_report>> reports;
  const auto t0 = std::chrono::steady_clock::now();
  std::uint64_t peak_pending = 0;
  {
    client_pool pool;
    for (std::size_t i = 0; i < members; ++i) {
      group_script s;
      s.group = "load";
      s.count = messages;
      s.size = 64;
      s.window = 4;
      s.expect_members = members;
      s.expect_total = (members - 1) * messages;
      s.ready = [&] { ++ready; };
      s.may_start = [&] { return ready.load() == members; };
      s.timeout = scaled(std::chrono::milliseconds(100'000));
      auto promise = std::make_shared<std::promise<group_report>>();
      reports.push_back(promise->get_future());
      asio::post(pool.io(), [&pool, o = server.client("member" + std::to_string(i)), s, promise] {
        run_group_script(pool.io(), o, s, [promise](group_report r) { promise->set_value(std::move(r)); });
      });
    }
    while (ready.load() < members && std::chrono::steady_clock::now() - t0 < scaled(std::chrono::seconds(60))) {
      peak_pending = std::max(peak_pending, server.srv->stats().pending_key_packages);
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    const auto in = server.srv->stats();
    EXPECT_EQ(in.pending_key_packages, 0u);  // all added
    EXPECT_EQ(in.pending_bytes, 0u);
    for (auto& f : reports) ASSERT_TRUE(ready_within(f, std::chrono::seconds(110), "a group load client"));
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::size_t ok = 0, received = 0, disorder = 0, sent = 0, refused = 0;
  for (auto& f : reports) {
    const group_report r = f.get();
    EXPECT_TRUE(r.ok) << r.error;
    ok += r.ok;
    sent += r.sent;
    received += r.received;
    disorder += r.out_of_order;
    refused += r.commits_refused;
  }
  const auto stats = server.srv->stats();
  std::printf("group load: %zu members x %zu messages: %zu sent, %zu opened (expected %zu), %zu lost/duplicated/"
              "reordered, %zu ok; %.1f s; server: %llu commits accepted, %llu rejected, peak %llu KeyPackages "
              "waiting, peak %lld bytes buffered\n",
              members, messages, sent, received, members * (members - 1) * messages, disorder, ok, secs,
              static_cast<unsigned long long>(stats.commits_accepted),
              static_cast<unsigned long long>(stats.commits_rejected), static_cast<unsigned long long>(peak_pending),
              static_cast<long long>(stats.buffered_peak));
  EXPECT_EQ(ok, members);
  EXPECT_EQ(sent, members * messages);
  EXPECT_EQ(received, members * (members - 1) * messages);
  EXPECT_EQ(disorder, 0u);
  EXPECT_EQ(refused, 0u);
  EXPECT_LE(peak_pending, members);
  EXPECT_LE(stats.buffered_peak, static_cast<std::int64_t>(members * lim.max_outbound_buffer));
  // Once everyone left, the relay forgot the group.
  EXPECT_TRUE(server.wait_for([](const server_stats& s) { return s.groups_now == 0 && s.group_subscribers == 0; },
                              std::chrono::seconds(5)));
}

}  // namespace
}  // namespace sealwire::chat::test
