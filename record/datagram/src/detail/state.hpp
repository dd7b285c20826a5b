// SPDX-License-Identifier: Apache-2.0
// Internal: a datagram channel's state (docs/protocol.md 9): the suite,
// the sending epoch, the receiving epochs (previous, current, next) with
// their replay windows and failure counts, and the sticky failure.
#pragma once

#include <sealwire/record/datagram/channel.hpp>

#include "detail/keys.hpp"
#include "detail/replay.hpp"

#include <array>
#include <atomic>
#include <optional>

namespace sealwire::record::datagram::detail {

// One receiving epoch: keys, replay window, records that failed under its key.
struct receive_epoch {
  epoch_keys keys;
  replay_window window;
  std::uint64_t failures = 0;
};

struct channel_state {
  suite s;
  datagram::config cfg;
  std::uint64_t integrity_limit = 0;  // the effective limit (cfg lowers the AEAD's)
  std::uint64_t blocks_limit = 0;
  std::atomic<int> failure{0};  // a datagram_errc value, 0 = healthy

  // send side
  header_protection tx_hp;
  epoch_keys tx;
  std::uint64_t tx_seq = 0;
  std::uint64_t tx_blocks = 0;
  std::optional<clock::time_point> tx_last_update;
  std::uint64_t sealed = 0, epochs_started = 0;

  // receive side: slots[cur] is the current epoch, slots[next] its
  // successor (always derived), slots[prev] the previous one while live.
  header_protection rx_hp;
  std::array<receive_epoch, 3> slots;
  unsigned prev = 0, cur = 1, next = 2;
  clock::time_point prev_deadline{};
  std::uint64_t delivered = 0, forged = 0, replayed = 0, stale_epoch = 0, malformed = 0, epochs_followed = 0;

  ~channel_state();
  void wipe() noexcept;
};

}  // namespace sealwire::record::datagram::detail
