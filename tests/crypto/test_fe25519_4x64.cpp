// SPDX-License-Identifier: Apache-2.0
// The four-limb Curve25519 field (fe25519_4x64.hpp, mulx/adcx/adox) against
// the portable five-limb field (fe25519.hpp) on edge and random inputs: every
// operation, every 256-bit input (the four-limb field takes values up to
// 2^256 - 1, not only canonical ones), compared after canonical encoding.
// Runs only where the CPU has BMI2 and ADX; elsewhere it says so.
#include "detail/fe25519.hpp"
#include "detail/fe25519_4x64.hpp"

#include "vectors.hpp"

#include <array>

using namespace sealwire;
using namespace sealwire::crypto::detail;
using test::bytes;

namespace {

using raw = std::array<std::uint8_t, 32>;

fe64 raw_to_fe64(const raw& r) {
  fe64 x;
  for (int i = 0; i < 4; ++i) x.v[i] = load64_le(r.data() + 8 * i);
  return x;
}

// raw_to_fe: the portable element of the full 256-bit value (bit 255, which
// fe_load drops, is 2^255 = 19 mod p).
fe raw_to_fe(const raw& r) {
  fe x = fe_load(r.data());
  x.v[0] += 19 * (r[31] >> 7);
  return x;
}

std::string enc(const fe64& x) {
  std::uint8_t s[32];
  fe64_store(s, x);
  return test::to_hex(s);
}

std::string enc(const fe& x) {
  std::uint8_t s[32];
  fe_store(s, x);
  return test::to_hex(s);
}

raw raw_from_hex(const char* h) {
  const bytes b = test::hex(h);
  raw r{};
  std::copy(b.begin(), b.end(), r.begin());
  return r;
}

// Little-endian edge values: 0, 1, 2, 19, 38, p - 1, p, p + 1, 2^255 - 1,
// 2^255, 2p - 1 = 2^256 - 39, 2p + 1, 2p = 2^256 - 38, 2^256 - 1, limbs all
// ones but one, and 2^255 + 2^25 - 1 (the largest input fe64_add_sub takes).
std::vector<raw> edge_values() {
  return {
      raw_from_hex("0000000000000000000000000000000000000000000000000000000000000000"),
      raw_from_hex("0100000000000000000000000000000000000000000000000000000000000000"),
      raw_from_hex("0200000000000000000000000000000000000000000000000000000000000000"),
      raw_from_hex("1300000000000000000000000000000000000000000000000000000000000000"),
      raw_from_hex("2600000000000000000000000000000000000000000000000000000000000000"),
      raw_from_hex("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
      raw_from_hex("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
      raw_from_hex("eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
      raw_from_hex("ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
      raw_from_hex("0000000000000000000000000000000000000000000000000000000000000080"),
      raw_from_hex("d9ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"),
      raw_from_hex("dbffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"),
      raw_from_hex("daffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"),
      raw_from_hex("ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"),
      raw_from_hex("ffffffffffffffff0000000000000000ffffffffffffffffffffffffffffffff"),
      raw_from_hex("0000000000000000ffffffffffffffff00000000000000000000000000000000"),
      raw_from_hex("ffffff0100000000000000000000000000000000000000000000000000000080"),  // 2^255 + 2^25 - 1
  };
}

// check_pair compares every operation on (a, b) with the portable field.
void check_pair(const raw& ra, const raw& rb) {
  const fe64 a = raw_to_fe64(ra), b = raw_to_fe64(rb);
  const fe pa = raw_to_fe(ra), pb = raw_to_fe(rb);
  const std::string in = test::to_hex(ra) + " " + test::to_hex(rb);
  ASSERT_EQ(enc(a), enc(pa)) << "store " << in;
  ASSERT_EQ(enc(fe64_mul(a, b)), enc(fe_mul(pa, pb))) << "mul " << in;
  ASSERT_EQ(enc(fe64_sqr(a)), enc(fe_sqr(pa))) << "sqr " << in;
  ASSERT_EQ(enc(fe64_add(a, b)), enc(fe_add(pa, pb))) << "add " << in;
  // fe_sub wants a carried subtrahend: pb through a product by one is.
  const fe pb_c = fe_mul(pb, fe{{1, 0, 0, 0, 0}});
  ASSERT_EQ(enc(fe64_sub(a, b)), enc(fe_sub(pa, pb_c))) << "sub " << in;
  ASSERT_EQ(enc(fe64_mul_a24(a)), enc(fe_mul_small(pa, 121665))) << "a24 " << in;
  ASSERT_EQ(enc(fe64_mul_small<9>(a)), enc(fe_mul_small(pa, 9))) << "x9 " << in;
  // fe64_a24_add takes any a; its b is a product's output in the ladder.
  ASSERT_EQ(enc(fe64_a24_add(a, b)), enc(fe_add(fe_mul_small(pa, 121665), pb))) << "a24+ " << in;
  // fe64_add_sub needs inputs below 2^255 + 2^25: the raw pair when it is
  // (the edges at that bound included), and always the outputs of products.
  auto below_bound = [](const raw& r) {  // r < 2^255 + 2^25
    if (r[31] != 0x80) return r[31] < 0x80;
    for (int k = 4; k < 31; ++k) {
      if (r[k] != 0) return false;
    }
    return r[3] < 2;
  };
  const fe one{{1, 0, 0, 0, 0}};
  const fe64 one64{{1, 0, 0, 0}};
  std::vector<std::pair<fe64, fe>> xs = {{fe64_mul(a, one64), fe_mul(pa, one)}, {fe64_sqr(b), fe_sqr(pb)},
                                         {fe64_a24_add(a, fe64_sqr(a)), fe_add(fe_mul_small(pa, 121665), fe_sqr(pa))}};
  if (below_bound(ra)) xs.push_back({a, pa});
  if (below_bound(rb)) xs.push_back({b, pb});
  for (const auto& [x64, xp] : xs) {
    for (const auto& [y64, yp] : xs) {
      fe64 sum, diff;
      fe64_add_sub(x64, y64, sum, diff);
      ASSERT_EQ(enc(sum), enc(fe_add(xp, yp))) << "add_sub + " << in;
      ASSERT_EQ(enc(diff), enc(fe_sub(xp, fe_mul(yp, one)))) << "add_sub - " << in;
    }
  }
  fe64 x = a, y = b;
  fe64_cswap(x, y, 0);
  ASSERT_EQ(enc(x) + enc(y), enc(a) + enc(b)) << "cswap 0 " << in;
  fe64_cswap(x, y, 1);
  ASSERT_EQ(enc(x) + enc(y), enc(b) + enc(a)) << "cswap 1 " << in;
  fe64_cswap(x, y, 2);  // bit 0 only, as the portable field's cswap
  ASSERT_EQ(enc(x) + enc(y), enc(b) + enc(a)) << "cswap 2 " << in;
  fe64_cswap(x, x, 1);  // one object on both sides stays as it is
  ASSERT_EQ(enc(x), enc(b)) << "cswap self " << in;
  // The inversion's squaring loop on raw inputs (any value below 2^256), not
  // only on products: n squarings in one block against n calls of fe64_sqr.
  fe64 s1 = fe64_sqr(a), s2 = fe64_sqr(s1), s5 = s2;
  for (int k = 0; k < 3; ++k) s5 = fe64_sqr(s5);
  ASSERT_EQ(enc(fe64_sqr_n<1>(a)), enc(s1)) << "sqr_n 1 " << in;
  ASSERT_EQ(enc(fe64_sqr_n<2>(a)), enc(s2)) << "sqr_n 2 " << in;
  ASSERT_EQ(enc(fe64_sqr_n<5>(a)), enc(s5)) << "sqr_n 5 " << in;
}

}  // namespace

TEST(Fe25519Limbs4x64, AgreesWithThePortableFieldOnEdgeAndRandomInputs) {
  if (!test::has_bmi2_adx()) {
    test::comparison_report rep;
    rep.not_runnable("fe25519_4x64 (needs BMI2 and ADX)");
    rep.report("Curve25519 four-limb field");
    GTEST_SKIP() << "the four-limb field needs BMI2 and ADX";
  }
  const auto edges = edge_values();
  for (const raw& a : edges) {
    for (const raw& b : edges) {
      check_pair(a, b);
      if (HasFatalFailure()) return;
    }
  }
  test::seeded_random rng(0x25519);
  const int cases = test::differential_cases(1000);
  for (int i = 0; i < cases; ++i) {
    raw a, b;
    (void)rng.fill(a);
    (void)rng.fill(b);
    // Every fourth case pushes the top limbs to all ones (the largest values
    // the reduction sees); every fifth pairs a random value with an edge.
    if (i % 4 == 0) a[31] = a[30] = a[29] = a[28] = 0xff;
    if (i % 5 == 0) b = edges[static_cast<std::size_t>(i / 5) % edges.size()];
    check_pair(a, b);
    if (HasFatalFailure()) return;
  }
  // Long chains, where the outputs of one operation (not below p) feed the next.
  fe64 x = raw_to_fe64(edges[13]);
  fe px = raw_to_fe(edges[13]);
  for (int i = 0; i < 2000; ++i) {
    x = fe64_add(fe64_sqr(x), fe64_mul_a24(x));
    px = fe_add(fe_sqr(px), fe_mul_small(px, 121665));
    x = fe64_sub(x, fe64_mul(x, x));
    px = fe_sub(px, fe_mul(px, px));
    ASSERT_EQ(enc(x), enc(px)) << "chain step " << i;
  }
  test::comparison_report rep;
  rep.compared("fe25519_4x64");
  rep.report("Curve25519 four-limb field");
}

TEST(Fe25519Limbs4x64, InversionAgreesAndInvertsEveryNonZeroValue) {
  if (!test::has_bmi2_adx()) {
    GTEST_SKIP() << "needs BMI2 and ADX";
  }
  const auto edges = edge_values();
  test::seeded_random rng(0x7748);
  std::vector<raw> inputs = edges;
  for (int i = 0; i < 40; ++i) {
    raw r;
    (void)rng.fill(r);
    inputs.push_back(r);
  }
  for (const raw& r : inputs) {
    const fe64 a = raw_to_fe64(r);
    const fe64 inv = fe64_invert(a);
    ASSERT_EQ(enc(inv), enc(fe_invert(raw_to_fe(r)))) << test::to_hex(r);
    const bool zero = enc(a) == std::string(64, '0');
    // a * a^-1 = 1, and 0 maps to 0.
    EXPECT_EQ(enc(fe64_mul(a, inv)), zero ? std::string(64, '0') : "01" + std::string(62, '0')) << test::to_hex(r);
  }
}
