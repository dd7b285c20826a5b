// SPDX-License-Identifier: Apache-2.0
// RFC 9420 section 6 message protection: message-protection.json for every
// suite both ways (unprotect the given PublicMessage and PrivateMessage
// forms; protect each content ourselves and unprotect it), and the refusals:
// out-of-order delivery within the window, replays, generations beyond the
// forward distance (nothing derived), tampered sender data or content,
// removed members, wrong epoch or group, bad membership tags and signatures.
#include <sealwire/record/group/group_error.hpp>
#include <sealwire/record/group/group_framing.hpp>

#include "vectors.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>
#include <string>

namespace sealwire::record::group {
namespace {

using test::hex;

using test::hex_of;

// read_mls_message reads MLSMessage's version and wire format, then the body.
template <class T>
T read_mls_message(const bytes& in, wire_format expected) {
  reader r(in);
  EXPECT_EQ(r.u16(), static_cast<std::uint16_t>(protocol_version::mls10));
  EXPECT_EQ(r.u16(), static_cast<std::uint16_t>(expected));
  T v{};
  decode(r, v);
  r.finish();
  EXPECT_TRUE(r.ok()) << r.error().message();
  return v;
}

template <class T>
T round_trip(const T& v) {
  return deserialize<T>(serialize(v).value()).value();
}

bytes encoded_body(const content_body& body) {
  if (const auto* p = std::get_if<proposal>(&body)) return serialize(*p).value();
  if (const auto* c = std::get_if<commit>(&body)) return serialize(*c).value();
  return std::get<bytes>(body);
}

struct vector_case {
  suite_algorithms suite{cipher_suite_id::x25519_aes128gcm_sha256_ed25519};
  group_context context;
  bytes encryption_secret, sender_data_secret, membership_key, signature_pub;

  explicit vector_case(const nlohmann::json& c)
      : suite(suite_algorithms::from_id(c["cipher_suite"].get<std::uint16_t>()).value()) {
    context.cipher_suite = static_cast<cipher_suite>(suite.id());
    context.group_id = hex_of(c["group_id"]);
    context.epoch = c["epoch"].get<std::uint64_t>();
    context.tree_hash = hex_of(c["tree_hash"]);
    context.confirmed_transcript_hash = hex_of(c["confirmed_transcript_hash"]);
    encryption_secret = hex_of(c["encryption_secret"]);
    sender_data_secret = hex_of(c["sender_data_secret"]);
    membership_key = hex_of(c["membership_key"]);
    signature_pub = hex_of(c["signature_pub"]);
  }
  // The vectors' sender is leaf 1 of a two-leaf tree.
  group_framing framing() const {
    return group_framing::create(context, {encryption_secret, sender_data_secret, membership_key},
                                 {bytes{}, signature_pub}, 2)
        .value();
  }
};

TEST(GroupProtection, OfficialVectors) {
  SEALWIRE_REQUIRE_VECTOR(path, "mls/message-protection.json");
  const auto cases = test::load_json(path);
  std::set<std::uint16_t> suites;
  for (const auto& c : cases) {
    const vector_case v(c);
    suites.insert(static_cast<std::uint16_t>(v.suite.id()));
    SCOPED_TRACE(std::string(to_string(v.suite.id())));
    const auto key = signature_private_key::from_bytes(v.suite.signature(), hex_of(c["signature_priv"])).value();
    auto receiver = v.framing();

    for (const char* name : {"proposal", "commit"}) {
      SCOPED_TRACE(name);
      const bytes expected = hex_of(c[name]);
      // The given PublicMessage.
      const auto pub = read_mls_message<public_message>(hex_of(c[std::string(name) + "_pub"]),
                                                        wire_format::mls_public_message);
      const auto got = receiver.unprotect_public(pub).value();
      EXPECT_EQ(got.leaf_index, 1U);
      EXPECT_EQ(encoded_body(got.content.content.content), expected);
      // Ours, protected and unprotected (through the codec).
      content_body body = got.content.content.content;
      protect_options options;
      if (got.content.auth.confirmation_tag) options.confirmation_tag = *got.content.auth.confirmation_tag;
      auto sender = v.framing();
      const auto ours = round_trip(sender.protect_public(1, key, body, options).value());
      auto ours_got = v.framing().unprotect_public(ours).value();
      EXPECT_EQ(encoded_body(ours_got.content.content.content), expected);
    }
    for (const char* name : {"proposal", "commit", "application"}) {
      SCOPED_TRACE(name);
      const bytes expected = hex_of(c[name]);
      const auto priv = read_mls_message<private_message>(hex_of(c[std::string(name) + "_priv"]),
                                                          wire_format::mls_private_message);
      // Each of the file's PrivateMessages comes from its own fresh secret
      // tree (they may share a generation of the handshake ratchet).
      auto fresh = v.framing();
      const auto got = fresh.unprotect_private(priv).value();
      EXPECT_EQ(got.leaf_index, 1U);
      EXPECT_EQ(encoded_body(got.content.content.content), expected);
      EXPECT_EQ(got.content.wire_format, wire_format::mls_private_message);
      // Ours: a fresh sender and receiver, with padding.
      protect_options options;
      options.padding = 13;
      options.authenticated_data = bytes_of("aad");
      if (got.content.auth.confirmation_tag) options.confirmation_tag = *got.content.auth.confirmation_tag;
      auto sender = v.framing();
      const auto ours =
          round_trip(sender.protect_private(1, key, got.content.content.content, options).value());
      auto peer = v.framing();
      const auto ours_got = peer.unprotect_private(ours).value();
      EXPECT_EQ(encoded_body(ours_got.content.content.content), expected);
      EXPECT_EQ(ours_got.content.content.authenticated_data, (bytes{'a', 'a', 'd'}));
      EXPECT_EQ(ours_got.generation, 0U);
    }
  }
  EXPECT_EQ(suites, (std::set<std::uint16_t>{1, 2, 3, 4, 5, 6, 7}));
}


std::string numbered(int i) {
  std::string s = "m";
  s += std::to_string(i);
  return s;
}

proposal remove_proposal() {
  proposal p;
  p.value = record::group::remove{2};
  return p;
}

// A synthetic four-member group on suite 3 (ChaCha20-Poly1305, Ed25519).
class GroupProtectionRefusals : public ::testing::Test {
 protected:
  void SetUp() override {
    context_.cipher_suite = static_cast<cipher_suite>(cipher_suite_id::x25519_chacha20poly1305_sha256_ed25519);
    context_.group_id = bytes{1, 2, 3, 4};
    context_.epoch = 7;
    context_.tree_hash = bytes(32, 0x11);
    context_.confirmed_transcript_hash = bytes(32, 0x22);
    for (int i = 0; i < 4; ++i) {
      keys_.push_back(signature_private_key::generate(signature_scheme::ed25519).value());
      members_.emplace_back(keys_.back().public_key().begin(), keys_.back().public_key().end());
    }
  }
  group_framing make(const secret_tree_limits& limits = {}, std::uint64_t epoch = 7) const {
    group_context ctx = context_;
    ctx.epoch = epoch;
    return group_framing::create(ctx, {secret_, sender_data_, membership_}, members_, 0, limits).value();
  }
  private_message send(group_framing& f, std::uint32_t leaf, std::string_view text) {
    return f.protect_private(leaf, keys_[leaf], bytes(text.begin(), text.end())).value();
  }
  static std::string text_of(const unprotected_content& u) {
    const auto& b = std::get<bytes>(u.content.content.content);
    return std::string(b.begin(), b.end());
  }

