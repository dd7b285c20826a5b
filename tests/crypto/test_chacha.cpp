// SPDX-License-Identifier: Apache-2.0
// ChaCha (original, IETF, XChaCha) and HChaCha: known answers from RFC 8439
// and draft-irtf-cfrg-xchacha, the vector files in tests/vectors, and properties.
#include <sealwire/crypto/chacha.hpp>

#include "detail/chacha_core.hpp"
#include "formats.hpp"
#include "stream_helpers.hpp"

#include <nlohmann/json.hpp>

#include <sodium.h>

using namespace sealwire;
using crypto::chacha;
using test::bytes;
using test::hex;
using test::run_stream;

namespace {

class ChaCha : public test::cpu_level_test {};
SEALWIRE_INSTANTIATE_CPU_LEVELS(ChaCha);

const bytes key_0_to_31 = hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");

}  // namespace

// ---- known answers transcribed from the RFC and draft texts ----

TEST_P(ChaCha, Rfc8439Section242Encryption) {
  const bytes pt = test::to_bytes(
      "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be "
      "it.");
  const auto ct = run_stream<chacha>(key_0_to_31, hex("000000000000004a00000000"), 20, 64, pt);
  ASSERT_TRUE(ct);
  EXPECT_EQ(test::to_hex(*ct),
            "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0bf91b65c5524733ab8f593dabcd62b3571639d624e65"
            "152ab8f530c359f0861d807ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab77937365af90bbf74a35be6b40b8ee"
            "df2785e42874d");
}

TEST_P(ChaCha, Rfc8439AppendixA1Block1) {
  const auto ks = run_stream<chacha>(bytes(32, 0), bytes(12, 0), 20, 0, bytes(64, 0));
  ASSERT_TRUE(ks);
  EXPECT_EQ(test::to_hex(*ks),
            "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7da41597c5157488d7724e03fb8d84a376a43b8f4151"
            "8a11cc387b669b2ee6586");
}

TEST_P(ChaCha, OriginalVariant128BitKeyEightRounds) {
  // draft-strombergson-chacha-test-vectors TC1, 128-bit key, 8 rounds, block 0.
  const auto ks = run_stream<chacha>(bytes(16, 0), bytes(8, 0), 8, 0, bytes(64, 0));
  ASSERT_TRUE(ks);
  EXPECT_EQ(test::to_hex(*ks),
            "e28a5fa4a67f8c5defed3e6fb7303486aa8427d31419a729572d777953491120b64ab8e72b8deb85cd6aea7cb6089a101824beeb0881"
            "4a428aab1fa2c816081b");
}

TEST(HChaCha20, DraftSection221) {
  std::uint8_t out[32];
  const bytes nonce = hex("000000090000004a0000000031415927");
  crypto::hchacha20(out, std::span<const std::uint8_t, 32>(key_0_to_31.data(), 32),
                    std::span<const std::uint8_t, 16>(nonce.data(), 16));
  EXPECT_EQ(test::to_hex(out), "82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc");
}

TEST(HChaCha20, AgreesWithLibsodium) {
  test::seeded_random rng(11);
  for (int i = 0; i < 200; ++i) {
    const bytes key = rng.fill(32), in = rng.fill(16);
    std::uint8_t ours[32], theirs[32];
    crypto::hchacha20(ours, std::span<const std::uint8_t, 32>(key.data(), 32),
                      std::span<const std::uint8_t, 16>(in.data(), 16));
    ASSERT_EQ(crypto_core_hchacha20(theirs, in.data(), key.data(), nullptr), 0);
    ASSERT_EQ(test::to_hex(ours), test::to_hex(theirs));
  }
}

// ---- RFC 8439 and XChaCha files ----

