// SPDX-License-Identifier: Apache-2.0
// Salsa20 (8/12/20 rounds), XSalsa20 and HSalsa20: eSTREAM, Crypto++ and Botan
// vectors, known answers in the source, and differential checks with libsodium.
#include <sealwire/crypto/salsa20.hpp>

#include "formats.hpp"
#include "stream_helpers.hpp"

#include <sodium.h>

using namespace sealwire;
using crypto::salsa20;
using test::bytes;
using test::hex;
using test::run_stream;

namespace {
class Salsa20 : public test::cpu_level_test {};
SEALWIRE_INSTANTIATE_CPU_LEVELS(Salsa20);
}  // namespace

// eSTREAM Salsa20/20, /12 and /8, set 1 vector 0 (128-bit key 80 00 ...), bytes 0-63.
TEST_P(Salsa20, EstreamSet1Vector0AllRounds) {
  const bytes key = hex("80000000000000000000000000000000");
  const std::pair<unsigned, const char*> cases[] = {
      {20, "4dfa5e481da23ea09a31022050859936da52fcee218005164f267cb65f5cfd7f2b4f97e0ff16924a52df269515110a07f9e460bc"
           "65ef95da58f740b7d1dbb0aa"},
      {12, "fc207dbfc76c5e1774961e7a5aad09069b2225ac1ce0fe7a0ce77003e7e5bdf8b31af821000813e6c56b8c1771d6ee7039b2fbd0"
           "a68e8ad70a3944b677937897"},
      {8, "a9c9f888ab552a2d1bbff9f36bebeb337a8b4b107c75b63bae26cb9a235bba9d784f38befc3adf4cd3e266687ea7b9f09ba650ae8"
          "1eac6063ae31ff12218ddc5"},
  };
  for (const auto& [rounds, want] : cases) {
    const auto ks = run_stream<salsa20>(key, bytes(8, 0), rounds, 0, bytes(64, 0));
    ASSERT_TRUE(ks);
    EXPECT_EQ(test::to_hex(*ks), want) << rounds;
  }
}

// XSalsa20 with the NaCl test key and nonce (first 32 bytes of keystream).
TEST_P(Salsa20, XSalsa20KnownAnswer) {
  const auto ks = run_stream<salsa20>(hex("1b27556473e985d462cd51197a9a46c76009549eac6474f206c4ee0844f68389"),
                                      hex("69696ee955b62b73cd62bda875fc73d68219e0036b7a0b37"), 20, 0, bytes(32, 0));
  ASSERT_TRUE(ks);
  EXPECT_EQ(test::to_hex(*ks), "eea6a7251c1e72916d11c2cb214d3c252539121d8e234e652d651fa4c8cff880");
}

TEST(HSalsa20, AgreesWithLibsodium) {
  test::seeded_random rng(12);
  for (int i = 0; i < 200; ++i) {
    const bytes key = rng.fill(32), in = rng.fill(16);
    std::uint8_t ours[32], theirs[32];
    crypto::hsalsa20(ours, std::span<const std::uint8_t, 32>(key.data(), 32),
                     std::span<const std::uint8_t, 16>(in.data(), 16));
    ASSERT_EQ(crypto_core_hsalsa20(theirs, in.data(), key.data(), nullptr), 0);
    ASSERT_EQ(test::to_hex(ours), test::to_hex(theirs));
  }
}

// ---- eSTREAM verified test vectors, every segment and the xor-digest ----

TEST_P(Salsa20, EstreamFiles) {
  const std::pair<const char*, int> files[] = {{"stream/estream/salsa20-128.64-verified.test-vectors", 89},
                                               {"stream/estream/salsa20-256.64-verified.test-vectors", 103}};
  for (const auto& [file, want] : files) {
    SEALWIRE_REQUIRE_VECTOR(path, file);
    int vectors = 0;
    for (const auto& v : test::parse_estream(test::read_text(path))) {
      // Sets 4 and 6 describe 128 KiB of keystream, the others 512 bytes.
      const std::size_t len = (v.set == 4 || v.set == 6) ? 131072 : 512;
      const auto ks = run_stream<salsa20>(v.key, v.iv, 20, 0, bytes(len, 0));
      ASSERT_TRUE(ks);
      for (const auto& s : v.segments) {
        ASSERT_LT(s.end, len);
        EXPECT_EQ(test::to_hex(std::span(*ks).subspan(s.begin, s.end - s.begin + 1)), test::to_hex(s.data))
            << file << " set " << v.set << " vector " << v.index << " [" << s.begin << ".." << s.end << "]";
      }
      bytes digest(64, 0);
      for (std::size_t i = 0; i < len; ++i) digest[i % 64] ^= (*ks)[i];
      EXPECT_EQ(test::to_hex(digest), test::to_hex(v.xor_digest)) << file << " set " << v.set << " vector " << v.index;
      ++vectors;
    }
    EXPECT_EQ(vectors, want) << file;
  }
}

// ---- Crypto++ (Salsa20/20, /12, /8, XSalsa20) and Botan ----

