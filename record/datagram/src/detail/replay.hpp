// SPDX-License-Identifier: Apache-2.0
// Internal: the sliding anti-replay window of one epoch (docs/protocol.md
// 9.4 step 5, RFC 9147 4.5.1 and RFC 4303 3.4.3's bitmap).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sealwire::record::datagram::detail {

struct channel_test_access;

// replay_window remembers which of the last `size` sequence numbers up to
// the largest verified one were received: a ring of bits indexed by seq
// mod the ring's capacity, `size` rounded up to a power of two (a mask, not
// a division, per record; a number within the window never shares its bit
// with a later one, which is at least a capacity ahead).
class replay_window {
 public:
  // reset empties the window and sets its size (a multiple of 64, at most 2^31).
  void reset(std::size_t size);
  // acceptable: seq is newer than everything seen, or within the window
  // and not seen yet.
  [[nodiscard]] bool acceptable(std::uint64_t seq) const noexcept;
  // mark records seq (acceptable) as received and slides the window. The
  // next record in order (the common case, inline) slides by one: its ring
  // position is cleared and set, that is set.
  void mark(std::uint64_t seq) noexcept {
    if (seq != next_) {
      mark_other(seq);
      return;
    }
    const std::uint64_t i = seq & mask_;
    bits_[i / 64] |= std::uint64_t{1} << (i % 64);
    next_ = seq + 1;
  }
  // expected is one more than the largest sequence number marked (0: none).
  [[nodiscard]] std::uint64_t expected() const noexcept { return next_; }

 private:
  friend struct channel_test_access;  // the benchmark's rewind
  void mark_other(std::uint64_t seq) noexcept;
  [[nodiscard]] bool bit(std::uint64_t seq) const noexcept {
    const std::uint64_t i = seq & mask_;
    return (bits_[i / 64] >> (i % 64) & 1) != 0;
  }
  std::vector<std::uint64_t> bits_;
  std::uint64_t size_ = 64;
  std::uint64_t mask_ = 63;  // ring capacity - 1
  std::uint64_t next_ = 0;
};

}  // namespace sealwire::record::datagram::detail
