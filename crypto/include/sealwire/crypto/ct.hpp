// SPDX-License-Identifier: Apache-2.0
// Constant-time helpers: comparison, selection and memory wiping whose timing
// and memory access do not depend on the secret values involved. For code
// that handles secrets beside sealwire's API (box.hpp, hpke/single_shot.hpp):
// ct::equal for tags, ct::wipe for keys and unverified plaintext.
#pragma once

#include <sealwire/crypto/export.hpp>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace sealwire::crypto::ct {

// value_barrier hides x from the optimiser, so mask arithmetic on secrets is
// not turned back into a branch.
template <class T>
[[nodiscard]] inline T value_barrier(T x) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  __asm__("" : "+r"(x));
#endif
  return x;
}

// mask_if_zero returns all ones when x == 0 and zero otherwise, without a branch.
[[nodiscard]] inline std::uint64_t mask_if_zero(std::uint64_t x) noexcept {
  // (x | -x) has its top bit set exactly when x != 0.
  const std::uint64_t nonzero_bit = value_barrier((x | (0 - x)) >> 63);
  return nonzero_bit - 1;
}

// mask_from_bit returns all ones for bit == 1 and zero for bit == 0.
[[nodiscard]] inline std::uint64_t mask_from_bit(std::uint64_t bit) noexcept {
  return 0 - value_barrier(bit & 1);
}

// declassify tells a memory checker that n bytes at p, computed from secrets,
// are public from here on: a tag check's verdict, say, or an all-zero test's.
// With SEALWIRE_VALGRIND_ANNOTATIONS (CMake option, on when valgrind's headers
// are installed) it is valgrind memcheck's MAKE_MEM_DEFINED client request, a
// few no-op instructions when not running under valgrind; otherwise nothing.
// The constant-time test (tests/ct) marks secrets undefined and requires that
// no branch or address depends on them except through this call.
SEALWIRE_API void declassify(const void* p, std::size_t n) noexcept;

// equal compares two byte strings in time that depends only on their lengths.
// Strings of different lengths are unequal (lengths are public). Only the
// verdict is declassified.
[[nodiscard]] SEALWIRE_API bool equal(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) noexcept;

// is_zero reports whether every byte is zero, in time that depends only on
// the length. Only the verdict is declassified.
[[nodiscard]] SEALWIRE_API bool is_zero(std::span<const std::uint8_t> a) noexcept;

// select writes a to out when choose_a is true and b otherwise, reading both
// inputs fully. out, a and b must have the same size (a contract).
SEALWIRE_API void select(std::span<std::uint8_t> out, bool choose_a, std::span<const std::uint8_t> a,
            std::span<const std::uint8_t> b) noexcept;

// wipe overwrites memory with zeros in a way the compiler may not remove:
// the empty asm statement claims to read the memory, so the stores are not
// dead. Inline, so small fixed-size wipes become a few stores.
inline void wipe(void* p, std::size_t n) noexcept {
  if (n == 0) return;
  std::memset(p, 0, n);
  __asm__ __volatile__("" : : "r"(p) : "memory");
}

// wipe(s) zeroes the bytes s views, as wipe(s.data(), s.size()).
inline void wipe(std::span<std::uint8_t> s) noexcept { wipe(s.data(), s.size()); }

// wipe_object zeroes a trivially copyable object (a state struct) in place.
template <class T>
inline void wipe_object(T& obj) noexcept {
  wipe(static_cast<void*>(&obj), sizeof(T));
}

}  // namespace sealwire::crypto::ct
