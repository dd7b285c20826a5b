// SPDX-License-Identifier: Apache-2.0
// The stitched kernel's IFMA Poly1305 step (poly1305_ifma.hpp's mul_add,
// through poly1305_ifma_probe) against OpenSSL's BIGNUM arithmetic mod
// p = 2^130 - 5: every lane's result must be congruent to acc * r + block +
// 2^128 and within the bounds mul_add promises (l0 < 2^44 + 2^15,
// l1 < 2^44 + 2^10, l2 < 2^42 + 2^10). The inputs reach the bounds it
// assumes: accumulator limbs at 2^46 - 1, multiplier limbs at the maxima
// compute_powers leaves (r0 < 2^44, r1 < 2^44 + 2^9, r2 < 2^42), all-0xff
// blocks, and long chains of steps fed back. Runs only where the CPU has
// AVX-512F, VL, BW and IFMA and AVX2 (the probe's flags); elsewhere it says
// so.
#include "poly1305_ifma_probe.hpp"

#include <sealwire/crypto/cpu.hpp>

#include "vectors.hpp"

#include <gtest/gtest.h>
#include <openssl/bn.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

using namespace sealwire;
namespace pi = sealwire::test::poly1305_ifma;
using test::bytes;

namespace {

constexpr std::uint64_t bit(int k) { return std::uint64_t{1} << k; }
constexpr std::uint64_t r_max[3] = {bit(44) - 1, bit(44) + bit(9) - 1, bit(42) - 1};

// The BIGNUM side: values mod p as hex strings.
struct poly_bn_field {
  BN_CTX* ctx = BN_CTX_new();
  BIGNUM* p = BN_new();
  poly_bn_field() {
    BN_set_word(p, 1);
    BN_lshift(p, p, 130);
    BN_sub_word(p, 5);
  }
  ~poly_bn_field() {
    BN_free(p);
    BN_CTX_free(ctx);
  }
  poly_bn_field(const poly_bn_field&) = delete;
  poly_bn_field& operator=(const poly_bn_field&) = delete;

