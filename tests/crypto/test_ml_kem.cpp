// SPDX-License-Identifier: Apache-2.0
// ML-KEM (FIPS 203): known answers for the first NIST round-3 seed, every case
// of the twelve Wycheproof ML-KEM files (keygen from seed, encaps with the 7.2
// check, decaps with implicit rejection, the expanded-key checks of 7.3),
// round trips, tampered ciphertexts giving J(z || c), wrong-length inputs,
// and the division-free compression against its definition.
#include <sealwire/crypto/ml_kem.hpp>
#include <sealwire/crypto/sha3.hpp>

#include "mlkem/encode.hpp"
#include "vectors.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <string>

using namespace sealwire;
using test::bytes;
using test::hex;

namespace {

template <class Kem>
struct kem_name;
template <>
struct kem_name<crypto::ml_kem_512> {
  static constexpr const char* bits = "512";
};
template <>
struct kem_name<crypto::ml_kem_768> {
  static constexpr const char* bits = "768";
};
template <>
struct kem_name<crypto::ml_kem_1024> {
  static constexpr const char* bits = "1024";
};

template <class Kem>
std::string vector_file(const char* suffix) {
  return std::string("wycheproof/testvectors_v1/mlkem_") + kem_name<Kem>::bits + "_" + suffix + ".json";
}

bytes sha3(std::span<const std::uint8_t> in) {
  bytes out(32);
  crypto::sha3_256::hash(std::span<std::uint8_t, 32>(out.data(), 32), in);
  return out;
}

// implicit_rejection is J(z || c) = SHAKE256(z || c, 32) (FIPS 203 Algorithm 18 line 4).
bytes implicit_rejection(std::span<const std::uint8_t> z, std::span<const std::uint8_t> c) {
  crypto::shake256 j;
  j.update(z);
  j.update(c);
  bytes out(32);
  j.squeeze(out);
  return out;
}

template <class Kem>
bytes decaps(const typename Kem::decapsulation_key& dk, std::span<const std::uint8_t> c) {
  bytes ss(32);
  dk.decapsulate(std::span<std::uint8_t, 32>(ss.data(), 32), c).value();
  return ss;
}

template <class Kem>
class MlKem : public ::testing::Test {};
using kems = ::testing::Types<crypto::ml_kem_512, crypto::ml_kem_768, crypto::ml_kem_1024>;
struct kem_names {
  template <class T>
  static std::string GetName(int) {
    return std::string("ML_KEM_") + kem_name<T>::bits;
  }
};
TYPED_TEST_SUITE(MlKem, kems, kem_names);

// Sizes of FIPS 203 Table 3.
TEST(MlKemSizes, Table3) {
  EXPECT_EQ(crypto::ml_kem_512::encapsulation_key_size, 800u);
  EXPECT_EQ(crypto::ml_kem_512::decapsulation_key_size, 1632u);
  EXPECT_EQ(crypto::ml_kem_512::ciphertext_size, 768u);
  EXPECT_EQ(crypto::ml_kem_768::encapsulation_key_size, 1184u);
  EXPECT_EQ(crypto::ml_kem_768::decapsulation_key_size, 2400u);
  EXPECT_EQ(crypto::ml_kem_768::ciphertext_size, 1088u);
  EXPECT_EQ(crypto::ml_kem_1024::encapsulation_key_size, 1568u);
  EXPECT_EQ(crypto::ml_kem_1024::decapsulation_key_size, 3168u);
  EXPECT_EQ(crypto::ml_kem_1024::ciphertext_size, 1568u);
}

// Known answers for the first seed of the NIST round-3 KAT generator (the
// "official round 3 seeds 0" case): SHA3-256 of ek, dk and c, and K, as the
// pq-crystals KAT summaries give them.
struct known_answer {
  const char* ek_hash;
  const char* dk_hash;
  const char* c_hash;
  const char* k;
};
template <class Kem>
known_answer round3_seed0();
template <>
known_answer round3_seed0<crypto::ml_kem_512>() {
  return {"50c8dd152a4531aab560d2fc7ca9a40ad8af25ad1dd08c6d79afe4dd4d1eee5a",
          "2e08d2c82a07f5f67878b54e06848c924ee7a0929cb6440d06fffd9622687b48",
          "ed14369380d501d2bb28861a26ad092b1bbd6764c083244551c436ccf98dd9f8",
          "319839e82ab6b222de7b619e80da8391522bbb37677018494a4742c53f9abfdf"};
}
template <>
known_answer round3_seed0<crypto::ml_kem_768>() {
  return {"f57262661358cde8d3ebf990e5fd1d5b896c992ccfaadb5256b68bbf5943b132",
          "7deef44965b03d76de543ad6ef9e74a2772fa5a9fa0e761120dac767cf0152ef",
          "6e777e2cf8054659136a971d9e70252f301226930c19c470ee0688163a63c15b",
          "e7184a0975ee3470878d2d159ec83129c8aec253d4ee17b4810311d198cd0368"};
}
template <>
known_answer round3_seed0<crypto::ml_kem_1024>() {
  return {"ebbe41cd4dea489dedd00e76ae0bcf54aa8550202920eb64d5892ad02b13f2e5",
          "ecfa369ec7e834204291fccb4d59c3fd1557b0ec3ab2ed7d50c98c01f292612e",
          "507dcdae0432f558189a09c5e79fd69896e2f830e37ae4d598b00566e55f20f5",
          "489dd1e9c2be4af3482bdb35bb26ce760e6e414da6ecbe489985748a825f1cd6"};
}

// At every CPU level: the AVX2 kernels and Keccak's four-lane kernels of
// each level must give the same answers (the vector files run at the best
// level, and with the portable kernels under ctest's crypto.ml_kem_portable).
TYPED_TEST(MlKem, KnownAnswer) {
  using Kem = TypeParam;
  const auto kat = round3_seed0<Kem>();
  const bytes seed = hex(
      "7c9935a0b07694aa0c6d10e4db6b1add2fd81a25ccb148032dcd739936737f2d"
      "8626ed79d451140800e03b59b956f8210e556067407d13dc90fa9e8b872bfb8f");
  const bytes m = hex("147c03f7a5bebba406c8fae1874d7f13c80efe79a3a9a874cc09fe76f6997615");
  test::at_every_level([&] {
    const auto dk = Kem::decapsulation_key::from_seed(seed).value();
    EXPECT_EQ(sha3(dk.public_key().bytes()), hex(kat.ek_hash));
    bytes expanded(Kem::decapsulation_key_size);
    dk.write_expanded(std::span<std::uint8_t, Kem::decapsulation_key_size>(expanded));
    EXPECT_EQ(sha3(expanded), hex(kat.dk_hash));
    bytes c(Kem::ciphertext_size), k(32);
    dk.public_key().encapsulate(std::span<std::uint8_t, Kem::ciphertext_size>(c), std::span<std::uint8_t, 32>(k),
                                std::span<const std::uint8_t, 32>(m.data(), 32));
    EXPECT_EQ(sha3(c), hex(kat.c_hash));
    EXPECT_EQ(k, hex(kat.k));
    EXPECT_EQ(decaps<Kem>(dk, c), k);
    EXPECT_TRUE(dk.has_seed());
    EXPECT_EQ(bytes(dk.seed().begin(), dk.seed().end()), seed);
  });
}

// mlkem_N_test.json: seed -> ek, then Decaps(c) = K, implicit rejection
// included; invalid cases have a seed or a ciphertext of the wrong length.
TYPED_TEST(MlKem, WycheproofDecaps) {
  using Kem = TypeParam;
  SEALWIRE_REQUIRE_VECTOR(path, vector_file<Kem>("test"));
  const auto j = test::load_json(path);
  std::map<std::string, int> counts;
  for (const auto& g : j["testGroups"]) {
    for (const auto& t : g["tests"]) {
      const std::string result = t["result"];
      ASSERT_TRUE(result == "valid" || result == "invalid") << "tcId " << t["tcId"];
      const bytes seed = hex(t["seed"].get<std::string>()), c = hex(t["c"].get<std::string>());
      bool ok = false;
      bytes ss(32, 0xaa);
      if (auto dk = Kem::decapsulation_key::from_seed(seed)) {
        EXPECT_EQ(bytes(dk->public_key().bytes().begin(), dk->public_key().bytes().end()),
                  hex(t["ek"].get<std::string>()))
            << "tcId " << t["tcId"];
        const auto r = dk->decapsulate(std::span<std::uint8_t, 32>(ss.data(), 32), c);
        ok = r.has_value();
        if (!ok) {
          EXPECT_EQ(r.error(), crypto_errc::invalid_argument);
          EXPECT_EQ(ss, bytes(32, 0)) << "tcId " << t["tcId"];
        }
      } else {
        EXPECT_EQ(dk.error(), crypto_errc::invalid_key);
        EXPECT_NE(seed.size(), 64u);
      }
      EXPECT_EQ(ok, result == "valid") << "tcId " << t["tcId"] << " " << t["comment"];
      if (ok) {
        EXPECT_EQ(ss, hex(t["K"].get<std::string>())) << "tcId " << t["tcId"] << " " << t["comment"];
      }
      ++counts[result];
    }
  }
  EXPECT_EQ(counts["valid"] + counts["invalid"], j["numberOfTests"].get<int>());
  EXPECT_GT(counts["invalid"], 0);
}

// mlkem_N_encaps_test.json: Encaps(ek, m) = (c, K); invalid cases are keys of
// the wrong length or with a coefficient >= q (the 7.2 modulus check).
TYPED_TEST(MlKem, WycheproofEncaps) {
  using Kem = TypeParam;
  SEALWIRE_REQUIRE_VECTOR(path, vector_file<Kem>("encaps_test"));
  const auto j = test::load_json(path);
  std::map<std::string, int> counts;
  for (const auto& g : j["testGroups"]) {
    for (const auto& t : g["tests"]) {
      const std::string result = t["result"];
      ASSERT_TRUE(result == "valid" || result == "invalid") << "tcId " << t["tcId"];
      const bytes ek = hex(t["ek"].get<std::string>()), m = hex(t["m"].get<std::string>());
      ASSERT_EQ(m.size(), 32u);
      bytes c(Kem::ciphertext_size, 0xaa), k(32, 0xaa);
      const auto r = Kem::encapsulate(std::span<std::uint8_t, Kem::ciphertext_size>(c),
                                      std::span<std::uint8_t, 32>(k), ek,
                                      std::span<const std::uint8_t, 32>(m.data(), 32));
      EXPECT_EQ(r.has_value(), result == "valid") << "tcId " << t["tcId"] << " " << t["comment"];
      EXPECT_EQ(Kem::check_encapsulation_key(ek).has_value(), result == "valid") << "tcId " << t["tcId"];
      if (r) {
        EXPECT_EQ(c, hex(t["c"].get<std::string>())) << "tcId " << t["tcId"];
        EXPECT_EQ(k, hex(t["K"].get<std::string>())) << "tcId " << t["tcId"];
      } else {
        EXPECT_EQ(r.error(), crypto_errc::invalid_public_key);
        EXPECT_EQ(c, bytes(Kem::ciphertext_size, 0));
        EXPECT_EQ(k, bytes(32, 0));
      }
      ++counts[result];
    }
  }
  EXPECT_EQ(counts["valid"] + counts["invalid"], j["numberOfTests"].get<int>());
  EXPECT_GT(counts["invalid"], 0);
}

// mlkem_N_keygen_seed_test.json: KeyGen(d || z) = (ek, expanded dk); the
// expanded form loads back with the 7.3 checks and decapsulates alike.
TYPED_TEST(MlKem, WycheproofKeyGen) {
  using Kem = TypeParam;
  SEALWIRE_REQUIRE_VECTOR(path, vector_file<Kem>("keygen_seed_test"));
  const auto j = test::load_json(path);
  int cases = 0;
  for (const auto& g : j["testGroups"]) {
    for (const auto& t : g["tests"]) {
      ASSERT_EQ(t["result"], "valid") << "tcId " << t["tcId"];
      const auto dk = Kem::decapsulation_key::from_seed(hex(t["seed"].get<std::string>())).value();
      const bytes want_dk = hex(t["dk"].get<std::string>());
      EXPECT_EQ(bytes(dk.public_key().bytes().begin(), dk.public_key().bytes().end()), hex(t["ek"].get<std::string>()))
          << "tcId " << t["tcId"];
      bytes expanded(Kem::decapsulation_key_size);
      dk.write_expanded(std::span<std::uint8_t, Kem::decapsulation_key_size>(expanded));
      EXPECT_EQ(expanded, want_dk) << "tcId " << t["tcId"];
      if (cases % 10 == 0) {
        // A sample round-trips through the expanded form.
        const auto loaded = Kem::decapsulation_key::from_expanded(want_dk).value();
        EXPECT_FALSE(loaded.has_seed());
        bytes again(Kem::decapsulation_key_size);
        loaded.write_expanded(std::span<std::uint8_t, Kem::decapsulation_key_size>(again));
        EXPECT_EQ(again, want_dk);
      }
      ++cases;
    }
  }
  EXPECT_EQ(cases, j["numberOfTests"].get<int>());
}

// mlkem_N_semi_expanded_decaps_test.json: the expanded decapsulation key with
// the 7.3 checks (length, hash of the embedded ek), the ciphertext length.
TYPED_TEST(MlKem, WycheproofExpandedDecaps) {
  using Kem = TypeParam;
  SEALWIRE_REQUIRE_VECTOR(path, vector_file<Kem>("semi_expanded_decaps_test"));
  const auto j = test::load_json(path);
  std::map<std::string, int> counts;
  for (const auto& g : j["testGroups"]) {
    for (const auto& t : g["tests"]) {
      const std::string result = t["result"];
      ASSERT_TRUE(result == "valid" || result == "invalid") << "tcId " << t["tcId"];
      const bytes dk_bytes = hex(t["dk"].get<std::string>()), c = hex(t["c"].get<std::string>());
      bool ok = false;
      bytes ss(32);
      if (auto dk = Kem::decapsulation_key::from_expanded(dk_bytes)) {
        EXPECT_EQ(bytes(dk->public_key().bytes().begin(), dk->public_key().bytes().end()),
                  hex(t["ek"].get<std::string>()))
            << "tcId " << t["tcId"];
        ok = dk->decapsulate(std::span<std::uint8_t, 32>(ss.data(), 32), c).has_value();
      } else {
        EXPECT_EQ(dk.error(), crypto_errc::invalid_key);
      }
      EXPECT_EQ(ok, result == "valid") << "tcId " << t["tcId"] << " " << t["comment"];
      if (ok) {
        EXPECT_EQ(ss, hex(t["K"].get<std::string>())) << "tcId " << t["tcId"];
      }
      ++counts[result];
    }
  }
  EXPECT_EQ(counts["valid"] + counts["invalid"], j["numberOfTests"].get<int>());
  EXPECT_GT(counts["invalid"], 0);
}

// Random keys round-trip; any single-bit change of the ciphertext yields the
// implicit-rejection value J(z || c') (recomputed here from z).
TYPED_TEST(MlKem, RoundTripAndTamper) {
  using Kem = TypeParam;
  test::seeded_random rng(0x6d6c6b656d);
  for (int iter = 0; iter < 4; ++iter) {
    const bytes seed = rng.fill(64);
    const auto dk = Kem::decapsulation_key::from_seed(seed).value();
    const std::span<const std::uint8_t> z(seed.data() + 32, 32);
    bytes c(Kem::ciphertext_size), k(32);
    crypto::random_source* previous = crypto::set_random_source(&rng);
    const auto r = Kem::encapsulate(std::span<std::uint8_t, Kem::ciphertext_size>(c), std::span<std::uint8_t, 32>(k),
                                    dk.public_key().bytes());
    crypto::set_random_source(previous);
    ASSERT_TRUE(r);
    EXPECT_EQ(decaps<Kem>(dk, c), k);
    for (int flip = 0; flip < 3; ++flip) {
      bytes bad = c;
      const std::size_t bit = rng.uniform(bad.size() * 8);
      bad[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
      const bytes got = decaps<Kem>(dk, bad);
      EXPECT_NE(got, k);
      EXPECT_EQ(got, implicit_rejection(z, bad));
    }
  }
}

TYPED_TEST(MlKem, WrongLengthsAndRngFailure) {
  using Kem = TypeParam;
  test::seeded_random rng(7);
  const bytes seed = rng.fill(64);
  for (std::size_t len : {0, 32, 63, 65}) {
    const auto r = Kem::decapsulation_key::from_seed(bytes(len, 1));
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), crypto_errc::invalid_key);
  }
  const auto dk = Kem::decapsulation_key::from_seed(seed).value();
  for (std::size_t len : {std::size_t{0}, Kem::ciphertext_size - 1, Kem::ciphertext_size + 1}) {
    bytes ss(32, 0x55);
    const auto r = dk.decapsulate(std::span<std::uint8_t, 32>(ss.data(), 32), bytes(len, 3));
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), crypto_errc::invalid_argument);
    EXPECT_EQ(ss, bytes(32, 0));
  }
  for (std::size_t len : {std::size_t{0}, Kem::encapsulation_key_size - 1, Kem::encapsulation_key_size + 1}) {
    EXPECT_EQ(Kem::encapsulation_key::from_bytes(bytes(len, 0)).error(), crypto_errc::invalid_public_key);
  }
  for (std::size_t len : {std::size_t{0}, Kem::decapsulation_key_size - 1, Kem::decapsulation_key_size + 1}) {
    EXPECT_EQ(Kem::decapsulation_key::from_expanded(bytes(len, 0)).error(), crypto_errc::invalid_key);
  }
  // A corrupted embedded hash fails the 7.3 hash check.
  bytes expanded(Kem::decapsulation_key_size);
  dk.write_expanded(std::span<std::uint8_t, Kem::decapsulation_key_size>(expanded));
  expanded[Kem::decapsulation_key_size - 40] ^= 1;
  EXPECT_EQ(Kem::decapsulation_key::from_expanded(expanded).error(), crypto_errc::invalid_key);
  // A failing random source: error reported, outputs zeroed.
  test::failing_random failing;
  crypto::random_source* previous = crypto::set_random_source(&failing);
  bytes c(Kem::ciphertext_size, 0x55), k(32, 0x55);
  const auto r = dk.public_key().encapsulate(std::span<std::uint8_t, Kem::ciphertext_size>(c),
                                             std::span<std::uint8_t, 32>(k));
  const auto g = Kem::decapsulation_key::generate();
  crypto::set_random_source(previous);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), crypto_errc::rng_failure);
  EXPECT_EQ(c, bytes(Kem::ciphertext_size, 0));
  EXPECT_EQ(k, bytes(32, 0));
  ASSERT_FALSE(g);
  EXPECT_EQ(g.error(), crypto_errc::rng_failure);
}

