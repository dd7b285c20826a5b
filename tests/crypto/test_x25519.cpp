// SPDX-License-Identifier: Apache-2.0
// X25519: RFC 7748 known answers and iterations, Wycheproof (with a decision
// for every "acceptable" flag), and differential checks with libsodium and
// OpenSSL, at every CPU level.
#include <sealwire/crypto/random.hpp>
#include <sealwire/crypto/x25519.hpp>

#include "vectors.hpp"

#include <nlohmann/json.hpp>

#include <openssl/evp.h>
#include <sodium.h>

#include <map>

using namespace sealwire;
using crypto::x25519;
using test::bytes;
using test::hex;

namespace {

class X25519 : public test::cpu_level_test {};
SEALWIRE_INSTANTIATE_CPU_LEVELS(X25519);

std::span<const std::uint8_t, 32> s32(const bytes& b) { return std::span<const std::uint8_t, 32>(b.data(), 32); }

result<bytes> dh(const bytes& scalar, const bytes& u) {
  bytes out(32);
  if (auto r = x25519::shared_secret(std::span<std::uint8_t, 32>(out.data(), 32), s32(scalar), std::span(u)); !r) {
    return r.error();
  }
  return out;
}

}  // namespace

TEST_P(X25519, Rfc7748Section52) {
  EXPECT_EQ(test::to_hex(*dh(hex("a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4"),
                             hex("e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c"))),
            "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552");
  EXPECT_EQ(test::to_hex(*dh(hex("4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d"),
                             hex("e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493"))),
            "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957");
}

// RFC 7748 5.2: k = u = 9; repeatedly set (k, u) = (X25519(k, u), k).
TEST_P(X25519, Rfc7748IteratedTo1000) {
  bytes k(32, 0), u(32, 0);
  k[0] = u[0] = 9;
  for (int i = 1; i <= 1000; ++i) {
    bytes next(32);
    ASSERT_TRUE(x25519::shared_secret(std::span<std::uint8_t, 32>(next.data(), 32), s32(k), s32(u)));
    u = k;
    k = next;
    if (i == 1) {
      EXPECT_EQ(test::to_hex(k), "422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079");
    }
  }
  EXPECT_EQ(test::to_hex(k), "684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51");
}

// The million-iteration case takes minutes; run it on demand with
// --gtest_also_run_disabled_tests --gtest_filter='*Iterated1000000*'.
TEST(X25519Long, DISABLED_Rfc7748Iterated1000000) {
  bytes k(32, 0), u(32, 0);
  k[0] = u[0] = 9;
  for (int i = 1; i <= 1000000; ++i) {
    bytes next(32);
    ASSERT_TRUE(x25519::shared_secret(std::span<std::uint8_t, 32>(next.data(), 32), s32(k), s32(u)));
    u = k;
    k = next;
  }
  EXPECT_EQ(test::to_hex(k), "7c3911e0ab2586fd864497297e575e6f3bc601c0883c30df5f4dd2d24f665424");
}

TEST_P(X25519, Rfc7748Section61DiffieHellman) {
  const bytes alice = hex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a");
  const bytes bob = hex("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb");
  std::uint8_t a_pub[32], b_pub[32];
  x25519::public_key(a_pub, s32(alice));
  x25519::public_key(b_pub, s32(bob));
  EXPECT_EQ(test::to_hex(a_pub), "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a");
  EXPECT_EQ(test::to_hex(b_pub), "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f");
  const std::string shared = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742";
  EXPECT_EQ(test::to_hex(*dh(alice, bytes(b_pub, b_pub + 32))), shared);
  EXPECT_EQ(test::to_hex(*dh(bob, bytes(a_pub, a_pub + 32))), shared);
}

