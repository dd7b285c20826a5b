// SPDX-License-Identifier: Apache-2.0
// The sliding anti-replay window (docs/protocol.md 9.4 step 5).
#include "detail/replay.hpp"

#include <algorithm>
#include <bit>

namespace sealwire::record::datagram::detail {

void replay_window::reset(std::size_t size) {
  size_ = size;
  mask_ = std::bit_ceil(static_cast<std::uint64_t>(size)) - 1;
  bits_.assign((mask_ + 1) / 64, 0);
  next_ = 0;
}

bool replay_window::acceptable(std::uint64_t seq) const noexcept {
  if (seq >= next_) return true;
  if (next_ - seq > size_) return false;  // older than the window
  return !bit(seq);
}

void replay_window::mark_other(std::uint64_t seq) noexcept {
  if (seq >= next_) {
    // Slide: the positions of next_ .. seq now stand for new numbers.
    if (seq - next_ > mask_) {
      std::fill(bits_.begin(), bits_.end(), 0);
    } else {
      for (std::uint64_t s = next_; s <= seq; ++s) {
        const std::uint64_t i = s & mask_;
        bits_[i / 64] &= ~(std::uint64_t{1} << (i % 64));
      }
    }
    next_ = seq + 1;
  }
  const std::uint64_t i = seq & mask_;
  bits_[i / 64] |= std::uint64_t{1} << (i % 64);
}

}  // namespace sealwire::record::datagram::detail
