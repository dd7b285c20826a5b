// SPDX-License-Identifier: Apache-2.0
// The P-521 IFMA field (p521_field_ifma.hpp, through p521_field_ifma_probe)
// against OpenSSL's BIGNUM arithmetic mod p = 2^521 - 1: every result must
// be congruent to the exact one and within the bounds the field promises
// (tight: limbs below 2^49; loose: below 2^50), with the pad word zero.
// The inputs reach those bounds: limbs at 2^49 - 1 and 2^50 - 1, limb 10
// far above its 41 bits, p itself and its neighbours. Runs only where the
// CPU has AVX-512F, VL and IFMA; elsewhere it says so.
#include "p521_field_ifma_probe.hpp"

#include <sealwire/crypto/cpu.hpp>

#include "vectors.hpp"

#include <gtest/gtest.h>
#include <openssl/bn.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

using namespace sealwire;
namespace pf = sealwire::test::p521_ifma;
using test::bytes;

namespace {

using fe = std::array<std::uint64_t, pf::words>;
constexpr std::uint64_t tight_max = (std::uint64_t{1} << 49) - 1;
constexpr std::uint64_t loose_max = (std::uint64_t{1} << 50) - 1;
constexpr std::uint64_t m48 = (std::uint64_t{1} << 48) - 1;

// The BIGNUM side: values as BIGNUM, reduced mod p.
struct bn_field {
  BN_CTX* ctx = BN_CTX_new();
  BIGNUM* p = BN_new();
  bn_field() {
    BN_one(p);
    BN_lshift(p, p, 521);
    BN_sub_word(p, 1);
  }
  ~bn_field() {
    BN_free(p);
    BN_CTX_free(ctx);
  }
  bn_field(const bn_field&) = delete;
  bn_field& operator=(const bn_field&) = delete;

