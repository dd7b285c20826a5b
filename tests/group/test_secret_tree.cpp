// SPDX-License-Identifier: Apache-2.0
// RFC 9420 section 9 against secret-tree.json (every leaf and generation of
// every tree, both ratchets, receiver and sender paths; the sender-data key
// and nonce) and the deletion schedule of 9.2: out-of-order use within the
// window, replays, keys outside the window, generations too far ahead
// (refused before any derivation), erased leaves.
#include <sealwire/record/group/group_error.hpp>
#include <sealwire/record/group/secret_tree.hpp>
#include <sealwire/record/group/sender_data_keys.hpp>

#include "vectors.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>
#include <string>

namespace sealwire::record::group {
namespace {

using test::bytes;
using test::hex;

using test::hex_of;

TEST(GroupSecretTree, OfficialVectors) {
  SEALWIRE_REQUIRE_VECTOR(path, "mls/secret-tree.json");
  const auto cases = test::load_json(path);
  ASSERT_EQ(cases.size(), 21U);
  std::set<std::uint16_t> suites;
  std::size_t checked = 0;
  for (const auto& c : cases) {
    const auto suite = suite_algorithms::from_id(c["cipher_suite"].get<std::uint16_t>()).value();
    suites.insert(static_cast<std::uint16_t>(suite.id()));
    const auto n = static_cast<std::uint32_t>(c["leaves"].size());
    SCOPED_TRACE(std::string(to_string(suite.id())) + " leaves " + std::to_string(n));
    {  // Sender data key and nonce (RFC 9420 6.3.2).
      const auto& sd = c["sender_data"];
      const auto keys =
          derive_sender_data_keys(suite, hex_of(sd["sender_data_secret"]), hex_of(sd["ciphertext"])).value();
      EXPECT_EQ(test::copy_of(keys.key_bytes()), hex_of(sd["key"]));
      EXPECT_EQ(test::copy_of(keys.nonce.span()), hex_of(sd["nonce"]));
    }
    const bytes encryption_secret = hex_of(c["encryption_secret"]);
    auto receiver = secret_tree::create(suite, encryption_secret, n).value();
    auto sender = secret_tree::create(suite, encryption_secret, n).value();
    for (std::uint32_t leaf = 0; leaf < n; ++leaf) {
      for (const auto& g : c["leaves"][leaf]) {
        const auto generation = g["generation"].get<std::uint32_t>();
        for (const auto type : {ratchet_type::handshake, ratchet_type::application}) {
          const char* name = type == ratchet_type::handshake ? "handshake" : "application";
          SCOPED_TRACE(std::string(name) + " leaf " + std::to_string(leaf) + " gen " + std::to_string(generation));
          const auto key = receiver.key_for(leaf, type, generation).value();
          EXPECT_EQ(test::copy_of(key.key_bytes()), hex_of(g[std::string(name) + "_key"]));
          EXPECT_EQ(test::copy_of(key.nonce.span()), hex_of(g[std::string(name) + "_nonce"]));
          ASSERT_TRUE(receiver.consume(leaf, type, generation));
          // The sender's path: next_key up to this generation.
          while (sender.next_generation(leaf, type).value() < generation) {
            ASSERT_TRUE(sender.next_key(leaf, type));
          }
          const auto sent = sender.next_key(leaf, type).value();
          EXPECT_EQ(sent.generation, generation);
          EXPECT_EQ(test::copy_of(sent.key_bytes()), test::copy_of(key.key_bytes()));
          EXPECT_EQ(test::copy_of(sent.nonce.span()), test::copy_of(key.nonce.span()));
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(suites, (std::set<std::uint16_t>{1, 2, 3, 4, 5, 6, 7}));
  EXPECT_GT(checked, 0U);
}

class GroupSecretTreeSchedule : public ::testing::Test {
 protected:
  suite_algorithms suite_{cipher_suite_id::x25519_chacha20poly1305_sha256_ed25519};
  bytes secret_ = bytes(32, 0x42);
  secret_tree tree_ = secret_tree::create(suite_, secret_, 8).value();
};

TEST_F(GroupSecretTreeSchedule, OutOfOrderWithinTheWindow) {
  const auto t = ratchet_type::application;
  const auto k5 = tree_.key_for(3, t, 5).value();
  ASSERT_TRUE(tree_.consume(3, t, 5));
  EXPECT_EQ(tree_.next_generation(3, t).value(), 6U);
  EXPECT_EQ(tree_.kept_keys(3, t), 5U);  // 0..4
  // Earlier generations arrive late: their kept keys work once each.
  for (std::uint32_t g : {2U, 0U, 4U}) {
    const auto k = tree_.key_for(3, t, g).value();
    EXPECT_EQ(k.generation, g);
    ASSERT_TRUE(tree_.consume(3, t, g));
  }
  EXPECT_EQ(tree_.kept_keys(3, t), 2U);
  // The same keys as an in-order receiver derives.
  auto fresh = secret_tree::create(suite_, secret_, 8).value();
  for (std::uint32_t g = 0; g <= 5; ++g) {
    const auto k = fresh.key_for(3, t, g).value();
    ASSERT_TRUE(fresh.consume(3, t, g));
    if (g == 5) {
      EXPECT_EQ(test::copy_of(k.key_bytes()), test::copy_of(k5.key_bytes()));
    }
  }
  // The other ratchet and other leaves are independent.
  EXPECT_EQ(tree_.next_generation(3, ratchet_type::handshake).value(), 0U);
  EXPECT_TRUE(tree_.key_for(4, t, 0).has_value());
}

TEST_F(GroupSecretTreeSchedule, ReplayRefused) {
  const auto t = ratchet_type::handshake;
  ASSERT_TRUE(tree_.key_for(1, t, 0));
  ASSERT_TRUE(tree_.consume(1, t, 0));
  EXPECT_EQ(tree_.key_for(1, t, 0).error(), group_errc::generation_too_old);
  EXPECT_EQ(tree_.consume(1, t, 0).error(), group_errc::generation_too_old);
  ASSERT_TRUE(tree_.consume(1, t, 3));
  ASSERT_TRUE(tree_.consume(1, t, 1));
  EXPECT_EQ(tree_.key_for(1, t, 1).error(), group_errc::generation_too_old);
  EXPECT_EQ(tree_.key_for(1, t, 3).error(), group_errc::generation_too_old);
  EXPECT_TRUE(tree_.key_for(1, t, 2).has_value());
}

TEST_F(GroupSecretTreeSchedule, KeysOutsideTheWindowAreDeleted) {
  const auto t = ratchet_type::application;
  ASSERT_TRUE(tree_.consume(0, t, 0));
  ASSERT_TRUE(tree_.consume(0, t, 150));
  // Kept: the 100 generations below 150, 50..149.
  EXPECT_EQ(tree_.kept_keys(0, t), 100U);
  EXPECT_EQ(tree_.key_for(0, t, 49).error(), group_errc::generation_too_old);
  EXPECT_TRUE(tree_.key_for(0, t, 50).has_value());
  // Moving on prunes the oldest kept keys.
  ASSERT_TRUE(tree_.consume(0, t, 160));
  EXPECT_EQ(tree_.key_for(0, t, 59).error(), group_errc::generation_too_old);
  EXPECT_TRUE(tree_.key_for(0, t, 60).has_value());
  EXPECT_LE(tree_.kept_keys(0, t), 100U);
}

TEST_F(GroupSecretTreeSchedule, TooFarRefusedWithoutDerivation) {
  const auto t = ratchet_type::application;
  const auto before = tree_.derivations();
  EXPECT_EQ(tree_.key_for(2, t, 1001).error(), group_errc::generation_too_far);
  EXPECT_EQ(tree_.consume(2, t, 0xffffffffU).error(), group_errc::generation_too_far);
  EXPECT_EQ(tree_.derivations(), before);
  EXPECT_EQ(tree_.next_generation(2, t).value(), 0U);
  // Exactly the maximum distance is allowed.
  EXPECT_TRUE(tree_.key_for(2, t, 1000).has_value());
  ASSERT_TRUE(tree_.consume(2, t, 10));
  const auto after = tree_.derivations();
  EXPECT_EQ(tree_.key_for(2, t, 11 + 1001).error(), group_errc::generation_too_far);
  EXPECT_EQ(tree_.derivations(), after);
  EXPECT_TRUE(tree_.key_for(2, t, 11 + 1000).has_value());
}

TEST_F(GroupSecretTreeSchedule, ConfigurableLimits) {
  secret_tree_limits limits;
  limits.max_forward_distance = 5;
  limits.max_skipped_keys = 2;
  auto tree = secret_tree::create(suite_, secret_, 2, limits).value();
  const auto t = ratchet_type::application;
  EXPECT_EQ(tree.key_for(1, t, 6).error(), group_errc::generation_too_far);
  ASSERT_TRUE(tree.consume(1, t, 5));
  EXPECT_EQ(tree.kept_keys(1, t), 2U);  // 3 and 4
  EXPECT_EQ(tree.key_for(1, t, 2).error(), group_errc::generation_too_old);
  EXPECT_TRUE(tree.key_for(1, t, 3).has_value());
}

TEST_F(GroupSecretTreeSchedule, ErasedLeafAndBadArguments) {
  tree_.erase_leaf(6);
  EXPECT_EQ(tree_.key_for(6, ratchet_type::application, 0).error(), group_errc::generation_too_old);
  EXPECT_EQ(tree_.next_key(6, ratchet_type::handshake).error(), group_errc::generation_too_old);
  EXPECT_EQ(tree_.key_for(8, ratchet_type::application, 0).error(), group_errc::invalid_argument);
  EXPECT_EQ(tree_.next_key(8, ratchet_type::application).error(), group_errc::invalid_argument);
  // Its sibling still derives (the parent's secret was split before the erase or is still held).
  EXPECT_TRUE(tree_.key_for(7, ratchet_type::application, 0).has_value());
  EXPECT_EQ(secret_tree::create(suite_, bytes(31), 8).error(), group_errc::invalid_argument);
  EXPECT_EQ(secret_tree::create(suite_, secret_, 6).error(), group_errc::invalid_argument);
  EXPECT_EQ(secret_tree::create(suite_, secret_, 0).error(), group_errc::invalid_argument);
}

}  // namespace
}  // namespace sealwire::record::group
