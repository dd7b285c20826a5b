// SPDX-License-Identifier: Apache-2.0
// Every instruction-set kernel against the portable one: all lengths through
// the driver at each CPU level, and each kernel called directly at counters
// that straddle 2^32 (where the low counter word wraps into the high one).
#include <sealwire/crypto/chacha.hpp>
#include <sealwire/crypto/cpu.hpp>
#include <sealwire/crypto/poly1305.hpp>
#include <sealwire/crypto/salsa20.hpp>

#include "detail/kernels.hpp"
#include "stream_helpers.hpp"

using namespace sealwire;
using test::bytes;

namespace {

struct named_kernel {
  const char* name;
  crypto::detail::stream_blocks_fn fn;
  std::size_t width;
  std::uint32_t needs;  // CPU features the kernel uses
};

std::vector<named_kernel> chacha_kernels() {
  std::vector<named_kernel> k;
#if SEALWIRE_X86_KERNELS
  namespace cpu = crypto::cpu;
  k.push_back({"x4_sse41", &crypto::detail::chacha_blocks_x4_sse41, 4, cpu::sse41 | cpu::ssse3});
  k.push_back({"x8_avx2", &crypto::detail::chacha_blocks_x8_avx2, 8, cpu::avx2});
  k.push_back({"x4_avx512", &crypto::detail::chacha_blocks_x4_avx512, 4, cpu::avx512f | cpu::avx2});
  k.push_back({"x16_avx512", &crypto::detail::chacha_blocks_x16_avx512, 16, cpu::avx512f | cpu::avx2});
#endif
  return k;
}

std::vector<named_kernel> salsa_kernels() {
  std::vector<named_kernel> k;
#if SEALWIRE_X86_KERNELS
  namespace cpu = crypto::cpu;
  k.push_back({"x4_sse41", &crypto::detail::salsa_blocks_x4_sse41, 4, cpu::sse41 | cpu::ssse3});
  k.push_back({"x8_avx2", &crypto::detail::salsa_blocks_x8_avx2, 8, cpu::avx2});
  k.push_back({"x16_avx512", &crypto::detail::salsa_blocks_x16_avx512, 16, cpu::avx512f | cpu::avx2});
#endif
  return k;
}

bool runnable(const named_kernel& k) { return (crypto::cpu::detected() & k.needs) == k.needs; }

void compare_kernel(const named_kernel& k, crypto::detail::stream_blocks_fn reference) {
  test::seeded_random rng(k.width);
  std::uint32_t w[16];
  for (auto& x : w) x = static_cast<std::uint32_t>(rng.next());
  const std::uint64_t counters[] = {0, 1, 0xffffffffULL - 3, 0xffffffffULL - 16, 0xffffffffULL, 0x1ffffffffULL - 7,
                                    ~0ULL - 64};
  for (unsigned rounds : {8u, 12u, 20u}) {
    for (std::uint64_t ctr : counters) {
      for (std::size_t groups = 1; groups <= 3; ++groups) {
        const std::size_t n = groups * k.width;
        const bytes in = rng.fill(64 * n);
        bytes want(in.size()), got(in.size());
        reference(w, ctr, want.data(), in.data(), n, rounds);
        k.fn(w, ctr, got.data(), in.data(), n, rounds);
        ASSERT_EQ(got, want) << k.name << " rounds " << rounds << " counter " << ctr << " blocks " << n;
        bytes inplace = in;  // and in place
        k.fn(w, ctr, inplace.data(), inplace.data(), n, rounds);
        ASSERT_EQ(inplace, want) << k.name << " in place";
      }
    }
  }
}

// compare_all compares each kernel this CPU can run and reports which ones
// it compared and which it could not run (recorded and printed, see
// test::comparison_report). With none to compare the test is skipped before
// any comparison, never after some kernels passed.
void compare_all(const char* what, const std::vector<named_kernel>& kernels,
                 crypto::detail::stream_blocks_fn reference) {
  test::comparison_report report;
  for (const auto& k : kernels) {
    if (!runnable(k)) {
      report.not_runnable(k.name);
      continue;
    }
    SCOPED_TRACE(k.name);
    compare_kernel(k, reference);
    if (::testing::Test::HasFatalFailure()) return;
    report.compared(k.name);
  }
  report.report(what);
  if (report.none_compared()) GTEST_SKIP() << what << ": no kernel of this build runs on this CPU";
}

}  // namespace

TEST(Kernels, ChaChaEachKernelMatchesPortable) {
  compare_all("ChaCha kernels", chacha_kernels(), &crypto::detail::chacha_blocks_portable);
}

