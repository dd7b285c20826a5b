// SPDX-License-Identifier: Apache-2.0
// The group_errc error category.
#include <sealwire/record/group/group_error.hpp>

#include <string>

namespace sealwire::record::group {
namespace {

class group_category_impl final : public std::error_category {
 public:
  const char* name() const noexcept override { return "sealwire.group"; }
  std::string message(int ev) const override {
    switch (static_cast<group_errc>(ev)) {
      case group_errc::authentication_failed: return "group message authentication failed";
      case group_errc::invalid_signature: return "invalid group message signature";
      case group_errc::invalid_membership_tag: return "invalid membership tag";
      case group_errc::invalid_confirmation_tag: return "invalid confirmation tag";
      case group_errc::wrong_group: return "message for another group";
      case group_errc::wrong_epoch: return "message for another epoch";
      case group_errc::unknown_sender: return "sender is not a member of the group";
      case group_errc::invalid_sender: return "sender type not allowed here";
      case group_errc::generation_too_old: return "generation already used or outside the window";
      case group_errc::generation_too_far: return "generation beyond the maximum forward distance";
      case group_errc::generation_exhausted: return "ratchet generations exhausted";
      case group_errc::invalid_content: return "content not allowed here";
      case group_errc::invalid_argument: return "invalid argument";
      case group_errc::missing_psk: return "a pre-shared key is missing";
      case group_errc::invalid_key_package: return "invalid key package";
      case group_errc::invalid_commit: return "commit not accepted by the group session";
      case group_errc::invalid_tree: return "invalid ratchet tree";
      case group_errc::removed_from_group: return "this member was removed from the group";
      case group_errc::commit_pending: return "a commit is pending";
      case group_errc::no_pending_commit: return "no pending commit";
    }
    return "unknown sealwire.group error " + std::to_string(ev);
  }
  std::error_condition default_error_condition(int ev) const noexcept override {
    switch (static_cast<group_errc>(ev)) {
      case group_errc::authentication_failed:
      case group_errc::invalid_signature:
      case group_errc::invalid_membership_tag:
      case group_errc::invalid_confirmation_tag: return condition::authentication_failed;
      case group_errc::generation_too_far:
      case group_errc::generation_exhausted: return condition::limit_reached;
      default: return {ev, *this};
    }
  }
};

}  // namespace

const std::error_category& group_category() noexcept {
  static const group_category_impl cat;
  return cat;
}

}  // namespace sealwire::record::group