  group_context context_;
  bytes secret_ = bytes(32, 0x33), sender_data_ = bytes(32, 0x44), membership_ = bytes(32, 0x55);
  std::vector<signature_private_key> keys_;
  std::vector<bytes> members_;
};

TEST_F(GroupProtectionRefusals, OutOfOrderWithinTheWindow) {
  auto alice = make();
  auto bob = make();
  std::vector<private_message> sent;
  for (int i = 0; i < 5; ++i) sent.push_back(send(alice, 2, numbered(i)));
  for (int i : {4, 0, 2, 1, 3}) {
    const auto got = bob.unprotect_private(sent[i]).value();
    EXPECT_EQ(got.leaf_index, 2U);
    EXPECT_EQ(got.generation, static_cast<std::uint32_t>(i));
    EXPECT_EQ(text_of(got), numbered(i));
  }
  EXPECT_EQ(bob.tree().kept_keys(2, ratchet_type::application), 0U);
}

TEST_F(GroupProtectionRefusals, ReplayRefused) {
  auto alice = make();
  auto bob = make();
  const auto m = send(alice, 0, "once");
  ASSERT_TRUE(bob.unprotect_private(m));
  EXPECT_EQ(bob.unprotect_private(m).error(), group_errc::generation_too_old);
}

TEST_F(GroupProtectionRefusals, BeyondForwardDistanceNothingDerived) {
  auto alice = make();
  secret_tree_limits limits;
  limits.max_forward_distance = 5;
  auto bob = make(limits);
  std::vector<private_message> sent;
  for (int i = 0; i < 7; ++i) sent.push_back(send(alice, 1, "x"));
  const auto before = bob.tree().derivations();
  EXPECT_EQ(bob.unprotect_private(sent[6]).error(), group_errc::generation_too_far);
  EXPECT_EQ(bob.tree().derivations(), before);
  EXPECT_TRUE(bob.unprotect_private(sent[5]).has_value());
  EXPECT_TRUE(bob.unprotect_private(sent[6]).has_value());
}

TEST_F(GroupProtectionRefusals, TamperedSenderDataOrContent) {
  auto alice = make();
  auto bob = make();
  const auto m = send(alice, 3, "secret text");
  for (std::size_t i = 0; i < m.encrypted_sender_data.size(); i += 5) {
    auto bad = m;
    bad.encrypted_sender_data[i] ^= 0x01;
    EXPECT_EQ(bob.unprotect_private(bad).error(), group_errc::authentication_failed) << i;
  }
  for (std::size_t i = 0; i < m.ciphertext.size(); i += 7) {
    auto bad = m;
    bad.ciphertext[i] ^= 0x80;
    // The sample changes the sender-data key too for the first Nh bytes.
    EXPECT_EQ(bob.unprotect_private(bad).error(), group_errc::authentication_failed) << i;
  }
  auto bad = m;
  bad.authenticated_data.push_back(0);
  EXPECT_EQ(bob.unprotect_private(bad).error(), group_errc::authentication_failed);
  bad = m;
  bad.content_type = content_type::proposal;
  EXPECT_EQ(bob.unprotect_private(bad).error(), group_errc::authentication_failed);
  bad = m;
  bad.ciphertext.resize(3);
  EXPECT_FALSE(bob.unprotect_private(bad).has_value());
  // Nothing changed: the genuine message still opens, at generation 0.
  const auto got = bob.unprotect_private(m).value();
  EXPECT_EQ(text_of(got), "secret text");
  EXPECT_EQ(got.generation, 0U);
}

TEST_F(GroupProtectionRefusals, SignatureOfAnotherMemberRefused) {
  // Leaf 1 signs with its key but claims leaf 2's place: protect refuses,
  // and a receiver that knows leaf 2 under another key refuses the signature.
  auto alice = make();
  EXPECT_EQ(alice.protect_private(2, keys_[1], bytes{1}).error(), group_errc::invalid_argument);
  auto bob = make();
  const auto m = send(alice, 2, "hi");
  auto other_members = members_;
  other_members[2] = members_[1];
  auto carol = group_framing::create(context_, {secret_, sender_data_, membership_}, other_members).value();
  EXPECT_EQ(carol.unprotect_private(m).error(), group_errc::invalid_signature);
  EXPECT_TRUE(bob.unprotect_private(m).has_value());
}

TEST_F(GroupProtectionRefusals, RemovedLeafRefused) {
  auto alice = make();
  auto bob = make();
  const auto m = send(alice, 1, "before removal");
  bob.remove_member(1);
  EXPECT_EQ(bob.unprotect_private(m).error(), group_errc::unknown_sender);
  EXPECT_EQ(bob.protect_private(1, keys_[1], bytes{1}).error(), group_errc::unknown_sender);
  // A leaf outside the group: the membership check refuses it as well.
  auto small = group_framing::create(context_, {secret_, sender_data_, membership_}, {members_[0]}).value();
  EXPECT_EQ(small.unprotect_private(m).error(), group_errc::unknown_sender);
}

TEST_F(GroupProtectionRefusals, WrongEpochOrGroup) {
  auto alice = make();
  auto later = make({}, 8);
  const auto m = send(alice, 0, "epoch 7");
  EXPECT_EQ(later.unprotect_private(m).error(), group_errc::wrong_epoch);
  auto bad = m;
  bad.group_id.push_back(9);
  EXPECT_EQ(make().unprotect_private(bad).error(), group_errc::wrong_group);
  auto pub = alice.protect_public(0, keys_[0], remove_proposal()).value();
  EXPECT_EQ(later.unprotect_public(pub).error(), group_errc::wrong_epoch);
}

TEST_F(GroupProtectionRefusals, PublicMessageChecks) {
  auto alice = make();
  auto bob = make();
  const auto pub = alice.protect_public(3, keys_[3], remove_proposal()).value();
  ASSERT_TRUE(bob.unprotect_public(pub));
  auto bad = pub;
  (*bad.membership_tag)[0] ^= 1;
  EXPECT_EQ(bob.unprotect_public(bad).error(), group_errc::invalid_membership_tag);
  bad = pub;
  bad.auth.signature[10] ^= 1;
  // The membership tag covers the signature, so it fails first.
  EXPECT_EQ(bob.unprotect_public(bad).error(), group_errc::invalid_membership_tag);
  bad = pub;
  bad.membership_tag.reset();
  EXPECT_EQ(bob.unprotect_public(bad).error(), group_errc::invalid_membership_tag);
  bad = pub;
  bad.content.sender.type = sender_type::external;
  EXPECT_EQ(bob.unprotect_public(bad).error(), group_errc::invalid_sender);
  // A member holding the membership key but signing as another is refused by the signature.
  auto other_members = members_;
  other_members[3] = members_[0];
  auto carol = group_framing::create(context_, {secret_, sender_data_, membership_}, other_members).value();
  EXPECT_EQ(carol.unprotect_public(pub).error(), group_errc::invalid_signature);
  // Application data never travels as a PublicMessage; commits need a confirmation tag.
  EXPECT_EQ(alice.protect_public(3, keys_[3], bytes{1}).error(), group_errc::invalid_content);
  EXPECT_EQ(alice.protect_public(3, keys_[3], commit{}).error(), group_errc::invalid_argument);
  protect_options with_tag;
  const bytes tag(32, 9);
  with_tag.confirmation_tag = tag;
  EXPECT_EQ(alice.protect_private(3, keys_[3], bytes{1}, with_tag).error(), group_errc::invalid_argument);
  const auto committed = alice.protect_public(3, keys_[3], commit{}, with_tag).value();
  const auto got = bob.unprotect_public(committed).value();
  EXPECT_EQ(got.content.auth.confirmation_tag, tag);
}

}  // namespace
}  // namespace sealwire::record::group
