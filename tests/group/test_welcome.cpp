// SPDX-License-Identifier: Apache-2.0
// RFC 9420 12.4.3.1 against welcome.json for every suite: find the new
// member's entry by KeyPackageRef, decrypt the GroupSecrets with the init
// key, decrypt the GroupInfo, verify its signature, and check that the key
// schedule from joiner_secret reproduces the GroupInfo's confirmation tag.
#include <sealwire/record/group/group_error.hpp>
#include <sealwire/record/group/key_schedule.hpp>
#include <sealwire/record/group/message.hpp>
#include <sealwire/record/group/transcript.hpp>
#include <sealwire/record/group/welcome_open.hpp>

#include "vectors.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>
#include <string>

namespace sealwire::record::group {
namespace {

using test::hex_of;

TEST(GroupWelcome, OfficialVectors) {
  SEALWIRE_REQUIRE_VECTOR(path, "mls/welcome.json");
  const auto cases = test::load_json(path);
  std::set<std::uint16_t> suites;
  for (const auto& c : cases) {
    const auto suite = suite_algorithms::from_id(c["cipher_suite"].get<std::uint16_t>()).value();
    suites.insert(static_cast<std::uint16_t>(suite.id()));
    SCOPED_TRACE(std::string(to_string(suite.id())));
    const auto kp_msg = deserialize<mls_message>(hex_of(c["key_package"])).value();
    const auto w_msg = deserialize<mls_message>(hex_of(c["welcome"])).value();
    const auto& kp = std::get<key_package>(kp_msg.body);
    const auto& w = std::get<welcome>(w_msg.body);
    EXPECT_EQ(static_cast<std::uint16_t>(w.cipher_suite), static_cast<std::uint16_t>(suite.id()));
    const auto init_key = hpke::private_key::from(suite.hpke().kem, hex_of(c["init_priv"])).value();
    EXPECT_TRUE(std::ranges::equal(init_key.public_key().bytes(), kp.init_key));

    const auto ref = key_package_ref(suite, kp).value();
    const auto secrets = decrypt_group_secrets(suite, w, ref, init_key).value();
    ASSERT_TRUE(secrets.psks.empty());
    const auto info = decrypt_group_info(suite, w, secrets.joiner_secret.span(), {}).value();
    const bytes signer = hex_of(c["signer_pub"]);
    EXPECT_TRUE(verify_group_info(suite, info, signer));

    // The joiner's key schedule reaches the epoch the GroupInfo confirms.
    const auto context = serialize(info.group_context).value();
    const auto epoch = derive_epoch_secrets_from_joiner(suite, secrets.joiner_secret.span(), {}, context).value();
    EXPECT_TRUE(verify_confirmation_tag(suite, info.confirmation_tag, epoch.confirmation_key.span(),
                                        info.group_context.confirmed_transcript_hash));

    // Refusals: another reference, another init key, a flipped signature or ciphertext.
    bytes other_ref = ref;
    other_ref[0] ^= 1;
    EXPECT_EQ(decrypt_group_secrets(suite, w, other_ref, init_key).error(), group_errc::unknown_sender);
    const auto stranger = hpke::generate_key_pair(suite.hpke().kem).value();
    EXPECT_FALSE(decrypt_group_secrets(suite, w, ref, stranger.priv).has_value());
    auto bad_info = info;
    bad_info.signature.back() ^= 1;
    EXPECT_EQ(verify_group_info(suite, bad_info, signer).error(), group_errc::invalid_signature);
    bad_info = info;
    bad_info.signer ^= 1;
    EXPECT_EQ(verify_group_info(suite, bad_info, signer).error(), group_errc::invalid_signature);
    auto bad_welcome = w;
    bad_welcome.encrypted_group_info[3] ^= 1;
    EXPECT_EQ(decrypt_group_info(suite, bad_welcome, secrets.joiner_secret.span(), {}).error(),
              group_errc::authentication_failed);
    // encrypted_group_info is the HPKE context of the secrets: changing it fails there too.
    EXPECT_FALSE(decrypt_group_secrets(suite, bad_welcome, ref, init_key).has_value());
  }
  EXPECT_EQ(suites, (std::set<std::uint16_t>{1, 2, 3, 4, 5, 6, 7}));
}

}  // namespace
}  // namespace sealwire::record::group
