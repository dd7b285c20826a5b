// SPDX-License-Identifier: Apache-2.0
// The enabled CPU features as the kernel choices read them: one relaxed load
// inline, where cpu::enabled() is a call into cpu.cpp past the guard of its
// function-local state. Kernels are chosen on every call (a message may move
// between levels), and for 100-byte AES-GCM pieces that call was about 3% of
// the time.
#pragma once

#include <atomic>
#include <cstdint>

namespace sealwire::crypto::detail {

// cpu_enabled_word holds cpu::enabled(). cpu.cpp stores it when it makes its
// state, which a constructor does before main and before any static
// initialiser of default priority, and again at every level change. Before
// that it is zero (constant-initialised), so code running even earlier
// would get the portable kernels: slower, not wrong, since kernel choice is
// per call and every kernel continues a state another began (cpu.hpp).
// There is no fallback call here on purpose: a call in this inline path
// makes every caller save its arguments around it, a register save and
// restore per piece (another 2-3% of 100-byte AES-GCM pieces).
extern std::atomic<std::uint32_t> cpu_enabled_word;

[[gnu::always_inline]] inline std::uint32_t cpu_features() noexcept {
  return cpu_enabled_word.load(std::memory_order_relaxed);
}

}  // namespace sealwire::crypto::detail
