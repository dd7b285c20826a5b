// SPDX-License-Identifier: Apache-2.0
// BLAKE3: the official vector file, known answers transcribed from it, every
// CPU level against the portable one, each kernel called directly, and the
// incremental, snapshot and extendable-output properties (hash_parallel:
// test_blake3_parallel.cpp).
#include <sealwire/crypto/blake3.hpp>
#include <sealwire/crypto/cpu.hpp>

#include "detail/blake3_core.hpp"
#include "vectors.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

using namespace sealwire;
using crypto::blake3;
using test::bytes;
using test::hex;
using test::to_hex;

namespace {

class Blake3 : public test::cpu_level_test {};
SEALWIRE_INSTANTIATE_CPU_LEVELS(Blake3);

// The official vectors' input: byte i is i mod 251.
bytes official_input(std::size_t n) {
  bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(i % 251);
  return b;
}

const std::string vector_key = "whats the Elvish word for friend";
const std::string vector_context = "BLAKE3 2019-12-27 16:29:52 test vectors context";

std::span<const std::uint8_t, 32> key_span(const std::string& k) {
  return std::span<const std::uint8_t, 32>(reinterpret_cast<const std::uint8_t*>(k.data()), 32);
}
std::span<const std::uint8_t, 32> key_span(const bytes& k) { return std::span<const std::uint8_t, 32>(k.data(), 32); }

enum class mode { hash, keyed, derive };

blake3 start(mode m, std::span<const std::uint8_t, 32> key, std::string_view context) {
  switch (m) {
    case mode::keyed: return blake3(key);
    case mode::derive: return blake3::derive_key(context);
    default: return blake3();
  }
}

bytes one_shot(mode m, std::span<const std::uint8_t> in, std::size_t out_len, std::span<const std::uint8_t, 32> key,
               std::string_view context) {
  bytes out(out_len);
  switch (m) {
    case mode::hash: blake3::hash(out, in); break;
    case mode::keyed: blake3::keyed_hash(out, key, in); break;
    case mode::derive: blake3::derive_key(out, context, in); break;
  }
  return out;
}

// feed updates h with `in` cut at random points (pieces of 0 to max_piece bytes).
void feed(blake3& h, std::span<const std::uint8_t> in, test::seeded_random& rng, std::size_t max_piece) {
  while (!in.empty()) {
    const std::size_t n = std::min<std::size_t>(in.size(), rng.uniform(max_piece + 1));
    h.update(in.first(n));
    in = in.subspan(n);
  }
}

bytes finalize(const blake3& h, std::size_t n) {
  bytes out(n);
  h.finalize(out);
  return out;
}

}  // namespace

// ---- known answers transcribed from the official vectors ----

TEST_P(Blake3, TranscribedKnownAnswers) {
  bytes out(32);
  blake3::hash(out, {});
  EXPECT_EQ(to_hex(out), "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262");

  const bytes in1025 = official_input(1025);
  blake3::hash(out, in1025);
  EXPECT_EQ(to_hex(out), "d00278ae47eb27b34faecf67b4fe263f82d5412916c1ffd97c8cb7fb814b8444");

  const bytes in31744 = official_input(31744);
  blake3::hash(out, in31744);
  EXPECT_EQ(to_hex(out), "62b6960e1a44bcc1eb1a611a8d6235b6b4b78f32e7abc4fb4c6cdcce94895c47");
  blake3::keyed_hash(out, key_span(vector_key), in31744);
  EXPECT_EQ(to_hex(out), "efa53b389ab67c593dba624d898d0f7353ab99e4ac9d42302ee64cbf9939a419");
  blake3::derive_key(out, vector_context, in31744);
  EXPECT_EQ(to_hex(out), "39772aef80e0ebe60596361e45b061e8f417429d529171b6764468c22928e28e");

  const bytes in8193 = official_input(8193);
  blake3::keyed_hash(out, key_span(vector_key), in8193);
  EXPECT_EQ(to_hex(out), "954a2a75420c8d6547e3ba5b98d963e6fa6491addc8c023189cc519821b4a1f5");
}

// ---- the official vector file ----

