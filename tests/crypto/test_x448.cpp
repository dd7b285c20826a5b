// SPDX-License-Identifier: Apache-2.0
// X448 (RFC 7748): the RFC's known answers (sections 5.2 and 6.2), the
// Wycheproof x448 file, a differential check against OpenSSL, and the
// rejection of all-zero results and wrong-length keys.
#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/x448.hpp>

#include "oracles.hpp"
#include "vectors.hpp"

#include <nlohmann/json.hpp>

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>

using namespace sealwire;
using crypto::x448;
using test::bytes;
using test::hex;

namespace {

using key56 = std::span<const std::uint8_t, 56>;

key56 as56(const bytes& b) {
  EXPECT_EQ(b.size(), 56u);
  return key56(b.data(), 56);
}

std::string x448_hex(const bytes& scalar, const bytes& u) {
  std::uint8_t out[56];
  const auto r = x448::shared_secret(out, as56(scalar), as56(u));
  EXPECT_TRUE(r) << r.error().message();
  return test::to_hex(out);
}

std::string public_hex(const bytes& scalar) {
  std::uint8_t out[56];
  x448::public_key(out, as56(scalar));
  return test::to_hex(out);
}


// OpenSSL's X448, through EVP with raw keys.
std::optional<bytes> openssl_derive(const bytes& priv, const bytes& peer) {
  return test::oracle::evp_raw_derive(EVP_PKEY_X448, priv, peer);
}

using failing_source = test::failing_random;

// RFC 7748 section 5.2, the iterated test: k and u start as 5; each round
// sets k = X448(k, u) and u = the old k.
std::string iterate(int rounds, int check_at, std::string* at_check) {
  std::array<std::uint8_t, 56> k{5}, u{5};
  for (int i = 1; i <= rounds; ++i) {
    std::array<std::uint8_t, 56> r{};
    const auto res = x448::shared_secret(r, k, x448::point_span(u));
    EXPECT_TRUE(res);
    u = k;
    k = r;
    if (i == check_at && at_check != nullptr) *at_check = test::to_hex(k);
  }
  return test::to_hex(k);
}

}  // namespace

TEST(X448, Provider) { EXPECT_EQ(x448::provider(), "portable"); }

TEST(X448, Rfc7748Section52Vectors) {
  EXPECT_EQ(x448_hex(hex("3d262fddf9ec8e88495266fea19a34d28882acef045104d0d1aae121700a779c"
                         "984c24f8cdd78fbff44943eba368f54b29259a4f1c600ad3"),
                     hex("06fce640fa3487bfda5f6cf2d5263f8aad88334cbd07437f020f08f9814dc031"
                         "ddbdc38c19c6da2583fa5429db94ada18aa7a7fb4ef8a086")),
            "ce3e4ff95a60dc6697da1db1d85e6afbdf79b50a2412d7546d5f239fe14fbaad"
            "eb445fc66a01b0779d98223961111e21766282f73dd96b6f");
  EXPECT_EQ(x448_hex(hex("203d494428b8399352665ddca42f9de8fef600908e0d461cb021f8c538345dd7"
                         "7c3e4806e25f46d3315c44e0a5b4371282dd2c8d5be3095f"),
                     hex("0fbcc2f993cd56d3305b0b7d9e55d4c1a8fb5dbb52f8e9a1e9b6201b165d0158"
                         "94e56c4d3570bee52fe205e28a78b91cdfbde71ce8d157db")),
            "884a02576239ff7a2f2f63b2db6a9ff37047ac13568e1e30fe63c4a7ad1b3ee3"
            "a5700df34321d62077e63633c575c1c954514e99da7c179d");
}

