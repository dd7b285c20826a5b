// SPDX-License-Identifier: Apache-2.0
// Run-time CPU feature detection (cpuid + xgetbv), detected once and cached,
// with a way to force a lower level so every SIMD path can be tested. The
// primitives pick their kernels by themselves: an application needs this
// header only to restrict or report them.
#pragma once

#include <sealwire/crypto/export.hpp>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace sealwire::crypto::cpu {

// feature is one instruction-set extension, usable as a bit in a mask.
enum feature : std::uint32_t {
  sse41 = 1u << 0,
  ssse3 = 1u << 1,
  pclmulqdq = 1u << 2,
  aesni = 1u << 3,
  sha_ni = 1u << 4,
  avx2 = 1u << 5,
  bmi2 = 1u << 6,
  adx = 1u << 7,
  avx512f = 1u << 8,
  avx512vl = 1u << 9,
  avx512bw = 1u << 10,
  avx512ifma = 1u << 11,
  vaes = 1u << 12,
  vpclmulqdq = 1u << 13,
};

// level is a group of features that kernels are written against. Each level
// enables the features listed in docs/architecture.md ("CPU levels").
enum class level : std::uint8_t { portable = 0, sse41 = 1, avx2 = 2, avx512 = 3 };

// all_levels lists every level, portable first, whether or not this machine has it.
inline constexpr level all_levels[] = {level::portable, level::sse41, level::avx2, level::avx512};

// detected returns the features this CPU and OS support, ignoring any forcing.
[[nodiscard]] SEALWIRE_API std::uint32_t detected() noexcept;

// enabled returns the features kernels may use: detected() restricted to the
// current maximum level. Cheap (one relaxed atomic load after the first call).
[[nodiscard]] SEALWIRE_API std::uint32_t enabled() noexcept;

// has reports whether every feature in mask is enabled.
[[nodiscard]] inline bool has(std::uint32_t mask) noexcept { return (enabled() & mask) == mask; }

// detected_level is the highest level this machine supports.
[[nodiscard]] SEALWIRE_API level detected_level() noexcept;

// active_level is the highest level currently enabled.
[[nodiscard]] SEALWIRE_API level active_level() noexcept;

// set_max_level restricts kernels to `max` and below (clamped to what the CPU
// has) and returns the previous maximum. The environment variable
// SEALWIRE_CPU=portable|sse41|avx2|avx512 sets the initial maximum; an
// unrecognised value is ignored. Kernel choice is made per call, so the change
// takes effect at the next operation; objects mid-operation keep working.
SEALWIRE_API level set_max_level(level max) noexcept;

// parse_level maps "portable", "sse41", "avx2", "avx512" to a level.
[[nodiscard]] SEALWIRE_API std::optional<level> parse_level(std::string_view name) noexcept;

// name returns the level's name as accepted by parse_level.
[[nodiscard]] SEALWIRE_API std::string_view name(level l) noexcept;

// feature_name returns the lower-case name of one feature ("avx2", "sha_ni", ...).
[[nodiscard]] SEALWIRE_API std::string_view feature_name(feature f) noexcept;

// level_features returns the features a level may use.
[[nodiscard]] SEALWIRE_API std::uint32_t level_features(level l) noexcept;

// available_levels returns the levels this machine can run, portable first.
[[nodiscard]] SEALWIRE_API std::span<const level> available_levels() noexcept;

}  // namespace sealwire::crypto::cpu
