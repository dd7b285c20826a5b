// SPDX-License-Identifier: Apache-2.0
// X-Wing (draft-connolly-cfrg-xwing-kem): every case of the draft's test
// vectors (key expansion, derandomized Encaps, Decaps), round trips, a
// tampered ciphertext, the combiner recomputed from its parts, bad inputs.
#include <sealwire/crypto/ml_kem.hpp>
#include <sealwire/crypto/sha3.hpp>
#include <sealwire/crypto/x25519.hpp>
#include <sealwire/crypto/xwing.hpp>

#include "formats.hpp"
#include "vectors.hpp"

#include <nlohmann/json.hpp>

using namespace sealwire;
using crypto::xwing;
using test::bytes;
using test::hex;

namespace {

bytes decaps(const xwing::decapsulation_key& dk, std::span<const std::uint8_t> ct) {
  bytes ss(32);
  dk.decapsulate(std::span<std::uint8_t, 32>(ss.data(), 32), ct).value();
  return ss;
}

TEST(XWing, DraftVectors) {
  SEALWIRE_REQUIRE_VECTOR(path, "pq/xwing-test-vectors.json");
  const auto vectors = test::read_xwing_vectors(path);
  ASSERT_EQ(vectors.size(), 3u);
  for (const auto& [seed, sk, eseed, pk, ct, ss] : vectors) {
    EXPECT_EQ(sk, seed);
    const auto dk = xwing::decapsulation_key::from_seed(seed).value();
    EXPECT_EQ(bytes(dk.encapsulation_key().begin(), dk.encapsulation_key().end()), pk);
    EXPECT_EQ(bytes(dk.seed().begin(), dk.seed().end()), seed);
    bytes c(xwing::ciphertext_size), k(32);
    ASSERT_TRUE(xwing::encapsulate(std::span<std::uint8_t, 1120>(c), std::span<std::uint8_t, 32>(k), pk,
                                   std::span<const std::uint8_t, 64>(eseed.data(), 64)));
    EXPECT_EQ(c, ct);
    EXPECT_EQ(k, ss);
    EXPECT_EQ(decaps(dk, ct), ss);
  }
}

// The shared secret is SHA3-256(ss_M || ss_X || ct_X || pk_X || "\.//^\"),
// recomputed here from ML-KEM-768 and X25519 directly.
TEST(XWing, CombinerFromParts) {
  test::seeded_random rng(0x7877);
  const bytes seed = rng.fill(32), eseed = rng.fill(64);
  const auto dk = xwing::decapsulation_key::from_seed(seed).value();
  const auto pk = dk.encapsulation_key();
  bytes c(1120), k(32);
  ASSERT_TRUE(xwing::encapsulate(std::span<std::uint8_t, 1120>(c), std::span<std::uint8_t, 32>(k), pk,
                                 std::span<const std::uint8_t, 64>(eseed.data(), 64)));
  bytes expanded(96);
  crypto::shake256::hash(expanded, seed);
  const auto mk = crypto::ml_kem_768::decapsulation_key::from_seed(std::span(expanded.data(), 64)).value();
  bytes ss_m(32), ss_x(32), pk_x(32);
  mk.decapsulate(std::span<std::uint8_t, 32>(ss_m.data(), 32), std::span(c.data(), 1088)).value();
  crypto::x25519::public_key(std::span<std::uint8_t, 32>(pk_x.data(), 32), std::span<const std::uint8_t, 32>(expanded.data() + 64, 32));
  EXPECT_EQ(bytes(pk.begin() + 1184, pk.end()), pk_x);
  const std::span<const std::uint8_t, 32> e_x(eseed.data() + 32, 32);
  crypto::x25519::shared_secret(std::span<std::uint8_t, 32>(ss_x.data(), 32), e_x, pk_x).value();
  bytes in;
  for (const bytes* part : {&ss_m, &ss_x}) in.insert(in.end(), part->begin(), part->end());
  in.insert(in.end(), c.begin() + 1088, c.end());
  in.insert(in.end(), pk_x.begin(), pk_x.end());
  for (char ch : std::string_view("\\.//^\\")) in.push_back(static_cast<std::uint8_t>(ch));
  bytes want(32);
  crypto::sha3_256::hash(std::span<std::uint8_t, 32>(want.data(), 32), in);
  EXPECT_EQ(k, want);
}

TEST(XWing, RoundTripTamperAndErrors) {
  test::seeded_random rng(99);
  crypto::random_source* previous = crypto::set_random_source(&rng);
  const auto dk = xwing::decapsulation_key::generate().value();
  bytes c(1120), k(32);
  const auto r = xwing::encapsulate(std::span<std::uint8_t, 1120>(c), std::span<std::uint8_t, 32>(k),
                                    dk.encapsulation_key());
  crypto::set_random_source(previous);
  ASSERT_TRUE(r);
  EXPECT_EQ(decaps(dk, c), k);
  for (std::size_t pos : {std::size_t{0}, std::size_t{1087}, std::size_t{1088}, std::size_t{1119}}) {
    bytes bad = c;
    bad[pos] ^= 0x10;
    EXPECT_NE(decaps(dk, bad), k) << pos;
  }
  // Wrong lengths.
  EXPECT_EQ(xwing::decapsulation_key::from_seed(bytes(31)).error(), crypto_errc::invalid_key);
  EXPECT_EQ(xwing::decapsulation_key::from_seed(bytes(64)).error(), crypto_errc::invalid_key);
  bytes ss(32, 1);
  EXPECT_EQ(dk.decapsulate(std::span<std::uint8_t, 32>(ss.data(), 32), bytes(1119)).error(),
            crypto_errc::invalid_argument);
  EXPECT_EQ(ss, bytes(32, 0));
  const bytes eseed = rng.fill(64);
  bytes pk(dk.encapsulation_key().begin(), dk.encapsulation_key().end());
  for (const bytes& bad_pk : {bytes(1215), bytes(1217)}) {
    bytes c2(1120, 1), k2(32, 1);
    EXPECT_EQ(xwing::encapsulate(std::span<std::uint8_t, 1120>(c2), std::span<std::uint8_t, 32>(k2), bad_pk,
                                 std::span<const std::uint8_t, 64>(eseed.data(), 64))
                  .error(),
              crypto_errc::invalid_public_key);
    EXPECT_EQ(c2, bytes(1120, 0));
    EXPECT_EQ(k2, bytes(32, 0));
  }
  // An ML-KEM coefficient of q (0xd01 in the first 12 bits) fails the 7.2 check.
  pk[0] = 0x01;
  pk[1] = static_cast<std::uint8_t>((pk[1] & 0xf0) | 0x0d);
  bytes c3(1120), k3(32);
  EXPECT_EQ(xwing::encapsulate(std::span<std::uint8_t, 1120>(c3), std::span<std::uint8_t, 32>(k3), pk,
                               std::span<const std::uint8_t, 64>(eseed.data(), 64))
                .error(),
            crypto_errc::invalid_public_key);
  // A failing random source.
  test::failing_random failing;
  previous = crypto::set_random_source(&failing);
  const auto g = xwing::decapsulation_key::generate();
  bytes c4(1120, 1), k4(32, 1);
  const auto e = xwing::encapsulate(std::span<std::uint8_t, 1120>(c4), std::span<std::uint8_t, 32>(k4),
                                    dk.encapsulation_key());
  crypto::set_random_source(previous);
  EXPECT_EQ(g.error(), crypto_errc::rng_failure);
  EXPECT_EQ(e.error(), crypto_errc::rng_failure);
  EXPECT_EQ(c4, bytes(1120, 0));
  EXPECT_EQ(k4, bytes(32, 0));
}

}  // namespace
