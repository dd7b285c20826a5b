// SPDX-License-Identifier: Apache-2.0
// Message protection of RFC 9420 section 6 for one epoch: the group-framing
// context an application protects and unprotects PublicMessage and
// PrivateMessage content with, built from the epoch's secrets, its
// GroupContext and the members' signature keys, whatever agreed them.
//
//   auto framing = group_framing::create(context, keys, member_keys).value();
//   auto msg = framing.protect_private(my_leaf, my_key, bytes{...}).value();
//   // ... serialize(msg), send, deserialize<private_message>(...) ...
//   auto got = peer.unprotect_private(msg).value();  // got.leaf_index, got.generation
#pragma once

#include <sealwire/crypto/bytes.hpp>
#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/result.hpp>
#include <sealwire/crypto/secret.hpp>
#include <sealwire/record/group/cipher_suite.hpp>
#include <sealwire/record/group/framing.hpp>
#include <sealwire/record/group/group_context.hpp>
#include <sealwire/record/group/secret_tree.hpp>
#include <sealwire/record/group/signature.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sealwire::record::group {

// epoch_keys are the epoch secrets message protection uses (RFC 9420 8),
// each Nh bytes. create copies them.
struct epoch_keys {
  bytes_view encryption_secret;   // the secret tree's root (RFC 9420 9)
  bytes_view sender_data_secret;  // protects PrivateMessage sender data (6.3.2)
  bytes_view membership_key;      // PublicMessage membership tags (6.2)
};

// protect_options are the caller's choices for one message.
struct protect_options {
  bytes_view authenticated_data;  // FramedContent.authenticated_data: sent in clear, authenticated
  std::size_t padding = 0;        // PrivateMessage: zero bytes appended to the content (RFC 9420 6.3.1)
  bytes_view confirmation_tag;    // commits only: the tag computed with the new epoch's confirmation key
};

// unprotected_content is an authenticated message: its AuthenticatedContent
// (wire format, FramedContent, signature and confirmation tag), the
// sender's leaf index and, for a PrivateMessage, the ratchet generation.
struct unprotected_content {
  authenticated_content content;  // what was sent, verified
  std::uint32_t leaf_index = 0;   // the sending member's leaf
  std::uint32_t generation = 0;   // the PrivateMessage's generation (0 for a PublicMessage)
};

// group_framing protects and unprotects one epoch's messages. It holds the
// epoch's secret tree (keys deleted as they are used, RFC 9420 9.2), the
// sender-data secret, the membership key, the GroupContext, and each
// leaf's signature public key (empty for a blank or removed leaf).
// Unprotect returns content only after every check passed (group and
// epoch, sender, AEAD tags, membership tag, signature); a refused message
// changes nothing. Movable, not copyable; secrets are wiped on destruction.
class SEALWIRE_API group_framing {
 public:
  // create builds the context. members[i] is leaf i's SignaturePublicKey,
  // empty when the leaf has no member. leaf_count is the tree's leaf count
  // (a power of two, at least members.size()); 0 takes the smallest power
  // of two that holds members. Errors: crypto_errc::unknown_algorithm (the
  // context names a suite other than 1-7), group_errc::invalid_argument
  // (secret sizes, leaf count).
  [[nodiscard]] static result<group_framing> create(group_context context, const epoch_keys& keys,
                                                    std::vector<bytes> members, std::uint32_t leaf_count = 0,
                                                    const secret_tree_limits& limits = {});

  // protect_private encrypts content (application data, a Proposal or a
  // Commit) from member `leaf` as a PrivateMessage (RFC 9420 6.3): signed
  // with `key`, encrypted under the leaf's next ratchet key with a fresh
  // reuse guard, sender data under the sender-data key. Errors:
  // unknown_sender (leaf without a member), invalid_argument (a key of
  // another scheme or not the leaf's, a confirmation tag missing for a
  // commit or given for other content), generation_exhausted, rng_failure.
  [[nodiscard]] result<private_message> protect_private(std::uint32_t leaf, const signature_private_key& key,
                                                        content_body content, const protect_options& options = {});

  // unprotect_private decrypts and verifies a PrivateMessage. Errors:
  // wrong_group, wrong_epoch, authentication_failed (sender data or
  // content AEAD), unknown_sender (leaf out of range or removed),
  // generation_too_old (replayed or outside the window),
  // generation_too_far, invalid_signature, codec errors for malformed
  // plaintext. The ratchet key is deleted only when everything verified.
  [[nodiscard]] result<unprotected_content> unprotect_private(const private_message& message);

  // protect_public signs a Proposal or Commit from member `leaf` as a
  // PublicMessage with a membership tag (RFC 9420 6.2). Application data is
  // refused (invalid_content: it must be a PrivateMessage). Errors as
  // protect_private.
  [[nodiscard]] result<public_message> protect_public(std::uint32_t leaf, const signature_private_key& key,
                                                      content_body content, const protect_options& options = {});

  // unprotect_public verifies a member's PublicMessage: membership tag,
  // then signature. Errors: wrong_group, wrong_epoch, invalid_sender (not a
  // member sender), invalid_content (application data), unknown_sender,
  // invalid_membership_tag, invalid_signature.
  [[nodiscard]] result<unprotected_content> unprotect_public(const public_message& message);

  // remove_member forgets leaf's signature key and deletes its ratchets:
  // its messages are refused from then on (unknown_sender).
  void remove_member(std::uint32_t leaf) noexcept;

  // context is the epoch's GroupContext.
  [[nodiscard]] const group_context& context() const noexcept { return context_; }
  // suite is the epoch's cipher suite.
  [[nodiscard]] const suite_algorithms& suite() const noexcept { return suite_; }
  // tree is the epoch's secret tree (its window and counters).
  [[nodiscard]] const secret_tree& tree() const noexcept { return tree_; }

 private:
  group_framing(const suite_algorithms& suite, group_context context, secret_tree tree, std::vector<bytes> members);
  [[nodiscard]] result<void> check_sender(std::uint32_t leaf) const noexcept;
  [[nodiscard]] result<bytes> sign(const framed_content& content, wire_format format,
                                   const signature_private_key& key) const;
  [[nodiscard]] result<void> verify(const framed_content& content, wire_format format,
                                    bytes_view signature) const;

  suite_algorithms suite_;
  group_context context_;
  secret_tree tree_;
  crypto::secret_bytes sender_data_secret_;
  crypto::secret_bytes membership_key_;
  std::vector<bytes> members_;
};

}  // namespace sealwire::record::group