  // value: sum v_k 2^(48 k) mod p, as 66 big-endian bytes.
  std::string value(const fe& v) const {
    BIGNUM* x = BN_new();
    BIGNUM* t = BN_new();
    BN_zero(x);
    for (int k = 10; k >= 0; --k) {
      BN_lshift(x, x, 48);
      BN_set_word(t, v[static_cast<std::size_t>(k)]);
      BN_add(x, x, t);
    }
    BN_nnmod(x, x, p, ctx);
    std::uint8_t b[66];
    BN_bn2binpad(x, b, 66);
    BN_free(x);
    BN_free(t);
    return test::to_hex(std::span<const std::uint8_t>(b, 66));
  }
  // op: (a op b) mod p for op in "*", "+", "-", "/2".
  std::string op(const fe& a, const fe& b, char o) const {
    BIGNUM* x = BN_new();
    BIGNUM* y = BN_new();
    const auto load = [&](BIGNUM* r, const std::string& h) {
      BIGNUM* tmp = nullptr;
      BN_hex2bn(&tmp, h.c_str());
      BN_copy(r, tmp);
      BN_free(tmp);
    };
    load(x, value(a));
    load(y, value(b));
    if (o == '*') BN_mod_mul(x, x, y, p, ctx);
    if (o == '+') BN_mod_add(x, x, y, p, ctx);
    if (o == '-') BN_mod_sub(x, x, y, p, ctx);
    if (o == '/') {  // x / 2 = x 2^520 (2^521 = 1)
      BN_set_word(y, 1);
      BN_lshift(y, y, 520);
      BN_mod_mul(x, x, y, p, ctx);
    }
    std::uint8_t r[66];
    BN_bn2binpad(x, r, 66);
    BN_free(x);
    BN_free(y);
    return test::to_hex(std::span<const std::uint8_t>(r, 66));
  }
};

// bounded: every limb below bound and the pad zero.
::testing::AssertionResult bounded(const fe& r, std::uint64_t bound) {
  for (std::size_t k = 0; k < 11; ++k) {
    if (r[k] > bound) return ::testing::AssertionFailure() << "limb " << k << " = " << r[k] << " above " << bound;
  }
  if (r[11] != 0) return ::testing::AssertionFailure() << "pad word " << r[11];
  return ::testing::AssertionSuccess();
}

// Limb patterns at and near the bounds, for inputs below `max` (tight or loose).
std::vector<fe> edges(std::uint64_t max) {
  std::vector<fe> e;
  fe z{};
  e.push_back(z);
  fe one{};
  one[0] = 1;
  e.push_back(one);
  fe p{};  // p = 2^521 - 1 in 48-bit limbs
  for (std::size_t k = 0; k < 10; ++k) p[k] = m48;
  p[10] = (std::uint64_t{1} << 41) - 1;
  e.push_back(p);
  fe pm1 = p;
  pm1[0] -= 1;
  e.push_back(pm1);
  fe pp1 = p;
  pp1[0] += 1;  // p + 1, not carried
  e.push_back(pp1);
  fe all{};
  for (std::size_t k = 0; k < 11; ++k) all[k] = max;  // every limb at the bound
  e.push_back(all);
  fe top{};
  top[10] = max;  // limb 10 far above 41 bits
  e.push_back(top);
  fe alt{};
  for (std::size_t k = 0; k < 11; ++k) alt[k] = k % 2 == 0 ? max : 0;
  e.push_back(alt);
  fe two521{};
  two521[10] = std::uint64_t{1} << 41;  // 2^521 = 1
  e.push_back(two521);
  fe low_bits{};
  for (std::size_t k = 0; k < 11; ++k) low_bits[k] = (std::uint64_t{1} << 41) - 1 + (k == 0 ? max - m48 : 0);
  e.push_back(low_bits);
  return e;
}

fe random_fe(test::seeded_random& rng, std::uint64_t max) {
  fe r{};
  for (std::size_t k = 0; k < 11; ++k) {
    const bytes b = rng.fill(8);
    std::uint64_t v = 0;
    for (std::uint8_t x : b) v = v << 8 | x;
    r[k] = v % (max + 1);
  }
  return r;
}

// check_pair: every operation on (a, b) with a and b tight, plus the loose
// inputs each operation accepts.
void check_pair(const bn_field& bn, const fe& a, const fe& b) {
  SCOPED_TRACE("a = " + bn.value(a) + ", b = " + bn.value(b));
  fe r{};
  pf::mul(r.data(), a.data(), b.data());
  EXPECT_EQ(bn.value(r), bn.op(a, b, '*')) << "mul";
  EXPECT_TRUE(bounded(r, tight_max)) << "mul";
  pf::sqr(r.data(), a.data());
  EXPECT_EQ(bn.value(r), bn.op(a, a, '*')) << "sqr";
  EXPECT_TRUE(bounded(r, tight_max)) << "sqr";
  pf::add(r.data(), a.data(), b.data());
  EXPECT_EQ(bn.value(r), bn.op(a, b, '+')) << "add";
  EXPECT_TRUE(bounded(r, tight_max)) << "add";
  pf::sub(r.data(), a.data(), b.data());
  EXPECT_EQ(bn.value(r), bn.op(a, b, '-')) << "sub";
  EXPECT_TRUE(bounded(r, tight_max)) << "sub";
  pf::half(r.data(), a.data());
  EXPECT_EQ(bn.value(r), bn.op(a, a, '/')) << "half";
  EXPECT_TRUE(bounded(r, tight_max)) << "half";
  // add_lazy: loose, then as a product's factors and sub's first operand.
  fe l{};
  pf::add_lazy(l.data(), a.data(), b.data());
  EXPECT_EQ(bn.value(l), bn.op(a, b, '+')) << "add_lazy";
  EXPECT_TRUE(bounded(l, loose_max)) << "add_lazy";
  pf::mul(r.data(), l.data(), l.data());
  EXPECT_EQ(bn.value(r), bn.op(l, l, '*')) << "mul of loose";
  EXPECT_TRUE(bounded(r, tight_max)) << "mul of loose";
  pf::sqr(r.data(), l.data());
  EXPECT_EQ(bn.value(r), bn.op(l, l, '*')) << "sqr of loose";
  EXPECT_TRUE(bounded(r, tight_max)) << "sqr of loose";
  pf::sub(r.data(), l.data(), b.data());
  EXPECT_EQ(bn.value(r), bn.op(l, b, '-')) << "sub of loose";
  EXPECT_TRUE(bounded(r, tight_max)) << "sub of loose";
  // cmov: mask 0 keeps, all ones takes, the source as its own target stays.
  fe c = a;
  pf::cmov(c.data(), b.data(), 0);
  EXPECT_EQ(c, a) << "cmov, mask 0";
  pf::cmov(c.data(), b.data(), ~std::uint64_t{0});
  EXPECT_EQ(c, b) << "cmov, mask all ones";
  pf::cmov(c.data(), c.data(), ~std::uint64_t{0});
  EXPECT_EQ(c, b) << "cmov, out as its source";
  // Out aliasing both inputs.
  fe s = a;
  pf::mul_in_place(s.data());
  EXPECT_EQ(bn.value(s), bn.op(a, a, '*')) << "mul in place";
  // Canonical bytes, the zero test, and the bytes read back.
  std::uint8_t out[66];
  pf::to_bytes(out, a.data());
  EXPECT_EQ(test::to_hex(std::span<const std::uint8_t>(out, 66)), bn.value(a)) << "to_bytes";
  const bool is_zero = bn.value(a) == std::string(132, '0');
  EXPECT_EQ(pf::zero_mask(a.data()), is_zero ? ~std::uint64_t{0} : 0) << "zero_mask";
  fe back{};
  ASSERT_TRUE(pf::from_bytes(back.data(), out));
  EXPECT_EQ(bn.value(back), bn.value(a)) << "from_bytes";
  EXPECT_TRUE(bounded(back, m48)) << "from_bytes";
  // The canonical form of a loose value, and the zero test of a zero that
  // is not all-zero limbs: a - a is 4 (2^528 - 2^7) before its carry.
  pf::to_bytes(out, l.data());
  EXPECT_EQ(test::to_hex(std::span<const std::uint8_t>(out, 66)), bn.value(l)) << "to_bytes of loose";
  EXPECT_EQ(pf::zero_mask(l.data()), bn.value(l) == std::string(132, '0') ? ~std::uint64_t{0} : 0)
      << "zero_mask of loose";
  pf::sub(r.data(), a.data(), a.data());
  EXPECT_EQ(pf::zero_mask(r.data()), ~std::uint64_t{0}) << "zero_mask of a - a";
  pf::to_bytes(out, r.data());
  EXPECT_EQ(test::to_hex(std::span<const std::uint8_t>(out, 66)), std::string(132, '0')) << "to_bytes of a - a";
}

}  // namespace

