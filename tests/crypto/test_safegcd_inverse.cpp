// SPDX-License-Identifier: Apache-2.0
// The divsteps inversion (detail/safegcd_inverse.hpp) mod P-256's p and n
// against OpenSSL's BN_mod_inverse, on edge values and random inputs, both
// bare and as the P-256 fields' invert (the portable Montgomery field, and the
// mulx field where the CPU has BMI2 and ADX) against the Fermat chain.
#include "detail/nist_scalar_mul.hpp"
#include "detail/safegcd_inverse.hpp"
#if defined(__x86_64__)
#include "detail/p256_field_adx.hpp"
#endif

#include <sealwire/crypto/cpu.hpp>

#include "vectors.hpp"

#include <gtest/gtest.h>
#include <openssl/bn.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

using namespace sealwire;
using namespace sealwire::crypto::detail;

namespace {

using sg_words = std::array<std::uint64_t, 4>;

const char* const sg_p_hex = "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff";
const char* const sg_n_hex = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551";

sg_words sg_words_of_hex(const std::string& h) {
  const test::bytes b = test::hex(h);
  sg_words w{};
  for (std::size_t i = 0; i < 32; ++i) w[(31 - i) / 8] |= static_cast<std::uint64_t>(b[i]) << (8 * ((31 - i) % 8));
  return w;
}

std::string sg_hex_of(const sg_words& w) {
  char buf[65];
  std::snprintf(buf, sizeof buf, "%016llx%016llx%016llx%016llx", static_cast<unsigned long long>(w[3]),
                static_cast<unsigned long long>(w[2]), static_cast<unsigned long long>(w[1]),
                static_cast<unsigned long long>(w[0]));
  return buf;
}

// sg_oracle: scale / x mod m by BIGNUM ("0" words for x = 0).
struct sg_oracle {
  BN_CTX* ctx = BN_CTX_new();
  sg_oracle() = default;
  ~sg_oracle() { BN_CTX_free(ctx); }
  sg_oracle(const sg_oracle&) = delete;
  sg_oracle& operator=(const sg_oracle&) = delete;

