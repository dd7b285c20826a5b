// SPDX-License-Identifier: Apache-2.0
// RFC 9420 12.3, 8.2 and 8 for a group session without TreeKEM: applying a
// Commit's proposals, and moving the transcript hashes and the key
// schedule to the next epoch.
#include "detail/session_state.hpp"

#include <sealwire/record/group/group_error.hpp>
#include <sealwire/record/group/key_package_bundle.hpp>
#include <sealwire/record/group/transcript.hpp>

#include <algorithm>

namespace sealwire::record::group::detail {

result<std::unique_ptr<session_state>> make_state(const suite_algorithms& suite, group_context context,
                                                  group::roster roster, epoch_secrets secrets, bytes interim,
                                                  hpke::private_key leaf_key, std::uint32_t own_leaf,
                                                  const secret_tree_limits& limits) {
  const epoch_keys keys{secrets.encryption_secret.span(), secrets.sender_data_secret.span(),
                        secrets.membership_key.span()};
  auto framing = group_framing::create(context, keys, roster.signature_keys(), roster.leaf_count(), limits);
  if (!framing) return framing.error();
  auto s = std::make_unique<session_state>(session_state{suite, std::move(context), std::move(roster),
                                                         std::move(secrets), std::move(interim),
                                                         std::move(leaf_key), own_leaf, std::nullopt,
                                                         std::nullopt, group::roster{}});
  s->framing.emplace(std::move(*framing));
  return s;
}

result<applied_proposals> apply_proposals(const session_state& s, std::uint32_t committer, const commit& c,
                                          std::optional<std::uint64_t> now) {
  applied_proposals out{s.roster, {}, {}, {}};
  // Removes first, then adds (RFC 9420 12.3); proposals by reference would
  // need a proposal cache, which the session does not keep.
  for (const auto& p : c.proposals) {
    const auto* prop = std::get_if<proposal>(&p.value);
    if (prop == nullptr) return group_errc::invalid_commit;
    const auto* rm = std::get_if<remove>(&prop->value);
    if (rm == nullptr) {
      if (!std::holds_alternative<add>(prop->value)) return group_errc::invalid_commit;
      continue;
    }
    if (rm->removed == committer || !out.next.occupied(rm->removed)) return group_errc::invalid_commit;
    out.removed.push_back(rm->removed);
    out.next.remove(rm->removed);
  }
  for (const auto& p : c.proposals) {
    const auto* a = std::get_if<add>(&std::get<proposal>(p.value).value);
    if (a == nullptr) continue;
    const key_package& kp = a->key_package;
    if (auto v = validate_key_package(s.suite, kp, now); !v) return v.error();
    // Keys are unique within the tree (RFC 9420 7.3); this also refuses
    // the same key package twice.
    if (out.next.holds_key(kp.leaf_node.encryption_key) || out.next.holds_key(kp.leaf_node.signature_key)) {
      return group_errc::invalid_key_package;
    }
    auto index = out.next.add(kp.leaf_node);
    if (!index) return index.error();
    out.added.push_back(*index);
    out.key_packages.push_back(kp);
  }
  return out;
}

std::vector<std::uint32_t> recipients(const group::roster& next, std::uint32_t committer,
                                      const std::vector<std::uint32_t>& added) {
  std::vector<std::uint32_t> out;
  for (std::uint32_t i = 0; i < next.leaf_count(); ++i) {
    if (!next.occupied(i) || i == committer || std::ranges::find(added, i) != added.end()) continue;
    out.push_back(i);
  }
  return out;
}

result<epoch_material> advance_epoch(const session_state& s, const group_context& provisional,
                                     const authenticated_content& commit_content, bytes_view commit_secret) {
  const suite_algorithms& suite = s.suite;
  const std::size_t nh = suite.hash_size();
  epoch_material m;
  m.context = provisional;
  // confirmed_transcript_hash_[n] = Hash(interim_[n-1] || ConfirmedTranscriptHashInput) (RFC 9420 8.2).
  m.context.confirmed_transcript_hash.resize(nh);
  if (auto h = confirmed_transcript_hash(suite, m.context.confirmed_transcript_hash, s.interim_transcript_hash,
                                         commit_content);
      !h) {
    return h.error();
  }
  auto serialized = serialize(m.context);
  if (!serialized) return serialized.error();
  // The key schedule from the current init_secret and the new commit_secret, no PSK (RFC 9420 8).
  auto secrets = derive_epoch_secrets(suite, s.secrets.init_secret.span(), commit_secret, {}, *serialized);
  if (!secrets) return secrets.error();
  m.secrets = std::move(*secrets);
  m.confirmation_tag.resize(nh);
  compute_confirmation_tag(suite, m.confirmation_tag, m.secrets.confirmation_key.span(),
                           m.context.confirmed_transcript_hash);
  m.interim_transcript_hash.resize(nh);
  if (auto h = interim_transcript_hash(suite, m.interim_transcript_hash, m.context.confirmed_transcript_hash,
                                       m.confirmation_tag);
      !h) {
    return h.error();
  }
  return m;
}

}  // namespace sealwire::record::group::detail
