// SPDX-License-Identifier: Apache-2.0
// HMAC (RFC 4231) and HKDF (RFC 5869): known answers, the Wycheproof files,
// the output limit, and differential checks with OpenSSL and libsodium.
#include <sealwire/crypto/hkdf.hpp>
#include <sealwire/crypto/hmac.hpp>

#include "oracles.hpp"
#include "vectors.hpp"

#include <nlohmann/json.hpp>

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <sodium.h>

#include <cstdio>

using namespace sealwire;
using test::bytes;
using test::hex;

namespace {

class HmacHkdf : public test::cpu_level_test {};
SEALWIRE_INSTANTIATE_CPU_LEVELS(HmacHkdf);

template <class H>
std::string mac_hex(const bytes& key, const bytes& msg) {
  std::uint8_t t[crypto::hmac<H>::tag_size];
  crypto::hmac<H>::mac(t, key, msg);
  return test::to_hex(t);
}

template <class H>
result<bytes> hkdf(const bytes& ikm, const bytes& salt, const bytes& info, std::size_t size) {
  std::uint8_t prk[crypto::hkdf<H>::hash_size];
  crypto::hkdf<H>::extract(prk, salt, ikm);
  bytes okm(size);
  if (auto r = crypto::hkdf<H>::expand(okm, prk, info); !r) return r.error();
  return okm;
}

}  // namespace

