// SPDX-License-Identifier: Apache-2.0
// RFC 9420 12.4.3: the Welcome a committer sends to added members, and a
// new member's join from it.
#include "detail/session_state.hpp"

#include <sealwire/crypto/aead.hpp>
#include <sealwire/crypto/ct.hpp>
#include <sealwire/record/group/crypto_helpers.hpp>
#include <sealwire/record/group/group_error.hpp>
#include <sealwire/record/group/message.hpp>
#include <sealwire/record/group/transcript.hpp>
#include <sealwire/record/group/welcome_open.hpp>

#include <algorithm>

namespace sealwire::record::group {
namespace detail {

result<bytes> make_welcome(const session_state& next, const signature_private_key& key,
                           bytes_view confirmation_tag, const std::vector<key_package>& added) {
  const suite_algorithms& suite = next.suite;
  // GroupInfo: the new epoch's GroupContext, the tree in the ratchet_tree
  // extension (12.4.3.3), the confirmation tag, signed by the committer.
  group_info info;
  info.group_context = next.context;
  auto tree = serialize(next.roster.to_ratchet_tree());
  if (!tree) return tree.error();
  info.extensions.push_back(extension{extension_type::ratchet_tree, std::move(*tree)});
  info.confirmation_tag.assign(confirmation_tag.begin(), confirmation_tag.end());
  info.signer = next.own_leaf;
  writer tbs;
  encode_group_info_tbs(tbs, info);
  if (!tbs.ok()) return tbs.error();
  auto sig = sign_with_label(key, "GroupInfoTBS", tbs.data());
  if (!sig) return sig.error();
  info.signature = std::move(*sig);
  auto plain_info = serialize(info);
  if (!plain_info) return plain_info.error();

  // encrypted_group_info under the welcome key and nonce (12.4.3.1).
  crypto::secret_array<max_aead_key_size> wkey;
  crypto::secret_array<aead_nonce_size> wnonce;
  const auto key_bytes = wkey.span().first(suite.key_size());
  if (auto r = derive_welcome_key_nonce(suite, key_bytes, wnonce.span(), next.secrets.welcome_secret.span()); !r) {
    return r.error();
  }
  welcome w;
  w.cipher_suite = static_cast<cipher_suite>(suite.id());
  w.encrypted_group_info.resize(plain_info->size() + crypto::aead_tag_size);
  auto sealed = crypto::aead_seal(suite.aead(), w.encrypted_group_info, *plain_info, associated_data{},
                                  wnonce.span(), key_bytes);
  if (!sealed) return sealed.error();

  // GroupSecrets (joiner_secret; no path secret, no PSK) to each init key.
  group_secrets gs;
  gs.joiner_secret = next.secrets.joiner_secret.copy();
  auto plain_secrets = serialize(gs);
  if (!plain_secrets) return plain_secrets.error();
  crypto::secret_bytes secrets_bytes(*plain_secrets);
  crypto::ct::wipe(*plain_secrets);
  for (const key_package& kp : added) {
    auto ref = key_package_ref(suite, kp);
    if (!ref) return ref.error();
    auto init = hpke::public_key::from(suite.hpke().kem, kp.init_key);
    if (!init) return init.error();
    auto ct = encrypt_with_label(suite, *init, "Welcome", w.encrypted_group_info, secrets_bytes.span());
    if (!ct) return ct.error();
    w.secrets.push_back(encrypted_group_secrets{
        std::move(*ref), hpke_ciphertext{std::move(ct->kem_output), std::move(ct->ciphertext)}});
  }
  return serialize(mls_message{std::move(w)});
}

}  // namespace detail

result<group_session> group_session::join(bytes_view welcome_message, key_package_bundle own,
                                          const session_options& options) {
  auto msg = deserialize<mls_message>(welcome_message);
  if (!msg) return msg.error();
  const auto* w = std::get_if<welcome>(&msg->body);
  if (w == nullptr || w->cipher_suite != own.package.cipher_suite) return group_errc::invalid_content;
  auto suite = suite_algorithms::from_id(w->cipher_suite);
  if (!suite) return suite.error();

  auto ref = key_package_ref(*suite, own.package);
  if (!ref) return ref.error();
  auto secrets = decrypt_group_secrets(*suite, *w, *ref, own.init_key);
  if (!secrets) return secrets.error();
  if (!secrets->psks.empty()) return group_errc::missing_psk;
  if (secrets->path_secret) return group_errc::invalid_content;
  auto info = decrypt_group_info(*suite, *w, secrets->joiner_secret.span(), {});
  if (!info) return info.error();
  const group_context& ctx = info->group_context;
  if (ctx.version != protocol_version::mls10 || ctx.cipher_suite != w->cipher_suite) {
    return group_errc::invalid_content;
  }

  // The tree from the ratchet_tree extension, exactly one (RFC 9420 12.4.3.3).
  const auto count = std::ranges::count_if(info->extensions, [](const extension& e) {
    return e.type == extension_type::ratchet_tree;
  });
  if (count != 1) return group_errc::invalid_tree;
  const auto ext = std::ranges::find_if(info->extensions, [](const extension& e) {
    return e.type == extension_type::ratchet_tree;
  });
  auto tree = deserialize<ratchet_tree>(ext->data);
  if (!tree) return tree.error();
  auto members = roster::from_ratchet_tree(*tree);
  if (!members) return members.error();

  // The GroupInfo's signature by its signer's leaf, the tree against the
  // GroupContext's tree hash, each leaf's signature (RFC 9420 12.4.3.1).
  if (!members->occupied(info->signer)) return group_errc::invalid_tree;
  if (auto v = verify_group_info(*suite, *info, members->leaf(info->signer).signature_key); !v) return v.error();
  auto hash = members->tree_hash(*suite);
  if (!hash) return hash.error();
  if (*hash != ctx.tree_hash) return group_errc::invalid_tree;
  for (std::uint32_t i = 0; i < members->leaf_count(); ++i) {
    if (!members->occupied(i)) continue;
    if (auto v = verify_leaf_node(*suite, members->leaf(i), ctx.group_id, i); !v) return v.error();
  }
  const auto own_leaf = members->find(own.package.leaf_node);
  if (!own_leaf) return group_errc::invalid_tree;

  // The epoch's secrets from joiner_secret, checked by the confirmation tag.
  auto serialized = serialize(ctx);
  if (!serialized) return serialized.error();
  auto epoch = derive_epoch_secrets_from_joiner(*suite, secrets->joiner_secret.span(), {}, *serialized);
  if (!epoch) return epoch.error();
  if (auto v = verify_confirmation_tag(*suite, info->confirmation_tag, epoch->confirmation_key.span(),
                                       ctx.confirmed_transcript_hash);
      !v) {
    return v.error();
  }
  bytes interim(suite->hash_size());
  if (auto h = interim_transcript_hash(*suite, interim, ctx.confirmed_transcript_hash, info->confirmation_tag); !h) {
    return h.error();
  }
  auto state = detail::make_state(*suite, ctx, std::move(*members), std::move(*epoch), std::move(interim),
                                  std::move(own.leaf_key), *own_leaf, options.limits);
  if (!state) return state.error();
  // own.init_key is wiped when `own` goes out of scope: it opened its one Welcome.
  return group_session(std::move(*state), std::move(own.signature_key), options);
}

}  // namespace sealwire::record::group