TEST_P(ChaCha, Rfc8439File) {
  SEALWIRE_REQUIRE_VECTOR(path, "stream/rfc8439.json");
  const auto j = test::load_json(path);
  auto word = [](const nlohmann::json& v) { return static_cast<std::uint32_t>(std::stoul(v.get<std::string>(), nullptr, 16)); };

  int quarter_rounds = 0, on_state = 0;
  for (const auto& c : j["quarter_round"]) {
    ++quarter_rounds;
    std::uint32_t a = word(c["input"]["a"]), b = word(c["input"]["b"]), cc = word(c["input"]["c"]), d = word(c["input"]["d"]);
    crypto::detail::chacha_qr(a, b, cc, d);
    EXPECT_EQ(a, word(c["output"]["a"]));
    EXPECT_EQ(b, word(c["output"]["b"]));
    EXPECT_EQ(cc, word(c["output"]["c"]));
    EXPECT_EQ(d, word(c["output"]["d"]));
  }
  for (const auto& c : j["quarter_round_on_state"]) {
    ++on_state;
    std::uint32_t s[16];
    for (int i = 0; i < 16; ++i) s[i] = word(c["state_in"][static_cast<std::size_t>(i)]);
    const auto idx = c["indices"];
    crypto::detail::chacha_qr(s[idx[0].get<int>()], s[idx[1].get<int>()], s[idx[2].get<int>()], s[idx[3].get<int>()]);
    for (int i = 0; i < 16; ++i) EXPECT_EQ(s[i], word(c["state_out"][static_cast<std::size_t>(i)])) << i;
  }
  int blocks = 0, encryptions = 0;
  for (const auto& c : j["chacha20_block"]) {
    const auto ks = run_stream<chacha>(hex(c["key"].get<std::string>()), hex(c["nonce"].get<std::string>()), 20,
                                       c["counter"].get<std::uint64_t>() * 64, bytes(64, 0));
    ASSERT_TRUE(ks);
    EXPECT_EQ(test::to_hex(*ks), c["keystream"].get<std::string>()) << c["section"];
    ++blocks;
  }
  for (const auto& c : j["chacha20_encrypt"]) {
    const auto ct = run_stream<chacha>(hex(c["key"].get<std::string>()), hex(c["nonce"].get<std::string>()), 20,
                                       c["counter"].get<std::uint64_t>() * 64, hex(c["plaintext"].get<std::string>()));
    ASSERT_TRUE(ct);
    EXPECT_EQ(test::to_hex(*ct), c["ciphertext"].get<std::string>()) << c["section"];
    ++encryptions;
  }
  EXPECT_EQ(quarter_rounds, 1);
  EXPECT_EQ(on_state, 1);
  EXPECT_EQ(blocks, 6);
  EXPECT_EQ(encryptions, 4);
}

TEST_P(ChaCha, XChaChaDraftFile) {
  SEALWIRE_REQUIRE_VECTOR(path, "stream/xchacha-draft-irtf-cfrg-xchacha-03.json");
  const auto j = test::load_json(path);
  int subkeys = 0;
  for (const auto& c : j["hchacha20"]) {
    ++subkeys;
    const bytes key = hex(c["key"].get<std::string>()), nonce = hex(c["nonce"].get<std::string>());
    std::uint8_t out[32];
    crypto::hchacha20(out, std::span<const std::uint8_t, 32>(key.data(), 32),
                      std::span<const std::uint8_t, 16>(nonce.data(), 16));
    EXPECT_EQ(test::to_hex(out), c["subkey"].get<std::string>());
  }
  int n = 0;
  for (const auto& c : j["xchacha20"]) {
    const bytes key = hex(c["key"].get<std::string>()), nonce = hex(c["nonce"].get<std::string>());
    const bytes pt = hex(c["plaintext"].get<std::string>());
    const std::uint64_t offset = c["counter"].get<std::uint64_t>() * 64;
    const auto ks = run_stream<chacha>(key, nonce, 20, offset, bytes(pt.size(), 0));
    const auto ct = run_stream<chacha>(key, nonce, 20, offset, pt);
    ASSERT_TRUE(ks && ct);
    EXPECT_EQ(test::to_hex(*ks), c["keystream"].get<std::string>());
    EXPECT_EQ(test::to_hex(*ct), c["ciphertext"].get<std::string>());
    ++n;
  }
  EXPECT_EQ(subkeys, 1);
  EXPECT_EQ(n, 2);
}

// ---- third-party files ----

