// SPDX-License-Identifier: Apache-2.0
// The echo chat server's group relay (see group_relay.hpp for the protocol).
#include "group_relay.hpp"

#include <charconv>
#include <vector>

namespace sealwire::chat {

namespace {

bool valid_name(std::string_view n) {
  if (n.empty() || n.size() > 32) return false;
  for (char c : n)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')) return false;
  return true;
}

// A blob is base64 text; the relay checks only its alphabet, so that a
// relayed line always has the shape the protocol promises.
bool valid_blob(std::string_view b) {
  if (b.empty()) return false;
  for (char c : b)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '/' || c == '=')) return false;
  return true;
}

std::vector<std::string_view> split(std::string_view s) {
  std::vector<std::string_view> out;
  while (!s.empty()) {
    const auto sp = s.find(' ');
    if (sp != 0) out.push_back(s.substr(0, sp));
    if (sp == std::string_view::npos) break;
    s.remove_prefix(sp + 1);
  }
  return out;
}

bool parse_u64(std::string_view s, std::uint64_t& v) {
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && p == s.data() + s.size();
}

}  // namespace

group_relay::group_relay(const chat::limits& lim, relay_observer observer)
    : limits_(lim), observer_(std::move(observer)) {}

bool group_relay::is_group_command(std::string_view line) noexcept {
  const std::string_view cmd = line.substr(0, line.find(' '));
  return cmd == "/group" || cmd == "/gkp" || cmd == "/gcommit" || cmd == "/gmsg" || cmd == "/gpart";
}

void group_relay::reply(const std::shared_ptr<relay_peer>& peer, const std::string& text) {
  peer->deliver(std::make_shared<const std::string>("G " + text + "\n"));
}

// observe records an event for the observer; handle() calls the observer
// once the lock is released.
void group_relay::observe(const std::string& name, const char* kind, std::string_view payload) {
  if (observer_) observed_.push_back(observed{name, kind, std::string(payload)});
}

void group_relay::broadcast(group& g, const std::string& text) {
  ++relayed_;
  auto line = std::make_shared<const std::string>("G " + std::to_string(++g.seq) + " " + text + "\n");
  for (auto& [raw, entry] : g.subscribers)
    if (auto p = entry.first.lock()) p->deliver(line);
}

void group_relay::handle(const std::shared_ptr<relay_peer>& peer, const std::string& nick, std::string_view line) {
  std::vector<observed> events;
  {
    const std::lock_guard lock(mutex_);
    observed_.clear();  // nothing left behind by a command that threw
    handle_locked(peer, nick, line);
    events.swap(observed_);
  }
  // After the lock: an observer may call back into the server (stats()).
  // A connection's commands run one at a time (on its strand), so its
  // events reach the observer in the order the relay took them.
  for (const auto& e : events) observer_(e.group, e.kind, e.payload);
}

