// SPDX-License-Identifier: Apache-2.0
// The ChaCha20-Poly1305 family, one-shot: RFC 8439 and XChaCha draft known
// answers, the Crypto++, Botan and Wycheproof files, and secretbox against
// libsodium.
#include <sealwire/crypto/aead.hpp>
#include <sealwire/crypto/poly1305.hpp>

#include "aead_helpers.hpp"
#include "formats.hpp"
#include "vectors.hpp"

#include <nlohmann/json.hpp>

#include <sodium.h>

using namespace sealwire;
using crypto::aead_algorithm;
using test::bytes;
using test::hex;

namespace {

class Aead : public test::cpu_level_test {};
SEALWIRE_INSTANTIATE_CPU_LEVELS(Aead);

using test::check_aead_case;

aead_algorithm by_nonce_size(std::size_t n) {
  return n == 8 ? aead_algorithm::chacha20_poly1305_original
                : n == 12 ? aead_algorithm::chacha20_poly1305 : aead_algorithm::xchacha20_poly1305;
}

}  // namespace

// ---- known answers from the texts ----

TEST_P(Aead, Rfc8439Section282) {
  const bytes pt = test::to_bytes(
      "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be "
      "it.");
  check_aead_case(aead_algorithm::chacha20_poly1305, hex("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"),
             hex("070000004041424344454647"), hex("50515253c0c1c2c3c4c5c6c7"), pt,
             hex("d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b1a71de0a"
                 "9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc3ff4def08e4b7a9d"
                 "e576d26586cec64b6116"),
             hex("1ae10b594f09e26a7e902ecbd0600691"), "RFC 8439 2.8.2");
}

TEST_P(Aead, XChaChaDraftA31) {
  const bytes pt = test::to_bytes(
      "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be "
      "it.");
  check_aead_case(aead_algorithm::xchacha20_poly1305, hex("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"),
             hex("404142434445464748494a4b4c4d4e4f5051525354555657"), hex("50515253c0c1c2c3c4c5c6c7"), pt,
             hex("bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb731c7f1b0b4aa6440bf3a82f4eda7e39ae64c670"
                 "8c54c216cb96b72e1213b4522f8c9ba40db5d945b11b69b982c1bb9e3f3fac2bc369488f76b2383565d3fff921f9664c97637da9"
                 "768812f615c68b13b52e"),
             hex("c0875924c1c7987947deafd8780acf49"), "draft-irtf-cfrg-xchacha A.3.1");
}

// ---- vector files ----

TEST_P(Aead, Rfc8439File) {
  SEALWIRE_REQUIRE_VECTOR(path, "stream/rfc8439.json");
  const auto j = test::load_json(path);
  int n = 0;
  for (const auto& c : j["aead_chacha20_poly1305"]) {
    auto h = [&](const char* k) { return hex(c[k].get<std::string>()); };
    check_aead_case(aead_algorithm::chacha20_poly1305, h("key"), h("nonce"), h("aad"), h("plaintext"), h("ciphertext"),
               h("tag"), c["section"].get<std::string>());
    // The construction's exact MAC input, authenticated with the one-time key.
    std::uint8_t tag[16];
    const bytes otk = h("otk");
    crypto::poly1305::mac(tag, h("mac_data"), std::span<const std::uint8_t, 32>(otk.data(), 32));
    EXPECT_EQ(test::to_hex(tag), c["tag"].get<std::string>());
    ++n;
  }
  EXPECT_EQ(n, 2);
}

TEST_P(Aead, XChaChaDraftFile) {
  SEALWIRE_REQUIRE_VECTOR(path, "stream/xchacha-draft-irtf-cfrg-xchacha-03.json");
  const auto j = test::load_json(path);
  int n = 0;
  for (const auto& c : j["aead_xchacha20_poly1305"]) {
    auto h = [&](const char* k) { return hex(c[k].get<std::string>()); };
    check_aead_case(aead_algorithm::xchacha20_poly1305, h("key"), h("nonce"), h("aad"), h("plaintext"), h("ciphertext"),
               h("tag"), c["section"].get<std::string>());
    ++n;
  }
  EXPECT_EQ(n, 1);
}