TEST_P(Blake3, OfficialVectorFile) {
  SEALWIRE_REQUIRE_VECTOR(path, "blake3/test_vectors.json");
  const auto j = test::load_json(path);
  const std::string key = j["key"].get<std::string>();
  const std::string context = j["context_string"].get<std::string>();
  ASSERT_EQ(key, vector_key);
  ASSERT_EQ(context, vector_context);
  test::seeded_random rng(3);
  int cases = 0;
  for (const auto& c : j["cases"]) {
    const auto len = c["input_len"].get<std::size_t>();
    const bytes in = official_input(len);
    const std::pair<mode, const char*> modes[] = {
        {mode::hash, "hash"}, {mode::keyed, "keyed_hash"}, {mode::derive, "derive_key"}};
    for (const auto& [m, field] : modes) {
      SCOPED_TRACE(std::string(field) + " length " + std::to_string(len));
      const bytes want = hex(c[field].get<std::string>());
      ASSERT_EQ(want.size(), 131u);
      // The full extended output, and the default length as its prefix.
      EXPECT_EQ(to_hex(one_shot(m, in, want.size(), key_span(key), context)), to_hex(want));
      EXPECT_EQ(to_hex(one_shot(m, in, 32, key_span(key), context)), to_hex(std::span(want).first(32)));

      // Incrementally, at random splits; then the output read in pieces.
      blake3 h = start(m, key_span(key), context);
      feed(h, in, rng, 300);
      EXPECT_EQ(to_hex(finalize(h, want.size())), to_hex(want));
      auto reader = h.finalize_xof();
      bytes pieces(want.size());
      for (std::size_t at = 0; at < pieces.size();) {
        const std::size_t n = std::min<std::size_t>(pieces.size() - at, 1 + rng.uniform(40));
        reader.read(std::span(pieces).subspan(at, n));
        at += n;
        EXPECT_EQ(reader.position(), at);
      }
      EXPECT_EQ(to_hex(pieces), to_hex(want));
      // From every offset.
      for (std::size_t off = 0; off < want.size(); ++off) {
        reader.seek(off);
        bytes tail(want.size() - off);
        reader.read(tail);
        ASSERT_EQ(to_hex(tail), to_hex(std::span(want).subspan(off))) << "offset " << off;
      }
    }
    ++cases;
  }
  EXPECT_EQ(cases, 35);
}

// ---- every level against the portable one ----

namespace {

// Digests of the official input at every length 0..max_len at the portable
// level, computed once for all levels.
const std::vector<bytes>& portable_digests(std::size_t max_len) {
  static const std::vector<bytes> digests = [max_len] {
    test::scoped_cpu_level force(crypto::cpu::level::portable);
    const bytes in = official_input(max_len);
    std::vector<bytes> d;
    d.reserve(max_len + 1);
    bytes out(32);
    for (std::size_t n = 0; n <= max_len; ++n) {
      blake3::hash(out, std::span(in).first(n));
      d.push_back(out);
    }
    return d;
  }();
  return digests;
}

}  // namespace

TEST_P(Blake3, EveryLengthMatchesPortable) {
  constexpr std::size_t max_len = 20000;
  const auto& want = portable_digests(max_len);
  const bytes in = official_input(max_len);
  bytes out(32);
  for (std::size_t n = 0; n <= max_len; ++n) {
    blake3::hash(out, std::span(in).first(n));
    ASSERT_EQ(out, want[n]) << crypto::cpu::name(GetParam()) << " length " << n;
  }
}

namespace {

// match_portable hashes the first n bytes of one random input, for each n
// in lengths and in each mode, at the level under test, one-shot and fed in
// random pieces of at most max_piece bytes, against the portable level.
void match_portable(const std::vector<std::size_t>& lengths, std::uint64_t seed, std::size_t out_len,
                    std::string_view context, std::size_t max_piece) {
  const bytes in = test::seeded_random(seed).fill(*std::max_element(lengths.begin(), lengths.end()));
  test::seeded_random rng(seed + 1);
  const bytes key = rng.fill(32);
  for (mode m : {mode::hash, mode::keyed, mode::derive}) {
    for (std::size_t n : lengths) {
      const auto msg = std::span(in).first(n);
      bytes want;
      {
        test::scoped_cpu_level force(crypto::cpu::level::portable);
        want = one_shot(m, msg, out_len, key_span(key), context);
      }
      ASSERT_EQ(to_hex(one_shot(m, msg, out_len, key_span(key), context)), to_hex(want))
          << "length " << n << " mode " << static_cast<int>(m);
      // In pieces that cross chunk and subtree boundaries at odd places.
      blake3 h = start(m, key_span(key), context);
      feed(h, msg, rng, max_piece);
      ASSERT_EQ(to_hex(finalize(h, out_len)), to_hex(want)) << "incremental, length " << n;
    }
  }
}

}  // namespace

