// SPDX-License-Identifier: Apache-2.0
// A fault injector for the UDP echo example's client path: it loses,
// reorders (holds a datagram back behind the next one) and corrupts
// datagrams with given probabilities, deterministically from a seed.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace sealwire::examples {

struct fault_rates {
  double loss = 0;
  double reorder = 0;
  double corrupt = 0;
};

// fault_injector turns each datagram handed to it into the datagrams to
// send now (none when lost or held back; two when a held one is released).
class fault_injector {
 public:
  using datagram = std::vector<std::uint8_t>;

  fault_injector(fault_rates rates, std::uint64_t seed) : rates_(rates), rng_(seed) {}

  std::vector<datagram> pass(datagram d) {
    std::vector<datagram> out;
    if (chance(rates_.loss)) {
      ++lost_;
      return release(out);
    }
    if (chance(rates_.corrupt) && !d.empty()) {
      std::uniform_int_distribution<std::size_t> pos(0, d.size() - 1);
      d[pos(rng_)] ^= 0x40;
      ++corrupted_;
    }
    if (!held_.empty() || !chance(rates_.reorder)) {
      out.push_back(std::move(d));
      return release(out);
    }
    held_ = std::move(d);  // sent after the next datagram
    ++reordered_;
    return out;
  }

  // flush returns a datagram still held back.
  std::vector<datagram> flush() {
    std::vector<datagram> out;
    return release(out);
  }

  std::uint64_t lost() const noexcept { return lost_; }
  std::uint64_t reordered() const noexcept { return reordered_; }
  std::uint64_t corrupted() const noexcept { return corrupted_; }

 private:
  bool chance(double p) { return p > 0 && std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  std::vector<datagram>& release(std::vector<datagram>& out) {
    if (!held_.empty()) out.push_back(std::move(held_));
    held_.clear();
    return out;
  }

  fault_rates rates_;
  std::mt19937_64 rng_;
  datagram held_;
  std::uint64_t lost_ = 0, reordered_ = 0, corrupted_ = 0;
};

}  // namespace sealwire::examples
