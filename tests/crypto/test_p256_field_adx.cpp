// SPDX-License-Identifier: Apache-2.0
// The P-256 mulx/adcx/adox field (p256_field_adx.hpp) against the portable
// Montgomery field (mont_field in nist_field.hpp) on edge and random inputs:
// both hold a R mod p fully reduced, so every result must agree limb for
// limb. Runs only where the CPU has BMI2 and ADX; elsewhere it says so.
#include "detail/nist_curves.hpp"
#include "detail/nist_field.hpp"
#include "detail/p256_field_adx.hpp"

#include "vectors.hpp"

#include <array>
#include <cstdio>
#include <span>
#include <vector>

using namespace sealwire;
using namespace sealwire::crypto::detail;

namespace {

using portable = mont_field<p256_params>;
using adx = p256_adx_field;
using be32 = std::array<std::uint8_t, 32>;

be32 be_of(const char* h) {
  const test::bytes b = test::hex(h);
  be32 r{};
  std::copy(b.begin(), b.end(), r.begin());
  return r;
}

// The edge values as 256-bit big-endian numbers: 0, 1, 2, p - 1, p, p + 1,
// 2^255, 2^256 - 1, 2^256 - 2, R mod p (the element 1), and words at their
// limits.
std::vector<be32> edges() {
  return {be_of("0000000000000000000000000000000000000000000000000000000000000000"),
          be_of("0000000000000000000000000000000000000000000000000000000000000001"),
          be_of("0000000000000000000000000000000000000000000000000000000000000002"),
          be_of("ffffffff00000001000000000000000000000000fffffffffffffffffffffffe"),
          be_of("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff"),
          be_of("ffffffff00000001000000000000000000000001000000000000000000000000"),
          be_of("8000000000000000000000000000000000000000000000000000000000000000"),
          be_of("ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"),
          be_of("ffffffff00000000ffffffffffffffffffffffffffffffffffffffffffffffff"),
          be_of("00000000ffffffff00000000000000000000000000000000ffffffff00000000"),
          be_of("fffffffeffffffffffffffffffffffff000000000000000000000001ffffffff"),
          be_of("fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe"),
          be_of("00000000fffffffeffffffffffffffffffffffff000000000000000000000001"),
          be_of("ffffffff00000000ffffffffffffffff00000000000000000000000000000000"),
          // Below p, and times 2^256 - 2 (a lazy sum) one of the products
          // the interleaved rows get wrong when the lazy value is passed
          // first (found by a model of the asm): checked here in the order
          // the rule allows, the lazy value second.
          be_of("b36cc9aa78a330a1a5e333cb88dcf943ffffffffffffffff84d4cd1f47ca7883")};
}

// limbs_of: the raw limbs of a value below p, taken as a field element
// itself (every value below p is some a R mod p).
template <class Fe>
Fe limbs_of(const be32& b) {
  Fe x;
  be_to_limbs<4, 32>(x.v, b.data());
  return x;
}

bool below_p(const be32& b) {
  const auto p = from_hex<32>(p256_params::p_hex);
  return be_less_than_mask(b.data(), p.b, 32) != 0;
}

std::string hex_of(const std::uint64_t* v) {
  char buf[4 * 17];
  std::snprintf(buf, sizeof buf, "%016llx%016llx%016llx%016llx", static_cast<unsigned long long>(v[3]),
                static_cast<unsigned long long>(v[2]), static_cast<unsigned long long>(v[1]),
                static_cast<unsigned long long>(v[0]));
  return buf;
}

// p256_adx_plus_p: hex_of(v + p) for v below p, or "" when v + p reaches
// 2^256 (no 256-bit value can equal it then).
std::string p256_adx_plus_p(const std::uint64_t* v) {
  static constexpr std::uint64_t p[4] = {~0ULL, 0xffffffffULL, 0, 0xffffffff00000001ULL};
  __extension__ using u128 = unsigned __int128;
  std::uint64_t s[4];
  u128 c = 0;
  for (int i = 0; i < 4; ++i) {
    c += static_cast<u128>(v[i]) + p[i];
    s[i] = static_cast<std::uint64_t>(c);
    c >>= 64;
  }
  return c != 0 ? std::string() : hex_of(s);
}

// p256_adx_mod_p: a 256-bit value mod p, as limbs (one subtraction of p
// when it is at or above p: every 256-bit value is below 2p).
template <class Fe>
Fe p256_adx_mod_p(const be32& b) {
  Fe x = limbs_of<Fe>(b);
  if (below_p(b)) return x;
  static constexpr std::uint64_t p[4] = {~0ULL, 0xffffffffULL, 0, 0xffffffff00000001ULL};
  __extension__ using u128 = unsigned __int128;
  u128 borrow = 0;
  for (int i = 0; i < 4; ++i) {
    const u128 d = static_cast<u128>(x.v[i]) - p[i] - borrow;
    x.v[i] = static_cast<std::uint64_t>(d);
    borrow = (d >> 64) != 0 ? 1 : 0;
  }
  return x;
}

// check_p256_pair runs every operation on (x, y) in both fields and compares.
void check_p256_pair(const be32& xb, const be32& yb) {
  SCOPED_TRACE("x = " + test::to_hex(xb) + ", y = " + test::to_hex(yb));
  // Conversion: any 256-bit value, with the verdict "below p".
  portable::fe px, py;
  adx::fe ax, ay;
  EXPECT_EQ(portable::from_bytes(px, xb.data()), adx::from_bytes(ax, xb.data()));
  EXPECT_EQ(adx::from_bytes(ax, xb.data()), below_p(xb));
  static_cast<void>(portable::from_bytes(py, yb.data()));
  static_cast<void>(adx::from_bytes(ay, yb.data()));
  ASSERT_EQ(hex_of(px.v), hex_of(ax.v));
  ASSERT_EQ(hex_of(py.v), hex_of(ay.v));
  std::uint8_t po[32], ao[32];
  portable::to_bytes(po, px);
  adx::to_bytes(ao, ax);
  EXPECT_EQ(test::to_hex(po), test::to_hex(ao));
  // The operations, on the converted values and (when below p) on the raw
  // limbs as elements.
  std::vector<std::pair<portable::fe, adx::fe>> xs = {{px, ax}}, ys = {{py, ay}};
  if (below_p(xb)) xs.emplace_back(limbs_of<portable::fe>(xb), limbs_of<adx::fe>(xb));
  if (below_p(yb)) ys.emplace_back(limbs_of<portable::fe>(yb), limbs_of<adx::fe>(yb));
  // mul's second factor may be any 256-bit value (add_lazy's sums, from_bytes'
  // input): the raw limbs of y, whatever they are, against the portable
  // product of y mod p (y - p when y is at or above p, as y < 2p).
  const adx::fe yraw = limbs_of<adx::fe>(yb);
  const portable::fe ymod = p256_adx_mod_p<portable::fe>(yb);
  for (const auto& [x, x4] : xs) {
    portable::fe r;
    adx::fe r4;
    portable::mul(r, x, ymod);
    adx::mul(r4, x4, yraw);
    EXPECT_EQ(hex_of(r.v), hex_of(r4.v)) << "mul, second factor unreduced";
  }
  for (const auto& [x, x4] : xs) {
    for (const auto& [y, y4] : ys) {
      portable::fe r;
      adx::fe r4;
      portable::mul(r, x, y);
      adx::mul(r4, x4, y4);
      EXPECT_EQ(hex_of(r.v), hex_of(r4.v)) << "mul";
      // cmov: a zero mask keeps out, an all-ones mask takes a, and out as
      // its own source stays.
      adx::fe c4 = x4;
      adx::cmov(c4, y4, 0);
      EXPECT_EQ(hex_of(c4.v), hex_of(x4.v)) << "cmov, mask 0";
      adx::cmov(c4, y4, ~std::uint64_t{0});
      EXPECT_EQ(hex_of(c4.v), hex_of(y4.v)) << "cmov, mask all ones";
      adx::cmov(c4, c4, ~std::uint64_t{0});
      EXPECT_EQ(hex_of(c4.v), hex_of(y4.v)) << "cmov, out as its source";
      portable::add(r, x, y);
      adx::add(r4, x4, y4);
      EXPECT_EQ(hex_of(r.v), hex_of(r4.v)) << "add";
      // add_lazy: the sum or the sum plus p (below 2^256), and then, as
      // sub's first operand, a difference of the same kind.
      portable::add(r, x, y);
      adx::fe l4;
      adx::add_lazy(l4, x4, y4);
      EXPECT_TRUE(hex_of(l4.v) == hex_of(r.v) || hex_of(l4.v) == p256_adx_plus_p(r.v)) << "add_lazy";
      adx::fe ld4;
      portable::fe d;
      portable::sub(d, r, y);
      adx::sub(ld4, l4, y4);
      EXPECT_TRUE(hex_of(ld4.v) == hex_of(d.v) || hex_of(ld4.v) == p256_adx_plus_p(d.v)) << "sub of add_lazy";
      // A lazy sum (or a difference with one as its first operand) times a
      // fully reduced value comes out fully reduced: the same limbs as the
      // portable product of the reduced sum.
      portable::fe pr;
      adx::fe pr4;
      // The lazy value goes in as the second factor (mul's contract).
      portable::mul(pr, r, y);
      adx::mul(pr4, y4, l4);
      EXPECT_EQ(hex_of(pr.v), hex_of(pr4.v)) << "mul of add_lazy";
      portable::mul(pr, d, x);
      adx::mul(pr4, x4, ld4);
      EXPECT_EQ(hex_of(pr.v), hex_of(pr4.v)) << "mul of sub of add_lazy";
      portable::sub(r, x, y);
      adx::sub(r4, x4, y4);
      EXPECT_EQ(hex_of(r.v), hex_of(r4.v)) << "sub";
      portable::sub(r, y, x);
      adx::sub(r4, y4, x4);
      EXPECT_EQ(hex_of(r.v), hex_of(r4.v)) << "sub, swapped";
      EXPECT_EQ(portable::zero_mask(x), adx::zero_mask(x4));
    }
    portable::fe r;
    adx::fe r4;
    // half (the adx field's own, for the doubling): 2 half(x) = x, checked
    // with the portable addition, and the result fully reduced.
    adx::half(r4, x4);
    const portable::fe h{{r4.v[0], r4.v[1], r4.v[2], r4.v[3]}};
    portable::add(r, h, h);
    EXPECT_EQ(hex_of(r.v), hex_of(x.v)) << "half";
    be32 hb;
    for (std::size_t i = 0; i < 32; ++i) hb[31 - i] = static_cast<std::uint8_t>(r4.v[i / 8] >> (8 * (i % 8)));
    EXPECT_TRUE(below_p(hb)) << "half reduced";
    portable::sqr(r, x);
    adx::sqr(r4, x4);
    EXPECT_EQ(hex_of(r.v), hex_of(r4.v)) << "sqr";
    // sqr_n (the inversion's loop, value kept in registers): one and five
    // squarings against repeated portable squares.
    adx::fe s4 = x4;
    adx::sqr_n<1>(s4);
    EXPECT_EQ(hex_of(r.v), hex_of(s4.v)) << "sqr_n<1>";
    portable::fe q = x;
    for (int k = 0; k < 5; ++k) portable::sqr(q, q);
    s4 = x4;
    adx::sqr_n<5>(s4);
    EXPECT_EQ(hex_of(q.v), hex_of(s4.v)) << "sqr_n<5>";
    // Outputs aliasing inputs.
    adx::fe a4 = x4;
    adx::mul(a4, a4, a4);
    EXPECT_EQ(hex_of(r.v), hex_of(a4.v)) << "mul in place";
  }
}

}  // namespace