TEST(X448, Rfc7748Section52IteratedThousand) {
  std::string after_one;
  EXPECT_EQ(iterate(1000, 1, &after_one),
            "aa3b4749d55b9daf1e5b00288826c467274ce3ebbdd5c17b975e09d4"
            "af6c67cf10d087202db88286e2b79fceea3ec353ef54faa26e219f38");
  EXPECT_EQ(after_one,
            "3f482c8a9f19b01e6c46ee9711d9dc14fd4bf67af30765c2ae2b846a"
            "4d23a8cd0db897086239492caf350b51f833868b9bc2b3bca9cf4113");
}

// About two minutes (134 s in a -O2 build); run with --gtest_also_run_disabled_tests.
TEST(X448, DISABLED_Rfc7748Section52IteratedMillion) {
  EXPECT_EQ(iterate(1000000, 0, nullptr),
            "077f453681caca3693198420bbe515cae0002472519b3e67661a7e89"
            "cab94695c8f4bcd66e61b9b9c946da8d524de3d69bd9d9d66b997e37");
}

TEST(X448, Rfc7748Section62) {
  const bytes a = hex("9a8f4925d1519f5775cf46b04b5800d4ee9ee8bae8bc5565d498c28dd9c9baf5"
                      "74a9419744897391006382a6f127ab1d9ac2d8c0a598726b");
  const bytes b = hex("1c306a7ac2a0e2e0990b294470cba339e6453772b075811d8fad0d1d6927c120"
                      "bb5ee8972b0d3e21374c9c921b09d1b0366f10b65173992d");
  const std::string a_pub = "9b08f7cc31b7e3e67d22d5aea121074a273bd2b83de09c63faa73d2c22c5d9bb"
                            "c836647241d953d40c5b12da88120d53177f80e532c41fa0";
  const std::string b_pub = "3eb7a829b0cd20f5bcfc0b599b6feccf6da4627107bdb0d4f345b43027d8b972"
                            "fc3e34fb4232a13ca706dcb57aec3dae07bdc1c67bf33609";
  const std::string k = "07fff4181ac6cc95ec1c16a94a0f74d12da232ce40a77552281d282bb60c0b56"
                        "fd2464c335543936521c24403085d59a449a5037514a879d";
  EXPECT_EQ(public_hex(a), a_pub);
  EXPECT_EQ(public_hex(b), b_pub);
  EXPECT_EQ(x448_hex(a, hex(b_pub)), k);
  EXPECT_EQ(x448_hex(b, hex(a_pub)), k);
}

