// SPDX-License-Identifier: Apache-2.0
// A chat client's side of group mode, sans I/O: it turns the relay's "G ..."
// lines (group_relay.hpp) into an MLS group_session's steps (RFC 9420) and
// user actions into "/g..." lines, and reports only verified plaintext.
//
// Rules (docs/echo-chat.md, "Group mode"):
// - the relay's first subscriber creates the group (epoch 0); every later
//   one publishes a KeyPackage and waits for a Welcome;
// - adds and removals are committed by the member with the lowest leaf
//   index that is not itself leaving; a member's own key update by itself;
// - the relay accepts the first Commit per epoch; a loser's pending Commit
//   is dropped when the winner arrives, and its change, if still needed, is
//   committed again on the new epoch;
// - /leave sends a PrivateMessage with authenticated data "leave" (so the
//   request is signed by the leaver), and the committer removes its leaf;
//   a subscriber the relay reports "gone" is removed the same way.
#pragma once

#include <sealwire/record/group/group_session.hpp>

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sealwire::chat {

struct group_member_callbacks {
  std::function<void(const std::string& line)> send;                            // a line for the server (no newline)
  std::function<void(const std::string& sender, const std::string& text)> message;  // verified plaintext (own echoes too)
  std::function<void(const std::string& text)> notice;                          // group events, for people
};

struct group_member_stats {
  std::uint64_t commits_sent = 0, commits_lost = 0, commits_refused = 0, undecryptable = 0;
};

class group_member {
 public:
  // identity is the member's credential identity (its nick); group the relay's group name.
  group_member(std::string identity, std::string group, group_member_callbacks callbacks);

  // start subscribes ("/group NAME").
  void start();
  // on_line handles one "G ..." line from the server; others are ignored.
  void on_line(std::string_view line);
  // say sends text to the group (false: not in the group yet).
  bool say(std::string_view text);
  // leave asks the group to remove this member (false: not in the group).
  bool leave();
  // update commits a fresh leaf key of this member.
  void update();
  // passive: stop committing other members' changes (a script that is done).
  void set_passive() { passive_ = true; }

  // who lists the members as the group state says: "identity (leaf N)".
  [[nodiscard]] std::vector<std::string> who() const;
  [[nodiscard]] bool in_group() const noexcept { return session_.has_value() && !removed_; }
  [[nodiscard]] bool removed() const noexcept { return removed_; }
  [[nodiscard]] std::uint64_t epoch() const noexcept { return session_ ? session_->epoch() : 0; }
  [[nodiscard]] std::size_t member_count() const { return session_ ? session_->members().size() : 0; }
  [[nodiscard]] const std::string& identity() const noexcept { return identity_; }
  [[nodiscard]] const group_member_stats& stats() const noexcept { return stats_; }
  // session is the MLS state (tests: feed it ciphertexts after its removal).
  [[nodiscard]] record::group::group_session* session() { return session_ ? &*session_ : nullptr; }

 private:
  struct wanted_add {
    std::uint64_t id = 0;
    std::string owner;
    record::group::key_package kp;
  };
  void on_welcome(std::string_view blob);
  void on_key_package(std::string_view id, std::string_view owner, std::string_view blob);
  void on_commit(std::string_view epoch, std::string_view sender, std::string_view blob);
  void on_message(std::string_view sender, std::string_view blob);
  void on_gone(std::string_view who);
  void on_reject(std::string_view epoch);
  void want_removed(const record::group::bytes& identity);
  void prune();         // drop wanted changes the group state already shows
  void maybe_commit();  // commit what is wanted, if this member is the one to
  void send_commit(const record::group::commit_output& out, const std::string& ids);

  std::string identity_, group_;
  group_member_callbacks cb_;
  std::optional<record::group::key_package_bundle> bundle_;  // until the Welcome
  std::optional<record::group::group_session> session_;
  std::vector<wanted_add> adds_;
  std::vector<record::group::bytes> removes_;  // identities to remove
  bool update_wanted_ = false, leaving_ = false, removed_ = false, passive_ = false;
  std::optional<std::uint64_t> pending_epoch_;  // the epoch our pending Commit names
  std::deque<std::optional<std::string>> own_sent_;  // texts sent (nullopt: a leave request), until their echo
  bool stalled_ = false, leave_deferred_ = false;
  std::string relay_nick_;  // our name at the relay (its "msg" lines say who sent)  // the relay passed an epoch whose Commit this member refused
  group_member_stats stats_;
};

}  // namespace sealwire::chat