TEST(P256FieldAdx, EdgeValuesAgreeWithThePortableField) {
  if (!test::has_bmi2_adx()) GTEST_SKIP() << "no BMI2/ADX on this CPU: the four-limb field cannot run here";
  const auto e = edges();
  for (const auto& x : e) {
    for (const auto& y : e) check_p256_pair(x, y);
  }
}

TEST(P256FieldAdx, RandomValuesAgreeWithThePortableField) {
  if (!test::has_bmi2_adx()) GTEST_SKIP() << "no BMI2/ADX on this CPU: the four-limb field cannot run here";
  test::seeded_random rng(256);
  for (int i = 0; i < 500; ++i) {
    be32 x, y;
    ASSERT_TRUE(rng.fill(std::span<std::uint8_t>(x)));
    ASSERT_TRUE(rng.fill(std::span<std::uint8_t>(y)));
    // Every fourth pair near p: x = p's top 24 bytes over random ones (just
    // below p, nearly always), y = p's top 16 (mostly in [p, p + 2^128)).
    if (i % 4 == 0) {
      const auto p = from_hex<32>(p256_params::p_hex);
      std::copy(p.b, p.b + 24, x.begin());
      std::copy(p.b, p.b + 16, y.begin());
    }
    check_p256_pair(x, y);
  }
}