TEST_P(ChaCha, StrombergsonFile) {
  SEALWIRE_REQUIRE_VECTOR(path, "stream/strombergson/chacha_testvectors.txt");
  const auto vs = test::parse_strombergson(test::read_text(path));
  ASSERT_EQ(vs.size(), 48u);
  for (const auto& v : vs) {
    const auto ks = run_stream<chacha>(v.key, v.iv, v.rounds, 0, bytes(128, 0));
    ASSERT_TRUE(ks);
    EXPECT_EQ(test::to_hex(std::span(*ks).first(64)), test::to_hex(v.block0));
    EXPECT_EQ(test::to_hex(std::span(*ks).last(64)), test::to_hex(v.block1));
  }
}

TEST_P(ChaCha, CryptoppOriginalAndXChaChaFiles) {
  const std::pair<const char*, int> files[] = {{"stream/cryptopp/chacha.txt", 40}, {"stream/cryptopp/xchacha.txt", 2}};
  for (const auto& [file, want] : files) {
    SEALWIRE_REQUIRE_VECTOR(path, file);
    int n = 0;
    for (const auto& t : test::parse_cryptopp(test::read_text(path))) {
      ASSERT_EQ(t.test, "Encrypt") << file << ":" << t.line;
      const unsigned rounds = t.has("Rounds") ? static_cast<unsigned>(t.number("Rounds")) : 20;
      // draft-arciszewski-xchacha A.2's example starts the inner ChaCha20 at
      // block 1; Crypto++ builds that into its XChaCha20, the file says nothing.
      std::uint64_t seek = std::string(file).find("xchacha") != std::string::npos ? 64 : 0;
      if (t.has("Seek")) seek = t.number("Seek");
      if (t.has("Seek64")) seek = t.number("Seek64");
      const auto ct = run_stream<chacha>(t.data("Key"), t.data("IV"), rounds, seek, t.data("Plaintext"));
      ASSERT_TRUE(ct) << file << ":" << t.line << " " << ct.error().message();
      EXPECT_EQ(test::to_hex(*ct), test::to_hex(t.data("Ciphertext"))) << file << ":" << t.line;
      ++n;
    }
    EXPECT_EQ(n, want) << file;
  }
}

// Crypto++'s ChaChaTLS lets the 32-bit counter wrap to zero. RFC 8439 gives
// no meaning to a block past 2^32 - 1, and we refuse it: the vectors must
// match up to the limit, and a request that crosses it fails untouched.
TEST_P(ChaCha, CryptoppIetfFileWithCounterLimit) {
  SEALWIRE_REQUIRE_VECTOR(path, "stream/cryptopp/chacha_tls.txt");
  int full = 0, limited = 0;
  for (const auto& t : test::parse_cryptopp(test::read_text(path))) {
    const std::uint64_t first = t.has("InitialBlock") ? t.number("InitialBlock") : 0;
    const bytes pt = t.data("Plaintext"), want = t.data("Ciphertext");
    const std::uint64_t allowed = (0x100000000ULL - first) * 64;
    if (pt.size() <= allowed) {
      const auto ct = run_stream<chacha>(t.data("Key"), t.data("IV"), 20, first * 64, pt);
      ASSERT_TRUE(ct) << t.line;
      EXPECT_EQ(test::to_hex(*ct), test::to_hex(want)) << t.line;
      ++full;
      continue;
    }
    chacha c;
    ASSERT_TRUE(c.init(t.data("Key"), t.data("IV")));
    ASSERT_TRUE(c.seek(first));
    bytes out(pt.size(), 0xaa);
    EXPECT_EQ(c.apply(out, pt).error(), crypto_errc::counter_exhausted) << t.line;
    EXPECT_EQ(out, bytes(pt.size(), 0xaa)) << "nothing may be written on failure";
    const auto head = static_cast<std::size_t>(allowed);
    ASSERT_TRUE(c.apply(std::span(out).first(head), std::span(pt).first(head)));
    EXPECT_EQ(test::to_hex(std::span(out).first(head)), test::to_hex(std::span(want).first(head))) << t.line;
    EXPECT_EQ(c.apply(std::span(out).subspan(head, 1), std::span(pt).subspan(head, 1)).error(),
              crypto_errc::counter_exhausted);
    ++limited;
  }
  EXPECT_EQ(full, 10);
  EXPECT_EQ(limited, 4);
}

