// SPDX-License-Identifier: Apache-2.0
// CPU levels for the differential fuzz targets: one input byte picks a SIMD
// level of this machine, whose result is compared with the portable level's,
// so that a kernel bug shows on one side only.
#pragma once

#include <sealwire/crypto/cpu.hpp>

#include <cstdint>

namespace sealwire::fuzz {

// simd_level picks one of the levels this machine runs, other than portable
// when there is one; the byte chooses among them (the best by default).
inline crypto::cpu::level simd_level(std::uint8_t b) noexcept {
  const auto levels = crypto::cpu::available_levels();  // portable first
  if (levels.size() <= 1) return crypto::cpu::level::portable;
  const std::size_t simd = levels.size() - 1;
  return levels[levels.size() - 1 - (b % simd)];
}

// at_level forces a level for one scope and restores the previous maximum.
class at_level {
 public:
  explicit at_level(crypto::cpu::level l) noexcept : previous_(crypto::cpu::set_max_level(l)) {}
  ~at_level() { crypto::cpu::set_max_level(previous_); }
  at_level(const at_level&) = delete;
  at_level& operator=(const at_level&) = delete;

 private:
  crypto::cpu::level previous_;
};

}  // namespace sealwire::fuzz
