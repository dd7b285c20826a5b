// SPDX-License-Identifier: Apache-2.0
// RFC 9420 8.2 against transcript-hashes.json for every suite: the commit's
// confirmation tag verifies under the confirmation key, and the confirmed
// and interim transcript hashes follow; tampering fails.
#include <sealwire/record/group/group_error.hpp>
#include <sealwire/record/group/transcript.hpp>

#include "vectors.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>
#include <string>

namespace sealwire::record::group {
namespace {

using test::hex;

using test::hex_of;

TEST(GroupTranscript, OfficialVectors) {
  SEALWIRE_REQUIRE_VECTOR(path, "mls/transcript-hashes.json");
  const auto cases = test::load_json(path);
  std::set<std::uint16_t> suites;
  for (const auto& c : cases) {
    const auto suite = suite_algorithms::from_id(c["cipher_suite"].get<std::uint16_t>()).value();
    suites.insert(static_cast<std::uint16_t>(suite.id()));
    SCOPED_TRACE(std::string(to_string(suite.id())));
    const auto content = deserialize<authenticated_content>(hex_of(c["authenticated_content"])).value();
    ASSERT_EQ(content.content.type(), content_type::commit);
    ASSERT_TRUE(content.auth.confirmation_tag.has_value());
    const test::bytes key = hex_of(c["confirmation_key"]);
    const test::bytes confirmed_after = hex_of(c["confirmed_transcript_hash_after"]);

    test::bytes confirmed(suite.hash_size());
    ASSERT_EQ(confirmed_transcript_hash(suite, confirmed, hex_of(c["interim_transcript_hash_before"]), content).value(),
              suite.hash_size());
    EXPECT_EQ(confirmed, confirmed_after);
    EXPECT_TRUE(verify_confirmation_tag(suite, *content.auth.confirmation_tag, key, confirmed_after));
    test::bytes interim(suite.hash_size());
    ASSERT_TRUE(interim_transcript_hash(suite, interim, confirmed, *content.auth.confirmation_tag));
    EXPECT_EQ(interim, hex_of(c["interim_transcript_hash_after"]));

    // A flipped bit anywhere fails: tag, key, transcript; another signature changes the hash.
    test::bytes tag = *content.auth.confirmation_tag;
    tag[0] ^= 1;
    EXPECT_EQ(verify_confirmation_tag(suite, tag, key, confirmed_after).error(),
              group_errc::invalid_confirmation_tag);
    EXPECT_FALSE(verify_confirmation_tag(suite, *content.auth.confirmation_tag, key, interim));
    EXPECT_FALSE(verify_confirmation_tag(suite, test::bytes(tag.begin(), tag.end() - 1), key, confirmed_after));
    auto other = content;
    other.auth.signature.back() ^= 1;
    ASSERT_TRUE(confirmed_transcript_hash(suite, confirmed, hex_of(c["interim_transcript_hash_before"]), other));
    EXPECT_NE(confirmed, confirmed_after);
  }
  EXPECT_EQ(suites, (std::set<std::uint16_t>{1, 2, 3, 4, 5, 6, 7}));
}

}  // namespace
}  // namespace sealwire::record::group
