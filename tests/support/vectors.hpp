// SPDX-License-Identifier: Apache-2.0
// Test support: hex helpers, locating and loading the vector files, a
// deterministic random source, and CPU-level parameterisation.
#pragma once

#include <sealwire/crypto/cpu.hpp>
#include <sealwire/crypto/random.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sealwire::test {

using bytes = std::vector<std::uint8_t>;

// hex decodes a hex string (whitespace ignored); bad input throws, which fails the test.
[[nodiscard]] bytes hex(std::string_view s);
[[nodiscard]] std::string to_hex(std::span<const std::uint8_t> b);
[[nodiscard]] inline bytes to_bytes(std::string_view s) { return bytes(s.begin(), s.end()); }
[[nodiscard]] inline bytes copy_of(std::span<const std::uint8_t> b) { return bytes(b.begin(), b.end()); }
// hex_digest is H's digest of msg in hex (H::hash(out, msg), H::digest_size).
template <class H>
[[nodiscard]] std::string hex_digest(std::span<const std::uint8_t> msg) {
  std::uint8_t out[H::digest_size];
  H::hash(out, msg);
  return to_hex(out);
}
// has_bmi2_adx tells whether this CPU has BMI2 and ADX (the mulx/adcx/adox fields).
[[nodiscard]] inline bool has_bmi2_adx() {
  const auto f = crypto::cpu::detected();
  return (f & crypto::cpu::bmi2) && (f & crypto::cpu::adx);
}
// has_ifma_level tells whether this CPU has what the IFMA probes are built
// for: AVX-512F, VL, BW and IFMA, and AVX2.
[[nodiscard]] inline bool has_ifma_level() {
  namespace cpu = crypto::cpu;
  const std::uint32_t need = cpu::avx512f | cpu::avx512vl | cpu::avx512bw | cpu::avx512ifma | cpu::avx2;
  return (cpu::detected() & need) == need;
}
// concat joins byte strings.
[[nodiscard]] bytes concat(std::initializer_list<bytes> parts);
// add_small returns the big-endian x + v (a carry out of the top byte is dropped).
[[nodiscard]] bytes add_small(bytes x, unsigned v);
// has_flag tells whether a Wycheproof case lists flag in its "flags".
[[nodiscard]] bool has_flag(const nlohmann::json& c, std::string_view flag);
// add_le adds two little-endian numbers of the same length; a carry out of
// the top byte is dropped (the signature tests build S + L, which fits).
[[nodiscard]] bytes add_le(const bytes& a, const bytes& b);
// hex_of decodes a JSON string of hex digits.
[[nodiscard]] bytes hex_of(const nlohmann::json& v);

// vectors_dir is SEALWIRE_VECTORS_DIR from the environment when set and not
// empty, else the CMake cache value the tests were built with (by default
// tests/vectors in the source tree).
[[nodiscard]] std::filesystem::path vectors_dir();

// find_vector returns the path of a vector file relative to vectors_dir, or
// nullopt when it does not exist. Tests use SEALWIRE_REQUIRE_VECTOR, which
// turns a missing file into a failure.
[[nodiscard]] std::optional<std::filesystem::path> find_vector(std::string_view relative);

// missing_vector_message says which file is missing and where it was looked for.
[[nodiscard]] std::string missing_vector_message(std::string_view relative);

[[nodiscard]] nlohmann::json load_json(const std::filesystem::path& p);
[[nodiscard]] std::string read_text(const std::filesystem::path& p);

// seeded_random is a deterministic, reproducible generator (xoshiro256**)
// for test inputs and for injecting as the library's random source.
class seeded_random final : public crypto::random_source {
 public:
  explicit seeded_random(std::uint64_t seed) noexcept;
  std::uint64_t next() noexcept;
  // uniform returns a value in [0, bound).
  std::uint64_t uniform(std::uint64_t bound) noexcept;
  bytes fill(std::size_t n);
  result<void> fill(std::span<std::uint8_t> out) noexcept override;

 private:
  std::uint64_t s_[4];
};