TEST_P(ChaCha, BotanFile) {
  SEALWIRE_REQUIRE_VECTOR(path, "stream/botan/chacha.vec");
  std::map<std::size_t, int> by_nonce;
  for (const auto& e : test::parse_botan_vec(test::read_text(path))) {
    const unsigned rounds = static_cast<unsigned>(std::stoul(e.section.substr(e.section.find('(') + 1)));
    const bytes nonce = e.has("Nonce") ? e.get("Nonce") : bytes(8, 0);  // Botan's default IV
    const bytes want = e.get("Out");
    const bytes in = e.has("In") ? e.get("In") : bytes(want.size(), 0);
    const std::uint64_t seek = e.has("Seek") ? std::stoull(e.fields.at("Seek")) : 0;
    const auto out = run_stream<chacha>(e.get("Key"), nonce, rounds, seek, in);
    ASSERT_TRUE(out) << "line " << e.line << ": " << out.error().message();
    EXPECT_EQ(test::to_hex(*out), test::to_hex(want)) << "line " << e.line;
    ++by_nonce[nonce.size()];
  }
  EXPECT_EQ(by_nonce.size(), 3u) << "only 8-, 12- and 24-byte nonces";
  EXPECT_EQ(by_nonce[8], 30);
  EXPECT_EQ(by_nonce[12], 75);
  EXPECT_EQ(by_nonce[24], 4);
}

// ---- properties ----

TEST_P(ChaCha, PiecesAndInPlaceEqualOneShot) {
  test::seeded_random rng(1234);
  for (std::size_t nonce_len : {8u, 12u, 24u}) {
    for (unsigned rounds : {8u, 12u, 20u}) {
      const bytes key = rng.fill(32), nonce = rng.fill(nonce_len), pt = rng.fill(5000);
      const auto whole = run_stream<chacha>(key, nonce, rounds, 0, pt);
      ASSERT_TRUE(whole);
      for (int trial = 0; trial < 5; ++trial) {
        chacha c;
        ASSERT_TRUE(c.init(key, nonce, rounds));
        EXPECT_EQ(test::apply_in_pieces(c, pt, rng), *whole);
      }
      chacha c;
      ASSERT_TRUE(c.init(key, nonce, rounds));
      bytes buf = pt;
      ASSERT_TRUE(c.apply_in_place(buf));
      EXPECT_EQ(buf, *whole);
    }
  }
}

TEST_P(ChaCha, SeekMatchesKeystreamSlices) {
  const bytes key = bytes(32, 7), nonce = bytes(12, 9);
  const auto all = run_stream<chacha>(key, nonce, 20, 0, bytes(64 * 20, 0));
  ASSERT_TRUE(all);
  for (std::uint64_t off : {0u, 1u, 63u, 64u, 65u, 127u, 500u, 1000u}) {
    const auto part = run_stream<chacha>(key, nonce, 20, off, bytes(200, 0));
    ASSERT_TRUE(part);
    EXPECT_EQ(*part, bytes(all->begin() + static_cast<long>(off), all->begin() + static_cast<long>(off) + 200)) << off;
  }
}

TEST_P(ChaCha, IetfCounterStopsAtTheLimit) {
  chacha c;
  ASSERT_TRUE(c.init(bytes(32, 1), bytes(12, 2)));
  EXPECT_EQ(c.seek(0x100000000ULL).error(), crypto_errc::counter_exhausted);
  ASSERT_TRUE(c.seek(0xffffffffULL, 10));
  bytes out(54);
  ASSERT_TRUE(c.apply(out, bytes(54, 0)));  // the rest of the last block
  bytes one(1, 0x5a);
  EXPECT_EQ(c.apply(one, bytes(1, 0)).error(), crypto_errc::counter_exhausted);
  EXPECT_EQ(one[0], 0x5a);
  EXPECT_TRUE(c.apply(std::span<std::uint8_t>{}, std::span<const std::uint8_t>{}));  // empty is fine

  // The last block itself is the one libsodium computes at ic = 2^32 - 1.
  const bytes key(32, 1), nonce(12, 2);
  const auto last = run_stream<chacha>(key, nonce, 20, 0xffffffffULL * 64, bytes(64, 0));
  ASSERT_TRUE(last);
  bytes ref(64, 0);
  crypto_stream_chacha20_ietf_xor_ic(ref.data(), ref.data(), 64, nonce.data(), 0xffffffffu, key.data());
  EXPECT_EQ(*last, ref);
}

