// SPDX-License-Identifier: Apache-2.0
// Poly1305: RFC 8439 known answers, the Botan and Crypto++ files, incremental
// updates at every split, and differential checks with libsodium and OpenSSL.
#include <sealwire/crypto/chacha.hpp>
#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/poly1305.hpp>

#include "formats.hpp"
#include "stream_helpers.hpp"

#include <nlohmann/json.hpp>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <sodium.h>

using namespace sealwire;
using crypto::poly1305;
using test::bytes;
using test::hex;

namespace {

class Poly1305 : public test::cpu_level_test {};
SEALWIRE_INSTANTIATE_CPU_LEVELS(Poly1305);

std::span<const std::uint8_t, 32> key32(const bytes& k) { return std::span<const std::uint8_t, 32>(k.data(), 32); }

std::string mac_hex(const bytes& key, const bytes& msg) {
  std::uint8_t tag[16];
  poly1305::mac(tag, msg, key32(key));
  return test::to_hex(tag);
}

bytes openssl_poly1305(const bytes& key, const bytes& msg) {
  EVP_MAC* mac = EVP_MAC_fetch(nullptr, "POLY1305", nullptr);
  EVP_MAC_CTX* ctx = EVP_MAC_CTX_new(mac);
  bytes tag(16);
  std::size_t len = 0;
  EXPECT_EQ(EVP_MAC_init(ctx, key.data(), key.size(), nullptr), 1);
  EXPECT_EQ(EVP_MAC_update(ctx, msg.data(), msg.size()), 1);
  EXPECT_EQ(EVP_MAC_final(ctx, tag.data(), &len, tag.size()), 1);
  EVP_MAC_CTX_free(ctx);
  EVP_MAC_free(mac);
  return tag;
}

}  // namespace

TEST_P(Poly1305, Rfc8439Section252) {
  EXPECT_EQ(mac_hex(hex("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b"),
                    test::to_bytes("Cryptographic Forum Research Group")),
            "a8061dc1305136c6c22b8baf0c0127a9");
}

TEST_P(Poly1305, Rfc8439File) {
  SEALWIRE_REQUIRE_VECTOR(path, "stream/rfc8439.json");
  const auto j = test::load_json(path);
  int n = 0;
  for (const auto& c : j["poly1305"]) {
    EXPECT_EQ(mac_hex(hex(c["key"].get<std::string>()), hex(c["msg"].get<std::string>())), c["tag"].get<std::string>())
        << c["section"];
    ++n;
  }
  EXPECT_EQ(n, 12);
  // 2.6: the one-time key is the first 32 bytes of ChaCha20 block 0.
  int key_gens = 0;
  for (const auto& c : j["poly1305_key_gen"]) {
    ++key_gens;
    const auto otk = test::run_stream<crypto::chacha>(hex(c["key"].get<std::string>()), hex(c["nonce"].get<std::string>()),
                                                      20, 0, bytes(32, 0));
    ASSERT_TRUE(otk);
    EXPECT_EQ(test::to_hex(*otk), c["otk"].get<std::string>()) << c["section"];
  }
  EXPECT_EQ(key_gens, 4);
}

TEST_P(Poly1305, BotanFile) {
  SEALWIRE_REQUIRE_VECTOR(path, "stream/botan/poly1305.vec");
  int n = 0;
  for (const auto& e : test::parse_botan_vec(test::read_text(path))) {
    EXPECT_EQ(mac_hex(e.get("Key"), e.get("In")), test::to_hex(e.get("Out"))) << "line " << e.line;
    ++n;
  }
  EXPECT_EQ(n, 123);
}

TEST_P(Poly1305, CryptoppFileVerifiesAndRejects) {
  SEALWIRE_REQUIRE_VECTOR(path, "stream/cryptopp/poly1305_tls.txt");
  int good = 0, bad = 0;
  for (const auto& t : test::parse_cryptopp(test::read_text(path))) {
    const bytes key = t.data("Key"), msg = t.data("Message"), tag = t.data("MAC");
    ASSERT_EQ(tag.size(), 16u);
    poly1305 p(key32(key));
    p.update(msg);
    const bool ok = p.verify(std::span<const std::uint8_t, 16>(tag.data(), 16));
    if (t.test == "Verify") {
      EXPECT_TRUE(ok) << t.line;
      ++good;
    } else {
      ASSERT_EQ(t.test, "NotVerify");
      EXPECT_FALSE(ok) << t.line;
      ++bad;
    }
  }
  EXPECT_EQ(good, 109);
  EXPECT_EQ(bad, 71);
}

TEST_P(Poly1305, EverySplitEqualsOneShot) {
  test::seeded_random rng(3);
  for (std::size_t len : {0u, 1u, 15u, 16u, 17u, 31u, 32u, 33u, 63u, 64u, 100u, 257u}) {
    const bytes key = rng.fill(32), msg = rng.fill(len);
    const std::string want = mac_hex(key, msg);
    for (std::size_t a = 0; a <= len; ++a) {
      for (std::size_t b = a; b <= len; b += (len > 64 ? 7 : 1)) {
        poly1305 p(key32(key));
        p.update(std::span(msg).first(a));
        p.update(std::span(msg).subspan(a, b - a));
        p.update(std::span(msg).subspan(b));
        std::uint8_t tag[16];
        p.finish(tag);
        ASSERT_EQ(test::to_hex(tag), want) << len << " " << a << " " << b;
      }
    }
  }
}

TEST_P(Poly1305, AgreesWithLibsodiumAndOpenSSL) {
  test::seeded_random rng(4);
  for (int i = 0; i < 500; ++i) {
    const bytes key = rng.fill(32), msg = rng.fill(rng.uniform(i < 400 ? 300 : 20000));
    bytes ref(16);
    crypto_onetimeauth(ref.data(), msg.data(), msg.size(), key.data());
    ASSERT_EQ(mac_hex(key, msg), test::to_hex(ref)) << i;
    ASSERT_EQ(test::to_hex(openssl_poly1305(key, msg)), test::to_hex(ref)) << i;
  }
}

// Accumulator values near p = 2^130 - 5 exercise the final conditional
// subtraction and the carries; all-ones keys and messages push them there.
TEST_P(Poly1305, ExtremeValuesAgreeWithLibsodium) {
  const bytes patterns[] = {bytes(32, 0xff), bytes(32, 0), hex("ffffffffffffffffffffffffffffffff00000000000000000000000000000000"),
                            hex("0000000000000000000000000000000000ffffffffffffffffffffffffffffff")};
  for (const auto& key : patterns) {
    for (std::size_t len : {16u, 32u, 48u, 64u, 1024u, 4095u}) {
      for (std::uint8_t fill : {0x00, 0xff, 0xfe}) {
        const bytes msg(len, fill);
        bytes ref(16);
        crypto_onetimeauth(ref.data(), msg.data(), msg.size(), key.data());
        EXPECT_EQ(mac_hex(key, msg), test::to_hex(ref));
      }
    }
  }
}

TEST(Poly1305Wipe, FinishWipesTheState) {
  // Build the object in zeroed storage we own, so its bytes can be inspected.
  alignas(poly1305) std::uint8_t storage[sizeof(poly1305)] = {};
  auto* p = new (storage) poly1305(key32(bytes(32, 0x42)));
  p->update(bytes(7, 1));
  EXPECT_FALSE(crypto::ct::is_zero(storage));
  std::uint8_t tag[16];
  p->finish(tag);
  EXPECT_TRUE(crypto::ct::is_zero(storage)) << "finish must leave no key or accumulator behind";
  p->~poly1305();
}