void group_relay::handle_locked(const std::shared_ptr<relay_peer>& peer, const std::string& nick,
                                std::string_view line) {
  const auto args = split(line);
  if (args.empty()) return;
  const std::string_view cmd = args[0];
  if (cmd == "/group") {
    if (args.size() != 2 || !valid_name(args[1])) return reply(peer, "error usage: /group NAME (1 to 32 letters, digits, '_', '-', '.')");
    return subscribe(peer, nick, args[1]);
  }
  const auto sub = members_.find(peer.get());
  if (sub == members_.end()) return reply(peer, "error not in a group (/group NAME first)");
  const std::string name = sub->second.group;
  const std::string& who = sub->second.nick;
  group& g = groups_.at(name);
  if (cmd == "/gpart") {
    if (args.size() != 1) return reply(peer, "error usage: /gpart");
    return unsubscribe(peer.get());
  }
  if ((cmd == "/gmsg" || cmd == "/gcommit") && !g.admitted.contains(peer.get()))
    return reply(peer, "error not a member of group " + name + " yet");
  if (cmd == "/gmsg") {
    if (args.size() != 2 || !valid_blob(args[1])) return reply(peer, "error usage: /gmsg BASE64");
    observe(name, "msg", args[1]);
    return broadcast(g, "msg " + who + " " + std::string(args[1]));
  }
  if (cmd == "/gkp") {
    if (args.size() != 2 || !valid_blob(args[1])) return reply(peer, "error usage: /gkp BASE64");
    // Each KeyPackage is held until a Commit adds it or its owner leaves:
    // capped in size, per group in number, and one per connection.
    if (args[1].size() > limits_.max_key_package) return reply(peer, "error the KeyPackage is too large");
    if (g.pending.size() >= limits_.max_pending_key_packages) return reply(peer, "error too many KeyPackages waiting in this group");
    for (const auto& [id, kp] : g.pending)
      if (kp.owner.lock() == peer) return reply(peer, "error a KeyPackage of yours is already waiting");
    const std::uint64_t id = g.next_kp++;
    g.pending[id] = pending_kp{id, peer, args[1].size()};
    pending_bytes_ += args[1].size();
    ++pending_count_;
    observe(name, "kp", args[1]);
    return broadcast(g, "kp " + std::to_string(id) + " " + who + " " + std::string(args[1]));
  }
  if (cmd == "/gcommit") {
    std::uint64_t epoch = 0;
    if (args.size() < 4 || args.size() > 5 || !parse_u64(args[1], epoch) || !valid_blob(args[3]) ||
        (args.size() == 5 && !valid_blob(args[4])))
      return reply(peer, "error usage: /gcommit EPOCH IDS|- COMMIT [WELCOME]");
    std::vector<std::uint64_t> ids;
    if (args[2] != "-") {
      std::string_view rest = args[2];
      while (!rest.empty()) {
        const auto comma = rest.find(',');
        std::uint64_t id = 0;
        if (!parse_u64(rest.substr(0, comma), id) || ids.size() >= limits_.max_pending_key_packages)
          return reply(peer, "error usage: /gcommit EPOCH IDS|- COMMIT [WELCOME]");
        ids.push_back(id);
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
      }
    }
    // One Commit per epoch: the first to arrive wins, the others are
    // refused and their senders re-base on the winner (which they receive
    // first: both go through this lock, and into each queue in order).
    if (epoch != g.epoch) {
      ++rejected_;
      return reply(peer, "reject " + std::to_string(epoch));
    }
    ++accepted_;
    ++g.epoch;
    if (args.size() == 5) {
      observe(name, "welcome", args[4]);
      auto welcome = std::make_shared<const std::string>("G welcome " + std::string(args[4]) + "\n");
      for (const std::uint64_t id : ids) {
        const auto it = g.pending.find(id);
        if (it == g.pending.end()) continue;
        if (auto owner = it->second.owner.lock()) {
          owner->deliver(welcome);
          g.admitted.insert(owner.get());
        }
        pending_bytes_ -= it->second.bytes;
        --pending_count_;
        g.pending.erase(it);
      }
    }
    observe(name, "commit", args[3]);
    return broadcast(g, "commit " + std::to_string(epoch) + " " + who + " " + std::string(args[3]));
  }
  reply(peer, "error unknown group command");
}

void group_relay::subscribe(const std::shared_ptr<relay_peer>& peer, const std::string& nick, std::string_view name) {
  if (members_.contains(peer.get())) return reply(peer, "error already in group " + members_[peer.get()].group);
  auto it = groups_.find(std::string(name));
  const bool creator = it == groups_.end();
  if (creator) {
    if (groups_.size() >= limits_.max_groups) return reply(peer, "error too many groups");
    it = groups_.emplace(std::string(name), group{}).first;
  } else if (it->second.subscribers.size() >= limits_.max_group_subscribers) {
    return reply(peer, "error group " + std::string(name) + " is full");
  }
  it->second.subscribers[peer.get()] = {peer, nick};
  if (creator) it->second.admitted.insert(peer.get());
  members_[peer.get()] = subscription{std::string(name), nick};
  reply(peer, "joined " + std::string(name) + (creator ? " creator " : " member ") + nick);
}

void group_relay::unsubscribe(const relay_peer* peer) {
  const auto sub = members_.find(peer);
  if (sub == members_.end()) return;
  const std::string name = sub->second.group, nick = sub->second.nick;
  members_.erase(sub);
  group& g = groups_.at(name);
  g.subscribers.erase(peer);
  g.admitted.erase(peer);
  for (auto it = g.pending.begin(); it != g.pending.end();) {
    const auto owner = it->second.owner.lock();
    if (owner && owner.get() != peer) {
      ++it;
      continue;
    }
    pending_bytes_ -= it->second.bytes;
    --pending_count_;
    it = g.pending.erase(it);
  }
  // No history is kept: a group without subscribers is forgotten (its
  // members' sessions are all that remains of it).
  if (g.subscribers.empty()) {
    for (const auto& [id, kp] : g.pending) pending_bytes_ -= kp.bytes;
    pending_count_ -= g.pending.size();
    groups_.erase(name);
    return;
  }
  broadcast(g, "gone " + nick);
}

void group_relay::drop(const relay_peer* peer) {
  const std::lock_guard lock(mutex_);
  unsubscribe(peer);
}

void group_relay::add_stats(server_stats& out) const {
  const std::lock_guard lock(mutex_);
  out.groups_now = groups_.size();
  out.group_subscribers = members_.size();
  out.pending_key_packages = pending_count_;
  out.pending_bytes = pending_bytes_;
  out.group_relayed = relayed_;
  out.commits_accepted = accepted_;
  out.commits_rejected = rejected_;
}

}  // namespace sealwire::chat