// failing_random is a random source that writes one byte and then fails,
// to check that callers zero partial output and report rng_failure.
class failing_random final : public crypto::random_source {
 public:
  result<void> fill(std::span<std::uint8_t> out) noexcept override {
    if (!out.empty()) out[0] = 0x55;  // partially written, then fails
    return crypto_errc::rng_failure;
  }
};

// differential_cases is the number of cases a randomised differential test
// runs: SEALWIRE_DIFFERENTIAL_CASES when set (at least 1), else fallback.
[[nodiscard]] int differential_cases(int fallback);

// cpu_levels is every level this machine can run, portable first.
[[nodiscard]] std::vector<crypto::cpu::level> cpu_levels();

// cpu_level_test runs each test once per CPU level, forcing the level for the
// test's duration and restoring it afterwards.
class cpu_level_test : public ::testing::TestWithParam<crypto::cpu::level> {
 protected:
  void SetUp() override { previous_ = crypto::cpu::set_max_level(GetParam()); }
  void TearDown() override { crypto::cpu::set_max_level(previous_); }

 private:
  crypto::cpu::level previous_{};
};

struct cpu_level_name {
  std::string operator()(const ::testing::TestParamInfo<crypto::cpu::level>& info) const {
    return std::string(crypto::cpu::name(info.param));
  }
};

// comparison_report says what a kernel-comparison test compared: the kernels
// (or CPU levels) it checked against the portable code and those this CPU
// cannot run. report() records both as test properties ("compared",
// "not_runnable") and prints one line, so that a run on a CPU without the
// wide kernels shows it compared less instead of passing silently. It is
// called after the comparisons, never to skip a test some of whose kernels
// already passed.
class comparison_report {
 public:
  void compared(std::string_view name) { add(compared_, name); }
  void not_runnable(std::string_view name) { add(not_runnable_, name); }
  [[nodiscard]] bool none_compared() const { return compared_.empty(); }
  void report(std::string_view what) const;

 private:
  static void add(std::string& list, std::string_view name);
  std::string compared_, not_runnable_;
};

// report_levels records and prints the CPU levels a test compared with the
// portable level (every level this machine can run; portable alone on a CPU
// without SSE4.1).
void report_levels(std::string_view what);

// scoped_cpu_level forces a level inside one scope.
class scoped_cpu_level {
 public:
  explicit scoped_cpu_level(crypto::cpu::level l) noexcept : previous_(crypto::cpu::set_max_level(l)) {}
  ~scoped_cpu_level() { crypto::cpu::set_max_level(previous_); }
  scoped_cpu_level(const scoped_cpu_level&) = delete;
  scoped_cpu_level& operator=(const scoped_cpu_level&) = delete;

 private:
  crypto::cpu::level previous_;
};

// at_every_level runs `check` once at every level this machine can run
// (cpu_levels()), the level forced and named in a SCOPED_TRACE, for tests
// parameterised on something else that should still cover every kernel.
template <class Check>
void at_every_level(Check&& check) {
  const auto levels = cpu_levels();
  ASSERT_FALSE(levels.empty());
  for (const auto level : levels) {
    SCOPED_TRACE(std::string("cpu level ") + std::string(crypto::cpu::name(level)));
    const scoped_cpu_level force(level);
    check();
  }
}

}  // namespace sealwire::test

// SEALWIRE_INSTANTIATE_CPU_LEVELS runs a cpu_level_test suite at every level.
#define SEALWIRE_INSTANTIATE_CPU_LEVELS(suite) \
  INSTANTIATE_TEST_SUITE_P(cpu, suite, ::testing::ValuesIn(::sealwire::test::cpu_levels()), \
                           ::sealwire::test::cpu_level_name())

// SEALWIRE_REQUIRE_VECTOR declares `var` as the path of a vector file. When the
// file is missing it records a fatal failure naming the file and the directory
// searched, and returns from the enclosing (void) function: a missing file is
// never a pass or a skip.
#define SEALWIRE_REQUIRE_VECTOR(var, relative)                                            \
  const auto var##_found = ::sealwire::test::find_vector(relative);                        \
  if (!var##_found) GTEST_FAIL() << ::sealwire::test::missing_vector_message(relative); \
  const std::filesystem::path& var = *var##_found
