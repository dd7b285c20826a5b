// SPDX-License-Identifier: Apache-2.0
// RFC 9420's wire structures against the interop vectors' messages.json:
// every field of every one of the 300 cases decodes and re-encodes byte for
// byte; and each of them refuses truncation and trailing bytes.
#include <sealwire/record/group/commit.hpp>
#include <sealwire/record/group/framing.hpp>
#include <sealwire/record/group/message.hpp>
#include <sealwire/record/group/proposals.hpp>
#include <sealwire/record/group/ratchet_tree.hpp>
#include <sealwire/record/group/welcome.hpp>

#include "vectors.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace sealwire::record::group {
namespace {

using test::bytes;
using test::hex;

// A decoder-and-encoder pair for one messages.json field: decode `in`
// strictly, encode the result, and report the re-encoding (or the error).
using round_trip_fn = std::function<result<bytes>(std::span<const std::uint8_t>)>;

template <class T>
round_trip_fn round_trip_of() {
  return [](std::span<const std::uint8_t> in) -> result<bytes> {
    auto v = deserialize<T>(in);
    if (!v) return v.error();
    return serialize(*v);
  };
}

// An MLSMessage that must hold wire format F (and, for a PublicMessage,
// content of type C).
template <wire_format F, content_type C = content_type::application>
round_trip_fn message_round_trip_of() {
  return [](std::span<const std::uint8_t> in) -> result<bytes> {
    auto v = deserialize<mls_message>(in);
    if (!v) return v.error();
    if (v->format() != F) return codec_errc::invalid_value;
    if constexpr (F == wire_format::mls_public_message) {
      if (std::get<public_message>(v->body).content.type() != C) return codec_errc::invalid_value;
    }
    return serialize(*v);
  };
}

const nlohmann::json& messages() {
  static const nlohmann::json cases = [] {
    const auto path = test::find_vector("mls/messages.json");
    if (!path) throw std::runtime_error(test::missing_vector_message("mls/messages.json"));
    return test::load_json(*path);
  }();
  return cases;
}

// Every field of messages.json and how to decode it.
const std::map<std::string, round_trip_fn>& fields() {
  static const std::map<std::string, round_trip_fn> table = {
      {"add_proposal", round_trip_of<add>()},
      {"update_proposal", round_trip_of<update>()},
      {"remove_proposal", round_trip_of<remove>()},
      {"pre_shared_key_proposal", round_trip_of<pre_shared_key>()},
      {"re_init_proposal", round_trip_of<reinit>()},
      {"external_init_proposal", round_trip_of<external_init>()},
      {"group_context_extensions_proposal", round_trip_of<group_context_extensions>()},
      {"commit", round_trip_of<commit>()},
      {"public_message_application", message_round_trip_of<wire_format::mls_public_message>()},
      {"public_message_proposal", message_round_trip_of<wire_format::mls_public_message, content_type::proposal>()},
      {"public_message_commit", message_round_trip_of<wire_format::mls_public_message, content_type::commit>()},
      {"private_message", message_round_trip_of<wire_format::mls_private_message>()},
      {"mls_welcome", message_round_trip_of<wire_format::mls_welcome>()},
      {"mls_group_info", message_round_trip_of<wire_format::mls_group_info>()},
      {"mls_key_package", message_round_trip_of<wire_format::mls_key_package>()},
      {"ratchet_tree", round_trip_of<ratchet_tree>()},
      {"group_secrets", round_trip_of<group_secrets>()},
  };
  return table;
}

TEST(GroupMessages, EveryCaseRoundTrips) {
  const auto& cases = messages();
  ASSERT_EQ(cases.size(), 300u);
  std::size_t checked = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    for (const auto& [name, value] : cases[i].items()) {
      const auto it = fields().find(name);
      ASSERT_NE(it, fields().end()) << "field " << name << " has no decoder";
      const auto in = hex(value.get<std::string>());
      const auto out = it->second(in);
      ASSERT_TRUE(out) << "case " << i << " " << name << ": " << out.error().message();
      ASSERT_EQ(*out, in) << "case " << i << " " << name;
      ++checked;
    }
  }
  EXPECT_EQ(fields().size(), 17u);
  EXPECT_EQ(checked, 300 * fields().size());
}

// What RFC 9420 ties together across fields holds in every decoded case:
// a key package's leaf comes from a key package, an Update's leaf from an
// update, an UpdatePath's leaf from a commit; a commit carries its
// confirmation tag; a member's PublicMessage its membership tag.
TEST(GroupMessages, DecodedFieldsAreConsistent) {
  const auto& cases = messages();
  std::size_t paths = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& c = cases[i];
    const auto field = [&](const char* name) { return hex(c.at(name).get<std::string>()); };
    const auto kp = deserialize<mls_message>(field("mls_key_package"));
    ASSERT_TRUE(kp) << i;
    EXPECT_EQ(std::get<key_package>(kp->body).leaf_node.source, leaf_node_source::key_package) << i;
    const auto up = deserialize<update>(field("update_proposal"));
    ASSERT_TRUE(up) << i;
    EXPECT_EQ(up->leaf_node.source, leaf_node_source::update) << i;
    const auto cm = deserialize<commit>(field("commit"));
    ASSERT_TRUE(cm) << i;
    if (cm->path) {
      EXPECT_EQ(cm->path->leaf_node.source, leaf_node_source::commit) << i;
      ++paths;
    }
    const auto pc = deserialize<mls_message>(field("public_message_commit"));
    ASSERT_TRUE(pc) << i;
    const auto& pm = std::get<public_message>(pc->body);
    EXPECT_TRUE(pm.auth.confirmation_tag.has_value()) << i;
    EXPECT_EQ(pm.membership_tag.has_value(), pm.content.sender.type == sender_type::member) << i;
    const auto w = deserialize<mls_message>(field("mls_welcome"));
    ASSERT_TRUE(w) << i;
    EXPECT_FALSE(std::get<welcome>(w->body).secrets.empty()) << i;
  }
  // The file has commits both with and without an UpdatePath.
  EXPECT_GT(paths, 0u);
}

// Truncation at every length and one trailing byte, for every field of the
// first cases (all 300 would cost seconds under ASan for no more coverage).
TEST(GroupMessages, TruncatedOrTrailingRefused) {
  const auto& cases = messages();
  for (std::size_t i = 0; i < 6; ++i) {
    for (const auto& [name, fn] : fields()) {
      const auto in = hex(cases[i].at(name).get<std::string>());
      for (std::size_t n = 0; n < in.size(); ++n) {
        const auto out = fn(std::span(in).first(n));
        ASSERT_FALSE(out) << "case " << i << " " << name << " truncated to " << n;
      }
      bytes longer = in;
      longer.push_back(0);
      const auto out = fn(longer);
      ASSERT_FALSE(out) << "case " << i << " " << name << " with a trailing byte";
    }
  }
}

}  // namespace
}  // namespace sealwire::record::group