TEST_P(Blake3, TreeBoundariesMatchPortable) {
  std::vector<std::size_t> lengths;
  for (std::size_t chunks : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u, 10u, 11u, 12u, 13u, 14u, 15u, 16u, 17u, 31u, 32u,
                             33u, 63u, 64u, 65u, 127u, 128u, 129u, 255u, 256u, 1023u, 1024u, 1025u}) {
    for (int delta : {-1, 0, 1}) lengths.push_back(static_cast<std::size_t>(static_cast<long>(chunks * 1024) + delta));
  }
  SCOPED_TRACE(crypto::cpu::name(GetParam()));
  match_portable(lengths, 5, 200, "sealwire test context", 5000);
}

// Subtrees beyond the largest that one kernel call takes (1,024 chunks at
// the AVX-512 level on Intel), where the driver joins them: whole and
// around 2,048 and 4,096 chunks, one-shot and in pieces, in each mode.
TEST_P(Blake3, LargeSubtreesMatchPortable) {
  SCOPED_TRACE(crypto::cpu::name(GetParam()));
  match_portable({2047 * 1024 + 5, 2048 * 1024, 2049 * 1024 + 1, 3072 * 1024, 4096 * 1024, 4097 * 1024 + 1}, 12, 64,
                 "sealwire large context", 300000);
}

// Each kernel against the portable hash_many, called directly: chunks and
// parents, odd and even block counts, with and without counter increments,
// and counters whose low word wraps inside a group of lanes.
TEST(Blake3Kernels, EachKernelMatchesPortable) {
  using namespace crypto::detail;
  struct named {
    const char* name;
    blake3_hash_many_fn fn;
    std::size_t width;
    std::uint32_t needs;
  };
  std::vector<named> kernels;
#if SEALWIRE_X86_KERNELS
  namespace cpu = crypto::cpu;
  kernels.push_back({"x4_sse41", &blake3_hash_many_x4_sse41, 4, cpu::sse41 | cpu::ssse3});
  kernels.push_back({"x8_avx2", &blake3_hash_many_x8_avx2, 8, cpu::avx2});
  kernels.push_back({"x4_avx512", &blake3_hash_many_x4_avx512, 4, cpu::avx512f | cpu::avx512vl});
  kernels.push_back({"x8_avx512", &blake3_hash_many_x8_avx512, 8, cpu::avx512f | cpu::avx512vl});
  kernels.push_back({"x16_avx512", &blake3_hash_many_x16_avx512, 16, cpu::avx512f | cpu::avx512vl});
  kernels.push_back({"x32_avx512", &blake3_hash_many_x32_avx512, 32, cpu::avx512f | cpu::avx512vl});
  // Width 0: any number of inputs (the row-wise kernel: eight at a time,
  // five to seven with repeated lanes, then four, three, two or one).
  kernels.push_back({"rows_avx512", &blake3_hash_many_rows_avx512, 0, cpu::avx512f | cpu::avx512vl});
#endif
  test::seeded_random rng(7);
  std::uint32_t key[8];
  for (auto& k : key) k = static_cast<std::uint32_t>(rng.next());
  // Low words that wrap within a group and in a later one, the high word's
  // step and wrap, and one crossing 2^31 without wrapping (a signed compare
  // without the top bits flipped would see a carry there).
  const std::uint64_t counters[] = {
      0, 1, 0xffffffffULL - 2, 0xffffffffULL - 15, 0x1ffffffffULL - 5, ~0ULL - 40, 0x7fffffffULL - 2};
  test::comparison_report report;
  for (const auto& k : kernels) {
    if ((crypto::cpu::detected() & k.needs) != k.needs) {
      report.not_runnable(k.name);
      continue;
    }
    for (std::size_t blocks : {1u, 2u, 3u, 16u}) {
      const std::vector<std::size_t> counts =
          k.width == 0 ? std::vector<std::size_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
                       : std::vector<std::size_t>{k.width, 3 * k.width};
      for (std::size_t n : counts) {
        const bytes in = rng.fill(n * blocks * 64);
        for (std::uint64_t ctr : counters) {
          for (bool inc : {true, false}) {
            const auto flags = static_cast<std::uint32_t>(rng.uniform(128));
            // got carries a 64-byte canary past the n outputs: a kernel
            // storing a whole vector for a partial set of lanes fails here
            // in the release build too, not only under ASan.
            bytes want(32 * n), got(32 * n + 64, 0xa5);
            blake3_hash_many_portable(in.data(), n, blocks, key, ctr, inc, flags, blake3_chunk_start,
                                      blake3_chunk_end, want.data());
            k.fn(in.data(), n, blocks, key, ctr, inc, flags, blake3_chunk_start, blake3_chunk_end, got.data());
            ASSERT_EQ(bytes(got.begin(), got.begin() + 32 * n), want)
                << k.name << " blocks " << blocks << " inputs " << n << " counter " << ctr << " increment " << inc;
            ASSERT_EQ(bytes(got.begin() + 32 * n, got.end()), bytes(64, 0xa5)) << k.name << " wrote past its "
                                                                                << n << " outputs";
          }
        }
      }
    }
    report.compared(k.name);
  }
  // Which kernels were compared is recorded and printed; with none the test
  // is skipped, which it can only be before any comparison.
  report.report("BLAKE3 hash_many kernels");
  if (report.none_compared()) GTEST_SKIP() << "no BLAKE3 kernel of this build runs on this CPU";
}