// A chain of dependent products, squares and sums, each result the next
// step's input, against the same chain in the portable field: the
// reduction's carry paths (a row's carry out, the sum at or above 2^256
// before the last subtraction) are taken many times on values no table lists.
TEST(P256FieldAdx, ProductChainAgreesWithThePortableField) {
  if (!test::has_bmi2_adx()) GTEST_SKIP() << "no BMI2/ADX on this CPU: the four-limb field cannot run here";
  test::seeded_random rng(2561);
  be32 xb, yb;
  ASSERT_TRUE(rng.fill(std::span<std::uint8_t>(xb)));
  ASSERT_TRUE(rng.fill(std::span<std::uint8_t>(yb)));
  portable::fe x, y;
  adx::fe x4, y4;
  static_cast<void>(portable::from_bytes(x, xb.data()));
  static_cast<void>(portable::from_bytes(y, yb.data()));
  static_cast<void>(adx::from_bytes(x4, xb.data()));
  static_cast<void>(adx::from_bytes(y4, yb.data()));
  for (int i = 0; i < 2000; ++i) {
    portable::mul(x, x, y);
    adx::mul(x4, x4, y4);
    portable::sqr(y, y);
    adx::sqr(y4, y4);
    portable::add(y, y, x);
    adx::add(y4, y4, x4);
    ASSERT_EQ(hex_of(x.v), hex_of(x4.v)) << "mul, step " << i;
    ASSERT_EQ(hex_of(y.v), hex_of(y4.v)) << "sqr and add, step " << i;
  }
}