// Wycheproof x25519_test.json. Valid cases must give `shared`. Every
// "acceptable" case is decided by what it produces, flag by flag:
//  - ZeroSharedSecret, LowOrderPublic, and any other case whose result is
//    all zero: rejected with zero_shared_secret (HPKE, RFC 9180 7.1.4, and our
//    handshake need a contributory result);
//  - NonCanonicalPublic (u >= p), Twist (a point on the twist),
//    SmallPublicKey, EdgeCase*, SpecialPublicKey, when the result is not zero:
//    accepted with `shared`, as RFC 7748 5 requires (reduce u modulo p,
//    ignore the top bit, no point validation).
TEST_P(X25519, Wycheproof) {
  SEALWIRE_REQUIRE_VECTOR(path, "wycheproof/testvectors_v1/x25519_test.json");
  const auto j = test::load_json(path);
  std::map<std::string, int> counts;
  for (const auto& g : j["testGroups"]) {
    for (const auto& t : g["tests"]) {
      const bytes pub = hex(t["public"].get<std::string>()), priv = hex(t["private"].get<std::string>());
      const std::string shared = t["shared"].get<std::string>();
      const std::string result = t["result"];
      const auto got = dh(priv, pub);
      const bool zero = shared == std::string(64, '0');
      if (result == "invalid") {
        EXPECT_FALSE(got) << "tcId " << t["tcId"];
      } else if (zero) {
        ASSERT_NE(result, "valid") << "a valid case with an all-zero result would contradict our rule";
        EXPECT_EQ(got.error(), crypto_errc::zero_shared_secret) << "tcId " << t["tcId"];
      } else {
        ASSERT_TRUE(got) << "tcId " << t["tcId"] << " " << t["comment"];
        EXPECT_EQ(test::to_hex(*got), shared) << "tcId " << t["tcId"] << " " << t["comment"];
      }
      ++counts[result + (zero ? "/zero" : "")];
    }
  }
  int total = 0;
  for (const auto& [k, v] : counts) total += v;
  EXPECT_EQ(total, j["numberOfTests"].get<int>());
  EXPECT_EQ(counts["valid"], 264);
  EXPECT_EQ(counts["invalid"], 0);
  EXPECT_EQ(counts["acceptable/zero"], 31);
  EXPECT_EQ(counts["acceptable"], 223);
}

TEST_P(X25519, AgreesWithLibsodiumAndOpenSSL) {
  test::seeded_random rng(7748);
  for (int i = 0; i < 200; ++i) {
    const bytes a = rng.fill(32), b = rng.fill(32);
    std::uint8_t pa[32], pb[32], ref_pa[32], ref[32];
    x25519::public_key(pa, s32(a));
    x25519::public_key(pb, s32(b));
    ASSERT_EQ(crypto_scalarmult_base(ref_pa, a.data()), 0);
    ASSERT_EQ(test::to_hex(pa), test::to_hex(ref_pa)) << i;
    const auto ours = dh(a, bytes(pb, pb + 32));
    ASSERT_TRUE(ours);
    ASSERT_EQ(crypto_scalarmult(ref, a.data(), pb), 0);
    ASSERT_EQ(test::to_hex(*ours), test::to_hex(ref)) << i;
    // Random u-coordinates too (libsodium rejects only all-zero results).
    const bytes u = rng.fill(32);
    const auto r2 = dh(a, u);
    if (crypto_scalarmult(ref, a.data(), u.data()) == 0) {
      ASSERT_TRUE(r2);
      ASSERT_EQ(test::to_hex(*r2), test::to_hex(ref)) << i;
    }
    if (i % 10 == 0) {
      EVP_PKEY* ka = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, nullptr, a.data(), 32);
      EVP_PKEY* kb = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, nullptr, pb, 32);
      EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new(ka, nullptr);
      std::size_t len = 32;
      ASSERT_EQ(EVP_PKEY_derive_init(ctx), 1);
      ASSERT_EQ(EVP_PKEY_derive_set_peer(ctx, kb), 1);
      ASSERT_EQ(EVP_PKEY_derive(ctx, ref, &len), 1);
      ASSERT_EQ(test::to_hex(*ours), test::to_hex(ref)) << i;
      EVP_PKEY_CTX_free(ctx);
      EVP_PKEY_free(ka);
      EVP_PKEY_free(kb);
    }
  }
}