TEST(P521FieldIfma, EdgeValuesAgreeWithBignum) {
  if (!test::has_ifma_level()) GTEST_SKIP() << "no AVX-512 IFMA on this CPU: the IFMA field cannot run here";
  const bn_field bn;
  const auto e = edges(tight_max);
  for (const auto& a : e) {
    for (const auto& b : e) check_pair(bn, a, b);
  }
  // Loose inputs at their bound, into the operations that take them.
  for (const auto& a : edges(loose_max)) {
    for (const auto& b : edges(loose_max)) {
      fe r{};
      pf::mul(r.data(), a.data(), b.data());
      EXPECT_EQ(bn.value(r), bn.op(a, b, '*')) << "loose mul " << bn.value(a) << " " << bn.value(b);
      EXPECT_TRUE(bounded(r, tight_max));
    }
  }
}

TEST(P521FieldIfma, RandomValuesAgreeWithBignum) {
  if (!test::has_ifma_level()) GTEST_SKIP() << "no AVX-512 IFMA on this CPU: the IFMA field cannot run here";
  const bn_field bn;
  test::seeded_random rng(521);
  for (int i = 0; i < 1000; ++i) {
    const fe a = random_fe(rng, i % 2 == 0 ? tight_max : m48);
    const fe b = random_fe(rng, i % 3 == 0 ? tight_max : m48);
    check_pair(bn, a, b);
    const fe la = random_fe(rng, loose_max), lb = random_fe(rng, loose_max);
    fe r{};
    pf::mul(r.data(), la.data(), lb.data());
    EXPECT_EQ(bn.value(r), bn.op(la, lb, '*')) << "loose mul";
    EXPECT_TRUE(bounded(r, tight_max));
  }
}

// A chain of dependent operations, each result the next one's input, against
// the same chain in BIGNUM: values that no table lists, the carries' wrap
// taken many times.
TEST(P521FieldIfma, OperationChainAgreesWithBignum) {
  if (!test::has_ifma_level()) GTEST_SKIP() << "no AVX-512 IFMA on this CPU: the IFMA field cannot run here";
  const bn_field bn;
  test::seeded_random rng(5210);
  fe x = random_fe(rng, m48), y = random_fe(rng, m48);
  for (int i = 0; i < 3000; ++i) {
    fe r{};
    const int op = i % 5;
    if (op == 0) pf::mul(r.data(), x.data(), y.data());
    if (op == 1) pf::sqr(r.data(), x.data());
    if (op == 2) pf::add(r.data(), x.data(), y.data());
    if (op == 3) pf::sub(r.data(), y.data(), x.data());
    if (op == 4) pf::half(r.data(), x.data());
    const char o = "**+-/"[op];
    const std::string want = op == 1 ? bn.op(x, x, '*') : op == 3 ? bn.op(y, x, '-') : bn.op(x, y, o);
    ASSERT_EQ(bn.value(r), want) << "step " << i << " op " << op;
    ASSERT_TRUE(bounded(r, tight_max)) << "step " << i;
    y = x;
    x = r;
  }
}

// from_bytes takes exactly the values below p.
TEST(P521FieldIfma, FromBytesRefusesValuesAtOrAboveP) {
  if (!test::has_ifma_level()) GTEST_SKIP() << "no AVX-512 IFMA on this CPU: the IFMA field cannot run here";
  std::uint8_t b[66];
  fe r{};
  std::fill(b, b + 66, std::uint8_t{0xff});
  b[0] = 0x01;  // p
  EXPECT_FALSE(pf::from_bytes(r.data(), b));
  b[65] = 0xfe;  // p - 1
  EXPECT_TRUE(pf::from_bytes(r.data(), b));
  b[0] = 0x02;  // above 2^521
  EXPECT_FALSE(pf::from_bytes(r.data(), b));
  b[0] = 0x80;
  EXPECT_FALSE(pf::from_bytes(r.data(), b));
  std::fill(b, b + 66, std::uint8_t{0});
  EXPECT_TRUE(pf::from_bytes(r.data(), b));
  EXPECT_EQ(pf::zero_mask(r.data()), ~std::uint64_t{0});
}