// The three-level reduction (sixteen chaining values to two) against three
// portable parent levels: random values, keys and flags (keyed and derive
// modes among them).
TEST(Blake3Kernels, Reduce16MatchesPortableLevels) {
#if SEALWIRE_X86_KERNELS
  using namespace crypto::detail;
  namespace cpu = crypto::cpu;
  constexpr std::uint32_t needs = cpu::avx512f | cpu::avx512vl;
  if ((cpu::detected() & needs) != needs) GTEST_SKIP() << "no AVX-512F/VL";
  test::seeded_random rng(8);
  for (int trial = 0; trial < 50; ++trial) {
    std::uint32_t key[8];
    for (auto& k : key) k = static_cast<std::uint32_t>(rng.next());
    const auto flags = static_cast<std::uint32_t>(rng.uniform(128)) | blake3_parent;
    const bytes in = rng.fill(16 * 32);
    bytes l1(8 * 32), l2(4 * 32), want(2 * 32), got(2 * 32 + 64, 0xa5);  // with a canary, as above
    blake3_hash_many_portable(in.data(), 8, 1, key, 0, false, flags, 0, 0, l1.data());
    blake3_hash_many_portable(l1.data(), 4, 1, key, 0, false, flags, 0, 0, l2.data());
    blake3_hash_many_portable(l2.data(), 2, 1, key, 0, false, flags, 0, 0, want.data());
    blake3_reduce16_rows_avx512(in.data(), key, flags, got.data());
    ASSERT_EQ(to_hex(bytes(got.begin(), got.begin() + 64)), to_hex(want)) << "trial " << trial << " flags " << flags;
    ASSERT_EQ(bytes(got.begin() + 64, got.end()), bytes(64, 0xa5)) << "wrote past its two outputs";
  }
#else
  GTEST_SKIP() << "no x86 kernels in this build";
#endif
}