TEST_P(X25519, LowOrderPointsAreRefusedAndZeroed) {
  const bytes scalar(32, 0x42);
  for (const bytes& u : {bytes(32, 0), hex("0100000000000000000000000000000000000000000000000000000000000000"),
                         hex("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")}) {
    bytes out(32, 0xaa);
    const auto r = x25519::shared_secret(std::span<std::uint8_t, 32>(out.data(), 32), s32(scalar), s32(u));
    EXPECT_EQ(r.error(), crypto_errc::zero_shared_secret);
    EXPECT_EQ(out, bytes(32, 0));
  }
  const bytes short_key(31, 9), long_key(33, 9);
  EXPECT_EQ(dh(scalar, short_key).error(), crypto_errc::invalid_public_key);
  EXPECT_EQ(dh(scalar, long_key).error(), crypto_errc::invalid_public_key);
}

TEST(X25519Keys, GenerateUsesTheRandomSourceAndMatchesPublicKey) {
  test::seeded_random det(99);
  auto* prev = crypto::set_random_source(&det);
  std::uint8_t priv[32], pub[32], again[32];
  ASSERT_TRUE(x25519::generate(priv, pub));
  crypto::set_random_source(prev);
  EXPECT_EQ(test::to_hex(priv), test::to_hex(test::seeded_random(99).fill(32)));
  x25519::public_key(again, priv);
  EXPECT_EQ(test::to_hex(pub), test::to_hex(again));
  EXPECT_FALSE(x25519::provider().empty());
}

// ---- the standard low-order encodings ----

namespace {

// The u-coordinates, little-endian, that put X25519 in the small subgroup
// (the list libsodium blocks, and the first seven of the twelve in
// cr.yp.to/ecdh.html): u = 0 (the point of order 2), u = 1 (order 4), the two
// points of order 8, u = p - 1 (order 4, on the twist), and the
// non-canonical p (= 0) and p + 1 (= 1).
const char* const low_order_u[] = {
    "0000000000000000000000000000000000000000000000000000000000000000",  // 0
    "0100000000000000000000000000000000000000000000000000000000000000",  // 1
    "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",  // order 8
    "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157",  // order 8
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  // p - 1
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  // p
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  // p + 1
};

bytes with_bit_255(bytes u) {
  u[31] |= 0x80;
  return u;
}

}  // namespace

