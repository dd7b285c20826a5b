// SPDX-License-Identifier: Apache-2.0
// An MLS group session (RFC 9420 11, 12): a member's view of one group
// across epochs. It creates a group, commits Adds and Removes of members
// and updates of its own leaf key, joins from a Welcome, processes other
// members' Commits, and protects application messages as PrivateMessages
// through the epoch's group_framing. Every message in and out is an
// MLSMessage in RFC 9420's encoding.
//
// Epochs are agreed WITHOUT TreeKEM: a committer draws a fresh
// commit_secret and encrypts it with EncryptWithLabel to every other
// remaining member's leaf HPKE key (linear in the group size); the
// ciphertexts travel in the Commit's UpdatePath (see docs/group-framing.md,
// "Group sessions", for the format, its cost and the security difference).
//
//   auto alice = group_session::create(make_key_package(suite, "alice", key).value(), group_id).value();
//   auto out = alice.commit_add({bob_key_package}).value();  // send out.commit to the group, out.welcome to bob
//   alice.merge_pending_commit().value();                    // once the server accepted the Commit
//   auto bob = group_session::join(out.welcome, std::move(bob_bundle)).value();
//   auto wire = alice.protect(text).value();
//   auto got = bob.unprotect(wire).value();                  // got.sender, got.data
#pragma once

#include <sealwire/crypto/bytes.hpp>
#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/result.hpp>
#include <sealwire/record/group/cipher_suite.hpp>
#include <sealwire/record/group/group_context.hpp>
#include <sealwire/record/group/key_package_bundle.hpp>
#include <sealwire/record/group/key_schedule.hpp>
#include <sealwire/record/group/proposals.hpp>
#include <sealwire/record/group/secret_tree.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace sealwire::record::group {

namespace detail {
struct session_state;   // one epoch's state (src/detail/session_state.hpp)
struct pending_commit;  // an own Commit awaiting merge or discard
}  // namespace detail

// member is one entry of a session's roster.
struct member {
  std::uint32_t leaf_index = 0;  // the member's leaf
  bytes identity;                // its basic credential's identity
  bytes signature_key;           // its SignaturePublicKey
};

// commit_output is what a commit_* call produces. Both are MLSMessage bytes.
struct commit_output {
  bytes commit;   // PublicMessage(Commit): send to the group (every current member)
  bytes welcome;  // Welcome: send to the added members; empty when nobody was added
};

// commit_summary tells what an accepted Commit changed.
struct commit_summary {
  std::uint64_t epoch = 0;             // the new epoch
  std::uint32_t committer = 0;         // the committer's leaf index
  std::vector<std::uint32_t> added;    // leaves of the added members, in the Commit's order
  std::vector<std::uint32_t> removed;  // removed leaves, in the Commit's order
};

// application_message is a verified application message.
struct application_message {
  std::uint32_t sender = 0;      // the sender's leaf index
  bytes identity;                // the sender's credential identity
  bytes data;                    // the application data
  bytes authenticated_data;      // FramedContent.authenticated_data (sent in clear)
  std::uint32_t generation = 0;  // the ratchet generation
};

// session_options are a session's settings.
struct session_options {
  secret_tree_limits limits;  // each epoch's secret-tree window (RFC 9420 9.2)
  std::size_t padding = 0;    // zero bytes appended to each protected application message (RFC 9420 6.3.1)
  // now is the time key packages are validated at (seconds since the Unix
  // epoch; nullopt: the system clock).
  std::optional<std::uint64_t> now;
  // accept_previous_epoch keeps the previous epoch's framing (its secret
  // tree, within the window above) until the next epoch change, so that an
  // application message sent just before a Commit still opens after it
  // (RFC 9420 15.2 leaves how long to the application). false: only the
  // current epoch's messages open.
  bool accept_previous_epoch = true;
};

// group_session is one member's state of one group: its leaf index, its
// signature key and leaf HPKE key, the roster (LeafNodes by leaf index),
// the epoch's GroupContext, secrets (RFC 9420 8), transcript hashes and
// group_framing. Every refused input leaves the session as it was. At most
// one own Commit is pending; the session moves to its epoch only through
// merge_pending_commit. Movable, not copyable (a moved-from session may
// only be destroyed or assigned to); secrets are wiped when an epoch ends
// and on destruction.
class SEALWIRE_API group_session {
 public:
  // create starts a group of one at epoch 0 (RFC 9420 11) with own's leaf
  // as leaf 0, in own's cipher suite. Errors: crypto_errc::unknown_algorithm
  // (a suite other than 1-7), group_errc::invalid_argument (an empty group
  // id), the random source's.
  [[nodiscard]] static result<group_session> create(key_package_bundle own, bytes_view group_id,
                                                    const session_options& options = {});

  // join enters a group from a Welcome (MLSMessage bytes) addressed to
  // own's KeyPackage (RFC 9420 12.4.3.1): open the GroupSecrets with the
  // init key, decrypt the GroupInfo, read the ratchet tree from its
  // ratchet_tree extension, check it against the GroupContext's tree hash,
  // each leaf's signature, the GroupInfo's signature by its signer and its
  // confirmation tag. Errors: codec errors, group_errc::unknown_sender (no
  // entry for this KeyPackage), hpke_errc::open_failed,
  // authentication_failed, invalid_tree, invalid_key_package (a leaf's
  // signature), invalid_signature, invalid_confirmation_tag, missing_psk
  // (a Welcome needing PSKs), invalid_content (not a Welcome, another suite).
  [[nodiscard]] static result<group_session> join(bytes_view welcome_message, key_package_bundle own,
                                                  const session_options& options = {});

