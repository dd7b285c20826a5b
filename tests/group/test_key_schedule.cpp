// SPDX-License-Identifier: Apache-2.0
// RFC 9420 section 8 against key-schedule.json (every epoch of every suite:
// all epoch secrets, the external public key, MLS-Exporter) and psk_secret.json
// (every case, 0 to 10 PSKs), with input-size refusals.
#include <sealwire/record/group/codec.hpp>
#include <sealwire/record/group/group_context.hpp>
#include <sealwire/record/group/group_error.hpp>
#include <sealwire/record/group/key_schedule.hpp>
#include <sealwire/record/group/proposals.hpp>
#include <sealwire/record/group/psk.hpp>

#include "vectors.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>
#include <string>
#include <vector>

namespace sealwire::record::group {
namespace {

using test::bytes;
using test::hex;

using test::hex_of;

TEST(GroupKeySchedule, OfficialVectors) {
  SEALWIRE_REQUIRE_VECTOR(path, "mls/key-schedule.json");
  const auto cases = test::load_json(path);
  std::set<std::uint16_t> suites;
  std::size_t epochs = 0;
  for (const auto& c : cases) {
    const auto suite = suite_algorithms::from_id(c["cipher_suite"].get<std::uint16_t>()).value();
    suites.insert(static_cast<std::uint16_t>(suite.id()));
    SCOPED_TRACE(std::string(to_string(suite.id())));
    bytes init_secret = hex_of(c["initial_init_secret"]);
    for (const auto& e : c["epochs"]) {
      SCOPED_TRACE(epochs);
      {  // The GroupContext the epoch binds to (RFC 9420 8.1), as the codec encodes it.
        const auto ctx = deserialize<group_context>(hex_of(e["group_context"])).value();
        EXPECT_EQ(ctx.group_id, hex_of(c["group_id"]));
        EXPECT_EQ(static_cast<std::uint16_t>(ctx.cipher_suite), static_cast<std::uint16_t>(suite.id()));
        EXPECT_EQ(ctx.tree_hash, hex_of(e["tree_hash"]));
        EXPECT_EQ(ctx.confirmed_transcript_hash, hex_of(e["confirmed_transcript_hash"]));
        EXPECT_EQ(serialize(ctx).value(), hex_of(e["group_context"]));
      }
      const auto s = derive_epoch_secrets(suite, init_secret, hex_of(e["commit_secret"]), hex_of(e["psk_secret"]),
                                          hex_of(e["group_context"]))
                         .value();
      EXPECT_EQ(test::copy_of(s.joiner_secret.span()), hex_of(e["joiner_secret"]));
      EXPECT_EQ(test::copy_of(s.welcome_secret.span()), hex_of(e["welcome_secret"]));
      EXPECT_EQ(test::copy_of(s.init_secret.span()), hex_of(e["init_secret"]));
      EXPECT_EQ(test::copy_of(s.sender_data_secret.span()), hex_of(e["sender_data_secret"]));
      EXPECT_EQ(test::copy_of(s.encryption_secret.span()), hex_of(e["encryption_secret"]));
      EXPECT_EQ(test::copy_of(s.exporter_secret.span()), hex_of(e["exporter_secret"]));
      EXPECT_EQ(test::copy_of(s.epoch_authenticator.span()), hex_of(e["epoch_authenticator"]));
      EXPECT_EQ(test::copy_of(s.external_secret.span()), hex_of(e["external_secret"]));
      EXPECT_EQ(test::copy_of(s.confirmation_key.span()), hex_of(e["confirmation_key"]));
      EXPECT_EQ(test::copy_of(s.membership_key.span()), hex_of(e["membership_key"]));
      EXPECT_EQ(test::copy_of(s.resumption_psk.span()), hex_of(e["resumption_psk"]));
      const auto external = external_key_pair(suite, s.external_secret.span()).value();
      EXPECT_EQ(test::copy_of(external.pub.bytes()), hex_of(e["external_pub"]));
      // A joiner that starts from joiner_secret reaches the same epoch.
      const auto joined =
          derive_epoch_secrets_from_joiner(suite, s.joiner_secret.span(), hex_of(e["psk_secret"]),
                                           hex_of(e["group_context"]))
              .value();
      EXPECT_EQ(test::copy_of(joined.epoch_secret.span()), test::copy_of(s.epoch_secret.span()));
      // MLS-Exporter (8.5).
      const auto& x = e["exporter"];
      bytes exported(x["length"].get<std::size_t>());
      // The file's label is used as the ASCII text it is written in (the
      // upstream generator passes the hex string as the label).
      ASSERT_TRUE(mls_exporter(suite, exported, s.exporter_secret.span(), x["label"].get<std::string>(),
                               hex_of(x["context"])));
      EXPECT_EQ(exported, hex_of(x["secret"]));
      init_secret = test::copy_of(s.init_secret.span());
      ++epochs;
    }
  }
  EXPECT_EQ(suites, (std::set<std::uint16_t>{1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(epochs, 35U);
}

TEST(GroupKeySchedule, RefusesWrongSizes) {
  const suite_algorithms suite(cipher_suite_id::x25519_aes128gcm_sha256_ed25519);
  const bytes nh(32, 1);
  const bytes short_secret(31, 1);
  EXPECT_EQ(derive_epoch_secrets(suite, short_secret, nh, nh, {}).error(), group_errc::invalid_argument);
  EXPECT_EQ(derive_epoch_secrets(suite, nh, short_secret, nh, {}).error(), group_errc::invalid_argument);
  EXPECT_EQ(derive_epoch_secrets(suite, nh, nh, short_secret, {}).error(), group_errc::invalid_argument);
  // Empty commit and PSK secrets stand for Nh zero bytes (RFC 9420 8).
  const bytes zero(32, 0);
  const auto a = derive_epoch_secrets(suite, nh, {}, {}, bytes{1, 2}).value();
  const auto b = derive_epoch_secrets(suite, nh, zero, zero, bytes{1, 2}).value();
  EXPECT_EQ(test::copy_of(a.epoch_secret.span()), test::copy_of(b.epoch_secret.span()));
  bytes key(15), nonce(12);
  EXPECT_EQ(derive_welcome_key_nonce(suite, key, nonce, a.welcome_secret.span()).error(),
            group_errc::invalid_argument);
}

// external_psk_id is the serialized PreSharedKeyID of an external PSK (RFC 9420 8.4).
bytes external_psk_id(const bytes& psk_id, const bytes& nonce) {
  pre_shared_key_id id;
  id.type = psk_type::external;
  id.psk_id = psk_id;
  id.psk_nonce = nonce;
  return serialize(id).value();
}

TEST(GroupPskSecret, OfficialVectors) {
  SEALWIRE_REQUIRE_VECTOR(path, "mls/psk_secret.json");
  const auto cases = test::load_json(path);
  ASSERT_EQ(cases.size(), 77U);
  std::set<std::size_t> counts;
  for (const auto& c : cases) {
    const auto suite = suite_algorithms::from_id(c["cipher_suite"].get<std::uint16_t>()).value();
    std::vector<bytes> ids, keys;
    for (const auto& p : c["psks"]) {
      ids.push_back(external_psk_id(hex_of(p["psk_id"]), hex_of(p["psk_nonce"])));
      keys.push_back(hex_of(p["psk"]));
    }
    std::vector<psk_input> inputs;
    for (std::size_t i = 0; i < ids.size(); ++i) inputs.push_back({ids[i], keys[i]});
    counts.insert(inputs.size());
    const auto secret = derive_psk_secret(suite, inputs).value();
    EXPECT_EQ(test::copy_of(secret.span()), hex_of(c["psk_secret"])) << to_string(suite.id()) << " " << inputs.size();
    if (inputs.size() > 1) {
      // The order of the PSKs matters (index and count are bound in).
      std::vector<psk_input> reversed(inputs.rbegin(), inputs.rend());
      EXPECT_NE(test::copy_of(derive_psk_secret(suite, reversed)->span()), hex_of(c["psk_secret"]));
    }
  }
  EXPECT_GE(counts.size(), 2U);
}

}  // namespace
}  // namespace sealwire::record::group