TEST(Kernels, Salsa20EachKernelMatchesPortable) {
  compare_all("Salsa20 kernels", salsa_kernels(), &crypto::detail::salsa_blocks_portable);
}

// Through the public API, at every level and every length 0-2048, for each
// variant: the output equals the portable level's.
template <class Cipher>
void sweep_levels(std::size_t nonce_len, unsigned rounds, std::uint64_t first_block) {
  test::seeded_random rng(nonce_len * 100 + rounds);
  const bytes key = rng.fill(32), nonce = rng.fill(nonce_len), in = rng.fill(2048);
  bytes want_all(2048);
  {
    test::scoped_cpu_level force(crypto::cpu::level::portable);
    const auto r = test::run_stream<Cipher>(key, nonce, rounds, first_block * 64, in);
    ASSERT_TRUE(r);
    want_all = *r;
  }
  for (auto level : test::cpu_levels()) {
    test::scoped_cpu_level force(level);
    for (std::size_t len = 0; len <= 2048; ++len) {
      const auto got = test::run_stream<Cipher>(key, nonce, rounds, first_block * 64, bytes(in.begin(), in.begin() + static_cast<long>(len)));
      ASSERT_TRUE(got);
      ASSERT_TRUE(std::equal(got->begin(), got->end(), want_all.begin()))
          << crypto::cpu::name(level) << " length " << len << " nonce " << nonce_len << " rounds " << rounds;
    }
  }
}

TEST(Kernels, ChaChaEveryLengthEveryLevel) {
  for (unsigned rounds : {8u, 12u, 20u}) sweep_levels<crypto::chacha>(8, rounds, 0);
  sweep_levels<crypto::chacha>(12, 20, 0);
  sweep_levels<crypto::chacha>(24, 20, 0);
  // Straddling 2^32 in the original (64-bit) counter.
  sweep_levels<crypto::chacha>(8, 20, 0xffffffffULL - 9);
  test::report_levels("ChaCha at every level");
}

TEST(Kernels, Salsa20EveryLengthEveryLevel) {
  for (unsigned rounds : {8u, 12u, 20u}) sweep_levels<crypto::salsa20>(8, rounds, 0);
  sweep_levels<crypto::salsa20>(24, 20, 0);
  sweep_levels<crypto::salsa20>(8, 20, 0xffffffffULL - 9);
  test::report_levels("Salsa20 at every level");
}

// Poly1305 at every level against the portable level: every length 0-2048,
// and long messages in random pieces, so that scalar and vector kernels take
// turns within one message (the accumulator passes between them).
TEST(Kernels, Poly1305EveryLengthAndSplitEveryLevel) {
  test::seeded_random rng(1305);
  const bytes msg = rng.fill(6000);
  std::vector<bytes> keys;
  keys.push_back(bytes(32, 0xff));  // extreme limbs
  for (int i = 0; i < 3; ++i) keys.push_back(rng.fill(32));
  for (const auto& key : keys) {
    const auto k32 = std::span<const std::uint8_t, 32>(key.data(), 32);
    std::vector<std::string> want;
    {
      test::scoped_cpu_level force(crypto::cpu::level::portable);
      for (std::size_t len = 0; len <= 2048; ++len) {
        std::uint8_t tag[16];
        crypto::poly1305::mac(tag, std::span(msg).first(len), k32);
        want.push_back(test::to_hex(tag));
      }
    }
    for (auto level : test::cpu_levels()) {
      test::scoped_cpu_level force(level);
      for (std::size_t len = 0; len <= 2048; ++len) {
        std::uint8_t tag[16];
        crypto::poly1305::mac(tag, std::span(msg).first(len), k32);
        ASSERT_EQ(test::to_hex(tag), want[len]) << crypto::cpu::name(level) << " length " << len;
      }
      for (int trial = 0; trial < 30; ++trial) {
        crypto::poly1305 p(k32);
        std::size_t at = 0;
        while (at < 2048) {
          const std::size_t piece = std::min<std::size_t>(2048 - at, rng.uniform(3) == 0 ? rng.uniform(17) : rng.uniform(700));
          p.update(std::span(msg).subspan(at, piece));
          at += piece;
        }
        std::uint8_t tag[16];
        p.finish(tag);
        ASSERT_EQ(test::to_hex(tag), want[2048]) << crypto::cpu::name(level) << " trial " << trial;
      }
    }
  }
  test::report_levels("Poly1305 at every level");
}
