// SPDX-License-Identifier: Apache-2.0
// CPU feature detection with cpuid and xgetbv, cached, with level forcing.
#include <sealwire/crypto/cpu.hpp>

#include "detail/cpu_features.hpp"

#include <atomic>
#include <cstdlib>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define SEALWIRE_X86 1
#endif

namespace sealwire::crypto::detail {
constinit std::atomic<std::uint32_t> cpu_enabled_word{0};
}  // namespace sealwire::crypto::detail

namespace sealwire::crypto::cpu {
namespace {

constexpr std::uint32_t sse41_mask = sse41 | ssse3 | pclmulqdq | aesni | sha_ni;
constexpr std::uint32_t avx2_mask = sse41_mask | avx2 | bmi2 | adx;
constexpr std::uint32_t avx512_mask = avx2_mask | avx512f | avx512vl | avx512bw | avx512ifma | vaes | vpclmulqdq;

std::uint32_t probe() noexcept {
  std::uint32_t f = 0;
#ifdef SEALWIRE_X86
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid_max(0, nullptr) < 1) return 0;
  __cpuid_count(1, 0, a, b, c, d);
  const auto bit = [](unsigned reg, unsigned n) { return ((reg >> n) & 1u) != 0; };
  if (bit(c, 19)) f |= sse41;
  if (bit(c, 9)) f |= ssse3;
  if (bit(c, 1)) f |= pclmulqdq;
  if (bit(c, 25)) f |= aesni;
  const bool osxsave = bit(c, 27);
  const bool avx = bit(c, 28);

  // The OS must save the wider registers for us to use them (XCR0).
  std::uint64_t xcr0 = 0;
  if (osxsave) {
    unsigned lo = 0, hi = 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    xcr0 = (static_cast<std::uint64_t>(hi) << 32) | lo;
  }
  const bool os_avx = avx && (xcr0 & 0x6) == 0x6;           // XMM and YMM state
  const bool os_avx512 = os_avx && (xcr0 & 0xe0) == 0xe0;   // opmask, ZMM_Hi256, Hi16_ZMM

  if (__get_cpuid_max(0, nullptr) >= 7) {
    __cpuid_count(7, 0, a, b, c, d);
    if (bit(b, 29)) f |= sha_ni;
    if (bit(b, 8)) f |= bmi2;
    if (bit(b, 19)) f |= adx;
    if (os_avx && bit(b, 5)) f |= avx2;
    if (os_avx && bit(c, 9)) f |= vaes;
    if (os_avx && bit(c, 10)) f |= vpclmulqdq;
    if (os_avx512) {
      if (bit(b, 16)) f |= avx512f;
      if (bit(b, 31)) f |= avx512vl;
      if (bit(b, 30)) f |= avx512bw;
      if (bit(b, 21)) f |= avx512ifma;
    }
  }
#endif
  return f;
}

level level_of(std::uint32_t f) noexcept {
  if ((f & (avx512f | avx512vl | avx512bw | avx2)) == (avx512f | avx512vl | avx512bw | avx2)) return level::avx512;
  if ((f & avx2) != 0) return level::avx2;
  if ((f & (sse41 | ssse3)) == (sse41 | ssse3)) return level::sse41;
  return level::portable;
}

struct state {
  std::uint32_t detected;
  level top;
  std::atomic<std::uint32_t> enabled;
  std::atomic<level> max;

  state() noexcept : detected(probe()), top(level_of(detected)), enabled(0), max(top) {
    level start = top;
    if (const char* env = std::getenv("SEALWIRE_CPU")) {
      if (auto l = parse_level(env)) start = *l;
    }
    apply(start);
  }

  level apply(level want) noexcept {
    if (want > top) want = top;
    const level prev = max.exchange(want);
    const std::uint32_t f = detected & level_features(want);
    enabled.store(f, std::memory_order_relaxed);
    detail::cpu_enabled_word.store(f, std::memory_order_relaxed);
    return prev;
  }
};

state& st() noexcept {
  static state s;
  return s;
}

// The state is made before main and before the static initialisers of
// default priority (101 is the first priority left to programs), so that
// detail::cpu_enabled_word holds the features before any kernel is chosen.
[[gnu::constructor(101)]] void make_state_early() noexcept { (void)st(); }

}  // namespace

std::uint32_t detected() noexcept { return st().detected; }
std::uint32_t enabled() noexcept { return st().enabled.load(std::memory_order_relaxed); }
level detected_level() noexcept { return st().top; }
level active_level() noexcept { return st().max.load(); }
level set_max_level(level max) noexcept { return st().apply(max); }

std::uint32_t level_features(level l) noexcept {
  switch (l) {
    case level::portable: return 0;
    case level::sse41: return sse41_mask;
    case level::avx2: return avx2_mask;
    case level::avx512: return avx512_mask;
  }
  return 0;
}

std::optional<level> parse_level(std::string_view n) noexcept {
  for (level l : all_levels) {
    if (name(l) == n) return l;
  }
  return std::nullopt;
}

std::string_view name(level l) noexcept {
  switch (l) {
    case level::portable: return "portable";
    case level::sse41: return "sse41";
    case level::avx2: return "avx2";
    case level::avx512: return "avx512";
  }
  return "unknown";
}

std::string_view feature_name(feature f) noexcept {
  switch (f) {
    case sse41: return "sse4.1";
    case ssse3: return "ssse3";
    case pclmulqdq: return "pclmulqdq";
    case aesni: return "aes";
    case sha_ni: return "sha_ni";
    case avx2: return "avx2";
    case bmi2: return "bmi2";
    case adx: return "adx";
    case avx512f: return "avx512f";
    case avx512vl: return "avx512vl";
    case avx512bw: return "avx512bw";
    case avx512ifma: return "avx512ifma";
    case vaes: return "vaes";
    case vpclmulqdq: return "vpclmulqdq";
  }
  return "unknown";
}

std::span<const level> available_levels() noexcept {
  const auto n = static_cast<std::size_t>(detected_level()) + 1;
  return std::span<const level>(all_levels).first(n);
}

}  // namespace sealwire::crypto::cpu