// Moving a key keeps it working.
TYPED_TEST(MlKem, MoveKeepsKey) {
  using Kem = TypeParam;
  test::seeded_random rng(11);
  auto dk = Kem::decapsulation_key::from_seed(rng.fill(64)).value();
  bytes c(Kem::ciphertext_size), k(32);
  const bytes m = rng.fill(32);
  dk.public_key().encapsulate(std::span<std::uint8_t, Kem::ciphertext_size>(c), std::span<std::uint8_t, 32>(k),
                              std::span<const std::uint8_t, 32>(m.data(), 32));
  auto moved = std::move(dk);
  EXPECT_EQ(decaps<Kem>(moved, c), k);
}

// The division-free Compress_d equals round(2^d x / q) mod 2^d for every x
// and every d ML-KEM uses; Decompress inverts it within the rounding error.
TEST(MlKemEncoding, CompressMatchesDefinition) {
  for (unsigned d : {1u, 4u, 5u, 10u, 11u}) {
    for (std::uint32_t x = 0; x < 3329; ++x) {
      const std::uint32_t want = (((x << d) * 2 + 3329) / (2 * 3329)) & ((1u << d) - 1);
      ASSERT_EQ(crypto::mlkem::compress(x, d), want) << "d " << d << " x " << x;
    }
    for (std::uint32_t y = 0; y < (1u << d); ++y) ASSERT_EQ(crypto::mlkem::compress(static_cast<std::uint32_t>(crypto::mlkem::decompress(y, d)), d), y);
  }
}

}  // namespace
