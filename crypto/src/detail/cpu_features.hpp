// SPDX-License-Identifier: Apache-2.0
// The enabled CPU features as the kernel choices read them: one relaxed load
// inline, where cpu::enabled() is a call into cpu.cpp past the guard of its
// function-local state. Kernels are chosen on every call (a message may move
// between levels), and for 100-byte AES-GCM pieces that call was about 7% of
// the time.
#pragma once

#include <sealwire/crypto/cpu.hpp>

#include <atomic>
#include <cstdint>

namespace sealwire::crypto::detail {

// cpu_enabled_word holds cpu::enabled() with cpu_features_known set, once
// the state in cpu.cpp exists (zero before: constant-initialised, so it is
// valid during other files' static initialisation). cpu.cpp stores it each
// time the level changes.
inline constexpr std::uint32_t cpu_features_known = 1u << 31;
extern std::atomic<std::uint32_t> cpu_enabled_word;

// cpu_features is cpu::enabled(): the word when it is set, else the call
// (the first use detects the features and sets the word).
[[gnu::always_inline]] inline std::uint32_t cpu_features() noexcept {
  const std::uint32_t w = cpu_enabled_word.load(std::memory_order_relaxed);
  if ((w & cpu_features_known) != 0) [[likely]] return w & ~cpu_features_known;
  return cpu::enabled();
}

}  // namespace sealwire::crypto::detail
