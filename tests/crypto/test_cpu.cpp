// SPDX-License-Identifier: Apache-2.0
// CPU detection and level forcing.
#include <sealwire/crypto/cpu.hpp>

#include "detail/cpu_features.hpp"
#include "vectors.hpp"

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace cpu = sealwire::crypto::cpu;
using sealwire::test::scoped_cpu_level;

namespace {

// What the kernel choices read during this file's static initialisation
// (default priority): cpu.cpp's early constructor must have run by then.
const std::uint32_t features_at_static_init = sealwire::crypto::detail::cpu_features();

// The Linux kernel's view of the CPU flags, for a differential check of cpuid.
std::set<std::string> proc_cpuinfo_flags() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("flags", 0) == 0) {
      std::istringstream ss(line.substr(line.find(':') + 1));
      std::set<std::string> flags;
      for (std::string w; ss >> w;) flags.insert(w);
      return flags;
    }
  }
  return {};
}

}  // namespace

TEST(Cpu, DetectionAgreesWithKernel) {
  const auto flags = proc_cpuinfo_flags();
  if (flags.empty()) GTEST_SKIP() << "/proc/cpuinfo has no flags line";
  const std::pair<cpu::feature, const char*> map[] = {
      {cpu::sse41, "sse4_1"},     {cpu::ssse3, "ssse3"},       {cpu::pclmulqdq, "pclmulqdq"},
      {cpu::aesni, "aes"},        {cpu::sha_ni, "sha_ni"},     {cpu::avx2, "avx2"},
      {cpu::bmi2, "bmi2"},        {cpu::adx, "adx"},           {cpu::avx512f, "avx512f"},
      {cpu::avx512vl, "avx512vl"}, {cpu::avx512bw, "avx512bw"}, {cpu::avx512ifma, "avx512ifma"},
      {cpu::vaes, "vaes"},        {cpu::vpclmulqdq, "vpclmulqdq"},
  };
  for (const auto& [f, name] : map) {
    EXPECT_EQ((cpu::detected() & f) != 0, flags.count(name) == 1) << name;
  }
}

TEST(Cpu, EnabledIsSubsetOfDetected) {
  EXPECT_EQ(cpu::enabled() & ~cpu::detected(), 0u);
  EXPECT_LE(cpu::active_level(), cpu::detected_level());
}

TEST(Cpu, ForcingEachLevelRestrictsFeatures) {
  for (cpu::level l : cpu::all_levels) {
    scoped_cpu_level force(l);
    const cpu::level expect = l <= cpu::detected_level() ? l : cpu::detected_level();
    EXPECT_EQ(cpu::active_level(), expect);
    EXPECT_EQ(cpu::enabled(), cpu::detected() & cpu::level_features(expect));
    EXPECT_EQ(sealwire::crypto::detail::cpu_features(), cpu::enabled()) << "the kernels' inline read";
    if (expect == cpu::level::portable) {
      EXPECT_EQ(cpu::enabled(), 0u);
    }
  }
}

TEST(Cpu, KernelChoicesSeeFeaturesBeforeMain) {
  // No level is forced around this test, so the initial level (the
  // environment's or the CPU's) is still active: the static initialiser
  // above must already have read its features, not the zero before them.
  EXPECT_EQ(features_at_static_init, cpu::enabled());
  EXPECT_EQ(sealwire::crypto::detail::cpu_features(), cpu::enabled());
}

TEST(Cpu, ForcingAboveDetectedIsClamped) {
  scoped_cpu_level force(cpu::level::avx512);
  EXPECT_EQ(cpu::active_level(), cpu::detected_level());
}

TEST(Cpu, SetMaxLevelReturnsPrevious) {
  const cpu::level before = cpu::active_level();
  const cpu::level prev = cpu::set_max_level(cpu::level::portable);
  EXPECT_EQ(prev, before);
  EXPECT_EQ(cpu::set_max_level(before), cpu::level::portable);
  EXPECT_EQ(cpu::active_level(), before);
}

TEST(Cpu, LevelFeaturesAreNested) {
  for (std::size_t i = 1; i < std::size(cpu::all_levels); ++i) {
    const auto lower = cpu::level_features(cpu::all_levels[i - 1]);
    const auto higher = cpu::level_features(cpu::all_levels[i]);
    EXPECT_EQ(lower & ~higher, 0u);
    EXPECT_NE(lower, higher);
  }
}

TEST(Cpu, LevelNamesRoundTrip) {
  for (cpu::level l : cpu::all_levels) EXPECT_EQ(cpu::parse_level(cpu::name(l)), l);
  EXPECT_FALSE(cpu::parse_level("avx3").has_value());
  EXPECT_FALSE(cpu::parse_level("").has_value());
  EXPECT_FALSE(cpu::parse_level("AVX2").has_value());
}

TEST(Cpu, AvailableLevelsStartPortableEndDetected) {
  const auto levels = cpu::available_levels();
  ASSERT_FALSE(levels.empty());
  EXPECT_EQ(levels.front(), cpu::level::portable);
  EXPECT_EQ(levels.back(), cpu::detected_level());
}

// Run by ctest once per level with SEALWIRE_CPU set; in the plain run it
// checks the unforced default.
TEST(CpuEnvironment, InitialLevelFollowsEnvironment) {
  const char* env = std::getenv("SEALWIRE_CPU");
  cpu::level want = cpu::detected_level();
  if (env != nullptr) {
    auto l = cpu::parse_level(env);
    ASSERT_TRUE(l.has_value()) << "test run with an unknown SEALWIRE_CPU=" << env;
    want = std::min(*l, cpu::detected_level());
  }
  EXPECT_EQ(cpu::active_level(), want);
}
