// SPDX-License-Identifier: Apache-2.0
// The MLS structures' strictness beyond the interop vectors: unknown values
// of the enums a structure selects on are refused, values RFC 9420 lets
// through (extension types, capability lists, PSK usages, versions and
// suites) are carried; optional presence octets, padding, non-minimal
// lengths inside real messages; and encoders refusing contradictory fields.
#include <sealwire/record/group/commit.hpp>
#include <sealwire/record/group/framing.hpp>
#include <sealwire/record/group/leaf_node.hpp>
#include <sealwire/record/group/message.hpp>
#include <sealwire/record/group/proposals.hpp>
#include <sealwire/record/group/ratchet_tree.hpp>
#include <sealwire/record/group/welcome.hpp>

#include "vectors.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

namespace sealwire::record::group {
namespace {

using test::hex;

template <class T>
std::error_code decode_error(const std::string& wire) {
  const auto in = hex(wire);
  const auto v = deserialize<T>(in);
  return v ? std::error_code{} : v.error();
}

template <class T>
void expect_round_trip(const std::string& wire) {
  const auto in = hex(wire);
  const auto v = deserialize<T>(in);
  ASSERT_TRUE(v) << wire << ": " << v.error().message();
  const auto out = serialize(*v);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, in) << wire;
}

TEST(GroupStructures, UnknownSelectorsRefused) {
  // Proposal: type 0 (reserved) and 8 (unassigned); the body cannot be skipped.
  EXPECT_EQ(decode_error<proposal>("0000 00000001"), codec_errc::unknown_value);
  EXPECT_EQ(decode_error<proposal>("0008 00000001"), codec_errc::unknown_value);
  EXPECT_EQ(decode_error<proposal>("0003 00000001"), std::error_code{});  // Remove of leaf 1
  // Credential: only basic (1) and x509 (2).
  EXPECT_EQ(decode_error<credential>("0003 03616263"), codec_errc::unknown_value);
  EXPECT_EQ(decode_error<credential>("0000 03616263"), codec_errc::unknown_value);
  expect_round_trip<credential>("0001 03616263");
  expect_round_trip<credential>("0002 08 03010203 00 02aabb");  // x509: three certificates
  // Sender: 0 and 5.
  EXPECT_EQ(decode_error<sender>("00 00000001"), codec_errc::unknown_value);
  EXPECT_EQ(decode_error<sender>("05 00000001"), codec_errc::unknown_value);
  expect_round_trip<sender>("01 00000007");
  expect_round_trip<sender>("02 00000001");
  expect_round_trip<sender>("03");
  expect_round_trip<sender>("04");
  // FramedContent: content_type 0 and 4 (group_id, epoch, sender, authenticated_data first).
  EXPECT_EQ(decode_error<framed_content>("01aa 0000000000000001 0100000000 00 04 00"), codec_errc::unknown_value);
  EXPECT_EQ(decode_error<framed_content>("01aa 0000000000000001 0100000000 00 00 00"), codec_errc::unknown_value);
  expect_round_trip<framed_content>("01aa 0000000000000001 0100000000 00 01 026869");
  // PrivateMessage: content_type 0 and 4.
  EXPECT_EQ(decode_error<private_message>("01aa 0000000000000001 00 00 00 00"), codec_errc::unknown_value);
  EXPECT_EQ(decode_error<private_message>("01aa 0000000000000001 04 00 00 00"), codec_errc::unknown_value);
  expect_round_trip<private_message>("01aa 0000000000000001 03 00 01bb 01cc");
  // PreSharedKeyID: psktype 0 and 3.
  EXPECT_EQ(decode_error<pre_shared_key_id>("00 01aa 01bb"), codec_errc::unknown_value);
  EXPECT_EQ(decode_error<pre_shared_key_id>("03 01aa 01bb"), codec_errc::unknown_value);
  // ProposalOrRef: 0 and 3.
  EXPECT_EQ(decode_error<proposal_or_ref>("00 01aa"), codec_errc::unknown_value);
  EXPECT_EQ(decode_error<proposal_or_ref>("03 01aa"), codec_errc::unknown_value);
  expect_round_trip<proposal_or_ref>("02 02aabb");
  // Node: 0 and 3.
  EXPECT_EQ(decode_error<node>("00 00 00 00"), codec_errc::unknown_value);
  EXPECT_EQ(decode_error<node>("03 00 00 00"), codec_errc::unknown_value);
  expect_round_trip<node>("02 01aa 00 08 00000001 00000003");
  // MLSMessage: version other than mls10, wire formats 0 and 6.
  EXPECT_EQ(decode_error<mls_message>("0002 0001"), codec_errc::unknown_value);
  EXPECT_EQ(decode_error<mls_message>("0001 0000 00"), codec_errc::unknown_value);
  EXPECT_EQ(decode_error<mls_message>("0001 0006 00"), codec_errc::unknown_value);
}

TEST(GroupStructures, LeafNodeSources) {
  // encryption_key, signature_key, basic credential, empty capabilities, then the source.
  const std::string head = "01e1 01e2 0001 01c0 00 00 00 00 00";
  expect_round_trip<leaf_node>(head + "01 0000000000000001 00000000ffffffff 00 01ff");  // key_package: lifetime
  expect_round_trip<leaf_node>(head + "02 00 01ff");                                    // update: nothing
  expect_round_trip<leaf_node>(head + "03 02abcd 00 01ff");                             // commit: parent hash
  EXPECT_EQ(decode_error<leaf_node>(head + "00 00 01ff"), codec_errc::unknown_value);
  EXPECT_EQ(decode_error<leaf_node>(head + "04 00 01ff"), codec_errc::unknown_value);
  // The update leaf's signature covers the group id and leaf index; the key package leaf's does not.
  const auto update_leaf = *deserialize<leaf_node>(hex(head + "02 00 01ff"));
  writer w;
  const auto group_id = hex("a1a2");
  encode_leaf_node_tbs(w, update_leaf, group_id, 5);
  EXPECT_EQ(std::vector<std::uint8_t>(w.data().begin(), w.data().end()),
            hex(head + "02 00 02a1a2 00000005"));
}

TEST(GroupStructures, OpenValuesCarried) {
  // An extension of a type RFC 9420 does not define, and capability lists of
  // unassigned values (13, 7.2: a client advertises what it supports).
  expect_round_trip<extension>("ff00 03010203");
  expect_round_trip<capabilities>("02 0007 02 fffe 02 ff00 02 00ff 02 ffff");
  // A resumption PSK with an unassigned usage, a ReInit to an unknown version and suite.
  expect_round_trip<pre_shared_key_id>("02 09 01aa 0000000000000003 01bb");
  expect_round_trip<reinit>("01aa 0007 ffff 00");
}

TEST(GroupStructures, OptionalPresenceOctet) {
  // A Commit: no proposals, then optional<UpdatePath> with presence 2.
  EXPECT_EQ(decode_error<commit>("00 02"), codec_errc::invalid_value);
  expect_round_trip<commit>("00 00");
  // The ratchet tree's optional<Node> elements: presence 2.
  EXPECT_EQ(decode_error<ratchet_tree>("01 02"), codec_errc::invalid_value);
  expect_round_trip<ratchet_tree>("03 00 00 00");
}

TEST(GroupStructures, PrivateMessageContentPadding) {
  // Application data "hi", signature "ss", then three padding bytes.
  const auto ok = hex("026869 027373 000000");
  const auto v = decode_private_message_content(ok, content_type::application);
  ASSERT_TRUE(v) << v.error().message();
  EXPECT_EQ(v->padding, 3u);
  EXPECT_EQ(std::get<bytes>(v->content), test::to_bytes("hi"));
  EXPECT_EQ(serialize(*v).value(), ok);
  // A non-zero padding byte is malformed (RFC 9420 6.3.1).
  const auto bad = hex("026869 027373 000100");
  EXPECT_EQ(decode_private_message_content(bad, content_type::application).error(), codec_errc::invalid_value);
  // A commit's content has a confirmation tag after the signature.
  const auto commit_content = hex("00 00 027373 02c0c1 00");
  const auto c = decode_private_message_content(commit_content, content_type::commit);
  ASSERT_TRUE(c) << c.error().message();
  EXPECT_EQ(c->auth.confirmation_tag, hex("c0c1"));
  EXPECT_EQ(c->padding, 1u);
  // An unknown content type.
  EXPECT_EQ(decode_private_message_content(ok, static_cast<content_type>(9)).error(), codec_errc::unknown_value);
}

TEST(GroupStructures, NonMinimalLengthInsideMessagesRefused) {
  // GroupContextExtensions with an empty list written "4000", ExternalInit's
  // kem_output length written in two bytes, and a Remove's u32 cut short.
  EXPECT_EQ(decode_error<group_context_extensions>("4000"), codec_errc::non_minimal_varint);
  EXPECT_EQ(decode_error<external_init>("4002 aabb"), codec_errc::non_minimal_varint);
  EXPECT_EQ(decode_error<external_init>("c002 aabb"), codec_errc::invalid_varint);
  EXPECT_EQ(decode_error<remove>("000001"), codec_errc::truncated);
  // The first messages.json commit, with its proposals vector's length
  // (one byte, 0x22) rewritten in the two-byte form.
  const auto path = test::find_vector("mls/messages.json");
  ASSERT_TRUE(path) << test::missing_vector_message("mls/messages.json");
  const auto cases = test::load_json(*path);
  auto wire = hex(cases[0].at("commit").get<std::string>());
  ASSERT_TRUE(deserialize<commit>(wire));
  ASSERT_LT(wire[0], 0x40);
  wire.insert(wire.begin(), 0x40);
  EXPECT_EQ(deserialize<commit>(wire).error(), codec_errc::non_minimal_varint);
}

TEST(GroupStructures, EncodersRefuseContradictoryFields) {
  framed_content fc;
  fc.group_id = hex("aa");
  fc.content = commit{};
  public_message pm;
  pm.content = fc;
  pm.auth.signature = hex("01");
  pm.membership_tag = hex("02");
  // A commit without a confirmation tag.
  EXPECT_EQ(serialize(pm).error(), codec_errc::invalid_value);
  pm.auth.confirmation_tag = hex("03");
  EXPECT_TRUE(serialize(pm));
  // A member sender without a membership tag, an external one with one.
  pm.membership_tag.reset();
  EXPECT_EQ(serialize(pm).error(), codec_errc::invalid_value);
  pm.content.sender = {sender_type::external, 0};
  EXPECT_TRUE(serialize(pm));
  pm.membership_tag = hex("02");
  EXPECT_EQ(serialize(pm).error(), codec_errc::invalid_value);
  // FramedContentTBS of a member's content needs the group context.
  writer w;
  encode_framed_content_tbs(w, wire_format::mls_public_message, fc, nullptr);
  EXPECT_EQ(w.error(), codec_errc::invalid_value);
  // Unknown enum values in structures being encoded.
  credential cred;
  cred.type = static_cast<credential_type>(7);
  EXPECT_EQ(serialize(cred).error(), codec_errc::invalid_value);
  sender s{static_cast<sender_type>(9), 0};
  EXPECT_EQ(serialize(s).error(), codec_errc::invalid_value);
}

TEST(GroupStructures, GroupSecretsKeepSecretsInSecretBuffers) {
  // joiner_secret "j1", a path secret "p2", one external PSK id.
  const auto wire = hex("02 6a31 01 02 7032 07 01 02aabb 02ccdd");
  const auto v = deserialize<group_secrets>(wire);
  ASSERT_TRUE(v) << v.error().message();
  EXPECT_EQ(test::to_hex(v->joiner_secret.span()), "6a31");
  ASSERT_TRUE(v->path_secret);
  EXPECT_EQ(test::to_hex(v->path_secret->secret.span()), "7032");
  ASSERT_EQ(v->psks.size(), 1u);
  EXPECT_EQ(v->psks[0].psk_id, hex("aabb"));
  EXPECT_EQ(serialize(*v).value(), wire);
}

}  // namespace
}  // namespace sealwire::record::group