  // limbs: l0 + l1 2^44 + l2 2^88 into x.
  static void limbs(BIGNUM* x, std::uint64_t l0, std::uint64_t l1, std::uint64_t l2) {
    BIGNUM* t = BN_new();
    BN_set_word(x, l2);
    BN_lshift(x, x, 44);
    BN_set_word(t, l1);
    BN_add(x, x, t);
    BN_lshift(x, x, 44);
    BN_set_word(t, l0);
    BN_add(x, x, t);
    BN_free(t);
  }
  std::string hex(BIGNUM* x) const {
    BN_nnmod(x, x, p, ctx);
    char* h = BN_bn2hex(x);
    std::string s(h);
    OPENSSL_free(h);
    return s;
  }
  std::string value(std::uint64_t l0, std::uint64_t l1, std::uint64_t l2) const {
    BIGNUM* x = BN_new();
    limbs(x, l0, l1, l2);
    std::string s = hex(x);
    BN_free(x);
    return s;
  }
  // expected: a * r + block (16 bytes little-endian) + 2^128, mod p.
  std::string expected(const std::uint64_t a[3], const std::uint64_t r[3], const std::uint8_t* block) const {
    BIGNUM* x = BN_new();
    BIGNUM* y = BN_new();
    limbs(x, a[0], a[1], a[2]);
    limbs(y, r[0], r[1], r[2]);
    BN_mul(x, x, y, ctx);
    BN_lebin2bn(block, 16, y);
    BN_set_bit(y, 128);
    BN_add(x, x, y);
    std::string s = hex(x);
    BN_free(x);
    BN_free(y);
    return s;
  }
};

// step runs mul_add once on acc with per-lane multipliers r[j] and checks
// every lane against BIGNUM and the output bounds.
void step(const poly_bn_field& bn, std::array<std::uint64_t, 24>& acc,
          const std::array<std::array<std::uint64_t, 3>, 8>& r, const std::array<std::uint8_t, 128>& blocks) {
  std::uint64_t m[40];
  for (int j = 0; j < 8; ++j) {
    for (int k = 0; k < 3; ++k) m[8 * k + j] = r[j][k];
    m[24 + j] = 20 * r[j][1];
    m[32 + j] = 20 * r[j][2];
  }
  const std::array<std::uint64_t, 24> in = acc;
  pi::mul_add(acc.data(), m, blocks.data());
  for (int j = 0; j < 8; ++j) {
    const std::uint64_t a[3] = {in[j], in[8 + j], in[16 + j]};
    SCOPED_TRACE(testing::Message() << "lane " << j << " limbs " << std::hex << a[0] << " " << a[1] << " " << a[2]);
    EXPECT_EQ(bn.value(acc[j], acc[8 + j], acc[16 + j]), bn.expected(a, r[j].data(), blocks.data() + 16 * j));
    EXPECT_LT(acc[j], bit(44) + bit(15));
    EXPECT_LT(acc[8 + j], bit(44) + bit(10));
    EXPECT_LT(acc[16 + j], bit(42) + bit(10));
  }
}

TEST(Poly1305IfmaBounds, StitchedStepAtItsBoundsMatchesBignum) {
  if (!test::has_ifma_level()) GTEST_SKIP() << "no AVX-512 IFMA on this CPU";
  poly_bn_field bn;
  std::array<std::array<std::uint64_t, 3>, 8> r;
  r.fill({r_max[0], r_max[1], r_max[2]});
  std::array<std::uint8_t, 128> ff;
  ff.fill(0xff);
  // Every limb at the 2^46 - 1 the live lanes stay below.
  std::array<std::uint64_t, 24> acc;
  acc.fill(bit(46) - 1);
  step(bn, acc, r, ff);
  // Mixed lanes: in lanes 0-2 one limb is zero (limb j of lane j), the
  // other limbs and lanes at the top.
  acc.fill(bit(46) - 1);
  for (int j = 0; j < 8; ++j) acc[8 * (j % 3) + j] = j < 3 ? 0 : acc[8 * (j % 3) + j];
  std::array<std::uint8_t, 128> zero{};
  step(bn, acc, r, zero);
}

TEST(Poly1305IfmaBounds, LongChainsOfStepsMatchBignum) {
  if (!test::has_ifma_level()) GTEST_SKIP() << "no AVX-512 IFMA on this CPU";
  poly_bn_field bn;
  test::seeded_random rng(0x1f3a44);
  std::array<std::array<std::uint64_t, 3>, 8> r;
  std::array<std::uint8_t, 128> blocks;
  for (int chain = 0; chain < 4; ++chain) {
    // Chain 0: everything at its maximum, all-0xff blocks; the others mix
    // random multipliers below the maxima with random and 0xff blocks.
    for (auto& lane : r) {
      for (int k = 0; k < 3; ++k) {
        const bytes x = rng.fill(8);
        std::uint64_t v = 0;
        for (int i = 0; i < 8; ++i) v = v << 8 | x[static_cast<std::size_t>(i)];
        lane[static_cast<std::size_t>(k)] = chain == 0 ? r_max[k] : v % (r_max[k] + 1);
      }
    }
    std::array<std::uint64_t, 24> acc;
    acc.fill(chain == 0 ? bit(46) - 1 : 0);
    for (int i = 0; i < 300; ++i) {
      SCOPED_TRACE(testing::Message() << "chain " << chain << " step " << i);
      if (chain == 0 || i % 2 == 0) {
        blocks.fill(0xff);
      } else {
        const bytes x = rng.fill(128);
        std::copy(x.begin(), x.end(), blocks.begin());
      }
      step(bn, acc, r, blocks);
      if (testing::Test::HasFailure()) return;
    }
  }
}

}  // namespace