// A subtree of 16 to 1,024 chunks down to its sixteen nodes, word-sliced in
// between, against portable chunks and parent levels: every size the driver
// sends it, random inputs, keys and mode flags (keyed and derive modes
// among them), counters whose low word wraps inside a group of sixteen
// chunks or between two groups.
TEST(Blake3Kernels, Wide16MatchesPortableLevels) {
#if SEALWIRE_X86_KERNELS
  using namespace crypto::detail;
  namespace cpu = crypto::cpu;
  constexpr std::uint32_t needs = cpu::avx512f | cpu::avx512vl;
  if ((cpu::detected() & needs) != needs) GTEST_SKIP() << "no AVX-512F/VL";
  test::seeded_random rng(11);
  const bytes in = rng.fill(blake3_wide16_max_chunks * 1024);
  for (std::uint64_t chunks = 16; chunks <= blake3_wide16_max_chunks; chunks *= 2) {
    const std::uint64_t counters[] = {0, chunks, 0xffffffffULL - 5, 0x100000000ULL - chunks / 2, ~0ULL - chunks + 1};
    for (int trial = 0; trial < 5; ++trial) {
      std::uint32_t key[8];
      for (auto& k : key) k = static_cast<std::uint32_t>(rng.next());
      const std::uint32_t modes[] = {0, blake3_keyed_hash, blake3_derive_key_context, blake3_derive_key_material};
      const std::uint32_t flags = modes[rng.uniform(4)];
      const std::uint64_t counter = counters[trial];
      bytes level(chunks * 32), next(chunks * 16);
      blake3_hash_many_portable(in.data(), chunks, 16, key, counter, true, flags, blake3_chunk_start,
                                blake3_chunk_end, level.data());
      for (std::uint64_t n = chunks; n > 16; n /= 2) {
        blake3_hash_many_portable(level.data(), n / 2, 1, key, 0, false, flags | blake3_parent, 0, 0, next.data());
        std::copy(next.begin(), next.begin() + static_cast<long>(n / 2 * 32), level.begin());
      }
      bytes got(16 * 32 + 64, 0xa5);  // with a canary
      blake3_wide16_avx512(in.data(), chunks, counter, key, flags, got.data());
      const bytes want(level.begin(), level.begin() + 16 * 32);
      ASSERT_EQ(to_hex(bytes(got.begin(), got.begin() + 16 * 32)), to_hex(want))
          << "chunks " << chunks << " counter " << counter << " flags " << flags;
      ASSERT_EQ(bytes(got.begin() + 16 * 32, got.end()), bytes(64, 0xa5)) << "wrote past its sixteen outputs";
    }
  }
#else
  GTEST_SKIP() << "no x86 kernels in this build";
#endif
}

// Sixteen chunks and three parent levels in one call against the portable
// chunks and levels: random inputs, keys and flags (keyed and derive modes
// among them), counters whose low word wraps among the sixteen chunks.
TEST(Blake3Kernels, Hash16ReduceMatchesPortable) {
#if SEALWIRE_X86_KERNELS
  using namespace crypto::detail;
  namespace cpu = crypto::cpu;
  constexpr std::uint32_t needs = cpu::avx512f | cpu::avx512vl;
  if ((cpu::detected() & needs) != needs) GTEST_SKIP() << "no AVX-512F/VL";
  test::seeded_random rng(10);
  const std::uint64_t counters[] = {0, 16, 0xffffffffULL - 5, 0x1ffffffffULL - 15, ~0ULL - 15};
  for (int trial = 0; trial < 20; ++trial) {
    std::uint32_t key[8];
    for (auto& k : key) k = static_cast<std::uint32_t>(rng.next());
    const auto flags = static_cast<std::uint32_t>(rng.uniform(128)) & ~(blake3_parent | blake3_root);
    const std::uint64_t counter = counters[trial % 5];
    const bytes in = rng.fill(16 * 1024);
    bytes l0(16 * 32), l1(8 * 32), l2(4 * 32), want(2 * 32), got(2 * 32 + 64, 0xa5);  // with a canary, as above
    blake3_hash_many_portable(in.data(), 16, 16, key, counter, true, flags, blake3_chunk_start, blake3_chunk_end,
                              l0.data());
    blake3_hash_many_portable(l0.data(), 8, 1, key, 0, false, flags | blake3_parent, 0, 0, l1.data());
    blake3_hash_many_portable(l1.data(), 4, 1, key, 0, false, flags | blake3_parent, 0, 0, l2.data());
    blake3_hash_many_portable(l2.data(), 2, 1, key, 0, false, flags | blake3_parent, 0, 0, want.data());
    blake3_hash16_reduce_avx512(in.data(), key, counter, flags, got.data());
    ASSERT_EQ(to_hex(bytes(got.begin(), got.begin() + 64)), to_hex(want))
        << "trial " << trial << " counter " << counter << " flags " << flags;
    ASSERT_EQ(bytes(got.begin() + 64, got.end()), bytes(64, 0xa5)) << "wrote past its two outputs";
  }
#else
  GTEST_SKIP() << "no x86 kernels in this build";
#endif
}

