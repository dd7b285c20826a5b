// SPDX-License-Identifier: Apache-2.0
// BLAKE2b: the RFC 7693 appendix example and other published known answers,
// differential tests against libsodium (crypto_generichash) and OpenSSL,
// incremental and snapshot properties, and argument checks.
#include <sealwire/crypto/blake2b.hpp>

#include "vectors.hpp"

#include <openssl/evp.h>
#include <sodium.h>

#include <algorithm>

using namespace sealwire;
using crypto::blake2b;
using test::bytes;
using test::hex;
using test::to_hex;

namespace {

bytes ours(std::size_t out_len, std::span<const std::uint8_t> in, std::span<const std::uint8_t> key = {}) {
  bytes out(out_len);
  EXPECT_TRUE(blake2b::hash(out, in, key));
  return out;
}

bytes libsodium(std::size_t out_len, std::span<const std::uint8_t> in, std::span<const std::uint8_t> key = {}) {
  bytes out(out_len);
  EXPECT_EQ(crypto_generichash(out.data(), out.size(), in.data(), in.size(), key.empty() ? nullptr : key.data(),
                               key.size()),
            0);
  return out;
}

bytes key_0_to_63() {
  bytes k(64);
  for (std::size_t i = 0; i < k.size(); ++i) k[i] = static_cast<std::uint8_t>(i);
  return k;
}

}  // namespace

// ---- known answers ----

TEST(Blake2b, Rfc7693AppendixA) {
  EXPECT_EQ(to_hex(ours(64, test::to_bytes("abc"))),
            "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc9518d38aa8dbf1"
            "925ab92386edd4009923");
}

TEST(Blake2b, PublishedKnownAnswers) {
  EXPECT_EQ(to_hex(ours(64, {})),
            "786a02f742015903c6c6fd852552d272912f4740e15847618a86e217f71f5419d25e1031afee585313896444934eb04b903a685b144"
            "8b755d56f701afe9be2ce");
  EXPECT_EQ(to_hex(ours(32, test::to_bytes("abc"))), "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319");
  // The BLAKE2 reference package's keyed known answer (blake2b-kat.txt):
  // key 00 01 .. 3f, empty message.
  EXPECT_EQ(to_hex(ours(64, {}, key_0_to_63())),
            "10ebb67700b1868efb4417987acf4690ae9d972fb7a590c2f02871799aaa4786b5e996e8f0f4eb981fc214b005f42d2ff423349939"
            "1653df7aefcbc13fc51568");
}

// ---- differential ----

TEST(Blake2b, AgreesWithLibsodium) {
  ASSERT_GE(sodium_init(), 0);
  test::seeded_random rng(21);
  const bytes all = rng.fill(70000);
  for (int trial = 0; trial < 3000; ++trial) {
    const std::size_t len = trial < 2000 ? rng.uniform(1100) : rng.uniform(all.size() + 1);
    const std::size_t out_len = 1 + rng.uniform(64);
    const std::size_t key_len = trial % 4 == 0 ? 0 : rng.uniform(65);
    const bytes key = rng.fill(key_len);
    const auto in = std::span(all).first(len);
    ASSERT_EQ(to_hex(ours(out_len, in, key)), to_hex(libsodium(out_len, in, key)))
        << "length " << len << " out " << out_len << " key " << key_len;
  }
}

TEST(Blake2b, EveryLengthAtBlockBoundariesAgreesWithLibsodium) {
  test::seeded_random rng(22);
  const bytes all = rng.fill(1200), key = rng.fill(64);
  for (std::size_t len = 0; len <= all.size(); ++len) {
    const auto in = std::span(all).first(len);
    ASSERT_EQ(ours(64, in), libsodium(64, in)) << len;
    ASSERT_EQ(ours(32, in, key), libsodium(32, in, key)) << len;
  }
}

TEST(Blake2b, AgreesWithOpenSsl) {
  test::seeded_random rng(23);
  for (std::size_t len : {0u, 1u, 127u, 128u, 129u, 255u, 256u, 257u, 1000u, 65536u}) {
    const bytes in = rng.fill(len);
    std::uint8_t theirs[64];
    unsigned n = 0;
    ASSERT_EQ(EVP_Digest(in.data(), in.size(), theirs, &n, EVP_blake2b512(), nullptr), 1);
    ASSERT_EQ(n, 64u);
    EXPECT_EQ(to_hex(ours(64, in)), to_hex(theirs)) << len;
  }
}