  // The move constructor takes over other's state; other is left empty.
  group_session(group_session&&) noexcept;
  // Move assignment wipes this session's state and takes over other's.
  group_session& operator=(group_session&&) noexcept;
  // Destruction wipes the epoch's secrets and the private keys.
  ~group_session();

  // commit_add commits Add proposals for key_packages (validated as
  // validate_key_package does; keys already in the group are refused) and a
  // fresh leaf key of this member. The Welcome's GroupInfo carries the
  // ratchet tree in its ratchet_tree extension. The Commit stays pending.
  // Errors: commit_pending, invalid_key_package, invalid_argument (no key
  // package), the random source's.
  [[nodiscard]] result<commit_output> commit_add(std::span<const key_package> key_packages);
  // commit_remove commits Remove proposals for the given leaves (occupied,
  // not this member's, no duplicate; else invalid_argument) and a fresh
  // leaf key of this member. The Commit stays pending.
  [[nodiscard]] result<commit_output> commit_remove(std::span<const std::uint32_t> leaves);
  // commit_update commits a fresh leaf key of this member (a Commit with no
  // proposals and a path). The Commit stays pending.
  [[nodiscard]] result<commit_output> commit_update();

  // has_pending_commit reports whether an own Commit awaits merge or discard.
  [[nodiscard]] bool has_pending_commit() const noexcept { return pending_ != nullptr; }
  // merge_pending_commit moves to the epoch of the pending Commit (call it
  // when the delivery service accepted the Commit). Error: no_pending_commit.
  [[nodiscard]] result<commit_summary> merge_pending_commit();
  // discard_pending_commit drops the pending Commit (the delivery service
  // refused it); the session stays in its epoch. Nothing happens without one.
  void discard_pending_commit() noexcept;

  // process handles a Commit (MLSMessage bytes holding a PublicMessage)
  // from another member: membership tag, signature, epoch, the proposals
  // (key packages validated), the committer's new leaf, the commit secret
  // decrypted with this member's leaf key, the key schedule and the
  // confirmation tag, and only then the new epoch (a pending own Commit is
  // discarded: it lost). This member's own pending Commit, echoed back by
  // the delivery service, is merged. Errors: codec errors, wrong_group,
  // wrong_epoch, invalid_membership_tag, invalid_signature, invalid_content
  // (not a Commit), invalid_commit, invalid_key_package,
  // hpke_errc::open_failed, invalid_confirmation_tag, invalid_sender (an own
  // Commit that is not the pending one), removed_from_group (a verified
  // Commit removed this member).
  [[nodiscard]] result<commit_summary> process(bytes_view commit_message);

  // protect encrypts application data as a PrivateMessage of the current
  // epoch (MLSMessage bytes), padded by session_options::padding. Errors: those
  // of group_framing::protect_private.
  [[nodiscard]] result<bytes> protect(bytes_view data, bytes_view authenticated_data = {});
  // unprotect decrypts and verifies an application PrivateMessage
  // (MLSMessage bytes) of the current epoch, or of the previous one when
  // session_options::accept_previous_epoch (its sender as that epoch's
  // roster says). Errors: codec errors,
  // invalid_content (not an application PrivateMessage), those of
  // group_framing::unprotect_private (wrong_epoch for another epoch).
  [[nodiscard]] result<application_message> unprotect(bytes_view message);

  // members lists the roster by leaf index.
  [[nodiscard]] std::vector<member> members() const;
  // epoch is the current epoch.
  [[nodiscard]] std::uint64_t epoch() const noexcept;
  // own_leaf is this member's leaf index.
  [[nodiscard]] std::uint32_t own_leaf() const noexcept;
  // group_id is the group's id.
  [[nodiscard]] bytes_view group_id() const noexcept;
  // context is the current GroupContext.
  [[nodiscard]] const group_context& context() const noexcept;
  // suite is the group's cipher suite.
  [[nodiscard]] const suite_algorithms& suite() const noexcept;
  // secrets is the current epoch's secrets (low level: exporters,
  // epoch_authenticator, interop checks and tests; never log them).
  [[nodiscard]] const epoch_secrets& secrets() const noexcept;

 private:
  group_session(std::unique_ptr<detail::session_state> s, signature_private_key key,
                const session_options& options);
  [[nodiscard]] result<commit_output> make_commit(std::vector<proposal> proposals);

  std::unique_ptr<detail::session_state> state_;
  std::unique_ptr<detail::pending_commit> pending_;
  signature_private_key signature_key_;
  session_options options_;
};

// key_package_message wraps a KeyPackage in an MLSMessage and serializes it
// (what a client publishes). Errors: the codec's.
[[nodiscard]] SEALWIRE_API result<bytes> key_package_message(const key_package& kp);
// read_key_package reads a KeyPackage from MLSMessage bytes (not validated:
// commit_add validates). Errors: codec errors, group_errc::invalid_content
// (another wire format).
[[nodiscard]] SEALWIRE_API result<key_package> read_key_package(bytes_view message);

}  // namespace sealwire::record::group
