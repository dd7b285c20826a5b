// SPDX-License-Identifier: Apache-2.0
// Internal: one epoch of a group session and the steps shared by the
// committer and the members that process its Commit (RFC 9420 12.3, 12.4,
// 8): applying proposals to the roster, the transcript hashes and key
// schedule into the next epoch, and the Welcome for added members.
#pragma once

#include <sealwire/hpke/keys.hpp>
#include <sealwire/record/group/commit.hpp>
#include <sealwire/record/group/group_framing.hpp>
#include <sealwire/record/group/group_session.hpp>
#include <sealwire/record/group/key_schedule.hpp>
#include <sealwire/record/group/roster.hpp>

#include <memory>
#include <optional>
#include <vector>

namespace sealwire::record::group::detail {

// session_state is a member's state in one epoch.
struct session_state {
  suite_algorithms suite;           // the group's cipher suite
  group_context context;            // GroupContext of the epoch
  group::roster roster;             // the members' leaves
  epoch_secrets secrets;            // the key schedule's output for the epoch
  bytes interim_transcript_hash;    // interim_transcript_hash of the epoch (RFC 9420 8.2)
  hpke::private_key leaf_key;       // this member's leaf HPKE private key
  std::uint32_t own_leaf = 0;       // this member's leaf index
  std::optional<group_framing> framing;  // the epoch's message protection
  // The epoch before, kept for late application messages
  // (session_options::accept_previous_epoch): its framing and roster only.
  std::optional<group_framing> previous_framing;
  group::roster previous_roster;
};

// retire_into moves the current epoch's framing and roster into next as its
// previous epoch (when `keep`); everything else of `current` is wiped with it.
inline void retire_into(session_state& current, session_state& next, bool keep) noexcept {
  if (!keep) return;
  next.previous_framing = std::move(current.framing);
  next.previous_roster = std::move(current.roster);
}

// pending_commit is an own Commit not yet merged.
struct pending_commit {
  std::unique_ptr<session_state> next;  // the epoch it leads to
  public_message message;               // the Commit as sent
  commit_summary summary;               // what it changes
};

// make_state assembles an epoch's state and its group_framing.
[[nodiscard]] result<std::unique_ptr<session_state>> make_state(const suite_algorithms& suite, group_context context,
                                                                group::roster roster, epoch_secrets secrets,
                                                                bytes interim, hpke::private_key leaf_key,
                                                                std::uint32_t own_leaf,
                                                                const secret_tree_limits& limits);

// applied_proposals is the roster after a Commit's proposals (removes, then
// adds, RFC 9420 12.3) and what changed.
struct applied_proposals {
  group::roster next;                               // the roster after the proposals
  std::vector<std::uint32_t> added;                 // leaves of the added members
  std::vector<std::uint32_t> removed;               // removed leaves
  std::vector<key_package> key_packages;            // the added key packages, in order
};

// apply_proposals checks and applies a Commit's proposals: only Add and
// Remove, by value; a Remove names an occupied leaf other than the
// committer's, once; an Add's key package validates and brings no key the
// group already holds. Errors: invalid_commit, invalid_key_package.
[[nodiscard]] result<applied_proposals> apply_proposals(const session_state& s, std::uint32_t committer,
                                                        const commit& c, std::optional<std::uint64_t> now);

// recipients lists, in leaf order, the members a commit secret is
// encrypted to: every occupied leaf of `next` except the committer and the
// added members.
[[nodiscard]] std::vector<std::uint32_t> recipients(const group::roster& next, std::uint32_t committer,
                                                    const std::vector<std::uint32_t>& added);

// epoch_material is the next epoch's GroupContext, secrets and
// transcript state, and the Commit's confirmation tag.
struct epoch_material {
  group_context context;         // with the new confirmed transcript hash
  epoch_secrets secrets;         // the key schedule's output
  bytes confirmation_tag;        // MAC(confirmation_key, confirmed_transcript_hash)
  bytes interim_transcript_hash; // for the epoch after
};

// advance_epoch runs RFC 9420 8.2 and 8 for a Commit: the confirmed
// transcript hash over the commit's AuthenticatedContent (its signature
// included), the new GroupContext (`provisional` with that hash), the key
// schedule from the current init_secret and commit_secret, the
// confirmation tag and the next interim transcript hash.
[[nodiscard]] result<epoch_material> advance_epoch(const session_state& s, const group_context& provisional,
                                                   const authenticated_content& commit_content,
                                                   bytes_view commit_secret);

// commit_secret_label is the EncryptWithLabel label of the commit secret
// ciphertexts (UpdatePathNode's, RFC 9420 7.6), with the provisional
// GroupContext as its context.
inline constexpr std::string_view commit_secret_label = "UpdatePathNode";

// make_welcome builds the Welcome (MLSMessage bytes) for the added key
// packages of a Commit that leads to `next`: GroupInfo with the ratchet
// tree extension, signed by the committer, encrypted under the welcome key;
// GroupSecrets (joiner_secret only) encrypted to each init key (RFC 9420
// 12.4.3.1).
[[nodiscard]] result<bytes> make_welcome(const session_state& next, const signature_private_key& key,
                                         bytes_view confirmation_tag,
                                         const std::vector<key_package>& added);

}  // namespace sealwire::record::group::detail
