// SPDX-License-Identifier: Apache-2.0
// Internal: a datagram channel's state (docs/protocol.md 9): the suite,
// the sending epoch, the receiving epochs (previous, current, up to three
// ahead) with their replay windows and failure counts, and the sticky
// failure.
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

  // receive side (9.4): the epochs rx_epoch - 1 (the previous one, while
  // kept) to rx_epoch + 3, each in slots[epoch % 5] while held (live, with
  // that epoch number). rx_epoch + 1 is always held; rx_epoch + 2 and + 3
  // are derived on demand when a record names them, and adopted only once
  // one authenticates. Only the slot of the epoch rx_tip, the newest
  // derived, keeps its secret dg_e (to derive the next).
  header_protection rx_hp;
  std::array<receive_epoch, 5> slots;
  std::uint64_t rx_epoch = 0, rx_tip = 0;
  clock::time_point prev_deadline{};
  std::uint64_t delivered = 0, forged = 0, replayed = 0, stale_epoch = 0, malformed = 0, epochs_followed = 0;

  // held returns the slot of epoch e when it holds e's keys, else null.
  [[nodiscard]] receive_epoch* held(std::uint64_t e) noexcept {
    receive_epoch& r = slots[e % slots.size()];
    return r.keys.live && r.keys.epoch == e ? &r : nullptr;
  }

  ~channel_state();
  void wipe() noexcept;
};

}  // namespace sealwire::record::datagram::detail