// Every standard low-order encoding, and each again with bit 255 set (which
// RFC 7748 5 ignores, so it names the same point), gives an all-zero result
// for any scalar: shared_secret reports zero_shared_secret and zeroes out.
// libsodium, which rejects the same results, confirms each entry of the list.
TEST_P(X25519, EveryStandardLowOrderEncodingIsRefused) {
  test::seeded_random rng(25519);
  int checked = 0;
  for (const char* h : low_order_u) {
    for (const bytes& u : {hex(h), with_bit_255(hex(h))}) {
      for (int i = 0; i < 4; ++i) {
        const bytes scalar = rng.fill(32);
        bytes out(32, 0xaa);
        const auto r = x25519::shared_secret(std::span<std::uint8_t, 32>(out.data(), 32), s32(scalar), s32(u));
        EXPECT_EQ(r.error(), crypto_errc::zero_shared_secret) << test::to_hex(u);
        EXPECT_EQ(out, bytes(32, 0)) << "out is zeroed: " << test::to_hex(u);
        std::uint8_t ref[32];
        EXPECT_NE(crypto_scalarmult(ref, scalar.data(), u.data()), 0) << "libsodium accepts " << test::to_hex(u);
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, 14);
}

// cr.yp.to/ecdh.html lists twelve integers; the five at or above 2^255
// (p + the two order-8 values, 2p - 1, 2p, 2p + 1) assume a decoding that
// keeps bit 255. RFC 7748 5 clears it, so these strings name other,
// ordinary points: they are accepted and agree with libsodium and with the
// same string with bit 255 cleared.
TEST_P(X25519, TheListsValuesAbove2To255AreOrdinaryPointsUnderRfc7748) {
  const char* const above[] = {
      "cdeb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b880",  // p + order-8 u
      "4c9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f11d7",  // p + order-8 u
      "d9ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",  // 2p - 1
      "daffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",  // 2p
      "dbffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",  // 2p + 1
  };
  test::seeded_random rng(7748);
  for (const char* h : above) {
    const bytes u = hex(h), scalar = rng.fill(32);
    ASSERT_TRUE(u[31] & 0x80) << h;
    bytes cleared = u;
    cleared[31] &= 0x7f;
    const auto got = dh(scalar, u);
    ASSERT_TRUE(got) << h;
    EXPECT_EQ(test::to_hex(*got), test::to_hex(*dh(scalar, cleared))) << h;
    std::uint8_t ref[32];
    ASSERT_EQ(crypto_scalarmult(ref, scalar.data(), u.data()), 0) << h;
    EXPECT_EQ(test::to_hex(*got), test::to_hex(ref)) << h;
  }
}

// Peer values the four-limb field (BMI2/ADX) must take as RFC 7748 5 says:
// bit 255 set (ignored), u in [p, 2^255) (not reduced on decoding: taken
// modulo p), u near 2^255 and 2^256, at every level against libsodium and
// OpenSSL, and public keys of random scalars against libsodium's.
TEST_P(X25519, NonCanonicalAndHighBitPeersAgreeWithLibsodiumAndOpenSSL) {
  test::seeded_random rng(0x4c);
  const int cases = test::differential_cases(48);
  for (int i = 0; i < cases; ++i) {
    const bytes scalar = rng.fill(32);
    bytes u = rng.fill(32);
    switch (i % 4) {
      case 0:  // p <= u < 2^255 (p + 0..18, with the high bit set on odd rounds)
        u = hex("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f");
        u[0] = static_cast<std::uint8_t>(0xed + (i / 4) % 19);
        if ((i / 4) % 2 == 1) u[31] |= 0x80;
        break;
      case 1:  // random with bit 255 set
        u[31] |= 0x80;
        break;
      case 2:  // top limbs all ones: 2^256 - small, 2^255 - small after decoding
        for (int j = 8; j < 32; ++j) u[j] = 0xff;
        break;
      default:  // random below 2^255
        u[31] &= 0x7f;
        break;
    }
    std::uint8_t ref[32], ossl[32];
    const auto ours = dh(scalar, u);
    const bool sodium_ok = crypto_scalarmult(ref, scalar.data(), u.data()) == 0;
    // libsodium refuses exactly the all-zero results (low-order points), as we do.
    ASSERT_EQ(sodium_ok, ours.has_value()) << i << " " << test::to_hex(u);
    if (!ours) continue;
    ASSERT_EQ(test::to_hex(*ours), test::to_hex(ref)) << i << " " << test::to_hex(u);
    EVP_PKEY* ka = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, nullptr, scalar.data(), 32);
    EVP_PKEY* kb = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, nullptr, u.data(), 32);
    EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new(ka, nullptr);
    std::size_t len = 32;
    const bool derived = EVP_PKEY_derive_init(ctx) == 1 && EVP_PKEY_derive_set_peer(ctx, kb) == 1 &&
                         EVP_PKEY_derive(ctx, ossl, &len) == 1;
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(ka);
    EVP_PKEY_free(kb);
    ASSERT_TRUE(derived) << i;
    ASSERT_EQ(test::to_hex(*ours), test::to_hex(ossl)) << i << " " << test::to_hex(u);
    std::uint8_t pub[32], ref_pub[32];
    x25519::public_key(pub, s32(scalar));
    ASSERT_EQ(crypto_scalarmult_base(ref_pub, scalar.data()), 0);
    ASSERT_EQ(test::to_hex(pub), test::to_hex(ref_pub)) << i;
  }
}
