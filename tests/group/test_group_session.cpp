// SPDX-License-Identifier: Apache-2.0
// Group sessions (RFC 9420 11, 12 without TreeKEM): key packages, creating
// groups of 2, 10 and 50, messages in every direction, removal (the removed
// member cannot read the next epoch), re-adding, key updates, concurrent
// Commits, an offline member catching up, pending Commits, and forged
// Commits refused by every member with its state unchanged.
#include <sealwire/crypto/ct.hpp>
#include <sealwire/hpke/error.hpp>
#include <sealwire/record/group/crypto_helpers.hpp>
#include <sealwire/record/group/group_error.hpp>
#include <sealwire/record/group/group_session.hpp>
#include <sealwire/record/group/message.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>

namespace sealwire::record::group {
namespace {

const suite_algorithms suite1{cipher_suite_id::x25519_aes128gcm_sha256_ed25519};

bytes text(const std::string& s) { return bytes(s.begin(), s.end()); }

key_package_bundle bundle_for(const suite_algorithms& suite, const std::string& name) {
  return make_key_package(suite, text(name), signature_private_key::generate(suite.signature()).value()).value();
}

bytes authenticator(const group_session& s) {
  const auto v = s.secrets().epoch_authenticator.span();
  return bytes(v.begin(), v.end());
}

// identity_of is a session's own identity, as its roster says.
bytes identity_of(const group_session& s) {
  for (const auto& m : s.members()) {
    if (m.leaf_index == s.own_leaf()) return m.identity;
  }
  return {};
}

// A group: members[i] is the session of "m<i>" (its leaf need not be i).
struct group {
  std::vector<group_session> members;

  // commit_and_deliver has members[from] merge its Commit and every other
  // listed member process it; the added members join from the Welcome.
  void deliver(std::size_t from, const commit_output& out, std::vector<key_package_bundle> joiners = {}) {
    ASSERT_TRUE(members[from].merge_pending_commit());
    for (std::size_t i = 0; i < members.size(); ++i) {
      if (i == from) continue;
      auto r = members[i].process(out.commit);
      ASSERT_TRUE(r) << "member " << i << ": " << r.error().message();
    }
    for (auto& j : joiners) {
      auto s = group_session::join(out.welcome, std::move(j));
      ASSERT_TRUE(s) << s.error().message();
      members.push_back(std::move(*s));
    }
    expect_in_step();
  }

  // expect_in_step checks every member is in the same epoch with the same
  // epoch authenticator and roster.
  void expect_in_step() const {
    for (const auto& m : members) {
      EXPECT_EQ(m.epoch(), members[0].epoch());
      EXPECT_EQ(authenticator(m), authenticator(members[0]));
      EXPECT_EQ(m.context(), members[0].context());
      EXPECT_EQ(m.members().size(), members.size());
    }
  }

  // exchange sends one message from `from` to each listed receiver.
  void exchange(std::size_t from, const std::vector<std::size_t>& to) {
    const std::string body = "from " + std::to_string(from) + " epoch " + std::to_string(members[from].epoch());
    const auto wire = members[from].protect(text(body)).value();
    for (const std::size_t r : to) {
      auto got = members[r].unprotect(wire);
      ASSERT_TRUE(got) << from << " -> " << r << ": " << got.error().message();
      EXPECT_EQ(got->data, text(body));
      EXPECT_EQ(got->sender, members[from].own_leaf());
      EXPECT_EQ(got->identity, identity_of(members[from]));
    }
  }