TEST_P(HmacHkdf, Rfc4231Cases1And2) {
  const bytes k1(20, 0x0b), d1 = test::to_bytes("Hi There");
  EXPECT_EQ(mac_hex<crypto::sha256>(k1, d1), "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  EXPECT_EQ(mac_hex<crypto::sha384>(k1, d1),
            "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9cb6");
  EXPECT_EQ(mac_hex<crypto::sha512>(k1, d1),
            "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cdedaa833b7d6b8a702038b274eaea3f4e4be9d914eeb6"
            "1f1702e696c203a126854");
  const bytes k2 = test::to_bytes("Jefe"), d2 = test::to_bytes("what do ya want for nothing?");
  EXPECT_EQ(mac_hex<crypto::sha256>(k2, d2), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  EXPECT_EQ(mac_hex<crypto::sha384>(k2, d2),
            "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649");
  EXPECT_EQ(mac_hex<crypto::sha512>(k2, d2),
            "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4"
            "a6b4b636e070a38bce737");
}

TEST_P(HmacHkdf, Rfc5869Cases1And3) {
  const bytes ikm(22, 0x0b);
  std::uint8_t prk[32];
  crypto::hkdf_sha256::extract(prk, hex("000102030405060708090a0b0c"), ikm);
  EXPECT_EQ(test::to_hex(prk), "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5");
  bytes okm(42);
  ASSERT_TRUE(crypto::hkdf_sha256::expand(okm, prk, hex("f0f1f2f3f4f5f6f7f8f9")));
  EXPECT_EQ(test::to_hex(okm), "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865");
  crypto::hkdf_sha256::extract(prk, {}, ikm);
  EXPECT_EQ(test::to_hex(prk), "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04");
  ASSERT_TRUE(crypto::hkdf_sha256::expand(okm, prk, bytes{}));
  EXPECT_EQ(test::to_hex(okm), "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8");
}

TEST_P(HmacHkdf, PiecesEqualTheConcatenation) {
  const bytes a = hex("0102"), b = hex("030405"), c = hex("06");
  const bytes all = hex("010203040506");
  std::uint8_t p1[48], p2[48];
  crypto::hkdf_sha384::extract(p1, hex("aa"), {a, b, c});
  crypto::hkdf_sha384::extract(p2, hex("aa"), all);
  EXPECT_EQ(test::to_hex(p1), test::to_hex(p2));
  bytes o1(100), o2(100);
  ASSERT_TRUE(crypto::hkdf_sha384::expand(o1, p1, {a, b, c}));
  ASSERT_TRUE(crypto::hkdf_sha384::expand(o2, p1, all));
  EXPECT_EQ(o1, o2);
}

TEST_P(HmacHkdf, ExpandLimitIsAnError) {
  std::uint8_t prk[32] = {};
  bytes okm(255 * 32 + 1, 0xee);
  EXPECT_EQ(crypto::hkdf_sha256::expand(okm, prk, bytes{}).error(), crypto_errc::output_too_long);
  EXPECT_EQ(okm, bytes(255 * 32 + 1, 0xee)) << "nothing written";
  EXPECT_TRUE(crypto::hkdf_sha256::expand(std::span(okm).first(255 * 32), prk, bytes{}));
  bytes big(255 * 64);
  EXPECT_TRUE(crypto::hkdf_sha512::expand(big, prk, bytes{}));
}

TEST_P(HmacHkdf, ReuseAfterFinishAndVerify) {
  const bytes key = test::to_bytes("key"), m1 = test::to_bytes("one"), m2 = test::to_bytes("two");
  crypto::hmac_sha256 h(key);
  std::uint8_t t1[32], t2[32];
  h.update(m1);
  h.finish(t1);
  h.update(m2);  // the same key, a new message
  h.finish(t2);
  EXPECT_EQ(test::to_hex(t1), mac_hex<crypto::sha256>(key, m1));
  EXPECT_EQ(test::to_hex(t2), mac_hex<crypto::sha256>(key, m2));
  EXPECT_TRUE(crypto::hmac_sha256::verify(t1, key, m1));
  t1[31] ^= 1;
  EXPECT_FALSE(crypto::hmac_sha256::verify(t1, key, m1));
  EXPECT_FALSE(crypto::hmac_sha256::verify(std::span(t2).first(31), key, m2)) << "a short tag never verifies";
}

// The verdict on every case comes from the library: hmac<H>::verify for
// full-length tags, whose result must equal the file's. The library offers no
// truncated-tag verification (a tag shorter than the hash never verifies, see
// hmac.hpp), so for the truncated groups verify must refuse every tag, valid
// or not, and the valid ones must still be the leading bytes of hmac<H>::mac.
struct hmac_counts {
  int verified_valid = 0, verified_invalid = 0;    // full-length tags, verdict from verify
  int truncated_valid = 0, truncated_invalid = 0;  // verify refuses them (shorter than the hash)
};

template <class H>
hmac_counts run_wycheproof_hmac(const std::filesystem::path& path) {
  const auto j = test::load_json(path);
  const std::string file = path.filename().string();
  hmac_counts n;
  for (const auto& g : j["testGroups"]) {
    const std::size_t tag_bytes = g["tagSize"].get<std::size_t>() / 8;
    for (const auto& t : g["tests"]) {
      const std::string id = file + " tcId " + std::to_string(t["tcId"].get<int>()) + ": " +
                             t["comment"].get<std::string>();
      const bytes key = hex(t["key"].get<std::string>()), msg = hex(t["msg"].get<std::string>());
      const bytes tag = hex(t["tag"].get<std::string>());
      const std::string verdict = t["result"].get<std::string>();
      EXPECT_TRUE(verdict == "valid" || verdict == "invalid") << id;
      EXPECT_EQ(tag.size(), tag_bytes) << id;
      const bool verified = crypto::hmac<H>::verify(tag, key, msg);
      if (tag.size() == crypto::hmac<H>::tag_size) {
        EXPECT_EQ(verified, verdict == "valid") << id;
        ++(verdict == "valid" ? n.verified_valid : n.verified_invalid);
      } else {
        EXPECT_FALSE(verified) << id << ": a truncated tag verified";
        if (verdict == "valid") {
          std::uint8_t full[crypto::hmac<H>::tag_size];
          crypto::hmac<H>::mac(full, key, msg);
          EXPECT_EQ(test::to_hex(std::span(full).first(tag.size())), test::to_hex(tag)) << id;
          ++n.truncated_valid;
        } else {
          ++n.truncated_invalid;
        }
      }
    }
  }
  EXPECT_EQ(n.verified_valid + n.verified_invalid + n.truncated_valid + n.truncated_invalid,
            j["numberOfTests"].get<int>())
      << file;
  return n;
}

// Each file has 174 cases: 87 with full-length tags (33 valid, 54 invalid:
// modified tags) and 87 with tags of half the hash length (the same split).
TEST_P(HmacHkdf, WycheproofHmac) {
  const auto check = [](const char* file, const hmac_counts& n) {
    std::printf("wycheproof %s: %d valid and %d invalid full-length tags verified, %d + %d truncated tags refused\n",
                file, n.verified_valid, n.verified_invalid, n.truncated_valid, n.truncated_invalid);
    EXPECT_EQ(n.verified_valid, 33) << file;
    EXPECT_EQ(n.verified_invalid, 54) << file;
    EXPECT_EQ(n.truncated_valid, 33) << file;
    EXPECT_EQ(n.truncated_invalid, 54) << file;
  };
  {
    SEALWIRE_REQUIRE_VECTOR(path, "wycheproof/testvectors_v1/hmac_sha256_test.json");
    check("hmac_sha256_test.json", run_wycheproof_hmac<crypto::sha256>(path));
  }
  {
    SEALWIRE_REQUIRE_VECTOR(path, "wycheproof/testvectors_v1/hmac_sha384_test.json");
    check("hmac_sha384_test.json", run_wycheproof_hmac<crypto::sha384>(path));
  }
  {
    SEALWIRE_REQUIRE_VECTOR(path, "wycheproof/testvectors_v1/hmac_sha512_test.json");
    check("hmac_sha512_test.json", run_wycheproof_hmac<crypto::sha512>(path));
  }
}

template <class H>
void run_wycheproof_hkdf(const char* file, int want_valid) {
  SEALWIRE_REQUIRE_VECTOR(path, file);
  const auto j = test::load_json(path);
  int valid = 0, invalid = 0;
  for (const auto& g : j["testGroups"]) {
    for (const auto& t : g["tests"]) {
      const auto got = hkdf<H>(hex(t["ikm"].get<std::string>()), hex(t["salt"].get<std::string>()),
                               hex(t["info"].get<std::string>()), t["size"].get<std::size_t>());
      if (t["result"] == "valid") {
        ASSERT_TRUE(got) << file << " tcId " << t["tcId"];
        EXPECT_EQ(test::to_hex(*got), t["okm"].get<std::string>()) << file << " tcId " << t["tcId"];
        ++valid;
      } else {
        // The invalid cases ask for more than 255 * HashLen bytes.
        EXPECT_EQ(got.error(), crypto_errc::output_too_long) << file << " tcId " << t["tcId"];
        ++invalid;
      }
    }
  }
  EXPECT_EQ(valid + invalid, j["numberOfTests"].get<int>()) << file;
  EXPECT_EQ(valid, want_valid) << file;
  EXPECT_EQ(invalid, 3) << file;
}

TEST_P(HmacHkdf, WycheproofHkdf) {
  run_wycheproof_hkdf<crypto::sha256>("wycheproof/testvectors_v1/hkdf_sha256_test.json", 83);
  run_wycheproof_hkdf<crypto::sha384>("wycheproof/testvectors_v1/hkdf_sha384_test.json", 80);
  run_wycheproof_hkdf<crypto::sha512>("wycheproof/testvectors_v1/hkdf_sha512_test.json", 80);
}

namespace {
}  // namespace

TEST_P(HmacHkdf, DifferentialAgainstOpenSSLAndLibsodium) {
  test::seeded_random rng(5869);
  for (int i = 0; i < 300; ++i) {
    const bytes key = rng.fill(rng.uniform(200)), msg = rng.fill(rng.uniform(2000));
    unsigned len = 0;
    bytes ref(64);
    HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), msg.data(), msg.size(), ref.data(), &len);
    ASSERT_EQ(mac_hex<crypto::sha256>(key, msg), test::to_hex(std::span(ref).first(32))) << i;
    HMAC(EVP_sha384(), key.data(), static_cast<int>(key.size()), msg.data(), msg.size(), ref.data(), &len);
    ASSERT_EQ(mac_hex<crypto::sha384>(key, msg), test::to_hex(std::span(ref).first(48))) << i;
    HMAC(EVP_sha512(), key.data(), static_cast<int>(key.size()), msg.data(), msg.size(), ref.data(), &len);
    ASSERT_EQ(mac_hex<crypto::sha512>(key, msg), test::to_hex(ref)) << i;
    // libsodium's HMAC-SHA256 (any key length through its incremental API).
    crypto_auth_hmacsha256_state st;
    crypto_auth_hmacsha256_init(&st, key.data(), key.size());
    crypto_auth_hmacsha256_update(&st, msg.data(), msg.size());
    crypto_auth_hmacsha256_final(&st, ref.data());
    ASSERT_EQ(mac_hex<crypto::sha256>(key, msg), test::to_hex(std::span(ref).first(32))) << i;

    const bytes salt = rng.fill(rng.uniform(80)), info = rng.fill(rng.uniform(80));
    const std::size_t size = 1 + rng.uniform(400);
    ASSERT_EQ(*hkdf<crypto::sha256>(key, salt, info, size), *test::oracle::evp_hkdf("SHA256", key, salt, info, size))
        << i << " ikm " << key.size() << " salt " << salt.size() << " info " << info.size() << " size " << size;
    ASSERT_EQ(*hkdf<crypto::sha384>(key, salt, info, size), *test::oracle::evp_hkdf("SHA384", key, salt, info, size)) << i;
    ASSERT_EQ(*hkdf<crypto::sha512>(key, salt, info, size), *test::oracle::evp_hkdf("SHA512", key, salt, info, size)) << i;
  }
}