TEST_P(Salsa20, CryptoppFile) {
  SEALWIRE_REQUIRE_VECTOR(path, "stream/cryptopp/salsa.txt");
  int n = 0, digests = 0;
  for (const auto& t : test::parse_cryptopp(test::read_text(path))) {
    const unsigned rounds = t.has("Rounds") ? static_cast<unsigned>(t.number("Rounds")) : 20;
    std::uint64_t seek = t.has("Seek") ? t.number("Seek") : 0;
    if (t.has("Seek64")) seek = t.number("Seek64");  // these cross counter 2^32
    const bytes pt = t.data("Plaintext");
    const auto ct = run_stream<salsa20>(t.data("Key"), t.data("IV"), rounds, seek, pt);
    ASSERT_TRUE(ct) << t.line;
    if (t.test == "EncryptXorDigest") {
      bytes digest(64, 0);
      for (std::size_t i = 0; i < ct->size(); ++i) digest[i % 64] ^= (*ct)[i];
      EXPECT_EQ(test::to_hex(digest), test::to_hex(t.data("CiphertextXorDigest"))) << t.line;
      ++digests;
    } else {
      // Resync re-keys with a new IV and expects the same as Encrypt would.
      ASSERT_TRUE(t.test == "Encrypt" || t.test == "Resync") << t.test;
      EXPECT_EQ(test::to_hex(*ct), test::to_hex(t.data("Ciphertext"))) << t.line;
    }
    ++n;
  }
  EXPECT_EQ(n, 110);
  EXPECT_EQ(digests, 1);
}

TEST_P(Salsa20, BotanFile) {
  SEALWIRE_REQUIRE_VECTOR(path, "stream/botan/salsa20.vec");
  int n = 0;
  for (const auto& e : test::parse_botan_vec(test::read_text(path))) {
    const bytes nonce = e.has("Nonce") ? e.get("Nonce") : bytes(8, 0);
    const bytes want = e.get("Out");
    const bytes in = e.has("In") ? e.get("In") : bytes(want.size(), 0);
    const std::uint64_t seek = e.has("Seek") ? std::stoull(e.fields.at("Seek")) : 0;
    const auto out = run_stream<salsa20>(e.get("Key"), nonce, 20, seek, in);
    ASSERT_TRUE(out) << "line " << e.line;
    EXPECT_EQ(test::to_hex(*out), test::to_hex(want)) << "line " << e.line;
    ++n;
  }
  EXPECT_EQ(n, 17);
}

// ---- properties and differential checks ----

TEST_P(Salsa20, AgreesWithLibsodiumAtRandomLengthsAndCounters) {
  test::seeded_random rng(99);
  for (int i = 0; i < 300; ++i) {
    const bytes key = rng.fill(32), pt = rng.fill(rng.uniform(3000));
    const std::uint64_t ic = (i % 3 == 0) ? 0xffffffffULL - rng.uniform(8) : rng.uniform(1000);
    bytes ref(pt.size());
    if (i % 2 == 0) {
      const bytes nonce = rng.fill(8);
      crypto_stream_salsa20_xor_ic(ref.data(), pt.data(), pt.size(), nonce.data(), ic, key.data());
      const auto ours = run_stream<salsa20>(key, nonce, 20, ic * 64, pt);
      ASSERT_TRUE(ours);
      ASSERT_EQ(*ours, ref) << "salsa20 case " << i;
    } else {
      const bytes nonce = rng.fill(24);
      crypto_stream_xsalsa20_xor_ic(ref.data(), pt.data(), pt.size(), nonce.data(), ic, key.data());
      const auto ours = run_stream<salsa20>(key, nonce, 20, ic * 64, pt);
      ASSERT_TRUE(ours);
      ASSERT_EQ(*ours, ref) << "xsalsa20 case " << i;
    }
  }
  // Reduced-round variants (libsodium has them without a counter argument).
  for (int i = 0; i < 50; ++i) {
    const bytes key = rng.fill(32), nonce = rng.fill(8), pt = rng.fill(rng.uniform(2000));
    bytes ref12(pt.size()), ref8(pt.size());
    crypto_stream_salsa2012_xor(ref12.data(), pt.data(), pt.size(), nonce.data(), key.data());
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // still the reference for Salsa20/8
    crypto_stream_salsa208_xor(ref8.data(), pt.data(), pt.size(), nonce.data(), key.data());
#pragma GCC diagnostic pop
    EXPECT_EQ(*run_stream<salsa20>(key, nonce, 12, 0, pt), ref12);
    EXPECT_EQ(*run_stream<salsa20>(key, nonce, 8, 0, pt), ref8);
  }
}

TEST_P(Salsa20, PiecesAndInPlaceEqualOneShot) {
  test::seeded_random rng(77);
  for (std::size_t nonce_len : {8u, 24u}) {
    const bytes key = rng.fill(32), nonce = rng.fill(nonce_len), pt = rng.fill(4321);
    const auto whole = run_stream<salsa20>(key, nonce, 20, 0, pt);
    ASSERT_TRUE(whole);
    for (int trial = 0; trial < 5; ++trial) {
      salsa20 c;
      ASSERT_TRUE(c.init(key, nonce));
      EXPECT_EQ(test::apply_in_pieces(c, pt, rng), *whole);
    }
  }
}

TEST(Salsa20Parameters, RejectsBadLengthsAndRounds) {
  salsa20 c;
  EXPECT_EQ(c.init(bytes(20, 0), bytes(8, 0)).error(), crypto_errc::invalid_key);
  EXPECT_EQ(c.init(bytes(16, 0), bytes(24, 0)).error(), crypto_errc::invalid_key);
  EXPECT_EQ(c.init(bytes(32, 0), bytes(12, 0)).error(), crypto_errc::invalid_nonce);
  EXPECT_EQ(c.init(bytes(32, 0), bytes(8, 0), 7).error(), crypto_errc::invalid_argument);
  EXPECT_TRUE(c.init(bytes(16, 0), bytes(8, 0), 8));
  salsa20 d;
  ASSERT_TRUE(d.init(bytes(32, 0), bytes(8, 0)));
  ASSERT_TRUE(d.seek(~0ULL));
  bytes out(65);
  EXPECT_EQ(d.apply(out, bytes(65, 0)).error(), crypto_errc::counter_exhausted);
}