// Keystream generated ahead for small pieces must never run into the limit:
// every byte up to the last block is still available in pieces.
TEST_P(ChaCha, SmallPiecesReachTheIetfLimitExactly) {
  const bytes key(32, 3), nonce(12, 4);
  const std::uint64_t first = 0xffffffffULL - 40;
  const std::size_t total = 41 * 64;
  const auto whole = run_stream<chacha>(key, nonce, 20, first * 64, bytes(total, 0));
  ASSERT_TRUE(whole);
  chacha c;
  ASSERT_TRUE(c.init(key, nonce));
  ASSERT_TRUE(c.seek(first));
  bytes got(total);
  for (std::size_t at = 0; at < total; at += 100) {
    const std::size_t p = std::min<std::size_t>(100, total - at);
    ASSERT_TRUE(c.apply(std::span(got).subspan(at, p), std::span(*whole).subspan(at, p))) << at;
  }
  EXPECT_EQ(got, bytes(total, 0));  // keystream XOR keystream
  bytes one(1);
  EXPECT_EQ(c.apply(one, bytes(1, 0)).error(), crypto_errc::counter_exhausted);
}

TEST_P(ChaCha, OriginalCounterCarriesIntoTheHighWord) {
  test::seeded_random rng(5);
  const bytes key = rng.fill(32), nonce = rng.fill(8), pt = rng.fill(64 * 40 + 13);
  const std::uint64_t start = 0xffffffffULL - 17;  // 40 blocks straddle 2^32
  const auto ours = run_stream<chacha>(key, nonce, 20, start * 64, pt);
  ASSERT_TRUE(ours);
  bytes ref(pt.size());
  crypto_stream_chacha20_xor_ic(ref.data(), pt.data(), pt.size(), nonce.data(), start, key.data());
  EXPECT_EQ(*ours, ref);

  chacha c;  // the 64-bit counter ends at 2^64 - 1
  ASSERT_TRUE(c.init(key, nonce));
  ASSERT_TRUE(c.seek(~0ULL));
  bytes out(65);
  EXPECT_EQ(c.apply(out, bytes(65, 0)).error(), crypto_errc::counter_exhausted);
  EXPECT_TRUE(c.apply(std::span(out).first(64), std::span(pt).first(64)));
}

TEST(ChaChaParameters, RejectsBadLengthsAndRounds) {
  chacha c;
  EXPECT_EQ(c.init(bytes(31, 0), bytes(12, 0)).error(), crypto_errc::invalid_key);
  EXPECT_EQ(c.init(bytes(16, 0), bytes(12, 0)).error(), crypto_errc::invalid_key);  // 128-bit keys: original only
  EXPECT_EQ(c.init(bytes(16, 0), bytes(24, 0)).error(), crypto_errc::invalid_key);
  EXPECT_EQ(c.init(bytes(32, 0), bytes(16, 0)).error(), crypto_errc::invalid_nonce);
  EXPECT_EQ(c.init(bytes(32, 0), bytes(0, 0)).error(), crypto_errc::invalid_nonce);
  EXPECT_EQ(c.init(bytes(32, 0), bytes(12, 0), 10).error(), crypto_errc::invalid_argument);
  EXPECT_TRUE(c.init(bytes(16, 0), bytes(8, 0), 12));
  EXPECT_FALSE(c.provider().empty());
}

TEST(ChaChaContracts, MismatchedOrOverlappingBuffersAbort) {
  chacha c;
  ASSERT_TRUE(c.init(bytes(32, 0), bytes(12, 0)));
  bytes buf(100);
  EXPECT_DEATH((void)c.apply(std::span(buf).first(10), std::span(buf).first(11)), "contract violated");
  EXPECT_DEATH((void)c.apply(std::span(buf).subspan(1, 50), std::span(buf).first(50)), "contract violated");
}