TEST_P(Aead, CryptoppFile) {
  SEALWIRE_REQUIRE_VECTOR(path, "stream/cryptopp/chacha20poly1305.txt");
  std::map<std::string, int> count;
  for (const auto& t : test::parse_cryptopp(test::read_text(path))) {
    ASSERT_EQ(t.test, "Encrypt") << t.line;
    const std::string name = t.fields.at("Name");
    const aead_algorithm alg =
        name == "ChaCha20/Poly1305" ? aead_algorithm::chacha20_poly1305 : aead_algorithm::xchacha20_poly1305;
    check_aead_case(alg, t.data("Key"), t.data("IV"), t.data("Header"), t.data("Plaintext"), t.data("Ciphertext"),
               t.data("MAC"), "line " + std::to_string(t.line));
    ++count[name];
  }
  EXPECT_EQ(count["ChaCha20/Poly1305"], 578);
  EXPECT_EQ(count["XChaCha20/Poly1305"], 594);
}

TEST_P(Aead, BotanFileAllNonceSizes) {
  SEALWIRE_REQUIRE_VECTOR(path, "stream/botan/chacha20poly1305.vec");
  std::map<std::size_t, int> by_nonce;
  for (const auto& e : test::parse_botan_vec(test::read_text(path))) {
    const bytes nonce = e.get("Nonce"), out = e.get("Out");
    ASSERT_GE(out.size(), 16u);
    const bytes ct(out.begin(), out.end() - 16), tag(out.end() - 16, out.end());
    check_aead_case(by_nonce_size(nonce.size()), e.get("Key"), nonce, e.get("AD"), e.get("In"), ct, tag,
               "line " + std::to_string(e.line));
    ++by_nonce[nonce.size()];
  }
  EXPECT_EQ(by_nonce[8], 1);
  EXPECT_EQ(by_nonce[12], 140);
  EXPECT_EQ(by_nonce[24], 1569);
}

// Wycheproof: every valid case gives the right output, every invalid one
// (modified tags, wrong nonce sizes) is rejected.
TEST_P(Aead, Wycheproof) {
  struct vector_file {
    const char* file;
    aead_algorithm alg;
    int valid, invalid;  // the cases each file holds
  };
  const vector_file files[] = {
      {"wycheproof/testvectors_v1/chacha20_poly1305_test.json", aead_algorithm::chacha20_poly1305, 256, 69},
      {"wycheproof/testvectors_v1/xchacha20_poly1305_test.json", aead_algorithm::xchacha20_poly1305, 246, 69},
  };
  for (const auto& [file, alg, want_valid, want_invalid] : files) {
    SEALWIRE_REQUIRE_VECTOR(path, file);
    const auto j = test::load_json(path);
    int valid = 0, invalid = 0;
    for (const auto& g : j["testGroups"]) {
      for (const auto& t : g["tests"]) {
        auto h = [&](const char* k) { return hex(t[k].get<std::string>()); };
        const bytes key = h("key"), iv = h("iv"), aad = h("aad"), msg = h("msg"), ct = h("ct"), tag = h("tag");
        const std::string result = t["result"];
        const auto opened = test::open_detached(alg, key, iv, aad, ct, tag);
        if (result == "valid") {
          ASSERT_TRUE(opened) << file << " tcId " << t["tcId"];
          EXPECT_EQ(*opened, msg) << file << " tcId " << t["tcId"];
          const auto s = test::seal_detached(alg, key, iv, aad, msg);
          ASSERT_TRUE(s);
          EXPECT_EQ(s->ct, ct);
          EXPECT_EQ(s->tag, tag);
          ++valid;
        } else {
          ASSERT_EQ(result, "invalid");
          EXPECT_FALSE(opened) << file << " tcId " << t["tcId"] << " " << t["comment"];
          ++invalid;
        }
      }
    }
    EXPECT_EQ(valid + invalid, j["numberOfTests"].get<int>()) << file;
    EXPECT_EQ(valid, want_valid) << file;
    EXPECT_EQ(invalid, want_invalid) << file;
  }
}