  void exchange_all() {
    for (std::size_t i = 0; i < members.size(); ++i) {
      std::vector<std::size_t> to;
      for (std::size_t j = 0; j < members.size(); ++j) {
        if (j != i) to.push_back(j);
      }
      exchange(i, to);
    }
  }
};

// make_group creates a group of n: m0 creates it and adds the others, in
// Commits of at most `batch` key packages.
group make_group(const suite_algorithms& suite, std::size_t n, std::size_t batch) {
  group g;
  g.members.push_back(group_session::create(bundle_for(suite, "m0"), text("group")).value());
  std::size_t next = 1;
  while (next < n) {
    std::vector<key_package_bundle> joiners;
    std::vector<key_package> kps;
    for (; next < n && joiners.size() < batch; ++next) {
      joiners.push_back(bundle_for(suite, "m" + std::to_string(next)));
      kps.push_back(joiners.back().package);
    }
    const auto out = g.members[0].commit_add(kps).value();
    EXPECT_FALSE(out.welcome.empty());
    g.deliver(0, out, std::move(joiners));
  }
  return g;
}

TEST(GroupSession, KeyPackages) {
  auto b = bundle_for(suite1, "alice");
  EXPECT_TRUE(validate_key_package(suite1, b.package));
  const auto wire = key_package_message(b.package).value();
  EXPECT_EQ(read_key_package(wire).value(), b.package);
  EXPECT_EQ(read_key_package(wire).value().leaf_node.credential.identity, text("alice"));

  const auto refused = [&](const key_package& kp, std::optional<std::uint64_t> now = std::nullopt) {
    EXPECT_EQ(validate_key_package(suite1, kp, now).error(), group_errc::invalid_key_package);
  };
  auto kp = b.package;
  kp.signature.back() ^= 1;
  refused(kp);
  kp = b.package;
  kp.leaf_node.signature.back() ^= 1;
  refused(kp);
  kp = b.package;
  kp.leaf_node.credential.identity = text("mallory");  // the leaf signature covers the credential
  refused(kp);
  kp = b.package;
  kp.init_key = kp.leaf_node.encryption_key;
  refused(kp);
  kp = b.package;
  kp.init_key.pop_back();
  refused(kp);
  refused(b.package, b.package.leaf_node.life.not_after + 1);
  refused(b.package, b.package.leaf_node.life.not_before - 1);
  EXPECT_TRUE(validate_key_package(suite1, b.package, b.package.leaf_node.life.not_after));
  const suite_algorithms suite3{cipher_suite_id::x25519_chacha20poly1305_sha256_ed25519};
  EXPECT_EQ(validate_key_package(suite3, b.package).error(), group_errc::invalid_key_package);
  // A signature key of another scheme is refused.
  EXPECT_EQ(make_key_package(suite1, text("x"),
                             signature_private_key::generate(signature_scheme::ecdsa_secp256r1_sha256).value())
                .error(),
            group_errc::invalid_argument);
  // A group session refuses key packages that do not validate, and the same one twice.
  auto alice = group_session::create(bundle_for(suite1, "a"), text("g")).value();
  kp = b.package;
  kp.signature.back() ^= 1;
  EXPECT_EQ(alice.commit_add(std::vector{kp}).error(), group_errc::invalid_key_package);
  EXPECT_EQ(alice.commit_add(std::vector{b.package, b.package}).error(), group_errc::invalid_key_package);
  EXPECT_FALSE(alice.has_pending_commit());
}

TEST(GroupSession, CreateAddAndExchange) {
  for (const std::size_t n : {2, 10}) {
    SCOPED_TRACE(n);
    // One Commit per member for 10, so every member processes Adds.
    auto g = make_group(suite1, n, 1);
    EXPECT_EQ(g.members[0].epoch(), n - 1);
    const auto list = g.members[n - 1].members();
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_EQ(list[i].leaf_index, i);
      EXPECT_EQ(list[i].identity, text("m" + std::to_string(i)));
      EXPECT_EQ(g.members[i].own_leaf(), i);
    }
    g.exchange_all();
  }
}

TEST(GroupSession, FiftyMembers) {
  auto g = make_group(suite1, 50, 49);
  EXPECT_EQ(g.members[0].epoch(), 1u);
  // A sample of pairs: every member sends, three receivers each.
  for (std::size_t i = 0; i < 50; ++i) g.exchange(i, {(i + 1) % 50, (i + 7) % 50, (i + 31) % 50});
  // A Remove, then a message to everyone from the new epoch.
  const auto out = g.members[3].commit_remove(std::vector<std::uint32_t>{17}).value();
  EXPECT_TRUE(out.welcome.empty());
  ASSERT_TRUE(g.members[3].merge_pending_commit());
  for (std::size_t i = 0; i < 50; ++i) {
    if (i == 3) continue;
    const auto r = g.members[i].process(out.commit);
    if (i == 17) {
      EXPECT_EQ(r.error(), group_errc::removed_from_group);
    } else {
      ASSERT_TRUE(r) << i;
      EXPECT_EQ(r->removed, std::vector<std::uint32_t>{17});
    }
  }
  const auto wire = g.members[3].protect(text("after")).value();
  EXPECT_EQ(g.members[17].unprotect(wire).error(), group_errc::wrong_epoch);
  g.members.erase(g.members.begin() + 17);
  g.expect_in_step();
  EXPECT_EQ(g.members[0].members().size(), 49u);
  for (std::size_t i = 0; i < 49; ++i) {
    if (i != 3) {
      EXPECT_EQ(g.members[i].unprotect(wire).value().data, text("after"));
    }
  }
}

TEST(GroupSession, RemoveReaddUpdate) {
  auto g = make_group(suite1, 5, 4);
  // m4 (the last leaf) is removed: the tree shrinks from 8 leaves to 4.
  EXPECT_EQ(g.members[0].context().epoch, 1u);
  const auto before = g.members[4].epoch();
  const auto removal = g.members[1].commit_remove(std::vector<std::uint32_t>{4}).value();
  ASSERT_TRUE(g.members[1].merge_pending_commit());
  for (std::size_t i : {0, 2, 3}) ASSERT_TRUE(g.members[i].process(removal.commit));
  EXPECT_EQ(g.members[4].process(removal.commit).error(), group_errc::removed_from_group);
  EXPECT_EQ(g.members[4].epoch(), before);
  auto removed = std::move(g.members[4]);
  g.members.pop_back();
  g.expect_in_step();
  EXPECT_EQ(g.members[0].members().back().leaf_index, 3u);

  // The removed member cannot open any message of the next epochs.
  std::vector<bytes> sent;
  for (std::size_t i = 0; i < 4; ++i) sent.push_back(g.members[i].protect(text("secret " + std::to_string(i))).value());
  for (const auto& wire : sent) {
    EXPECT_FALSE(removed.unprotect(wire).has_value());
    EXPECT_EQ(g.members[(&wire - sent.data() + 1) % 4].unprotect(wire).value().data,
              text("secret " + std::to_string(&wire - sent.data())));
  }
  // Nor process the Commits that follow (it knows no commit secret of them).
  const auto upd = g.members[2].commit_update().value();
  EXPECT_EQ(removed.process(upd.commit).error(), group_errc::wrong_epoch);
  g.deliver(2, upd);
  EXPECT_FALSE(removed.unprotect(g.members[0].protect(text("x")).value()).has_value());

  // Re-added with a new key package, it takes the leftmost blank leaf (4 again).
  auto again = bundle_for(suite1, "m4");
  const auto readd = g.members[0].commit_add(std::vector{again.package}).value();
  std::vector<key_package_bundle> joiners;
  joiners.push_back(std::move(again));
  g.deliver(0, readd, std::move(joiners));
  EXPECT_EQ(g.members[4].own_leaf(), 4u);
  g.exchange_all();

  // Key updates change the committer's leaf key and the epoch; every member follows.
  const auto tree_before = g.members[0].context().tree_hash;
  const auto key_before = g.members[0].members()[3].signature_key;
  const auto upd3 = g.members[3].commit_update().value();
  EXPECT_TRUE(upd3.welcome.empty());
  g.deliver(3, upd3);
  EXPECT_NE(g.members[0].context().tree_hash, tree_before);
  EXPECT_EQ(g.members[0].members()[3].signature_key, key_before);
  g.exchange_all();
}

TEST(GroupSession, PreviousEpochMessages) {
  for (const bool keep : {true, false}) {
    SCOPED_TRACE(keep);
    group g;
    session_options opt;
    opt.accept_previous_epoch = keep;
    g.members.push_back(group_session::create(bundle_for(suite1, "m0"), text("g"), opt).value());
    std::vector<key_package_bundle> joiners;
    joiners.push_back(bundle_for(suite1, "m1"));
    joiners.push_back(bundle_for(suite1, "m2"));
    const auto out = g.members[0].commit_add(std::vector{joiners[0].package, joiners[1].package}).value();
    ASSERT_TRUE(g.members[0].merge_pending_commit());
    for (auto& j : joiners) g.members.push_back(group_session::join(out.welcome, std::move(j), opt).value());
    // m1 sends in epoch 1, m2 removes m1; the message arrives after the Commit.
    const auto late = g.members[1].protect(text("late")).value();
    const auto rm = g.members[2].commit_remove(std::vector<std::uint32_t>{1}).value();
    ASSERT_TRUE(g.members[2].merge_pending_commit());
    ASSERT_TRUE(g.members[0].process(rm.commit));
    if (keep) {
      const auto got = g.members[0].unprotect(late).value();
      EXPECT_EQ(got.data, text("late"));
      EXPECT_EQ(got.identity, text("m1"));  // from the previous epoch's roster
      EXPECT_EQ(g.members[2].unprotect(late).value().sender, 1u);
      EXPECT_EQ(g.members[0].unprotect(late).error(), group_errc::generation_too_old);  // no replay
    } else {
      EXPECT_EQ(g.members[0].unprotect(late).error(), group_errc::wrong_epoch);
    }
    // Two epochs back is refused either way.
    const auto older = g.members[0].protect(text("older")).value();
    const auto upd = g.members[2].commit_update().value();
    ASSERT_TRUE(g.members[2].merge_pending_commit());
    ASSERT_TRUE(g.members[0].process(upd.commit));
    EXPECT_EQ(g.members[0].unprotect(late).error(), group_errc::wrong_epoch);
    if (keep) {
      EXPECT_EQ(g.members[2].unprotect(older).value().data, text("older"));
    } else {
      EXPECT_EQ(g.members[2].unprotect(older).error(), group_errc::wrong_epoch);
    }
  }
}

TEST(GroupSession, ConcurrentCommits) {
  auto g = make_group(suite1, 3, 2);
  auto d = bundle_for(suite1, "m3");
  const auto a = g.members[0].commit_update().value();
  const auto b = g.members[1].commit_add(std::vector{d.package}).value();
  // The delivery service orders a first: its author sees it echoed and merges.
  const auto won = g.members[0].process(a.commit);
  ASSERT_TRUE(won);
  EXPECT_EQ(won->committer, 0u);
  EXPECT_FALSE(g.members[0].has_pending_commit());
  ASSERT_TRUE(g.members[1].process(a.commit));
  EXPECT_FALSE(g.members[1].has_pending_commit());  // b lost
  ASSERT_TRUE(g.members[2].process(a.commit));
  g.expect_in_step();
  // b is refused by every member, its author included.
  for (auto& m : g.members) EXPECT_EQ(m.process(b.commit).error(), group_errc::wrong_epoch);
  // The loser re-bases: the same Add in the new epoch.
  const auto b2 = g.members[1].commit_add(std::vector{d.package}).value();
  std::vector<key_package_bundle> joiners;
  joiners.push_back(std::move(d));
  g.deliver(1, b2, std::move(joiners));
  g.exchange_all();
}

TEST(GroupSession, OfflineMemberCatchesUp) {
  auto g = make_group(suite1, 4, 3);
  // m3 is offline for three Commits; the others follow them.
  std::vector<bytes> log;
  auto e = bundle_for(suite1, "m4");
  const auto c1 = g.members[0].commit_add(std::vector{e.package}).value();
  ASSERT_TRUE(g.members[0].merge_pending_commit());
  for (std::size_t i : {1, 2}) ASSERT_TRUE(g.members[i].process(c1.commit));
  auto joined = group_session::join(c1.welcome, std::move(e)).value();
  const auto c2 = g.members[1].commit_update().value();
  ASSERT_TRUE(g.members[1].merge_pending_commit());
  for (std::size_t i : {0, 2}) ASSERT_TRUE(g.members[i].process(c2.commit));
  ASSERT_TRUE(joined.process(c2.commit));
  const auto c3 = g.members[2].commit_remove(std::vector<std::uint32_t>{0}).value();
  ASSERT_TRUE(g.members[2].merge_pending_commit());
  ASSERT_TRUE(g.members[1].process(c3.commit));
  ASSERT_TRUE(joined.process(c3.commit));
  EXPECT_EQ(g.members[0].process(c3.commit).error(), group_errc::removed_from_group);

  // Out of order is refused and changes nothing; in order it catches up.
  auto& offline = g.members[3];
  const auto auth = authenticator(offline);
  EXPECT_EQ(offline.process(c2.commit).error(), group_errc::wrong_epoch);
  EXPECT_EQ(offline.process(c3.commit).error(), group_errc::wrong_epoch);
  EXPECT_EQ(authenticator(offline), auth);
  for (const auto* c : {&c1, &c2, &c3}) ASSERT_TRUE(offline.process(c->commit));
  g.members.erase(g.members.begin());
  g.members.push_back(std::move(joined));
  g.expect_in_step();
  EXPECT_EQ(g.members[0].members().size(), 4u);
  g.exchange(2, {0, 1, 3});
  g.exchange(3, {0, 1, 2});
}

TEST(GroupSession, PendingCommits) {
  auto g = make_group(suite1, 3, 2);
  auto& a = g.members[0];
  EXPECT_EQ(a.merge_pending_commit().error(), group_errc::no_pending_commit);
  const auto first = a.commit_update().value();
  EXPECT_EQ(a.commit_update().error(), group_errc::commit_pending);
  EXPECT_EQ(a.epoch(), 1u);  // not moved before the merge
  // Messages still flow in the current epoch while a Commit is pending.
  g.exchange(0, {1, 2});
  a.discard_pending_commit();
  EXPECT_FALSE(a.has_pending_commit());
  // A discarded Commit is refused if it comes back: it is no longer pending.
  EXPECT_EQ(a.process(first.commit).error(), group_errc::invalid_sender);
  const auto second = a.commit_update().value();
  EXPECT_EQ(a.process(first.commit).error(), group_errc::invalid_sender);
  g.deliver(0, second);
  // Other members refuse the discarded one (old epoch).
  EXPECT_EQ(g.members[1].process(first.commit).error(), group_errc::wrong_epoch);
  // Argument checks.
  EXPECT_EQ(a.commit_remove(std::vector<std::uint32_t>{a.own_leaf()}).error(), group_errc::invalid_argument);
  EXPECT_EQ(a.commit_remove(std::vector<std::uint32_t>{7}).error(), group_errc::invalid_argument);
  EXPECT_EQ(a.commit_remove(std::vector<std::uint32_t>{1, 1}).error(), group_errc::invalid_argument);
  EXPECT_EQ(a.commit_add(std::span<const key_package>{}).error(), group_errc::invalid_argument);
  EXPECT_FALSE(a.has_pending_commit());
  // Application messages are not Commits, and Commits not application messages.
  const auto msg = a.protect(text("hi")).value();
  EXPECT_EQ(g.members[1].process(msg).error(), group_errc::invalid_content);
  const auto upd = a.commit_update().value();
  EXPECT_EQ(g.members[1].unprotect(upd.commit).error(), group_errc::invalid_content);
}

// retag re-signs (when key is given) and re-MACs a PublicMessage as an
// insider of member's epoch could.
bytes retag(public_message pm, const group_session& member, const signature_private_key* key) {
  const auto& ctx = member.context();
  if (key != nullptr) {
    writer tbs;
    encode_framed_content_tbs(tbs, wire_format::mls_public_message, pm.content, &ctx);
    pm.auth.signature = sign_with_label(*key, "FramedContentTBS", tbs.data()).value();
  }
  writer tbm;
  encode_authenticated_content_tbm(tbm, pm.content, pm.auth, &ctx);
  bytes tag(member.suite().hash_size());
  member.suite().mac(tag, member.secrets().membership_key.span(), tbm.data());
  pm.membership_tag = tag;
  return serialize(mls_message{pm}).value();
}

TEST(GroupSession, ForgedCommitsRefused) {
  // m0's signature key from a seed, so the test can sign as m0 (a malicious insider).
  std::array<std::uint8_t, 32> seed{};
  seed[0] = 7;
  group g;
  g.members.push_back(group_session::create(make_key_package(suite1, text("m0"),
                                                             signature_private_key::from_bytes(
                                                                 signature_scheme::ed25519, seed)
                                                                 .value())
                                                .value(),
                                            text("group"))
                          .value());
  {
    std::vector<key_package_bundle> joiners;
    std::vector<key_package> kps;
    for (int i = 1; i < 4; ++i) {
      joiners.push_back(bundle_for(suite1, "m" + std::to_string(i)));
      kps.push_back(joiners.back().package);
    }
    const auto out = g.members[0].commit_add(kps).value();
    g.deliver(0, out, std::move(joiners));
  }
  const auto m0_key = signature_private_key::from_bytes(signature_scheme::ed25519, seed).value();
  auto e = bundle_for(suite1, "m4");
  const auto real = g.members[0].commit_add(std::vector{e.package}).value();
  const auto pm = std::get<public_message>(deserialize<mls_message>(real.commit).value().body);
  const auto commit_of = [](public_message& m) -> commit& { return std::get<commit>(m.content.content); };

  struct forgery {
    std::string what;
    bytes wire;
    std::error_code expected;  // empty: any error
  };
  std::vector<forgery> forged;
  const group_session& insider = g.members[1];
  {
    auto m = pm;  // a bit flipped in transit: the membership tag catches it
    commit_of(m).path->nodes[0].encrypted_path_secret[0].ciphertext[3] ^= 1;
    forged.push_back({"tampered in transit", serialize(mls_message{m}).value(), group_errc::invalid_membership_tag});
  }
  {
    auto m = pm;
    m.auth.signature[5] ^= 1;
    forged.push_back({"bad signature", retag(m, insider, nullptr), group_errc::invalid_signature});
  }
  {
    auto m = pm;
    m.content.sender.index = 2;  // signed by m0, claimed from m2 (m2 itself: invalid_sender)
    forged.push_back({"wrong signer", retag(m, insider, nullptr), {}});
  }
  for (const std::uint64_t ep : {pm.content.epoch + 1, pm.content.epoch - 1}) {
    auto m = pm;
    m.content.epoch = ep;
    forged.push_back({"wrong epoch", retag(m, insider, &m0_key), group_errc::wrong_epoch});
  }
  {
    auto m = pm;
    m.auth.confirmation_tag->back() ^= 1;
    forged.push_back({"bad confirmation tag", retag(m, insider, nullptr), group_errc::invalid_confirmation_tag});
  }
  {
    auto m = pm;  // every commit-secret ciphertext tampered, re-signed by the committer
    for (auto& ct : commit_of(m).path->nodes[0].encrypted_path_secret) ct.ciphertext[0] ^= 1;
    forged.push_back({"tampered commit secret", retag(m, insider, &m0_key), std::error_code(hpke_errc::open_failed)});
  }
  {
    auto m = pm;  // ciphertexts in another order: each member gets another's
    auto& cts = commit_of(m).path->nodes[0].encrypted_path_secret;
    std::rotate(cts.begin(), cts.begin() + 1, cts.end());
    forged.push_back({"swapped commit secrets", retag(m, insider, &m0_key), std::error_code(hpke_errc::open_failed)});
  }
  {
    auto m = pm;  // one ciphertext missing
    commit_of(m).path->nodes[0].encrypted_path_secret.pop_back();
    forged.push_back({"missing ciphertext", retag(m, insider, &m0_key), group_errc::invalid_commit});
  }
  {
    auto m = pm;  // the committer removing itself
    commit_of(m).proposals.push_back(proposal_or_ref{proposal{remove{0}}});
    forged.push_back({"self removal", retag(m, insider, &m0_key), group_errc::invalid_commit});
  }
  {
    auto m = pm;  // a changed credential in the committer's new leaf
    commit_of(m).path->leaf_node.credential.identity = text("root");
    forged.push_back({"leaf credential", retag(m, insider, &m0_key), group_errc::invalid_commit});
  }
  {
    auto m = pm;  // no path: no commit secret
    commit_of(m).path.reset();
    forged.push_back({"no path", retag(m, insider, &m0_key), group_errc::invalid_commit});
  }
  {
    auto m = pm;  // the Add's key package altered
    auto& kp = std::get<add>(std::get<proposal>(commit_of(m).proposals[0].value).value).key_package;
    kp.leaf_node.credential.identity = text("someone else");
    forged.push_back({"altered key package", retag(m, insider, &m0_key), group_errc::invalid_key_package});
  }
  {
    auto m = pm;
    m.content.sender.index = 9;
    forged.push_back({"unknown sender", retag(m, insider, &m0_key), group_errc::unknown_sender});
  }
  forged.push_back({"truncated", bytes(real.commit.begin(), real.commit.end() - 1), {}});

  for (std::size_t i = 1; i < 4; ++i) {
    auto& m = g.members[i];
    const auto auth = authenticator(m);
    const auto ctx = m.context();
    for (const auto& f : forged) {
      SCOPED_TRACE(f.what + " at member " + std::to_string(i));
      const auto r = m.process(f.wire);
      ASSERT_FALSE(r.has_value());
      if (f.expected) {
        EXPECT_EQ(r.error(), f.expected) << r.error().message();
      }
      EXPECT_EQ(m.epoch(), ctx.epoch);
      EXPECT_EQ(m.context(), ctx);
      EXPECT_EQ(authenticator(m), auth);
    }
  }
  // The state is untouched: the real Commit still goes through, messages still flow.
  std::vector<key_package_bundle> joiners;
  joiners.push_back(std::move(e));
  g.deliver(0, real, std::move(joiners));
  g.exchange_all();
}

TEST(GroupSession, ForgedWelcomesRefused) {
  auto a = group_session::create(bundle_for(suite1, "a"), text("g")).value();
  auto b = bundle_for(suite1, "b");
  const auto out = a.commit_add(std::vector{b.package}).value();
  // Not addressed to this key package.
  EXPECT_EQ(group_session::join(out.welcome, bundle_for(suite1, "c")).error(), group_errc::unknown_sender);
  auto w = std::get<welcome>(deserialize<mls_message>(out.welcome).value().body);
  auto bad = w;
  bad.encrypted_group_info.back() ^= 1;  // also the GroupSecrets' HPKE context
  EXPECT_FALSE(group_session::join(serialize(mls_message{bad}).value(),
                                   make_key_package(suite1, text("b"), signature_private_key::generate(
                                                                           signature_scheme::ed25519)
                                                                           .value())
                                       .value())
                   .has_value());
  EXPECT_EQ(group_session::join(out.commit, bundle_for(suite1, "b")).error(), group_errc::invalid_content);
  ASSERT_TRUE(a.merge_pending_commit());
  auto joined = group_session::join(out.welcome, std::move(b)).value();
  EXPECT_EQ(joined.context(), a.context());
  EXPECT_EQ(authenticator(joined), authenticator(a));
}

TEST(GroupSession, EverySuite) {
  for (std::uint16_t id = 1; id <= 7; ++id) {
    const suite_algorithms suite{static_cast<cipher_suite_id>(id)};
    SCOPED_TRACE(std::string(to_string(suite.id())));
    auto g = make_group(suite, 3, 2);
    g.exchange_all();
    g.deliver(1, g.members[1].commit_update().value());
    g.exchange(2, {0, 1});
    const auto rm = g.members[2].commit_remove(std::vector<std::uint32_t>{0}).value();
    ASSERT_TRUE(g.members[2].merge_pending_commit());
    ASSERT_TRUE(g.members[1].process(rm.commit));
    EXPECT_EQ(g.members[0].process(rm.commit).error(), group_errc::removed_from_group);
    EXPECT_EQ(authenticator(g.members[1]), authenticator(g.members[2]));
  }
}

}  // namespace
}  // namespace sealwire::record::group
