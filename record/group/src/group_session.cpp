// SPDX-License-Identifier: Apache-2.0
// A member's group session (RFC 9420 11, 12): creating a group, Commits
// with their commit secret encrypted to every other member (no TreeKEM),
// pending Commits, processing received Commits, application messages.
#include <sealwire/record/group/group_session.hpp>

#include "detail/session_state.hpp"

#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/random.hpp>
#include <sealwire/record/group/crypto_helpers.hpp>
#include <sealwire/record/group/group_error.hpp>
#include <sealwire/record/group/message.hpp>

#include <algorithm>

namespace sealwire::record::group {
namespace {

constexpr std::string_view framed_content_label = "FramedContentTBS";

// provisional_context is the GroupContext a Commit's path is encrypted
// under: the next epoch and tree hash, the confirmed transcript hash not
// yet updated (RFC 9420 12.4.2).
result<group_context> provisional_context(const suite_algorithms& suite, const group_context& current,
                                          const roster& next) {
  group_context ctx = current;
  ctx.epoch += 1;
  auto hash = next.tree_hash(suite);
  if (!hash) return hash.error();
  ctx.tree_hash = std::move(*hash);
  return ctx;
}

// committed_leaf is the committer's leaf for a Commit: its current leaf with
// a new encryption key, source commit and an empty parent hash (no parent
// nodes), signed for the group and its index (RFC 9420 7.2).
result<leaf_node> committed_leaf(const leaf_node& current, bytes_view encryption_key,
                                 const signature_private_key& key, bytes_view group_id, std::uint32_t index) {
  leaf_node leaf = current;
  leaf.encryption_key.assign(encryption_key.begin(), encryption_key.end());
  leaf.source = leaf_node_source::commit;
  leaf.life = {};
  leaf.parent_hash.clear();
  if (auto s = sign_leaf_node(leaf, key, group_id, index); !s) return s.error();
  return leaf;
}

}  // namespace

group_session::group_session(std::unique_ptr<detail::session_state> s, signature_private_key key,
                             const session_options& options)
    : state_(std::move(s)), signature_key_(std::move(key)), options_(options) {}

group_session::group_session(group_session&&) noexcept = default;
group_session& group_session::operator=(group_session&&) noexcept = default;
group_session::~group_session() = default;

result<group_session> group_session::create(key_package_bundle own, bytes_view group_id,
                                            const session_options& options) {
  auto suite = suite_algorithms::from_id(own.package.cipher_suite);
  if (!suite) return suite.error();
  if (group_id.empty()) return group_errc::invalid_argument;
  if (own.signature_key.scheme() != suite->signature() ||
      !std::ranges::equal(own.signature_key.public_key(), own.package.leaf_node.signature_key)) {
    return group_errc::invalid_argument;
  }
  roster members(own.package.leaf_node);
  // Epoch 0 (RFC 9420 11): a one-leaf tree, an empty confirmed transcript
  // hash and interim hash, the key schedule from a random init_secret and a
  // zero commit_secret.
  group_context ctx;
  ctx.version = protocol_version::mls10;
  ctx.cipher_suite = own.package.cipher_suite;
  ctx.group_id.assign(group_id.begin(), group_id.end());
  ctx.epoch = 0;
  auto hash = members.tree_hash(*suite);
  if (!hash) return hash.error();
  ctx.tree_hash = std::move(*hash);
  auto serialized = serialize(ctx);
  if (!serialized) return serialized.error();
  crypto::secret_bytes init(suite->hash_size());
  if (auto r = crypto::random_bytes(init.span()); !r) return r.error();
  auto secrets = derive_epoch_secrets(*suite, init.span(), {}, {}, *serialized);
  if (!secrets) return secrets.error();
  auto state = detail::make_state(*suite, std::move(ctx), std::move(members), std::move(*secrets), {},
                                  std::move(own.leaf_key), 0, options.limits);
  if (!state) return state.error();
  return group_session(std::move(*state), std::move(own.signature_key), options);
}

result<commit_output> group_session::commit_add(std::span<const key_package> key_packages) {
  if (key_packages.empty()) return group_errc::invalid_argument;
  std::vector<proposal> proposals;
  for (const auto& kp : key_packages) proposals.push_back(proposal{add{kp}});
  return make_commit(std::move(proposals));
}

result<commit_output> group_session::commit_remove(std::span<const std::uint32_t> leaves) {
  if (leaves.empty()) return group_errc::invalid_argument;
  std::vector<proposal> proposals;
  for (const std::uint32_t leaf : leaves) {
    if (leaf == state_->own_leaf || !state_->roster.occupied(leaf) ||
        std::count(leaves.begin(), leaves.end(), leaf) != 1) {
      return group_errc::invalid_argument;
    }
    proposals.push_back(proposal{remove{leaf}});
  }
  return make_commit(std::move(proposals));
}

result<commit_output> group_session::commit_update() { return make_commit({}); }

result<commit_output> group_session::make_commit(std::vector<proposal> proposals) {
  if (pending_) return group_errc::commit_pending;
  const detail::session_state& s = *state_;
  const suite_algorithms& suite = s.suite;
  commit c;
  for (auto& p : proposals) c.proposals.push_back(proposal_or_ref{std::move(p)});
  auto applied = detail::apply_proposals(s, s.own_leaf, c, options_.now);
  if (!applied) return applied.error();

  // A fresh leaf key for this member, in the Commit's path (RFC 9420 12.4.2).
  auto leaf_pair = hpke::generate_key_pair(suite.hpke().kem);
  if (!leaf_pair) return leaf_pair.error();
  auto leaf = committed_leaf(s.roster.leaf(s.own_leaf), leaf_pair->pub.bytes(), signature_key_, s.context.group_id,
                             s.own_leaf);
  if (!leaf) return leaf.error();
  applied->next.replace(s.own_leaf, *leaf);
  auto provisional = provisional_context(suite, s.context, applied->next);
  if (!provisional) return provisional.error();
  auto provisional_bytes = serialize(*provisional);
  if (!provisional_bytes) return provisional_bytes.error();

  // No TreeKEM: a fresh commit_secret, EncryptWithLabel to each remaining
  // member's leaf key, one HPKECiphertext each in leaf order, in the path's
  // single UpdatePathNode (docs/group-framing.md, "Group sessions").
  crypto::secret_bytes commit_secret(suite.hash_size());
  if (auto r = crypto::random_bytes(commit_secret.span()); !r) return r.error();
  update_path_node node;
  for (const std::uint32_t i : detail::recipients(applied->next, s.own_leaf, applied->added)) {
    auto pk = hpke::public_key::from(suite.hpke().kem, applied->next.leaf(i).encryption_key);
    if (!pk) return pk.error();
    auto ct = encrypt_with_label(suite, *pk, detail::commit_secret_label, *provisional_bytes, commit_secret.span());
    if (!ct) return ct.error();
    node.encrypted_path_secret.push_back(hpke_ciphertext{std::move(ct->kem_output), std::move(ct->ciphertext)});
  }
  c.path = update_path{std::move(*leaf), {}};
  c.path->nodes.push_back(std::move(node));

  // The PublicMessage: signed under the current GroupContext (RFC 9420 6.1),
  // then the confirmation tag of the next epoch, then the membership tag
  // under the current membership key (6.2).
  public_message pm;
  pm.content.group_id = s.context.group_id;
  pm.content.epoch = s.context.epoch;
  pm.content.sender = {sender_type::member, s.own_leaf};
  pm.content.content = std::move(c);
  writer tbs;
  encode_framed_content_tbs(tbs, wire_format::mls_public_message, pm.content, &s.context);
  if (!tbs.ok()) return tbs.error();
  auto signature = sign_with_label(signature_key_, framed_content_label, tbs.data());
  if (!signature) return signature.error();
  pm.auth.signature = std::move(*signature);
  const authenticated_content ac{wire_format::mls_public_message, pm.content, {pm.auth.signature, std::nullopt}};
  auto material = detail::advance_epoch(s, *provisional, ac, commit_secret.span());
  if (!material) return material.error();
  pm.auth.confirmation_tag = material->confirmation_tag;
  writer tbm;
  encode_authenticated_content_tbm(tbm, pm.content, pm.auth, &s.context);
  if (!tbm.ok()) return tbm.error();
  bytes membership_tag(suite.hash_size());
  suite.mac(membership_tag, s.secrets.membership_key.span(), tbm.data());
  pm.membership_tag = std::move(membership_tag);

  auto next = detail::make_state(suite, std::move(material->context), std::move(applied->next),
                                 std::move(material->secrets), std::move(material->interim_transcript_hash),
                                 std::move(leaf_pair->priv), s.own_leaf, options_.limits);
  if (!next) return next.error();
  commit_output out;
  auto wire = serialize(mls_message{pm});
  if (!wire) return wire.error();
  out.commit = std::move(*wire);
  if (!applied->added.empty()) {
    auto w = detail::make_welcome(**next, signature_key_, material->confirmation_tag, applied->key_packages);
    if (!w) return w.error();
    out.welcome = std::move(*w);
  }
  commit_summary summary{(*next)->context.epoch, s.own_leaf, std::move(applied->added), std::move(applied->removed)};
  pending_ = std::make_unique<detail::pending_commit>(
      detail::pending_commit{std::move(*next), std::move(pm), std::move(summary)});
  return out;
}

result<commit_summary> group_session::merge_pending_commit() {
  if (!pending_) return group_errc::no_pending_commit;
  commit_summary summary = std::move(pending_->summary);
  detail::retire_into(*state_, *pending_->next, options_.accept_previous_epoch);
  state_ = std::move(pending_->next);  // the old epoch's other secrets are wiped here
  pending_.reset();
  return summary;
}

void group_session::discard_pending_commit() noexcept { pending_.reset(); }

result<commit_summary> group_session::process(bytes_view commit_message) {
  auto msg = deserialize<mls_message>(commit_message);
  if (!msg) return msg.error();
  const auto* pm = std::get_if<public_message>(&msg->body);
  if (pm == nullptr) return group_errc::invalid_content;
  detail::session_state& s = *state_;
  const suite_algorithms& suite = s.suite;
  if (!std::ranges::equal(pm->content.group_id, s.context.group_id)) return group_errc::wrong_group;
  if (pm->content.epoch != s.context.epoch) return group_errc::wrong_epoch;
  if (pm->content.sender.type == sender_type::member && pm->content.sender.index == s.own_leaf) {
    // Our own Commit, back from the delivery service: it won.
    if (pending_ && pending_->message == *pm) return merge_pending_commit();
    return group_errc::invalid_sender;
  }
  // Membership tag and signature under the current epoch (RFC 9420 6.2).
  auto verified = s.framing->unprotect_public(*pm);
  if (!verified) return verified.error();
  const auto* c = std::get_if<commit>(&pm->content.content);
  if (c == nullptr || !pm->auth.confirmation_tag) return group_errc::invalid_content;
  const std::uint32_t committer = verified->leaf_index;

  auto applied = detail::apply_proposals(s, committer, *c, options_.now);
  if (!applied) return applied.error();
  if (std::ranges::find(applied->removed, s.own_leaf) != applied->removed.end()) {
    return group_errc::removed_from_group;
  }
  // The path: the committer's new leaf (same signature key and credential,
  // a new encryption key) and one node with the commit secret ciphertexts.
  if (!c->path || c->path->nodes.size() != 1 || !c->path->nodes[0].encryption_key.empty()) {
    return group_errc::invalid_commit;
  }
  const leaf_node& leaf = c->path->leaf_node;
  const leaf_node& old = s.roster.leaf(committer);
  if (leaf.source != leaf_node_source::commit || leaf.signature_key != old.signature_key ||
      leaf.credential != old.credential || !leaf.parent_hash.empty() ||
      applied->next.holds_key(leaf.encryption_key)) {
    return group_errc::invalid_commit;
  }
  if (auto v = verify_leaf_node(suite, leaf, s.context.group_id, committer); !v) return group_errc::invalid_commit;
  applied->next.replace(committer, leaf);
  auto provisional = provisional_context(suite, s.context, applied->next);
  if (!provisional) return provisional.error();
  auto provisional_bytes = serialize(*provisional);
  if (!provisional_bytes) return provisional_bytes.error();

  const auto order = detail::recipients(applied->next, committer, applied->added);
  const auto& cts = c->path->nodes[0].encrypted_path_secret;
  const auto mine = std::ranges::find(order, s.own_leaf);
  if (cts.size() != order.size() || mine == order.end()) return group_errc::invalid_commit;
  const hpke_ciphertext& ct = cts[static_cast<std::size_t>(mine - order.begin())];
  auto opened = decrypt_with_label(suite, s.leaf_key, detail::commit_secret_label, *provisional_bytes,
                                   ct.kem_output, ct.ciphertext);
  if (!opened) return opened.error();
  crypto::secret_bytes commit_secret(*opened);
  crypto::ct::wipe(*opened);
  if (commit_secret.size() != suite.hash_size()) return group_errc::invalid_commit;

  auto material = detail::advance_epoch(s, *provisional, verified->content, commit_secret.span());
  if (!material) return material.error();
  const bytes& tag = *pm->auth.confirmation_tag;
  if (tag.size() != material->confirmation_tag.size() || !crypto::ct::equal(tag, material->confirmation_tag)) {
    return group_errc::invalid_confirmation_tag;
  }
  auto next = detail::make_state(suite, std::move(material->context), std::move(applied->next),
                                 std::move(material->secrets), std::move(material->interim_transcript_hash), {},
                                 s.own_leaf, options_.limits);
  if (!next) return next.error();
  // Everything verified: move to the new epoch (the old one's secrets are
  // wiped), keeping this member's leaf key; a pending own Commit lost.
  (*next)->leaf_key = std::move(s.leaf_key);
  detail::retire_into(s, **next, options_.accept_previous_epoch);
  commit_summary summary{(*next)->context.epoch, committer, std::move(applied->added), std::move(applied->removed)};
  state_ = std::move(*next);
  pending_.reset();
  return summary;
}

result<bytes> group_session::protect(bytes_view data, bytes_view authenticated_data) {
  protect_options opt;
  opt.authenticated_data = authenticated_data;
  opt.padding = options_.padding;
  auto pm = state_->framing->protect_private(state_->own_leaf, signature_key_, bytes(data.begin(), data.end()), opt);
  if (!pm) return pm.error();
  return serialize(mls_message{std::move(*pm)});
}

result<application_message> group_session::unprotect(bytes_view message) {
  auto msg = deserialize<mls_message>(message);
  if (!msg) return msg.error();
  const auto* pm = std::get_if<private_message>(&msg->body);
  if (pm == nullptr || pm->content_type != content_type::application) return group_errc::invalid_content;
  // The previous epoch's messages open with its kept framing and roster.
  const bool previous = state_->previous_framing && pm->epoch + 1 == state_->context.epoch;
  group_framing& framing = previous ? *state_->previous_framing : *state_->framing;
  const roster& senders = previous ? state_->previous_roster : state_->roster;
  auto got = framing.unprotect_private(*pm);
  if (!got) return got.error();
  application_message out;
  out.sender = got->leaf_index;
  out.identity = senders.leaf(got->leaf_index).credential.identity;
  out.data = std::move(std::get<bytes>(got->content.content.content));
  out.authenticated_data = std::move(got->content.content.authenticated_data);
  out.generation = got->generation;
  return out;
}

std::vector<member> group_session::members() const {
  std::vector<member> out;
  const roster& r = state_->roster;
  for (std::uint32_t i = 0; i < r.leaf_count(); ++i) {
    if (r.occupied(i)) out.push_back(member{i, r.leaf(i).credential.identity, r.leaf(i).signature_key});
  }
  return out;
}

std::uint64_t group_session::epoch() const noexcept { return state_->context.epoch; }
std::uint32_t group_session::own_leaf() const noexcept { return state_->own_leaf; }
bytes_view group_session::group_id() const noexcept { return state_->context.group_id; }
const group_context& group_session::context() const noexcept { return state_->context; }
const suite_algorithms& group_session::suite() const noexcept { return state_->suite; }
const epoch_secrets& group_session::secrets() const noexcept { return state_->secrets; }

result<bytes> key_package_message(const key_package& kp) { return serialize(mls_message{kp}); }

result<key_package> read_key_package(bytes_view message) {
  auto msg = deserialize<mls_message>(message);
  if (!msg) return msg.error();
  auto* kp = std::get_if<key_package>(&msg->body);
  if (kp == nullptr) return group_errc::invalid_content;
  return std::move(*kp);
}

}  // namespace sealwire::record::group