TEST(X448, WycheproofFile) {
  SEALWIRE_REQUIRE_VECTOR(path, "wycheproof/testvectors_v1/x448_test.json");
  const auto j = test::load_json(path);
  int valid = 0, invalid = 0, acceptable_rejected = 0, acceptable_accepted = 0;
  for (const auto& g : j["testGroups"]) {
    ASSERT_EQ(g["curve"].get<std::string>(), "curve448");
    for (const auto& c : g["tests"]) {
      const std::string id = "tcId " + std::to_string(c["tcId"].get<int>()) + ": " + c["comment"].get<std::string>();
      const bytes priv = hex(c["private"].get<std::string>());
      const bytes pub = hex(c["public"].get<std::string>());
      const std::string want = c["shared"].get<std::string>();
      const std::string verdict = c["result"].get<std::string>();
      std::uint8_t out[56];
      std::fill(std::begin(out), std::end(out), std::uint8_t{0xa5});
      const auto r = x448::shared_secret(out, as56(priv), std::span<const std::uint8_t>(pub));
      if (verdict == "valid") {
        ASSERT_TRUE(r) << id << ": " << r.error().message();
        EXPECT_EQ(test::to_hex(out), want) << id;
        ++valid;
      } else if (verdict == "invalid") {
        // The only invalid cases are keys of the wrong length.
        EXPECT_TRUE(test::has_flag(c, "PublicKeyTooLong")) << id;
        EXPECT_EQ(r.error(), crypto_errc::invalid_public_key) << id;
        EXPECT_TRUE(crypto::ct::is_zero(out)) << id;
        ++invalid;
      } else {
        ASSERT_EQ(verdict, "acceptable") << id;
        if (test::has_flag(c, "ZeroSharedSecret")) {
          // Rejected: an all-zero result (a low-order point, some of them
          // non-canonical encodings of 0 or 1) must not become a key; RFC 7748
          // section 6.2 allows the check and HPKE (RFC 9180 section 7.1.4)
          // requires it.
          EXPECT_EQ(want, std::string(112, '0')) << id;
          EXPECT_EQ(r.error(), crypto_errc::zero_shared_secret) << id;
          EXPECT_TRUE(crypto::ct::is_zero(out)) << id;
          ++acceptable_rejected;
        } else {
          // Accepted with the file's result: points on the twist, low-order
          // points whose result is not zero and non-canonical u (>= p) are
          // all inputs RFC 7748 section 5 defines the function for (u is
          // reduced modulo p), and section 7 recommends accepting them.
          ASSERT_TRUE(r) << id << ": " << r.error().message();
          EXPECT_EQ(test::to_hex(out), want) << id;
          ++acceptable_accepted;
        }
      }
    }
  }
  std::printf("wycheproof x448: %d valid, %d invalid, %d acceptable (%d accepted, %d rejected as zero)\n", valid,
              invalid, acceptable_accepted + acceptable_rejected, acceptable_accepted, acceptable_rejected);
  EXPECT_EQ(valid + invalid + acceptable_accepted + acceptable_rejected, j["numberOfTests"].get<int>());
  EXPECT_EQ(valid, 253);
  EXPECT_EQ(invalid, 12);
  EXPECT_EQ(acceptable_accepted, 234);
  EXPECT_EQ(acceptable_rejected, 11);
}

TEST(X448, DifferentialAgainstOpenSsl) {
  test::seeded_random rng(448);
  for (int i = 0; i < 300; ++i) {
    const bytes a = rng.fill(56), b = rng.fill(56);
    const std::string a_pub = public_hex(a), b_pub = public_hex(b);
    ASSERT_EQ(a_pub, test::to_hex(*test::oracle::evp_raw_public(EVP_PKEY_X448, a))) << i;
    ASSERT_EQ(b_pub, test::to_hex(*test::oracle::evp_raw_public(EVP_PKEY_X448, b))) << i;
    const std::string k = x448_hex(a, hex(b_pub));
    EXPECT_EQ(x448_hex(b, hex(a_pub)), k) << i;
    const auto theirs = openssl_derive(a, hex(b_pub));
    ASSERT_TRUE(theirs) << i;
    ASSERT_EQ(k, test::to_hex(*theirs)) << i;
  }
}

TEST(X448, DifferentialRandomPeerStrings) {
  // Any 56-byte string is a u-coordinate (on the curve or its twist, maybe
  // non-canonical); OpenSSL must agree on each one.
  test::seeded_random rng(7748);
  for (int i = 0; i < 100; ++i) {
    const bytes a = rng.fill(56), u = rng.fill(56);
    const auto theirs = openssl_derive(a, u);
    ASSERT_TRUE(theirs) << i;
    EXPECT_EQ(x448_hex(a, u), test::to_hex(*theirs)) << i;
  }
}

TEST(X448, ScalarDecodingIgnoresClampedBits) {
  // RFC 7748 section 5: bits 0, 1 and 447 of the scalar are fixed by decoding.
  test::seeded_random rng(5);
  const bytes u = hex(public_hex(rng.fill(56)));
  bytes k = rng.fill(56);
  const std::string want = x448_hex(k, u);
  k[0] ^= 3;
  k[55] ^= 0x80;
  EXPECT_EQ(x448_hex(k, u), want);
}

