// SPDX-License-Identifier: Apache-2.0
// The datagram channel over a hostile in-memory path: a few thousand
// datagrams of one to three messages, lost, duplicated, held back and
// reordered, bit-flipped, truncated, replayed long after, interleaved with
// forged datagrams, across spaced key updates. Every delivered message must
// be one the sender sealed, with the (epoch, sequence number) it was sealed
// under, and delivered at most once.
#include <sealwire/record/datagram/channel.hpp>

#include "datagram_harness.hpp"

#include <chrono>
#include <deque>
#include <map>
#include <set>

using namespace sealwire;
using namespace sealwire::record::datagram;
using namespace sealwire::record::datagram::test;
using record::record_aead;
using namespace std::chrono_literals;

namespace {

struct sent_record {
  bytes data;
};

class DatagramFaults : public ::testing::TestWithParam<record_aead> {};
INSTANTIATE_TEST_SUITE_P(aead, DatagramFaults,
                         ::testing::Values(record_aead::chacha20_poly1305, record_aead::aes128_gcm),
                         [](const auto& param_info) { return std::string(record::to_string(param_info.param)); });

TEST_P(DatagramFaults, LossyPathDeliversOnlyGenuineMessagesAtMostOnce) {
  config cfg;
  cfg.previous_epoch_lifetime = 200ms;
  cfg.replay_window = 128;
  auto p = make_pair(GetParam(), cfg);
  sealwire::test::seeded_random rng(0xd6a + static_cast<unsigned>(GetParam()));
  clock::time_point now{};

  std::map<std::pair<std::uint64_t, std::uint64_t>, bytes> sent;  // (epoch, seq) -> message
  std::set<std::pair<std::uint64_t, std::uint64_t>> delivered;
  std::deque<std::pair<int, bytes>> held;  // (release step, datagram)
  std::vector<bytes> history;              // every datagram sent, for late replays
  std::uint64_t forged_sent = 0;

  auto deliver = [&](bytes d) {
    std::vector<message> out;
    auto n = p.b.open(d, out, now);
    ASSERT_TRUE(n.has_value()) << n.error().message();
    for (const auto& m : out) {
      const auto id = std::make_pair(m.epoch, m.sequence);
      const auto it = sent.find(id);
      ASSERT_NE(it, sent.end()) << "a message never sealed: epoch " << m.epoch << " seq " << m.sequence;
      ASSERT_EQ(bytes(m.data.begin(), m.data.end()), it->second) << "altered message";
      ASSERT_TRUE(delivered.insert(id).second) << "delivered twice";
    }
  };

  const int steps = 3000;
  for (int step = 0; step < steps; ++step) {
    now += 1ms;
    // A key update every 400 steps (spaced well beyond the lifetime).
    if (step % 400 == 399) {
      ASSERT_TRUE(p.a.update_keys(now));
    }
    // Seal one to three messages into one datagram.
    const std::size_t count = 1 + rng.uniform(3);
    std::vector<bytes> msgs;
    std::vector<bytes_view> views;
    for (std::size_t i = 0; i < count; ++i) msgs.push_back(rng.fill(rng.uniform(120)));
    for (const auto& m : msgs) views.emplace_back(m);
    const std::uint64_t epoch = p.a.send_epoch(), first_seq = hook::send_sequence(p.a);
    bytes d(1200);
    auto n = p.a.seal(d, views);
    ASSERT_TRUE(n);
    d.resize(*n);
    for (std::size_t i = 0; i < count; ++i) sent[{epoch, first_seq + i}] = msgs[i];
    history.push_back(d);

    // The path.
    const std::uint64_t fate = rng.uniform(100);
    if (fate < 10) {
      // lost
    } else if (fate < 15) {  // duplicated
      deliver(d);
      deliver(d);
    } else if (fate < 30) {  // held back, released later (reordering)
      held.emplace_back(step + 1 + static_cast<int>(rng.uniform(60)), d);
    } else if (fate < 36) {  // a bit flipped somewhere
      d[rng.uniform(d.size())] ^= static_cast<std::uint8_t>(1u << rng.uniform(8));
      deliver(d);
    } else if (fate < 40) {  // truncated
      d.resize(rng.uniform(d.size()));
      deliver(d);
    } else {
      deliver(d);
    }
    // Sometimes a forged datagram, sometimes a replay of an old one.
    if (rng.uniform(100) < 4) {
      bytes f = rng.fill(19 + rng.uniform(200));
      f[0] = static_cast<std::uint8_t>(0x20 | (f[0] & 0x0f));
      ++forged_sent;
      deliver(f);
    }
    if (rng.uniform(100) < 4) deliver(history[rng.uniform(history.size())]);
    // Release what is due.
    for (auto it = held.begin(); it != held.end();) {
      if (it->first <= step) {
        deliver(it->second);
        it = held.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& h : held) deliver(h.second);

  const stats st = p.b.statistics();
  EXPECT_EQ(st.delivered, delivered.size());
  EXPECT_FALSE(p.b.error());
  // Most of what was not lost or damaged arrived; something of each kind was dropped.
  EXPECT_GT(delivered.size(), sent.size() / 2);
  EXPECT_LT(delivered.size(), sent.size());
  EXPECT_GT(st.forged, 0u);
  EXPECT_GT(st.replayed, 0u);
  EXPECT_GT(st.malformed, 0u);
  EXPECT_EQ(st.epochs_followed, 7u);
  EXPECT_GT(forged_sent, 0u);
}

}  // namespace
