// SPDX-License-Identifier: Apache-2.0
// RFC 9420 section 6: PublicMessage and PrivateMessage protection for one
// epoch over the secret tree, the sender-data keys and the signatures.
#include <sealwire/record/group/group_framing.hpp>

#include <sealwire/crypto/aead.hpp>
#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/random.hpp>
#include <sealwire/record/group/crypto_helpers.hpp>
#include <sealwire/record/group/group_error.hpp>
#include <sealwire/record/group/sender_data_keys.hpp>
#include <sealwire/record/group/tree_math.hpp>

#include <algorithm>
#include <array>
#include <bit>

namespace sealwire::record::group {
namespace {

constexpr std::string_view tbs_label = "FramedContentTBS";

// ratchet_of picks the ratchet a content type uses (RFC 9420 6.3.1: the
// handshake ratchet for proposals and commits).
ratchet_type ratchet_of(content_type type) noexcept {
  return type == content_type::application ? ratchet_type::application : ratchet_type::handshake;
}

// check_confirmation_tag: a commit carries one, other content none (RFC 9420 6.1).
result<void> check_confirmation_tag(const content_body& content, bytes_view tag) noexcept {
  const bool commit = type_of(content) == content_type::commit;
  if (commit == tag.empty()) return group_errc::invalid_argument;
  return {};
}

// guarded_nonce is the ratchet nonce with its first four bytes XORed with
// the reuse guard (RFC 9420 6.3.1).
std::array<std::uint8_t, aead_nonce_size> guarded_nonce(const ratchet_key& key,
                                                        const std::array<std::uint8_t, 4>& guard) noexcept {
  std::array<std::uint8_t, aead_nonce_size> nonce{};
  std::copy_n(key.nonce.data(), aead_nonce_size, nonce.begin());
  for (std::size_t i = 0; i < guard.size(); ++i) nonce[i] ^= guard[i];
  return nonce;
}

}  // namespace

group_framing::group_framing(const suite_algorithms& suite, group_context context, secret_tree tree,
                             std::vector<bytes> members)
    : suite_(suite), context_(std::move(context)), tree_(std::move(tree)), members_(std::move(members)) {}

result<group_framing> group_framing::create(group_context context, const epoch_keys& keys, std::vector<bytes> members,
                                            std::uint32_t leaf_count, const secret_tree_limits& limits) {
  auto suite = suite_algorithms::from_id(context.cipher_suite);
  if (!suite) return suite.error();
  const std::size_t nh = suite->hash_size();
  if (keys.sender_data_secret.size() != nh || keys.membership_key.size() != nh) return group_errc::invalid_argument;
  if (members.empty() || members.size() > tree_math::max_leaves) return group_errc::invalid_argument;
  if (leaf_count == 0) leaf_count = std::bit_ceil(static_cast<std::uint32_t>(members.size()));
  if (leaf_count < members.size()) return group_errc::invalid_argument;
  auto tree = secret_tree::create(*suite, keys.encryption_secret, leaf_count, limits);
  if (!tree) return tree.error();
  members.resize(leaf_count);
  group_framing f(*suite, std::move(context), std::move(*tree), std::move(members));
  f.sender_data_secret_ = crypto::secret_bytes(keys.sender_data_secret);
  f.membership_key_ = crypto::secret_bytes(keys.membership_key);
  return f;
}

result<void> group_framing::check_sender(std::uint32_t leaf) const noexcept {
  if (leaf >= members_.size() || members_[leaf].empty()) return group_errc::unknown_sender;
  return {};
}

result<bytes> group_framing::sign(const framed_content& content, wire_format format,
                                  const signature_private_key& key) const {
  // signature = SignWithLabel(., "FramedContentTBS", FramedContentTBS) (RFC 9420 6.1).
  writer tbs;
  encode_framed_content_tbs(tbs, format, content, &context_);
  if (!tbs.ok()) return tbs.error();
  return sign_with_label(key, tbs_label, tbs.data());
}

result<void> group_framing::verify(const framed_content& content, wire_format format, bytes_view signature) const {
  writer tbs;
  encode_framed_content_tbs(tbs, format, content, &context_);
  if (!tbs.ok()) return tbs.error();
  if (!verify_with_label(suite_.signature(), members_[content.sender.index], tbs_label, tbs.data(), signature)) {
    return group_errc::invalid_signature;
  }
  return {};
}

result<private_message> group_framing::protect_private(std::uint32_t leaf, const signature_private_key& key,
                                                       content_body content, const protect_options& options) {
  if (auto s = check_sender(leaf); !s) return s.error();
  if (key.scheme() != suite_.signature() || !std::ranges::equal(key.public_key(), members_[leaf])) {
    return group_errc::invalid_argument;
  }
  if (auto t = check_confirmation_tag(content, options.confirmation_tag); !t) return t.error();
  const content_type type = type_of(content);

  framed_content framed;
  framed.group_id = context_.group_id;
  framed.epoch = context_.epoch;
  framed.sender = {sender_type::member, leaf};
  framed.authenticated_data.assign(options.authenticated_data.begin(), options.authenticated_data.end());
  framed.content = std::move(content);
  auto signature = sign(framed, wire_format::mls_private_message, key);
  if (!signature) return signature.error();

  // PrivateMessageContent: the content, its auth data and the padding (RFC 9420 6.3.1).
  private_message_content body;
  body.content = std::move(framed.content);
  body.auth.signature = std::move(*signature);
  if (type == content_type::commit) {
    body.auth.confirmation_tag = bytes(options.confirmation_tag.begin(), options.confirmation_tag.end());
  }
  body.padding = options.padding;
  writer plain;
  encode(plain, body);
  if (!plain.ok()) return plain.error();

  auto ratchet = tree_.next_key(leaf, ratchet_of(type));
  if (!ratchet) return ratchet.error();
  std::array<std::uint8_t, 4> guard{};
  if (auto r = crypto::random_bytes(guard); !r) return r.error();
  const auto nonce = guarded_nonce(*ratchet, guard);

  private_message out;
  out.group_id = context_.group_id;
  out.epoch = context_.epoch;
  out.content_type = type;
  out.authenticated_data = std::move(framed.authenticated_data);
  writer content_aad;
  encode_private_content_aad(content_aad, out.group_id, out.epoch, type, out.authenticated_data);
  if (!content_aad.ok()) return content_aad.error();
  out.ciphertext.resize(plain.data().size() + crypto::aead_tag_size);
  auto sealed = crypto::aead_seal(suite_.aead(), out.ciphertext, plain.data(), associated_data(content_aad.data()),
                                  nonce, ratchet->key_bytes());
  if (!sealed) return sealed.error();

  // SenderData under the key and nonce sampled from the ciphertext (RFC 9420 6.3.2).
  writer sd;
  encode(sd, sender_data{leaf, ratchet->generation, guard});
  writer sd_aad;
  encode_sender_data_aad(sd_aad, out.group_id, out.epoch, type);
  if (!sd.ok() || !sd_aad.ok()) return group_errc::invalid_argument;
  auto sd_keys = derive_sender_data_keys(suite_, sender_data_secret_.span(), out.ciphertext);
  if (!sd_keys) return sd_keys.error();
  out.encrypted_sender_data.resize(sd.data().size() + crypto::aead_tag_size);
  auto sd_sealed = crypto::aead_seal(suite_.aead(), out.encrypted_sender_data, sd.data(),
                                     associated_data(sd_aad.data()), sd_keys->nonce.span(), sd_keys->key_bytes());
  if (!sd_sealed) return sd_sealed.error();
  return out;
}

result<unprotected_content> group_framing::unprotect_private(const private_message& message) {
  if (!std::ranges::equal(message.group_id, context_.group_id)) return group_errc::wrong_group;
  if (message.epoch != context_.epoch) return group_errc::wrong_epoch;
  const content_type type = message.content_type;

  // Sender data first: it names the leaf and generation (RFC 9420 6.3.2).
  auto sd_keys = derive_sender_data_keys(suite_, sender_data_secret_.span(), message.ciphertext);
  if (!sd_keys) return sd_keys.error();
  writer sd_aad;
  encode_sender_data_aad(sd_aad, message.group_id, message.epoch, type);
  if (!sd_aad.ok()) return sd_aad.error();
  if (message.encrypted_sender_data.size() < crypto::aead_tag_size) return group_errc::authentication_failed;
  crypto::secret_bytes sd_plain(message.encrypted_sender_data.size() - crypto::aead_tag_size);
  if (!crypto::aead_open(suite_.aead(), sd_plain.span(), message.encrypted_sender_data,
                         associated_data(sd_aad.data()), sd_keys->nonce.span(), sd_keys->key_bytes())) {
    return group_errc::authentication_failed;
  }
  auto sd = deserialize<sender_data>(sd_plain.span());
  if (!sd) return sd.error();
  if (auto s = check_sender(sd->leaf_index); !s) return s.error();

  // The content under the sender's ratchet key, nonce XOR reuse guard (RFC 9420 6.3.1).
  auto ratchet = tree_.key_for(sd->leaf_index, ratchet_of(type), sd->generation);
  if (!ratchet) return ratchet.error();
  const auto nonce = guarded_nonce(*ratchet, sd->reuse_guard);
  writer content_aad;
  encode_private_content_aad(content_aad, message.group_id, message.epoch, type, message.authenticated_data);
  if (!content_aad.ok()) return content_aad.error();
  if (message.ciphertext.size() < crypto::aead_tag_size) return group_errc::authentication_failed;
  crypto::secret_bytes plain(message.ciphertext.size() - crypto::aead_tag_size);
  if (!crypto::aead_open(suite_.aead(), plain.span(), message.ciphertext, associated_data(content_aad.data()), nonce,
                         ratchet->key_bytes())) {
    return group_errc::authentication_failed;
  }
  auto body = decode_private_message_content(plain.span(), type);
  if (!body) return body.error();

  unprotected_content out;
  out.content.wire_format = wire_format::mls_private_message;
  out.content.content.group_id = message.group_id;
  out.content.content.epoch = message.epoch;
  out.content.content.sender = {sender_type::member, sd->leaf_index};
  out.content.content.authenticated_data = message.authenticated_data;
  out.content.content.content = std::move(body->content);
  out.content.auth = std::move(body->auth);
  if (auto v = verify(out.content.content, wire_format::mls_private_message, out.content.auth.signature); !v) {
    return v.error();
  }
  // Everything verified: the key is used up (RFC 9420 9.2).
  if (auto c = tree_.consume(sd->leaf_index, ratchet_of(type), sd->generation); !c) return c.error();
  out.leaf_index = sd->leaf_index;
  out.generation = sd->generation;
  return out;
}

result<public_message> group_framing::protect_public(std::uint32_t leaf, const signature_private_key& key,
                                                     content_body content, const protect_options& options) {
  if (type_of(content) == content_type::application) return group_errc::invalid_content;
  if (auto s = check_sender(leaf); !s) return s.error();
  if (key.scheme() != suite_.signature() || !std::ranges::equal(key.public_key(), members_[leaf])) {
    return group_errc::invalid_argument;
  }
  if (auto t = check_confirmation_tag(content, options.confirmation_tag); !t) return t.error();
  public_message out;
  out.content.group_id = context_.group_id;
  out.content.epoch = context_.epoch;
  out.content.sender = {sender_type::member, leaf};
  out.content.authenticated_data.assign(options.authenticated_data.begin(), options.authenticated_data.end());
  out.content.content = std::move(content);
  auto signature = sign(out.content, wire_format::mls_public_message, key);
  if (!signature) return signature.error();
  out.auth.signature = std::move(*signature);
  if (out.content.type() == content_type::commit) {
    out.auth.confirmation_tag = bytes(options.confirmation_tag.begin(), options.confirmation_tag.end());
  }
  // membership_tag = MAC(membership_key, AuthenticatedContentTBM) (RFC 9420 6.2).
  writer tbm;
  encode_authenticated_content_tbm(tbm, out.content, out.auth, &context_);
  if (!tbm.ok()) return tbm.error();
  bytes tag(suite_.hash_size());
  suite_.mac(tag, membership_key_.span(), tbm.data());
  out.membership_tag = std::move(tag);
  return out;
}

result<unprotected_content> group_framing::unprotect_public(const public_message& message) {
  if (!std::ranges::equal(message.content.group_id, context_.group_id)) return group_errc::wrong_group;
  if (message.content.epoch != context_.epoch) return group_errc::wrong_epoch;
  if (message.content.sender.type != sender_type::member) return group_errc::invalid_sender;
  if (message.content.type() == content_type::application) return group_errc::invalid_content;
  if (auto s = check_sender(message.content.sender.index); !s) return s.error();
  if (!message.membership_tag) return group_errc::invalid_membership_tag;
  writer tbm;
  encode_authenticated_content_tbm(tbm, message.content, message.auth, &context_);
  if (!tbm.ok()) return tbm.error();
  std::array<std::uint8_t, max_hash_size> expected{};
  suite_.mac(expected, membership_key_.span(), tbm.data());
  if (!crypto::ct::equal(*message.membership_tag, bytes_view(expected).first(suite_.hash_size()))) {
    return group_errc::invalid_membership_tag;
  }
  if (auto v = verify(message.content, wire_format::mls_public_message, message.auth.signature); !v) {
    return v.error();
  }
  unprotected_content out;
  out.content.wire_format = wire_format::mls_public_message;
  out.content.content = message.content;
  out.content.auth = message.auth;
  out.leaf_index = message.content.sender.index;
  return out;
}

void group_framing::remove_member(std::uint32_t leaf) noexcept {
  if (leaf >= members_.size()) return;
  members_[leaf].clear();
  tree_.erase_leaf(leaf);
}

}  // namespace sealwire::record::group