TEST(X448, AllZeroResultIsRejectedAndZeroed) {
  test::seeded_random rng(9);
  const bytes k = rng.fill(56);
  bytes zero(56, 0), one(56, 0);
  one[0] = 1;
  // p = 2^448 - 2^224 - 1 and p + 1, the non-canonical forms of 0 and 1.
  bytes p(56, 0xff), p_plus_1(56, 0);
  p[28] = 0xfe;
  std::fill(p_plus_1.begin() + 28, p_plus_1.end(), std::uint8_t{0xff});
  for (const bytes* u : {&zero, &one, &p, &p_plus_1}) {
    std::uint8_t out[56];
    std::fill(std::begin(out), std::end(out), std::uint8_t{0xa5});
    const auto r = x448::shared_secret(out, as56(k), as56(*u));
    EXPECT_EQ(r.error(), crypto_errc::zero_shared_secret) << test::to_hex(*u);
    EXPECT_TRUE(crypto::ct::is_zero(out)) << test::to_hex(*u);
  }
}

TEST(X448, DynamicLengthPeerMustBe56Bytes) {
  test::seeded_random rng(11);
  const bytes k = rng.fill(56);
  const bytes peer = hex(public_hex(rng.fill(56)));
  for (std::size_t len : {0u, 55u, 57u, 112u}) {
    bytes p = peer;
    p.resize(len, 0);
    std::uint8_t out[56];
    std::fill(std::begin(out), std::end(out), std::uint8_t{0xa5});
    const auto r = x448::shared_secret(out, as56(k), std::span<const std::uint8_t>(p));
    EXPECT_EQ(r.error(), crypto_errc::invalid_public_key) << len;
    EXPECT_TRUE(crypto::ct::is_zero(out)) << len;
  }
  std::uint8_t out[56];
  ASSERT_TRUE(x448::shared_secret(out, as56(k), std::span<const std::uint8_t>(peer)));
  EXPECT_EQ(test::to_hex(out), x448_hex(k, peer));
}

TEST(X448, GenerateGivesAMatchingKeyPair) {
  test::seeded_random det(12), replay(12);
  auto* prev = crypto::set_random_source(&det);
  std::uint8_t priv[56], pub[56];
  const auto r = x448::generate(priv, pub);
  crypto::set_random_source(prev);
  ASSERT_TRUE(r);
  EXPECT_EQ(test::to_hex(priv), test::to_hex(replay.fill(56)));
  EXPECT_EQ(test::to_hex(pub), public_hex(bytes(priv, priv + 56)));

  // And from the operating system's generator: two pairs that agree on a secret.
  std::uint8_t priv2[56], pub2[56], k1[56], k2[56];
  ASSERT_TRUE(x448::generate(priv, pub));
  ASSERT_TRUE(x448::generate(priv2, pub2));
  EXPECT_EQ(test::to_hex(pub), public_hex(bytes(priv, priv + 56)));
  EXPECT_NE(test::to_hex(priv), test::to_hex(priv2));
  // A plain array converts to both peer overloads' spans equally well, so
  // the fixed-extent one is named.
  ASSERT_TRUE(x448::shared_secret(k1, priv, x448::point_span(pub2)));
  ASSERT_TRUE(x448::shared_secret(k2, priv2, x448::point_span(pub)));
  EXPECT_EQ(test::to_hex(k1), test::to_hex(k2));
}

TEST(X448, GenerateReportsRandomFailureWithZeroedOutputs) {
  failing_source bad;
  auto* prev = crypto::set_random_source(&bad);
  std::uint8_t priv[56], pub[56];
  std::fill(std::begin(priv), std::end(priv), std::uint8_t{0xa5});
  std::fill(std::begin(pub), std::end(pub), std::uint8_t{0xa5});
  const auto r = x448::generate(priv, pub);
  crypto::set_random_source(prev);
  EXPECT_EQ(r.error(), crypto_errc::rng_failure);
  EXPECT_TRUE(crypto::ct::is_zero(priv));
  EXPECT_TRUE(crypto::ct::is_zero(pub));
}
