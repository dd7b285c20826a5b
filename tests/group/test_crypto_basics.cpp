// SPDX-License-Identifier: Apache-2.0
// RFC 9420 section 5's helpers against crypto-basics.json for all seven
// cipher suites (RefHash, ExpandWithLabel, DeriveSecret, DeriveTreeSecret,
// SignWithLabel/VerifyWithLabel, EncryptWithLabel/DecryptWithLabel), with
// round trips of our own and tampering.
#include <sealwire/record/group/crypto_helpers.hpp>
#include <sealwire/record/group/group_error.hpp>

#include "vectors.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>
#include <string>

namespace sealwire::record::group {
namespace {

using test::bytes;
using test::hex;

suite_algorithms suite_of(const nlohmann::json& c) {
  return suite_algorithms::from_id(c["cipher_suite"].get<std::uint16_t>()).value();
}

std::string str(const nlohmann::json& v) { return v.get<std::string>(); }

TEST(GroupCryptoBasics, SuiteTable) {
  EXPECT_FALSE(suite_algorithms::from_id(0).has_value());
  EXPECT_FALSE(suite_algorithms::from_id(8).has_value());
  EXPECT_FALSE(suite_algorithms::from_id(0x0a0a).has_value());  // GREASE
  const auto s5 = suite_algorithms::from_id(5).value();
  EXPECT_EQ(s5.hash_size(), 64U);
  EXPECT_EQ(s5.key_size(), 32U);
  EXPECT_EQ(s5.hpke().kem, hpke::kem_id::p521);
  EXPECT_EQ(s5.signature(), signature_scheme::ecdsa_secp521r1_sha512);
  const auto s7 = suite_algorithms::from_id(7).value();
  EXPECT_EQ(s7.hash_size(), 48U);
  EXPECT_EQ(s7.hpke().kdf, hpke::kdf_id::hkdf_sha384);
  EXPECT_EQ(to_string(cipher_suite_id::x25519_chacha20poly1305_sha256_ed25519),
            "MLS_128_DHKEMX25519_CHACHA20POLY1305_SHA256_Ed25519");
}

TEST(GroupCryptoBasics, OfficialVectors) {
  SEALWIRE_REQUIRE_VECTOR(path, "mls/crypto-basics.json");
  const auto cases = test::load_json(path);
  std::set<std::uint16_t> suites;
  for (const auto& c : cases) {
    const suite_algorithms suite = suite_of(c);
    suites.insert(static_cast<std::uint16_t>(suite.id()));
    SCOPED_TRACE(std::string(to_string(suite.id())));

    {  // RefHash (5.2)
      const auto& v = c["ref_hash"];
      bytes out(suite.hash_size());
      EXPECT_EQ(ref_hash(suite, out, str(v["label"]), hex(str(v["value"]))).value(), suite.hash_size());
      EXPECT_EQ(out, hex(str(v["out"])));
    }
    {  // ExpandWithLabel (5.1)
      const auto& v = c["expand_with_label"];
      bytes out(v["length"].get<std::size_t>());
      ASSERT_TRUE(expand_with_label(suite, out, hex(str(v["secret"])), str(v["label"]), hex(str(v["context"]))));
      EXPECT_EQ(out, hex(str(v["out"])));
    }
    {  // DeriveSecret (5.1)
      const auto& v = c["derive_secret"];
      bytes out(suite.hash_size());
      ASSERT_TRUE(derive_secret(suite, out, hex(str(v["secret"])), str(v["label"])));
      EXPECT_EQ(out, hex(str(v["out"])));
    }
    {  // DeriveTreeSecret (9)
      const auto& v = c["derive_tree_secret"];
      bytes out(v["length"].get<std::size_t>());
      ASSERT_TRUE(derive_tree_secret(suite, out, hex(str(v["secret"])), str(v["label"]),
                                     v["generation"].get<std::uint32_t>()));
      EXPECT_EQ(out, hex(str(v["out"])));
    }
    {  // SignWithLabel / VerifyWithLabel (5.1.2)
      const auto& v = c["sign_with_label"];
      const bytes pub = hex(str(v["pub"]));
      const bytes content = hex(str(v["content"]));
      const std::string label = str(v["label"]);
      bytes sig = hex(str(v["signature"]));
      EXPECT_TRUE(verify_with_label(suite.signature(), pub, label, content, sig));
      const auto key = signature_private_key::from_bytes(suite.signature(), hex(str(v["priv"]))).value();
      EXPECT_EQ(bytes(key.public_key().begin(), key.public_key().end()), pub);
      const auto ours = sign_with_label(key, label, content).value();
      EXPECT_TRUE(verify_with_label(suite.signature(), pub, label, content, ours));
      if (suite.signature() == signature_scheme::ed25519 || suite.signature() == signature_scheme::ed448) {
        EXPECT_EQ(ours, sig);  // EdDSA is deterministic
      }
      // Another label, other content, or a flipped signature bit fail.
      EXPECT_FALSE(verify_with_label(suite.signature(), pub, label + "x", content, sig));
      bytes other = content;
      other[0] ^= 1;
      EXPECT_FALSE(verify_with_label(suite.signature(), pub, label, other, sig));
      sig[sig.size() / 2] ^= 0x10;
      EXPECT_FALSE(verify_with_label(suite.signature(), pub, label, content, sig));
    }
    {  // EncryptWithLabel / DecryptWithLabel (5.1.3)
      const auto& v = c["encrypt_with_label"];
      const auto priv = hpke::private_key::from(suite.hpke().kem, hex(str(v["priv"]))).value();
      EXPECT_EQ(bytes(priv.public_key().bytes().begin(), priv.public_key().bytes().end()), hex(str(v["pub"])));
      const std::string label = str(v["label"]);
      const bytes context = hex(str(v["context"]));
      const bytes plaintext = hex(str(v["plaintext"]));
      const bytes kem_output = hex(str(v["kem_output"]));
      bytes ciphertext = hex(str(v["ciphertext"]));
      EXPECT_EQ(decrypt_with_label(suite, priv, label, context, kem_output, ciphertext).value(), plaintext);
      const auto sealed = encrypt_with_label(suite, priv.public_key(), label, context, plaintext).value();
      EXPECT_EQ(decrypt_with_label(suite, priv, label, context, sealed.kem_output, sealed.ciphertext).value(),
                plaintext);
      EXPECT_FALSE(decrypt_with_label(suite, priv, label + "x", context, kem_output, ciphertext).has_value());
      ciphertext.back() ^= 1;
      EXPECT_FALSE(decrypt_with_label(suite, priv, label, context, kem_output, ciphertext).has_value());
      EXPECT_FALSE(decrypt_with_label(suite, priv, label, context, kem_output, {}).has_value());
    }
  }
  EXPECT_EQ(suites, (std::set<std::uint16_t>{1, 2, 3, 4, 5, 6, 7}));
}

TEST(GroupCryptoBasics, Limits) {
  const suite_algorithms suite(cipher_suite_id::x25519_aes128gcm_sha256_ed25519);
  const bytes secret(32, 7);
  bytes too_long(65536);
  EXPECT_EQ(expand_with_label(suite, too_long, secret, "x", {}).error(), group_errc::invalid_argument);
  bytes over_hkdf(255 * 32 + 1);
  EXPECT_EQ(expand_with_label(suite, over_hkdf, secret, "x", {}).error(), crypto_errc::output_too_long);
  // An ECDSA scalar written without its leading zero byte loads as the same key.
  const auto key = signature_private_key::generate(signature_scheme::ecdsa_secp256r1_sha256).value();
  EXPECT_FALSE(signature_private_key::from_bytes(signature_scheme::ecdsa_secp256r1_sha256, bytes(33, 1)).has_value());
  EXPECT_FALSE(signature_private_key::from_bytes(signature_scheme::ed25519, bytes(31, 1)).has_value());
  EXPECT_FALSE(signature_private_key::from_bytes(signature_scheme::ecdsa_secp256r1_sha256, bytes(32, 0)).has_value());
  const auto small = signature_private_key::from_bytes(signature_scheme::ecdsa_secp256r1_sha256, bytes{0x01, 0x02});
  ASSERT_TRUE(small.has_value());
  bytes padded(32, 0);
  padded[30] = 0x01;
  padded[31] = 0x02;
  const auto same = signature_private_key::from_bytes(signature_scheme::ecdsa_secp256r1_sha256, padded).value();
  EXPECT_TRUE(std::equal(small->public_key().begin(), small->public_key().end(), same.public_key().begin(),
                         same.public_key().end()));
  (void)key;
}

}  // namespace
}  // namespace sealwire::record::group