  sg_words inverse(const std::string& m_hex, const sg_words& x, const sg_words& scale) {
    BIGNUM *m = nullptr, *bx = nullptr, *bs = nullptr;
    BN_hex2bn(&m, m_hex.c_str());
    BN_hex2bn(&bx, sg_hex_of(x).c_str());
    BN_hex2bn(&bs, sg_hex_of(scale).c_str());
    sg_words out{};
    if (!BN_is_zero(bx)) {
      BIGNUM* inv = BN_mod_inverse(nullptr, bx, m, ctx);
      EXPECT_NE(inv, nullptr);
      BN_mod_mul(inv, inv, bs, m, ctx);
      char* h = BN_bn2hex(inv);
      std::string hs(h);
      OPENSSL_free(h);
      out = sg_words_of_hex(std::string(64 - hs.size(), '0') + hs);
      BN_free(inv);
    }
    BN_free(m);
    BN_free(bx);
    BN_free(bs);
    return out;
  }
};

// sg_inputs: edge values below m (0, 1, 2, m - 1, m - 2, (m - 1) / 2, powers
// of two, runs of ones and zeros, the modulus' own words rearranged) and
// random ones, among them values with long runs of ones or zeros.
std::vector<sg_words> sg_inputs(const std::string& m_hex, std::size_t random_count) {
  const sg_words m = sg_words_of_hex(m_hex);
  auto minus = [&](std::uint64_t k) {
    sg_words r = m;
    r[0] -= k;  // the low word of p and n is far above 2
    return r;
  };
  auto below = [&](const sg_words& w) {
    for (int i = 3; i >= 0; --i) {
      if (w[static_cast<std::size_t>(i)] != m[static_cast<std::size_t>(i)]) {
        return w[static_cast<std::size_t>(i)] < m[static_cast<std::size_t>(i)];
      }
    }
    return false;
  };
  std::vector<sg_words> v = {sg_words{0, 0, 0, 0}, sg_words{1, 0, 0, 0}, sg_words{2, 0, 0, 0}, minus(1), minus(2)};
  sg_words half = minus(1);
  for (std::size_t i = 0; i < 4; ++i) half[i] = half[i] >> 1 | (i < 3 ? half[i + 1] << 63 : 0);
  v.push_back(half);
  for (int bit = 0; bit < 256; bit += 17) {
    sg_words w{};
    w[static_cast<std::size_t>(bit / 64)] = std::uint64_t{1} << (bit % 64);
    v.push_back(w);
  }
  for (int ones = 1; ones < 256; ones += 23) {  // 2^ones - 1 and its complement in 256 bits
    sg_words w{};
    for (int b = 0; b < ones; ++b) w[static_cast<std::size_t>(b / 64)] |= std::uint64_t{1} << (b % 64);
    v.push_back(w);
    sg_words c{~w[0], ~w[1], ~w[2], ~w[3]};
    if (below(c)) v.push_back(c);
  }
  std::mt19937_64 rng(0x5afe6cdULL);
  while (v.size() < random_count) {
    sg_words w{rng(), rng(), rng(), rng()};
    const std::uint64_t kind = rng() % 4;
    if (kind == 1) {  // a long run of ones or of zeros at a random place
      const int at = static_cast<int>(rng() % 256), len = static_cast<int>(rng() % 200);
      const bool ones = (rng() & 1) != 0;
      for (int b = at; b < at + len && b < 256; ++b) {
        const std::uint64_t bitv = std::uint64_t{1} << (b % 64);
        w[static_cast<std::size_t>(b / 64)] = ones ? (w[static_cast<std::size_t>(b / 64)] | bitv)
                                                   : (w[static_cast<std::size_t>(b / 64)] & ~bitv);
      }
    } else if (kind == 2) {  // small values
      w = sg_words{rng() >> (rng() % 64), 0, 0, 0};
    }
    if (below(w)) v.push_back(w);
  }
  return v;
}

void sg_check_modulus(const char* m_hex) {
  const sg_words m = sg_words_of_hex(m_hex);
  const std::uint64_t mw[4] = {m[0], m[1], m[2], m[3]};
  const safegcd_modulus mod = make_safegcd_modulus(mw);
  sg_oracle bn;
  std::mt19937_64 rng(7);
  for (const sg_words& x : sg_inputs(m_hex, 4000)) {
    for (int s = 0; s < 2; ++s) {
      sg_words scale = s == 0 ? sg_words{1, 0, 0, 0} : sg_words{rng(), rng(), rng(), rng() >> 1};
      SCOPED_TRACE("x = " + sg_hex_of(x) + ", scale = " + sg_hex_of(scale));
      sg_words out{};
      safegcd_invert(out.data(), x.data(), scale.data(), mod);
      ASSERT_EQ(sg_hex_of(out), sg_hex_of(bn.inverse(m_hex, x, scale)));
    }
  }
}

TEST(SafegcdInverse, ModPMatchesBignum) { sg_check_modulus(sg_p_hex); }

TEST(SafegcdInverse, ModNMatchesBignum) { sg_check_modulus(sg_n_hex); }

// The constants: M^-1 mod 2^62 really inverts M.
TEST(SafegcdInverse, ModulusInverse) {
  for (const char* h : {sg_p_hex, sg_n_hex}) {
    const sg_words m = sg_words_of_hex(h);
    const std::uint64_t mw[4] = {m[0], m[1], m[2], m[3]};
    const safegcd_modulus mod = make_safegcd_modulus(mw);
    EXPECT_EQ((m[0] * mod.inverse_mod_2_62) & ((std::uint64_t{1} << 62) - 1), 1u);
  }
}

// The fields' invert (divsteps) against the Fermat chain invert_p256, on
// elements made from the same inputs.
template <class Curve>
void sg_check_field() {
  using E = ec<Curve>;
  using F = typename E::F;
  for (const sg_words& x : sg_inputs(sg_p_hex, 3000)) {
    SCOPED_TRACE("x = " + sg_hex_of(x));
    std::uint8_t be[32];
    for (std::size_t i = 0; i < 32; ++i) be[i] = static_cast<std::uint8_t>(x[(31 - i) / 8] >> (8 * ((31 - i) % 8)));
    typename F::fe a, r1, r2;
    ASSERT_TRUE(F::from_bytes(a, be));
    E::invert(r1, a);
    E::invert_p256(r2, a);
    const sg_words w1{r1.v[0], r1.v[1], r1.v[2], r1.v[3]}, w2{r2.v[0], r2.v[1], r2.v[2], r2.v[3]};
    ASSERT_EQ(sg_hex_of(w1), sg_hex_of(w2));
  }
}

TEST(SafegcdInverse, PortableFieldMatchesFermat) { sg_check_field<p256_curve>(); }

#if defined(__x86_64__)
struct sg_adx_curve : p256_curve {
  using field = p256_adx_field;
};

TEST(SafegcdInverse, MulxFieldMatchesFermat) {
  if (!crypto::cpu::has(crypto::cpu::bmi2 | crypto::cpu::adx)) GTEST_SKIP() << "no BMI2/ADX";
  sg_check_field<sg_adx_curve>();
}
#endif

}  // namespace
