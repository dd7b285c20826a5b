// SPDX-License-Identifier: Apache-2.0
// The echo chat server's group relay: stores and forwards the MLS messages
// of group mode (KeyPackages, Welcomes, Commits, PrivateMessages) as opaque
// base64 blobs, in one total order per group. It never decodes a blob and
// never holds a key; it learns a Commit's epoch only from the sender's word.
//
// Client -> server (one line each, at most limits::max_group_line bytes):
//   /group NAME                          subscribe to group NAME (one group per connection)
//   /gkp KP                              publish a KeyPackage (MLSMessage, base64; one waiting
//                                        per connection, at most limits::max_key_package bytes)
//   /gcommit EPOCH IDS COMMIT [WELCOME]  a Commit for EPOCH; IDS: the KeyPackage ids it adds
//                                        ("-" for none), whose owners get WELCOME
//   /gmsg MSG                            a PrivateMessage for the group
// /gcommit and /gmsg are taken only from admitted subscribers: the group's
// creator and the owners of KeyPackages added by an accepted Commit with a
// Welcome (the relay cannot see removals: a removed member stays admitted
// until it leaves the relay).
//   /gpart                               unsubscribe
// Server -> client:
//   G joined NAME creator|member NICK    answer to /group ("creator": create the group at epoch 0)
//   G SEQ kp ID NICK KP                  relayed to every subscriber
//   G SEQ commit EPOCH NICK COMMIT       the accepted Commit for EPOCH, to every subscriber
//   G SEQ msg NICK MSG                   to every subscriber, the sender included
//   G SEQ gone NICK                      a subscriber left the relay (parted or disconnected)
//   G welcome WELCOME                    to an added KeyPackage's owner, just before the Commit
//   G reject EPOCH                       to a Commit's sender: EPOCH was already committed
//   G error TEXT                         a refused command
// SEQ counts a group's relayed lines from 1: the total order.
//
// Threads: handle() and drop() run on the connections' threads; one mutex
// orders the groups, and lines are delivered under it (that is the total
// order). The observer (relay_observer in chat.hpp) is called after the
// mutex is released, on the thread of the connection whose command relayed
// the payload, in the order that connection's commands were taken; so it
// may call back into the server (server::stats()), and a subscriber may
// receive a line before the observer has seen its payload.
#pragma once

#include "chat.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace sealwire::chat {

// relay_peer is a subscriber: a connection that takes lines.
class relay_peer {
 public:
  virtual ~relay_peer() = default;
  // deliver queues a line (with its newline) for the peer; callable from any thread.
  virtual void deliver(std::shared_ptr<const std::string> line) = 0;
};

class group_relay {
 public:
  group_relay(const chat::limits& lim, relay_observer observer);

  // is_group_command reports whether a line is one of the relay's commands.
  [[nodiscard]] static bool is_group_command(std::string_view line) noexcept;
  // handle runs one group command from `peer`, known to the room as nick.
  void handle(const std::shared_ptr<relay_peer>& peer, const std::string& nick, std::string_view line);
  // drop unsubscribes peer (it closed); the group hears "gone".
  void drop(const relay_peer* peer);
  // add_stats fills the relay's fields of server_stats.
  void add_stats(server_stats& out) const;

 private:
  struct pending_kp {
    std::uint64_t id = 0;
    std::weak_ptr<relay_peer> owner;
    std::size_t bytes = 0;
  };
  struct group {
    std::uint64_t seq = 0;    // lines relayed so far
    std::uint64_t epoch = 0;  // the epoch the next accepted Commit must name
    std::uint64_t next_kp = 1;
    std::map<const relay_peer*, std::pair<std::weak_ptr<relay_peer>, std::string>> subscribers;  // -> (peer, nick)
    std::map<std::uint64_t, pending_kp> pending;  // KeyPackages not yet added, by id
    // admitted: subscribers that are in the group as far as the relay can
    // tell (the creator, and the owners of KeyPackages an accepted Commit
    // added); only they may send Commits and messages.
    std::set<const relay_peer*> admitted;
  };
  struct subscription {
    std::string group;
    std::string nick;
  };

  // observed: an event for the observer, collected under the lock.
  struct observed {
    std::string group;
    std::string kind;
    std::string payload;
  };

  void handle_locked(const std::shared_ptr<relay_peer>& peer, const std::string& nick, std::string_view line);
  void subscribe(const std::shared_ptr<relay_peer>& peer, const std::string& nick, std::string_view name);
  void unsubscribe(const relay_peer* peer);
  void broadcast(group& g, const std::string& text);  // "G SEQ text\n" to every subscriber
  static void reply(const std::shared_ptr<relay_peer>& peer, const std::string& text);
  void observe(const std::string& name, const char* kind, std::string_view payload);

  chat::limits limits_;
  relay_observer observer_;
  mutable std::mutex mutex_;  // guards everything below; deliveries happen under it (that is the total order)
  std::map<std::string, group> groups_;
  std::map<const relay_peer*, subscription> members_;
  std::uint64_t pending_bytes_ = 0, pending_count_ = 0;
  std::uint64_t relayed_ = 0, accepted_ = 0, rejected_ = 0;
  std::vector<observed> observed_;  // events of the command being handled; handle() takes them
};

}  // namespace sealwire::chat
