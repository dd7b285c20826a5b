// SPDX-License-Identifier: Apache-2.0
// Errors of the group framing's key schedule, secret tree and message
// protection (RFC 9420 6, 8, 9). The codec's own errors are codec_errc
// (codec.hpp); result.hpp's conditions test both with the other layers'.
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/result.hpp>

#include <system_error>
#include <type_traits>

namespace sealwire::record::group {

// group_errc lists why the group framing refused a message or a request.
// Every refusal releases nothing and leaves the state as it was.
enum class group_errc {
  authentication_failed = 1,  // an AEAD tag (content or sender data) did not verify
  invalid_signature,          // the FramedContent signature did not verify
  invalid_membership_tag,     // a PublicMessage's membership tag did not verify (RFC 9420 6.2)
  invalid_confirmation_tag,   // a commit's confirmation tag did not verify (RFC 9420 8.1)
  wrong_group,                // the message names another group id
  wrong_epoch,                // the message names another epoch than the context's
  unknown_sender,             // a leaf index outside the group or without a member (removed)
  invalid_sender,             // a sender type this operation does not take (RFC 9420 6.1)
  generation_too_old,         // a generation whose key was used or deleted (replay, or beyond the window)
  generation_too_far,         // a generation beyond the maximum forward distance (RFC 9420 9.2)
  generation_exhausted,       // the ratchet reached its last generation (2^32 - 1)
  invalid_content,            // content, wire format or content type not allowed here
  invalid_argument,           // a parameter outside what the call accepts (sizes, ids, padding)
  missing_psk,                // a PSK the key schedule needs was not given
  invalid_key_package,        // a KeyPackage's signature, suite, keys or lifetime failed validation (RFC 9420 10.1)
  invalid_commit,             // a Commit's proposals or path are not what a group session accepts (RFC 9420 12.2, 12.4.2)
  invalid_tree,               // a ratchet tree that is malformed or does not match the GroupContext's tree hash
  removed_from_group,         // a verified Commit removed this member: the session cannot follow the group
  commit_pending,             // a Commit of this session awaits merge or discard; another cannot start
  no_pending_commit,          // merge_pending_commit without a pending Commit
};

// group_category is the error category of group_errc values.
[[nodiscard]] SEALWIRE_API const std::error_category& group_category() noexcept;

// make_error_code makes group_errc values usable as std::error_code.
[[nodiscard]] inline std::error_code make_error_code(group_errc e) noexcept {
  return {static_cast<int>(e), group_category()};
}

}  // namespace sealwire::record::group

template <>
struct std::is_error_code_enum<sealwire::record::group::group_errc> : std::true_type {};
