// SPDX-License-Identifier: Apache-2.0
// Names of the crypto ids (to_string and parse), the shared name-table
// helpers, and the run-time hash dispatch (kdf.hpp) against the templates.
#include <sealwire/crypto/aead.hpp>
#include <sealwire/crypto/hkdf.hpp>
#include <sealwire/crypto/hmac.hpp>
#include <sealwire/crypto/kdf.hpp>
#include <sealwire/version.hpp>

#include "vectors.hpp"

#include <string>

using namespace sealwire;
using crypto::aead_algorithm;
using crypto::hash_algorithm;
using test::bytes;

TEST(Names, EveryAeadAlgorithmRoundTrips) {
  for (auto alg : {aead_algorithm::chacha20_poly1305, aead_algorithm::xchacha20_poly1305,
                   aead_algorithm::xsalsa20_poly1305, aead_algorithm::chacha20_poly1305_original,
                   aead_algorithm::aes128_gcm, aead_algorithm::aes256_gcm}) {
    const std::string_view name = to_string(alg);
    EXPECT_NE(name, "unknown");
    EXPECT_EQ(parse<aead_algorithm>(name).value(), alg);
    // The display name is read too, in any case.
    std::string upper(crypto::properties(alg).name);
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    EXPECT_EQ(parse<aead_algorithm>(upper).value(), alg) << upper;
  }
  EXPECT_EQ(parse<aead_algorithm>("aes192gcm").error(), crypto_errc::unknown_algorithm);
  EXPECT_EQ(parse<aead_algorithm>("").error(), crypto_errc::unknown_algorithm);
  EXPECT_EQ(parse<aead_algorithm>("3").error(), crypto_errc::unknown_algorithm);  // no registry numbers here
}

TEST(Names, HashesRoundTrip) {
  for (auto h : {hash_algorithm::sha2_256, hash_algorithm::sha2_384, hash_algorithm::sha2_512})
    EXPECT_EQ(parse<hash_algorithm>(to_string(h)).value(), h);
  EXPECT_EQ(parse<hash_algorithm>("SHA256").value(), hash_algorithm::sha2_256);
  EXPECT_FALSE(parse<hash_algorithm>("sha1"));
}

TEST(Names, NumbersAreDecimalOrHexAndBounded) {
  std::uint32_t v = 0;
  EXPECT_TRUE(naming::parse_number("0x20", v));
  EXPECT_EQ(v, 0x20u);
  EXPECT_TRUE(naming::parse_number("32", v));
  EXPECT_EQ(v, 32u);
  EXPECT_TRUE(naming::parse_number("0XfFfF", v));
  EXPECT_EQ(v, 0xffffu);
  for (const char* bad : {"", "0x", "-1", "+1", "1a", "0x1g", "4294967296", " 1"}) EXPECT_FALSE(naming::parse_number(bad, v)) << bad;
}

TEST(Kdf, RunTimeDispatchEqualsTheTemplates) {
  test::seeded_random rng(3);
  const bytes salt = rng.fill(20), ikm = rng.fill(40), info = rng.fill(10), key = rng.fill(70);
  std::uint8_t a[64], b[64];
  crypto::hkdf_extract(hash_algorithm::sha2_384, a, salt, {ikm});
  crypto::hkdf_sha384::extract(std::span<std::uint8_t, 48>(b, 48), salt, ikm);
  EXPECT_EQ(test::to_hex(std::span(a).first(48)), test::to_hex(std::span(b).first(48)));
  bytes okm1(100), okm2(100);
  ASSERT_TRUE(crypto::hkdf_expand(hash_algorithm::sha2_512, okm1, std::span(a).first(48), {info}));
  ASSERT_TRUE(crypto::hkdf_sha512::expand(okm2, std::span(a).first(48), info));
  EXPECT_EQ(okm1, okm2);
  bytes too_long(255 * 32 + 1);
  EXPECT_EQ(crypto::hkdf_expand(hash_algorithm::sha2_256, too_long, a, {}).error(),
            crypto_errc::output_too_long);
  crypto::hmac_compute(hash_algorithm::sha2_256, a, key, {info, ikm});
  bytes joined = info;
  joined.insert(joined.end(), ikm.begin(), ikm.end());
  crypto::hmac_sha256::mac(std::span<std::uint8_t, 32>(b, 32), key, joined);
  EXPECT_EQ(test::to_hex(std::span(a).first(32)), test::to_hex(std::span(b).first(32)));

  crypto::dynamic_hash h(hash_algorithm::sha2_512);
  h.update(info);
  EXPECT_EQ(h.current(a), 64u);
  h.update(ikm);
  EXPECT_EQ(h.digest_size(), 64u);
  h.current(b);
  std::uint8_t ref[64];
  crypto::sha512::hash(ref, joined);
  EXPECT_EQ(test::to_hex(std::span(b).first(64)), test::to_hex(ref));
  EXPECT_NE(test::to_hex(std::span(a).first(64)), test::to_hex(ref));
}

TEST(Version, HeaderMatchesTheProject) {
  EXPECT_EQ(std::string(version_string),
            std::to_string(version_major) + "." + std::to_string(version_minor) + "." + std::to_string(version_patch));
  EXPECT_EQ(std::string(SEALWIRE_VERSION_STRING), version_string);
}