// ---- secretbox layout against libsodium ----

TEST_P(Aead, SecretboxMatchesLibsodium) {
  test::seeded_random rng(8);
  for (int i = 0; i < 300; ++i) {
    const bytes key = rng.fill(32), nonce = rng.fill(24), pt = rng.fill(rng.uniform(i < 250 ? 200 : 5000));
    bytes ref(pt.size() + 16);
    crypto_secretbox_easy(ref.data(), pt.data(), pt.size(), nonce.data(), key.data());
    bytes ours(pt.size() + 16);
    const auto n = crypto::xsalsa20_poly1305::seal(ours, pt, {}, std::span<const std::uint8_t, 24>(nonce.data(), 24),
                                                   std::span<const std::uint8_t, 32>(key.data(), 32));
    ASSERT_TRUE(n);
    ASSERT_EQ(*n, pt.size() + 16);
    ASSERT_EQ(test::to_hex(ours), test::to_hex(ref)) << i;
    bytes back(pt.size());
    ASSERT_TRUE(crypto::aead_open(aead_algorithm::xsalsa20_poly1305, back, ref, {}, nonce, key));
    ASSERT_EQ(back, pt);
  }
}

TEST(AeadParameters, ErrorsBeforeAnythingIsWritten) {
  const bytes key(32, 1), nonce(12, 2), pt(10, 3);
  bytes out(26, 0xee);
  EXPECT_EQ(crypto::aead_seal(aead_algorithm::chacha20_poly1305, out, pt, {}, nonce, bytes(31, 0)).error(),
            crypto_errc::invalid_key);
  EXPECT_EQ(crypto::aead_seal(aead_algorithm::chacha20_poly1305, out, pt, {}, bytes(24, 0), key).error(),
            crypto_errc::invalid_nonce);
  EXPECT_EQ(crypto::aead_seal(aead_algorithm::chacha20_poly1305, std::span(out).first(25), pt, {}, nonce, key).error(),
            crypto_errc::buffer_too_small);
  EXPECT_EQ(crypto::aead_seal(aead_algorithm::xsalsa20_poly1305, out, pt, associated_data(bytes(1, 0)), bytes(24, 0), key).error(),
            crypto_errc::invalid_argument);
  EXPECT_EQ(out, bytes(26, 0xee));
  EXPECT_EQ(crypto::aead_open(aead_algorithm::chacha20_poly1305, out, bytes(15, 0), {}, nonce, key).error(),
            crypto_errc::authentication_failed);
  bytes small(9);
  EXPECT_EQ(crypto::aead_open(aead_algorithm::chacha20_poly1305, small, bytes(26, 0), {}, nonce, key).error(),
            crypto_errc::buffer_too_small);
  EXPECT_EQ(crypto::aead_open_detached(aead_algorithm::chacha20_poly1305, out, bytes(10, 0), bytes(15, 0), {}, nonce, key)
                .error(),
            crypto_errc::authentication_failed);
}

TEST(AeadProperties, DescribeEachAlgorithm) {
  EXPECT_EQ(crypto::properties(aead_algorithm::chacha20_poly1305).nonce_size, 12u);
  EXPECT_EQ(crypto::properties(aead_algorithm::chacha20_poly1305).max_message_size, 274877906880ULL);
  EXPECT_EQ(crypto::properties(aead_algorithm::xchacha20_poly1305).nonce_size, 24u);
  EXPECT_TRUE(crypto::properties(aead_algorithm::xsalsa20_poly1305).tag_first);
  EXPECT_FALSE(crypto::properties(aead_algorithm::xsalsa20_poly1305).supports_aad);
  EXPECT_EQ(crypto::properties(aead_algorithm::chacha20_poly1305_original).nonce_size, 8u);
  static_assert(crypto::chacha20_poly1305::nonce_size == 12);
  static_assert(crypto::xchacha20_poly1305::nonce_size == 24);
  static_assert(crypto::chacha20_poly1305_original::nonce_size == 8);
}