// The row-wise single compression against the portable one, all sixteen
// output words (the root's output blocks use the second half): random
// chaining values, blocks, lengths (a last block shorter than 64 bytes),
// counters (the high word too, as output block counters), and flags.
TEST(Blake3Kernels, CompressRowsMatchesPortable) {
#if SEALWIRE_X86_KERNELS
  using namespace crypto::detail;
  namespace cpu = crypto::cpu;
  constexpr std::uint32_t needs = cpu::avx512f | cpu::avx512vl;
  if ((cpu::detected() & needs) != needs) GTEST_SKIP() << "no AVX-512F/VL";
  test::seeded_random rng(9);
  const std::uint64_t counters[] = {0, 1, 0xffffffffULL, 0x100000000ULL, ~0ULL};
  for (int trial = 0; trial < 200; ++trial) {
    std::uint32_t cv[8];
    for (auto& w : cv) w = static_cast<std::uint32_t>(rng.next());
    const bytes block = rng.fill(64);
    const auto block_len = static_cast<std::uint32_t>(rng.uniform(65));
    const std::uint64_t counter = trial < 5 ? counters[trial] : rng.next();
    const auto flags = static_cast<std::uint32_t>(rng.uniform(128));
    std::uint32_t want[16], got[16];
    blake3_compress_portable(cv, block.data(), block_len, counter, flags, want);
    blake3_compress_rows_avx512(cv, block.data(), block_len, counter, flags, got);
    for (int i = 0; i < 16; ++i) {
      ASSERT_EQ(got[i], want[i]) << "trial " << trial << " word " << i << " counter " << counter << " flags " << flags;
    }
  }
#else
  GTEST_SKIP() << "no x86 kernels in this build";
#endif
}

// A chunk's blocks in one call against the portable compression chained
// block by block: 1 to 15 blocks (a chunk's first and later ones, keyed and
// derive-key flags among random ones), counters whose words wrap.
TEST(Blake3Kernels, ChunkBlocksMatchPortable) {
#if SEALWIRE_X86_KERNELS
  using namespace crypto::detail;
  namespace cpu = crypto::cpu;
  constexpr std::uint32_t needs = cpu::avx512f | cpu::avx512vl;
  if ((cpu::detected() & needs) != needs) GTEST_SKIP() << "no AVX-512F/VL";
  test::seeded_random rng(14);
  const std::uint64_t counters[] = {0, 1, 0xffffffffULL, 0x100000000ULL, ~0ULL};
  for (int trial = 0; trial < 200; ++trial) {
    std::uint32_t want[8], got[8];
    for (auto& w : want) w = static_cast<std::uint32_t>(rng.next());
    std::copy(std::begin(want), std::end(want), got);
    const std::size_t blocks = 1 + rng.uniform(15);
    const bytes in = rng.fill(blocks * 64);
    const std::uint64_t counter = trial < 5 ? counters[trial] : rng.next();
    const std::uint32_t modes[] = {0, blake3_keyed_hash, blake3_derive_key_material,
                                   static_cast<std::uint32_t>(rng.uniform(128))};
    const std::uint32_t flags = modes[trial % 4] & ~blake3_chunk_start;
    const std::uint32_t start = trial % 2 == 0 ? blake3_chunk_start : 0;
    for (std::size_t b = 0; b < blocks; ++b) {
      std::uint32_t o[16];
      blake3_compress_portable(want, in.data() + 64 * b, 64, counter, flags | (b == 0 ? start : 0), o);
      std::copy(o, o + 8, want);
    }
    blake3_chunk_blocks_rows_avx512(got, in.data(), blocks, counter, flags, start);
    for (int i = 0; i < 8; ++i) {
      ASSERT_EQ(got[i], want[i]) << "trial " << trial << " blocks " << blocks << " word " << i;
    }
  }
#else
  GTEST_SKIP() << "no x86 kernels in this build";
#endif
}

// ---- incremental, snapshots, reset ----

TEST_P(Blake3, IncrementalEqualsOneShotAtRandomSplits) {
  test::seeded_random rng(8);
  const bytes key = rng.fill(32);
  for (int trial = 0; trial < 60; ++trial) {
    const std::size_t n = trial < 20 ? rng.uniform(3000) : rng.uniform(200000);
    const bytes in = rng.fill(n);
    const mode m = static_cast<mode>(trial % 3);
    const bytes want = one_shot(m, in, 64, key_span(key), "split context");
    for (std::size_t max_piece : {1u, 64u, 1100u, 70000u}) {
      if (max_piece == 1 && n > 5000) continue;
      blake3 h = start(m, key_span(key), "split context");
      feed(h, in, rng, max_piece);
      ASSERT_EQ(finalize(h, 64), want) << "length " << n << " max piece " << max_piece;
    }
  }
}

