// SPDX-License-Identifier: Apache-2.0
// A chat client's side of group mode (see group_member.hpp): the relay's
// lines in, MLS group_session steps (RFC 9420 12) and "/g..." lines out.
#include "group_member.hpp"

#include "base64.hpp"

#include <sealwire/record/group/group_error.hpp>
#include <sealwire/record/group/key_package_bundle.hpp>

#include <algorithm>
#include <charconv>

namespace sealwire::chat {

namespace grp = record::group;

namespace {

const grp::suite_algorithms chat_suite{grp::cipher_suite_id::x25519_aes128gcm_sha256_ed25519};
constexpr std::string_view leave_marker = "leave";  // authenticated_data of a leave request

grp::bytes to_bytes(std::string_view s) { return grp::bytes(s.begin(), s.end()); }
std::string to_text(const grp::bytes& b) { return std::string(b.begin(), b.end()); }

std::vector<std::string_view> split(std::string_view s, std::size_t max_fields) {
  std::vector<std::string_view> out;
  while (!s.empty() && out.size() + 1 < max_fields) {
    const auto sp = s.find(' ');
    if (sp == std::string_view::npos) break;
    out.push_back(s.substr(0, sp));
    s.remove_prefix(sp + 1);
  }
  if (!s.empty()) out.push_back(s);
  return out;
}

std::optional<std::uint64_t> number(std::string_view s) {
  std::uint64_t v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

group_member::group_member(std::string identity, std::string group, group_member_callbacks callbacks)
    : identity_(std::move(identity)), group_(std::move(group)), cb_(std::move(callbacks)) {}

void group_member::start() {
  auto key = grp::signature_private_key::generate(chat_suite.signature());
  if (!key) return cb_.notice("cannot draw a signature key: " + key.error().message());
  auto bundle = grp::make_key_package(chat_suite, to_bytes(identity_), std::move(*key));
  if (!bundle) return cb_.notice("cannot make a KeyPackage: " + bundle.error().message());
  bundle_.emplace(std::move(*bundle));
  cb_.send("/group " + group_);
}

void group_member::on_line(std::string_view line) {
  if (line.substr(0, 2) != "G ") return;
  line.remove_prefix(2);
  const auto f = split(line, 6);
  if (f.empty()) return;
  if (f[0] == "joined" && f.size() == 4) {
    if (session_ || !bundle_) return;
    relay_nick_ = std::string(f[3]);
    if (relay_nick_ != identity_)
      cb_.notice("the relay knows you as " + relay_nick_ + ", your credential says " + identity_);
    if (f[2] == "creator") {
      auto s = grp::group_session::create(std::move(*bundle_), to_bytes(group_));
      bundle_.reset();
      if (!s) return cb_.notice("cannot create the group: " + s.error().message());
      session_.emplace(std::move(*s));
      cb_.notice("created group " + group_ + " (epoch 0); you are its first member");
    } else {
      auto kp = grp::key_package_message(bundle_->package);
      if (!kp) return cb_.notice("cannot encode the KeyPackage: " + kp.error().message());
      cb_.send("/gkp " + base64_encode(*kp));
      cb_.notice("joined the relay of group " + group_ + "; waiting to be added");
    }
    return;
  }
  if (f[0] == "welcome" && f.size() == 2) return on_welcome(f[1]);
  if (f[0] == "reject" && f.size() == 2) return on_reject(f[1]);
  if (f[0] == "error") return cb_.notice("relay: " + std::string(line.size() > 6 ? line.substr(6) : ""));
  // Sequenced lines: "SEQ kind ...".
  if (f.size() < 3 || !number(f[0])) return;
  if (f[1] == "kp" && f.size() == 5) return on_key_package(f[2], f[3], f[4]);
  if (f[1] == "commit" && f.size() == 5) return on_commit(f[2], f[3], f[4]);
  if (f[1] == "msg" && f.size() == 4) return on_message(f[2], f[3]);
  if (f[1] == "gone" && f.size() == 3) return on_gone(f[2]);
}

bool group_member::say(std::string_view text) {
  if (!in_group()) return false;
  auto wire = session_->protect(to_bytes(text));
  if (!wire) {
    cb_.notice("cannot protect the message: " + wire.error().message());
    return false;
  }
  own_sent_.emplace_back(std::string(text));
  cb_.send("/gmsg " + base64_encode(*wire));
  return true;
}

bool group_member::leave() {
  if (!in_group() || leaving_) return false;
  if (session_->has_pending_commit()) {  // after our Commit is settled (merged or lost)
    leave_deferred_ = true;
    return true;
  }
  if (session_->members().size() == 1) {  // nobody to commit the removal
    removed_ = true;
    cb_.send("/gpart");
    cb_.notice("left group " + group_ + " (you were its last member)");
    return true;
  }
  // The request is a PrivateMessage: signed by this member, so nobody but
  // the leaver (not even the relay) can ask for its removal.
  auto wire = session_->protect({}, to_bytes(leave_marker));
  if (!wire) {
    cb_.notice("cannot protect the leave request: " + wire.error().message());
    return false;
  }
  leaving_ = true;
  own_sent_.emplace_back(std::nullopt);
  cb_.send("/gmsg " + base64_encode(*wire));
  cb_.notice("asked the group to remove you");
  return true;
}

void group_member::update() {
  update_wanted_ = true;
  maybe_commit();
}

std::vector<std::string> group_member::who() const {
  std::vector<std::string> out;
  if (!session_) return out;
  for (const auto& m : session_->members()) {
    out.push_back(to_text(m.identity) + " (leaf " + std::to_string(m.leaf_index) + ")" +
                  (m.leaf_index == session_->own_leaf() ? " *you*" : ""));
  }
  return out;
}

void group_member::on_welcome(std::string_view blob) {
  if (session_ || !bundle_) return;
  const auto bytes = base64_decode(blob);
  if (!bytes) return cb_.notice("a Welcome that is not base64: ignored");
  auto s = grp::group_session::join(*bytes, std::move(*bundle_));
  bundle_.reset();
  if (!s) return cb_.notice("refused the Welcome: " + s.error().message());
  session_.emplace(std::move(*s));
  cb_.notice("joined group " + group_ + " at epoch " + std::to_string(session_->epoch()) + " with " +
             std::to_string(session_->members().size()) + " members");
}

void group_member::on_key_package(std::string_view id, std::string_view owner, std::string_view blob) {
  if (!in_group()) return;
  const auto n = number(id);
  const auto bytes = base64_decode(blob);
  if (!n || !bytes) return;
  auto kp = grp::read_key_package(*bytes);
  if (!kp) return cb_.notice("a KeyPackage from " + std::string(owner) + " does not decode: ignored");
  adds_.push_back(wanted_add{*n, std::string(owner), std::move(*kp)});
  maybe_commit();
}

void group_member::on_commit(std::string_view epoch_text, std::string_view sender, std::string_view blob) {
  if (!in_group()) return;
  const auto epoch = number(epoch_text);
  if (!epoch || *epoch < session_->epoch()) return;  // before we joined (the Welcome came first)
  const auto bytes = base64_decode(blob);
  const auto before = session_->members();
  const bool had_pending = pending_epoch_ == *epoch;
  auto r = bytes ? session_->process(*bytes) : sealwire::result<grp::commit_summary>(grp::group_errc::invalid_content);
  if (!r) {
    if (r.error() == grp::group_errc::removed_from_group) {
      removed_ = true;
      cb_.send("/gpart");
      cb_.notice("you were removed from group " + group_ + " (epoch " + std::to_string(*epoch + 1) + ")");
      return;
    }
    ++stats_.commits_refused;
    // The relay moved past this epoch; members that refused its Commit
    // cannot follow further Commits (messages still flow).
    stalled_ = true;
    cb_.notice("refused a Commit from " + std::string(sender) + ": " + r.error().message() + "; staying in epoch " +
               std::to_string(session_->epoch()));
    return;
  }
  if (had_pending) {
    pending_epoch_.reset();
    if (sender == relay_nick_) {
      update_wanted_ = false;  // every own Commit carries a fresh leaf key
    } else {
      ++stats_.commits_lost;  // process() dropped ours; re-based below
    }
  }
  std::string what;
  for (const auto leaf : r->added)
    for (const auto& m : session_->members())
      if (m.leaf_index == leaf) what += " +" + to_text(m.identity);
  for (const auto leaf : r->removed)
    for (const auto& m : before)
      if (m.leaf_index == leaf) what += " -" + to_text(m.identity);
  if (what.empty()) what = " (key update)";
  cb_.notice("epoch " + std::to_string(r->epoch) + " by " + std::string(sender) + ":" + what);
  prune();
  if (leave_deferred_ && !session_->has_pending_commit()) {
    leave_deferred_ = false;
    leave();
    return;
  }
  maybe_commit();
}

void group_member::on_message(std::string_view sender, std::string_view blob) {
  if (sender == relay_nick_ && !own_sent_.empty() && session_) {
    // Our own message, echoed in the group's order: shown from our record
    // of it (a sender cannot open its own PrivateMessage: its key is used).
    auto text = std::move(own_sent_.front());
    own_sent_.pop_front();
    if (text) cb_.message(identity_, *text);
    return;
  }
  if (!in_group()) return;
  const auto bytes = base64_decode(blob);
  auto m = bytes ? session_->unprotect(*bytes) : sealwire::result<grp::application_message>(grp::group_errc::invalid_content);
  if (!m) {
    ++stats_.undecryptable;  // e.g. sent in an epoch before ours; never shown
    return;
  }
  if (m->authenticated_data == to_bytes(leave_marker)) {
    cb_.notice(to_text(m->identity) + " asks to leave");
    want_removed(m->identity);
    return maybe_commit();
  }
  cb_.message(to_text(m->identity), to_text(m->data));
}

void group_member::on_gone(std::string_view who) {
  std::erase_if(adds_, [&](const wanted_add& a) { return a.owner == who; });
  if (!in_group()) return;
  want_removed(to_bytes(who));
  maybe_commit();
}

void group_member::on_reject(std::string_view epoch_text) {
  const auto epoch = number(epoch_text);
  if (!epoch || pending_epoch_ != *epoch || !session_) return;  // an older Commit, already re-based
  session_->discard_pending_commit();
  pending_epoch_.reset();
  ++stats_.commits_lost;
  if (session_->epoch() == *epoch) {
    // The winner never reached us in a form we accept: do not loop.
    stalled_ = true;
    cb_.notice("the relay refused our Commit for epoch " + std::to_string(*epoch) + " and we hold no other");
  }
  if (leave_deferred_) {
    leave_deferred_ = false;
    leave();
    return;
  }
  if (!stalled_) maybe_commit();
}

void group_member::want_removed(const grp::bytes& identity) {
  for (const auto& m : session_->members()) {
    if (m.identity == identity) {
      if (std::find(removes_.begin(), removes_.end(), identity) == removes_.end()) removes_.push_back(identity);
      return;
    }
  }
}

void group_member::prune() {
  const auto roster = session_->members();
  std::erase_if(removes_, [&](const grp::bytes& id) {
    return std::none_of(roster.begin(), roster.end(), [&](const grp::member& m) { return m.identity == id; });
  });
  std::erase_if(adds_, [&](const wanted_add& a) {
    return std::any_of(roster.begin(), roster.end(),
                       [&](const grp::member& m) { return m.signature_key == a.kp.leaf_node.signature_key; });
  });
}

void group_member::maybe_commit() {
  if (!in_group() || passive_ || leaving_ || stalled_ || session_->has_pending_commit()) return;
  prune();
  const auto roster = session_->members();
  const auto leaving = [&](const grp::member& m) {
    return std::find(removes_.begin(), removes_.end(), m.identity) != removes_.end();
  };
  std::optional<std::uint32_t> committer;
  for (const auto& m : roster)  // by leaf index
    if (!leaving(m) && (!committer || m.leaf_index < *committer)) committer = m.leaf_index;
  if (committer == session_->own_leaf()) {
    std::vector<std::uint32_t> leaves;
    for (const auto& m : roster)
      if (leaving(m) && m.leaf_index != session_->own_leaf()) leaves.push_back(m.leaf_index);
    if (!leaves.empty()) {
      auto out = session_->commit_remove(leaves);
      if (!out) return cb_.notice("cannot commit the removal: " + out.error().message());
      return send_commit(*out, "-");
    }
    std::vector<grp::key_package> kps;
    std::string ids;
    std::erase_if(adds_, [&](const wanted_add& a) {
      if (validate_key_package(session_->suite(), a.kp)) return false;
      cb_.notice("the KeyPackage of " + a.owner + " is invalid: not added");
      return true;
    });
    // Identities stay unique in the group (a removal names an identity), and
    // one repeated key fails a whole batch: a KeyPackage whose identity is a
    // member's waits (the identity may come free when that member's removal
    // lands), and a batch takes only KeyPackages distinct from each other.
    const auto clashes = [&](const grp::key_package& kp) {
      const auto& leaf = kp.leaf_node;
      const bool in_roster = std::any_of(roster.begin(), roster.end(), [&](const grp::member& m) {
        return m.identity == leaf.credential.identity || m.signature_key == leaf.signature_key;
      });
      return in_roster || std::any_of(kps.begin(), kps.end(), [&](const grp::key_package& o) {
               return o.leaf_node.credential.identity == leaf.credential.identity ||
                      o.leaf_node.signature_key == leaf.signature_key ||
                      o.leaf_node.encryption_key == leaf.encryption_key || o.init_key == kp.init_key;
             });
    };
    std::vector<std::uint64_t> batch;
    for (const auto& a : adds_) {
      if (kps.size() == 32) break;  // bounds one Commit and its Welcome
      if (clashes(a.kp)) continue;
      kps.push_back(a.kp);
      batch.push_back(a.id);
      ids += (ids.empty() ? "" : ",") + std::to_string(a.id);
    }
    if (!kps.empty()) {
      auto out = session_->commit_add(kps);
      if (!out) {
        // Find the KeyPackages refused on their own (an encryption key a
        // member holds, say), drop those and try again with the others.
        std::vector<std::uint64_t> bad;
        for (std::size_t i = 0; i < kps.size(); ++i) {
          if (session_->commit_add(std::span(&kps[i], 1))) session_->discard_pending_commit();
          else bad.push_back(batch[i]);
        }
        cb_.notice("cannot commit the additions: " + out.error().message() + "; " + std::to_string(bad.size()) +
                   " KeyPackage(s) refused");
        if (bad.empty()) bad = batch;  // not one alone: drop the batch rather than retry it forever
        std::erase_if(adds_, [&](const wanted_add& a) { return std::find(bad.begin(), bad.end(), a.id) != bad.end(); });
        return maybe_commit();
      }
      return send_commit(*out, ids);
    }
  }
  if (update_wanted_) {
    auto out = session_->commit_update();
    if (!out) return cb_.notice("cannot commit the update: " + out.error().message());
    send_commit(*out, "-");
  }
}

void group_member::send_commit(const grp::commit_output& out, const std::string& ids) {
  pending_epoch_ = session_->epoch();
  ++stats_.commits_sent;
  std::string line = "/gcommit " + std::to_string(*pending_epoch_) + " " + ids + " " + base64_encode(out.commit);
  if (!out.welcome.empty()) line += " " + base64_encode(out.welcome);
  cb_.send(line);
}

}  // namespace sealwire::chat