// ---- incremental ----

TEST(Blake2b, IncrementalEqualsOneShotAtRandomSplits) {
  test::seeded_random rng(24);
  for (int trial = 0; trial < 400; ++trial) {
    const bytes in = rng.fill(rng.uniform(trial < 300 ? 1000 : 20000));
    const bytes key = rng.fill(trial % 3 == 0 ? 0 : 1 + rng.uniform(64));
    const std::size_t out_len = 1 + rng.uniform(64);
    const std::size_t max_piece = trial % 2 == 0 ? 300 : 5000;
    blake2b h;
    ASSERT_TRUE(h.init(out_len, key));
    for (std::span<const std::uint8_t> rest(in); !rest.empty();) {
      const std::size_t n = std::min<std::size_t>(rest.size(), rng.uniform(max_piece + 1));
      h.update(rest.first(n));
      rest = rest.subspan(n);
    }
    bytes got(out_len);
    h.finish(got);
    ASSERT_EQ(to_hex(got), to_hex(libsodium(out_len, in, key))) << trial;
  }
}

TEST(Blake2b, EverySplitPointOfOneMessage) {
  test::seeded_random rng(25);
  const bytes in = rng.fill(600), key = rng.fill(40);
  const bytes want = ours(48, in, key);
  for (std::size_t split = 0; split <= in.size(); ++split) {
    blake2b h;
    ASSERT_TRUE(h.init(48, key));
    h.update(std::span(in).first(split));
    h.update(std::span(in).subspan(split));
    bytes got(48);
    h.finish(got);
    ASSERT_EQ(got, want) << split;
  }
}

TEST(Blake2b, CopySnapshotsMidStream) {
  test::seeded_random rng(26);
  const bytes key = rng.fill(32), a = rng.fill(300), b = rng.fill(77), c = rng.fill(1000);
  blake2b h;
  ASSERT_TRUE(h.init(64, key));
  h.update(a);
  blake2b snapshot = h;
  h.update(b);
  snapshot.update(c);
  bytes ab = a, ac = a;
  ab.insert(ab.end(), b.begin(), b.end());
  ac.insert(ac.end(), c.begin(), c.end());
  bytes x(64), y(64);
  h.finish(x);
  snapshot.finish(y);
  EXPECT_EQ(x, libsodium(64, ab, key));
  EXPECT_EQ(y, libsodium(64, ac, key));
}

TEST(Blake2b, ReusableAfterFinish) {
  const bytes in = test::to_bytes("abc");
  blake2b h;
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(h.init(64));
    h.update(in);
    bytes out(64);
    h.finish(out);
    EXPECT_EQ(out, ours(64, in));
  }
}

// ---- arguments ----

TEST(Blake2b, BadSizesRejected) {
  blake2b h;
  EXPECT_EQ(h.init(0).error(), crypto_errc::invalid_argument);
  EXPECT_EQ(h.init(65).error(), crypto_errc::invalid_argument);
  const bytes long_key(65, 1);
  EXPECT_EQ(h.init(32, long_key).error(), crypto_errc::invalid_key);
  EXPECT_TRUE(h.init(1, bytes(64, 1)));
  EXPECT_TRUE(h.init(64));

  bytes none, too_long(65);
  EXPECT_EQ(blake2b::hash(none, {}).error(), crypto_errc::invalid_argument);
  EXPECT_EQ(blake2b::hash(too_long, {}).error(), crypto_errc::invalid_argument);
  bytes out(32);
  EXPECT_EQ(blake2b::hash(out, {}, long_key).error(), crypto_errc::invalid_key);
}

TEST(Blake2bDeathTest, MisuseIsAContractFailure) {
  blake2b h;
  EXPECT_DEATH(h.update(test::to_bytes("x")), "contract violated");  // before init
  ASSERT_TRUE(h.init(32));
  bytes wrong(31);
  EXPECT_DEATH(h.finish(wrong), "contract violated");
  bytes out(32);
  h.finish(out);
  EXPECT_DEATH(h.finish(out), "contract violated");  // after finish
}