TEST_P(Blake3, CopySnapshotsMidStream) {
  test::seeded_random rng(9);
  const bytes key = rng.fill(32);
  for (std::size_t prefix : {0u, 1u, 64u, 1000u, 1024u, 1025u, 4096u, 70000u}) {
    const bytes a = rng.fill(prefix), b = rng.fill(rng.uniform(20000)), c = rng.fill(rng.uniform(20000));
    blake3 h(key_span(key));
    h.update(a);
    blake3 snapshot = h;  // both continue independently
    h.update(b);
    snapshot.update(c);
    bytes ab = a, ac = a;
    ab.insert(ab.end(), b.begin(), b.end());
    ac.insert(ac.end(), c.begin(), c.end());
    EXPECT_EQ(finalize(h, 32), one_shot(mode::keyed, ab, 32, key_span(key), "")) << prefix;
    EXPECT_EQ(finalize(snapshot, 32), one_shot(mode::keyed, ac, 32, key_span(key), "")) << prefix;
    // Assignment snapshots too.
    blake3 assigned;
    assigned = h;
    EXPECT_EQ(finalize(assigned, 32), finalize(h, 32));
  }
}

TEST_P(Blake3, FinalizeDoesNotChangeTheState) {
  test::seeded_random rng(10);
  const bytes in = rng.fill(9000);
  blake3 h;
  bytes previous;
  for (std::size_t at = 0; at < in.size(); at += 700) {
    h.update(std::span(in).subspan(at, std::min<std::size_t>(700, in.size() - at)));
    h.update({});
    const bytes once = finalize(h, 40);
    EXPECT_EQ(finalize(h, 40), once);  // again, unchanged
    const auto so_far = std::span(in).first(std::min(in.size(), at + 700));
    EXPECT_EQ(once, one_shot(mode::hash, so_far, 40, key_span(vector_key), ""));
  }
}

TEST_P(Blake3, ResetKeepsTheMode) {
  test::seeded_random rng(11);
  const bytes key = rng.fill(32), in = rng.fill(5000), other = rng.fill(3333);
  for (mode m : {mode::hash, mode::keyed, mode::derive}) {
    blake3 h = start(m, key_span(key), "reset context");
    h.update(other);
    h.reset();
    h.update(in);
    EXPECT_EQ(finalize(h, 32), one_shot(m, in, 32, key_span(key), "reset context")) << static_cast<int>(m);
  }
}

TEST(Blake3, DeriveKeyDiffersFromKeyedAndPlain) {
  const bytes material = official_input(100);
  bytes a(32), b(32), c(32);
  blake3::hash(a, material);
  blake3::keyed_hash(b, key_span(vector_key), material);
  blake3::derive_key(c, vector_context, material);
  EXPECT_NE(a, b);
  EXPECT_NE(a, c);
  EXPECT_NE(b, c);
}

TEST_P(Blake3, LongOutputMatchesReaderAndSeeks) {
  test::seeded_random rng(12);
  const bytes in = rng.fill(5000);
  blake3 h;
  h.update(in);
  const bytes want = finalize(h, 3000);
  auto r = h.finalize_xof();
  // Seek to block boundaries and into the middle of blocks, in any order.
  for (std::uint64_t off : {2999ull, 0ull, 64ull, 63ull, 65ull, 1000ull, 128ull, 1ull}) {
    r.seek(off);
    EXPECT_EQ(r.position(), off);
    bytes got(std::min<std::size_t>(150, 3000 - static_cast<std::size_t>(off)));
    r.read(got);
    EXPECT_EQ(to_hex(got), to_hex(std::span(want).subspan(static_cast<std::size_t>(off), got.size())));
  }
  // Copies of a reader continue independently.
  r.seek(10);
  auto copy = r;
  bytes x(20), y(20);
  r.read(x);
  copy.read(y);
  EXPECT_EQ(x, y);
  // Far offsets: a block counter above 2^32 is a different block.
  r.seek(64ull << 32);
  bytes far(64);
  r.read(far);
  EXPECT_NE(far, bytes(want.begin(), want.begin() + 64));
}
