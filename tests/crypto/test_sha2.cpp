// SPDX-License-Identifier: Apache-2.0
// SHA-256/384/512: FIPS 180-4 examples and long messages, incremental and
// snapshot behaviour, and differential checks with OpenSSL and libsodium, at
// every CPU level.
#include <sealwire/crypto/hmac.hpp>
#include <sealwire/crypto/sha2.hpp>

#include "vectors.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <sodium.h>

using namespace sealwire;
using test::bytes;

namespace {

class Sha2 : public test::cpu_level_test {};
SEALWIRE_INSTANTIATE_CPU_LEVELS(Sha2);

bytes openssl_digest(const EVP_MD* md, std::span<const std::uint8_t> msg) {
  bytes out(EVP_MD_get_size(md));
  unsigned len = 0;
  EXPECT_EQ(EVP_Digest(msg.data(), msg.size(), out.data(), &len, md, nullptr), 1);
  return out;
}

const std::string abc = "abc";
const std::string two_blocks_256 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
const std::string two_blocks_512 =
    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";

}  // namespace

TEST_P(Sha2, Fips180Examples) {
  EXPECT_EQ(test::hex_digest<crypto::sha256>({}), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(test::hex_digest<crypto::sha256>(test::to_bytes(abc)),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(test::hex_digest<crypto::sha256>(test::to_bytes(two_blocks_256)),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(test::hex_digest<crypto::sha384>(test::to_bytes(abc)),
            "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7");
  EXPECT_EQ(test::hex_digest<crypto::sha384>(test::to_bytes(two_blocks_512)),
            "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039");
  EXPECT_EQ(test::hex_digest<crypto::sha512>(test::to_bytes(abc)),
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643c"
            "e80e2a9ac94fa54ca49f");
  EXPECT_EQ(test::hex_digest<crypto::sha512>(test::to_bytes(two_blocks_512)),
            "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd"
            "26545e96e55b874be909");
  EXPECT_EQ(test::hex_digest<crypto::sha512>({}),
            "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd4741"
            "7a81a538327af927da3e");
}

// The NIST long-message example: one million repetitions of 'a', fed in
// uneven pieces.
TEST_P(Sha2, OneMillionA) {
  const bytes chunk(1000, 'a');
  crypto::sha256 a;
  crypto::sha384 b;
  crypto::sha512 c;
  for (int i = 0; i < 1000; ++i) {
    const auto piece = std::span(chunk).first(i % 2 ? 1000 : 999);
    a.update(piece);
    b.update(piece);
    c.update(piece);
  }
  const bytes tail(500, 'a');
  a.update(tail);
  b.update(tail);
  c.update(tail);
  std::uint8_t d256[32], d384[48], d512[64];
  a.finish(d256);
  b.finish(d384);
  c.finish(d512);
  EXPECT_EQ(test::to_hex(d256), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  EXPECT_EQ(test::to_hex(d384),
            "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b07b8b3dc38ecc4ebae97ddd87f3d8985");
  EXPECT_EQ(test::to_hex(d512),
            "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49"
            "aa2e4eadb217ad8cc09b");
}

TEST_P(Sha2, EveryLengthAgreesWithOpenSSLAndLibsodium) {
  test::seeded_random rng(256);
  const bytes msg = rng.fill(1100);
  for (std::size_t len = 0; len <= 1100; ++len) {
    const auto m = std::span(msg).first(len);
    ASSERT_EQ(test::hex_digest<crypto::sha256>(m), test::to_hex(openssl_digest(EVP_sha256(), m))) << len;
    ASSERT_EQ(test::hex_digest<crypto::sha384>(m), test::to_hex(openssl_digest(EVP_sha384(), m))) << len;
    ASSERT_EQ(test::hex_digest<crypto::sha512>(m), test::to_hex(openssl_digest(EVP_sha512(), m))) << len;
    if (len % 7 == 0) {
      std::uint8_t s256[32], s512[64];
      crypto_hash_sha256(s256, m.data(), m.size());
      crypto_hash_sha512(s512, m.data(), m.size());
      ASSERT_EQ(test::hex_digest<crypto::sha256>(m), test::to_hex(s256));
      ASSERT_EQ(test::hex_digest<crypto::sha512>(m), test::to_hex(s512));
    }
  }
}

TEST_P(Sha2, RandomSplitsAndSnapshots) {
  test::seeded_random rng(257);
  for (int trial = 0; trial < 40; ++trial) {
    const bytes msg = rng.fill(rng.uniform(5000));
    crypto::sha256 h;
    crypto::sha512 g;
    std::size_t at = 0;
    const std::size_t cut = rng.uniform(msg.size() + 1);
    crypto::sha256 snapshot;
    bool taken = false;
    while (at < msg.size()) {
      const std::size_t p = std::min<std::size_t>(rng.uniform(3) ? rng.uniform(70) : rng.uniform(1000), msg.size() - at);
      if (!taken && at + p > cut) {
        snapshot = h;  // copy mid-stream
        snapshot.update(std::span(msg).subspan(at));
        taken = true;
      }
      h.update(std::span(msg).subspan(at, p));
      g.update(std::span(msg).subspan(at, p));
      at += p;
    }
    std::uint8_t a[32], b[64], c[32];
    h.finish(a);
    g.finish(b);
    EXPECT_EQ(test::to_hex(a), test::hex_digest<crypto::sha256>(msg));
    EXPECT_EQ(test::to_hex(b), test::hex_digest<crypto::sha512>(msg));
    if (taken) {
      snapshot.finish(c);
      EXPECT_EQ(test::to_hex(c), test::hex_digest<crypto::sha256>(msg));
    }
    // finish resets: the same object hashes the next message from scratch.
    h.update(msg);
    h.finish(a);
    EXPECT_EQ(test::to_hex(a), test::hex_digest<crypto::sha256>(msg));
  }
}

TEST(Sha2Providers, NameTheKernel) {
  EXPECT_FALSE(crypto::sha256::provider().empty());
  EXPECT_FALSE(crypto::sha512::provider().empty());
  {
    test::scoped_cpu_level force(crypto::cpu::level::portable);
    EXPECT_EQ(crypto::sha256::provider(), "portable");
  }
}

// The SHA-512 vector kernels schedule blocks ahead of their rounds (the AVX2
// one the next block, the AVX-512 one pairs of blocks, odd counts included):
// multi-block inputs of 9 to 40 blocks, one byte either side
// of each block boundary, for SHA-512, SHA-384 and HMAC-SHA-512 against
// OpenSSL (lengths up to 1100 are covered above).
TEST_P(Sha2, Sha512MultiBlockAgreesWithOpenSSL) {
  test::seeded_random rng(512);
  const bytes msg = rng.fill(40 * 128 + 1);
  const bytes key = rng.fill(131);  // longer than a block: hashed first
  for (std::size_t blocks = 9; blocks <= 40; ++blocks) {
    for (std::size_t len : {blocks * 128 - 1, blocks * 128, blocks * 128 + 1}) {
      const auto m = std::span(msg).first(len);
      ASSERT_EQ(test::hex_digest<crypto::sha512>(m), test::to_hex(openssl_digest(EVP_sha512(), m))) << len;
      ASSERT_EQ(test::hex_digest<crypto::sha384>(m), test::to_hex(openssl_digest(EVP_sha384(), m))) << len;
      std::uint8_t ours[64], ref[64];
      unsigned ref_len = 0;
      crypto::hmac<crypto::sha512>::mac(ours, key, m);
      HMAC(EVP_sha512(), key.data(), static_cast<int>(key.size()), m.data(), m.size(), ref, &ref_len);
      ASSERT_EQ(test::to_hex(ours), test::to_hex(std::span(ref, ref_len))) << len;
    }
  }
}

TEST(Sha2Providers, Sha512UsesTheVectorScheduleWhereAvailable) {
  using namespace crypto::cpu;
  if ((detected() & (avx2 | bmi2)) == (avx2 | bmi2)) {
    test::scoped_cpu_level force(level::avx2);
    EXPECT_EQ(crypto::sha512::provider(), "avx2");
    EXPECT_EQ(crypto::sha384::provider(), "avx2");
  }
  const std::uint32_t avx512_needs = avx512f | avx512vl | avx512bw | avx2 | bmi2;
  if ((detected() & avx512_needs) == avx512_needs) {
    test::scoped_cpu_level force(level::avx512);
    EXPECT_EQ(crypto::sha512::provider(), "avx512");
    EXPECT_EQ(crypto::sha384::provider(), "avx512");
  }
  test::scoped_cpu_level force(level::portable);
  EXPECT_EQ(crypto::sha512::provider(), "portable");
}
