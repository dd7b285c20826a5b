// SPDX-License-Identifier: Apache-2.0
// Ed25519: RFC 8032 7.1 known answers, every Wycheproof ed25519_test case,
// differential checks with libsodium and OpenSSL, negative cases, and batch
// verification deciding exactly as one-by-one verification, at every CPU level.
#include <sealwire/crypto/ed25519.hpp>
#include <sealwire/crypto/random.hpp>
#include <sealwire/crypto/sha2.hpp>

#include "ed25519_oracle.hpp"
#include "vectors.hpp"

#include <nlohmann/json.hpp>

#include <openssl/bn.h>
#include <sodium.h>

#include <algorithm>
#include <map>
#include <memory>

using namespace sealwire;
using crypto::ed25519;
using test::bytes;
using test::add_le;
using test::hex;

namespace {

class Ed25519 : public test::cpu_level_test {};
SEALWIRE_INSTANTIATE_CPU_LEVELS(Ed25519);

ed25519::signing_key ed25519_key(const bytes& seed) { return ed25519::signing_key::from_seed(seed).value(); }

bytes sign(const ed25519::signing_key& k, const bytes& msg) {
  bytes sig(64);
  k.sign(std::span<std::uint8_t, 64>(sig.data(), 64), msg);
  return sig;
}

const std::string order_hex = "edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010";  // L, little-endian

struct bn_free {
  void operator()(BIGNUM* b) const { BN_free(b); }
};
using bn_ptr = std::unique_ptr<BIGNUM, bn_free>;
bn_ptr bn_le(std::span<const std::uint8_t> b) { return bn_ptr(BN_lebin2bn(b.data(), static_cast<int>(b.size()), nullptr)); }

// torsion_signature makes a signature that holds only under the cofactored
// equation: the public key is A + T for T = (0, -1), the point of order 2, and
// S = r + k s with k = H(R || A + T || M) odd, so [S]B = R + [k](A + T) - T:
// off by T in the cofactorless equation, exact after multiplying by 8.
// A's encoding for A + T = (-x, -y): y' = p - y, sign bit flipped.
struct torsion_case {
  bytes public_key, message, signature;
};
torsion_case make_torsion_case(test::seeded_random& rng) {
  const bytes seed = rng.fill(32), nonce_seed = rng.fill(32);
  const auto key = ed25519_key(seed), nonce_key = ed25519_key(nonce_seed);
  // s and r: the clamped halves of SHA-512 of the seeds (RFC 8032 5.1.5), R = [r]B.
  auto clamped = [](const bytes& sd) {
    bytes h(64);
    crypto::sha512::hash(std::span<std::uint8_t, 64>(h.data(), 64), sd);
    h.resize(32);
    h[0] &= 248;
    h[31] &= 127;
    h[31] |= 64;
    return h;
  };
  const bytes s = clamped(seed), r = clamped(nonce_seed);
  const bytes big_r(nonce_key.public_key().begin(), nonce_key.public_key().end());
  // A + T: y' = p - y.
  bytes a(key.public_key().begin(), key.public_key().end());
  const std::uint8_t sign = a[31] & 0x80;
  a[31] &= 0x7f;
  bn_ptr p(BN_new()), y = bn_le(a);
  BN_set_bit(p.get(), 255);
  BN_sub_word(p.get(), 19);
  BN_sub(y.get(), p.get(), y.get());
  bytes a_t(32);
  BN_bn2lebinpad(y.get(), a_t.data(), 32);
  a_t[31] = static_cast<std::uint8_t>(a_t[31] | (sign ^ 0x80));
  const bn_ptr order = bn_le(hex(order_hex));
  std::unique_ptr<BN_CTX, decltype(&BN_CTX_free)> ctx(BN_CTX_new(), &BN_CTX_free);
  for (;;) {
    const bytes msg = rng.fill(1 + rng.uniform(40));
    crypto::sha512 h;
    bytes digest(64);
    h.update(big_r);
    h.update(a_t);
    h.update(msg);
    h.finish(std::span<std::uint8_t, 64>(digest.data(), 64));
    bn_ptr k = bn_le(digest), sv = bn_le(s), rv = bn_le(r), out(BN_new());
    BN_nnmod(k.get(), k.get(), order.get(), ctx.get());
    if (!BN_is_odd(k.get())) continue;
    BN_mod_mul(out.get(), k.get(), sv.get(), order.get(), ctx.get());
    BN_mod_add(out.get(), out.get(), rv.get(), order.get(), ctx.get());
    bytes sig = big_r;
    bytes big_s(32);
    BN_bn2lebinpad(out.get(), big_s.data(), 32);
    sig.insert(sig.end(), big_s.begin(), big_s.end());
    return {a_t, msg, sig};
  }
}

}  // namespace

// RFC 8032 7.1: TEST 1, 2, 3 and SHA(abc).
TEST_P(Ed25519, Rfc8032Section71) {
  struct kat {
    const char *seed, *pub, *msg, *sig;
  };
  const kat cases[] = {
      {"9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
       "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
       "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe2"
       "4655141438e7a100b"},
      {"4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
       "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
       "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302ae"
       "eb00d291612bb0c00"},
      {"c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
       "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
       "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28"
       "dc027beceea1ec40a"},
      {"833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
       "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
       "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2"
       "a9ac94fa54ca49f",
       "dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b58909351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad"
       "9bef1177331a704"},
  };
  for (const auto& c : cases) {
    const auto key = ed25519_key(hex(c.seed));
    EXPECT_EQ(test::to_hex(key.public_key()), c.pub);
    const bytes msg = hex(c.msg);
    EXPECT_EQ(test::to_hex(sign(key, msg)), c.sig);
    EXPECT_TRUE(ed25519::verify(hex(c.pub), msg, hex(c.sig)));
  }
}

// Wycheproof ed25519_test.json: every valid case accepted, every invalid one
// rejected (the file has no acceptable cases), singly and in one batch.
TEST_P(Ed25519, Wycheproof) {
  SEALWIRE_REQUIRE_VECTOR(path, "wycheproof/testvectors_v1/ed25519_test.json");
  const auto j = test::load_json(path);
  std::map<std::string, int> counts;
  std::vector<bytes> keys, msgs, sigs;
  std::vector<bool> expected;
  for (const auto& g : j["testGroups"]) {
    const bytes pub = hex(g["publicKey"]["pk"].get<std::string>());
    for (const auto& t : g["tests"]) {
      const std::string result = t["result"];
      const bytes msg = hex(t["msg"].get<std::string>()), sig = hex(t["sig"].get<std::string>());
      const auto got = ed25519::verify(pub, msg, sig);
      ASSERT_TRUE(result == "valid" || result == "invalid") << "tcId " << t["tcId"];
      EXPECT_EQ(got.has_value(), result == "valid") << "tcId " << t["tcId"] << " " << t["comment"];
      if (!got) {
        EXPECT_EQ(got.error(), crypto_errc::invalid_signature) << "tcId " << t["tcId"];
      }
      ++counts[result];
      keys.push_back(pub);
      msgs.push_back(msg);
      sigs.push_back(sig);
      expected.push_back(result == "valid");
    }
  }
  EXPECT_EQ(counts["valid"] + counts["invalid"], j["numberOfTests"].get<int>());
  EXPECT_EQ(counts["valid"], 88);
  EXPECT_EQ(counts["invalid"], 63);

  std::vector<ed25519::batch_item> items;
  for (std::size_t i = 0; i < keys.size(); ++i) items.push_back({keys[i], msgs[i], sigs[i]});
  std::unique_ptr<bool[]> valid(new bool[items.size()]);
  EXPECT_FALSE(ed25519::verify_batch(items, std::span<bool>(valid.get(), items.size())));
  for (std::size_t i = 0; i < items.size(); ++i) EXPECT_EQ(valid[i], expected[i]) << "batch item " << i;
}

// Random seeds and messages: byte-identical signatures with libsodium and
// OpenSSL, and each verifies the others' signatures.
TEST_P(Ed25519, AgreesWithLibsodiumAndOpenSSL) {
  ASSERT_GE(sodium_init(), 0);
  test::seeded_random rng(8032);
  const int cases = test::differential_cases(48);
  for (int i = 0; i < cases; ++i) {
    const bytes seed = rng.fill(32), msg = rng.fill(rng.uniform(300));
    const auto key = ed25519_key(seed);
    std::uint8_t pk[32], sk[64], ref_sig[64];
    ASSERT_EQ(crypto_sign_seed_keypair(pk, sk, seed.data()), 0);
    ASSERT_EQ(test::to_hex(key.public_key()), test::to_hex(pk)) << i;
    const auto evp_pub = test::oracle::evp_ed25519_public(seed);
    ASSERT_TRUE(evp_pub);
    ASSERT_EQ(test::to_hex(*evp_pub), test::to_hex(pk)) << i;
    const bytes ours = sign(key, msg);
    ASSERT_EQ(crypto_sign_detached(ref_sig, nullptr, msg.data(), msg.size(), sk), 0);
    ASSERT_EQ(test::to_hex(ours), test::to_hex(ref_sig)) << i;
    const auto evp_sig = test::oracle::evp_ed25519_sign(seed, msg);
    ASSERT_TRUE(evp_sig);
    ASSERT_EQ(test::to_hex(ours), test::to_hex(*evp_sig)) << i;
    EXPECT_EQ(crypto_sign_verify_detached(ours.data(), msg.data(), msg.size(), pk), 0) << i;
    EXPECT_TRUE(test::oracle::evp_ed25519_verify(pk, msg, ours)) << i;
    EXPECT_TRUE(ed25519::verify(pk, msg, *evp_sig)) << i;
    // A tampered copy: all three reject it.
    bytes bad = ours;
    bad[rng.uniform(64)] ^= static_cast<std::uint8_t>(1u << rng.uniform(8));
    EXPECT_FALSE(ed25519::verify(pk, msg, bad)) << i;
    EXPECT_NE(crypto_sign_verify_detached(bad.data(), msg.data(), msg.size(), pk), 0) << i;
    EXPECT_FALSE(test::oracle::evp_ed25519_verify(pk, msg, bad)) << i;
  }
}

// Every single-bit change of the signature, one message bit, and another key
// all fail.
TEST_P(Ed25519, TamperingFails) {
  test::seeded_random rng(25519);
  const auto key = ed25519_key(rng.fill(32)), other = ed25519_key(rng.fill(32));
  const bytes msg = rng.fill(100), sig = sign(key, msg);
  ASSERT_TRUE(ed25519::verify(key.public_key(), msg, sig));
  for (std::size_t bit = 0; bit < 8 * sig.size(); ++bit) {
    bytes bad = sig;
    bad[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
    const auto r = ed25519::verify(key.public_key(), msg, bad);
    ASSERT_FALSE(r) << "bit " << bit;
    EXPECT_EQ(r.error(), crypto_errc::invalid_signature);
  }
  bytes bad_msg = msg;
  bad_msg[rng.uniform(bad_msg.size())] ^= 4;
  EXPECT_EQ(ed25519::verify(key.public_key(), bad_msg, sig).error(), crypto_errc::invalid_signature);
  EXPECT_EQ(ed25519::verify(other.public_key(), msg, sig).error(), crypto_errc::invalid_signature);
  EXPECT_EQ(ed25519::verify(key.public_key(), bytes{}, sig).error(), crypto_errc::invalid_signature);
}

// S + L and the other non-canonical encodings are refused (RFC 8032 5.1.7).
TEST_P(Ed25519, NonCanonicalEncodingsFail) {
  test::seeded_random rng(7);
  const auto key = ed25519_key(rng.fill(32));
  const bytes msg = rng.fill(20), sig = sign(key, msg);
  const bytes pub(key.public_key().begin(), key.public_key().end());
  // S + L: the same residue, not canonical.
  bytes s_plus_l(sig.begin(), sig.begin() + 32);
  const bytes s_l = add_le(bytes(sig.begin() + 32, sig.end()), hex(order_hex));
  s_plus_l.insert(s_plus_l.end(), s_l.begin(), s_l.end());
  EXPECT_EQ(ed25519::verify(pub, msg, s_plus_l).error(), crypto_errc::invalid_signature);
  EXPECT_FALSE(test::oracle::evp_ed25519_verify(pub, msg, s_plus_l));
  // S = L and S = 2^256 - 1.
  bytes s_is_l(sig.begin(), sig.begin() + 32);
  const bytes order = hex(order_hex);
  s_is_l.insert(s_is_l.end(), order.begin(), order.end());
  EXPECT_EQ(ed25519::verify(pub, msg, s_is_l).error(), crypto_errc::invalid_signature);
  bytes s_max(sig.begin(), sig.begin() + 32);
  s_max.resize(64, 0xff);
  EXPECT_EQ(ed25519::verify(pub, msg, s_max).error(), crypto_errc::invalid_signature);

  // y = p + 1 encodes the identity (y = 1) non-canonically; x = 0 with the
  // sign bit set has no point; y = 2 is not on the curve.
  const bytes id_noncanonical = hex("eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f");
  const bytes neg_zero = hex("0100000000000000000000000000000000000000000000000000000000000080");
  const bytes off_curve = hex("0200000000000000000000000000000000000000000000000000000000000000");
  const bytes identity = hex("0100000000000000000000000000000000000000000000000000000000000000");
  for (const auto& bad : {id_noncanonical, neg_zero, off_curve}) {
    EXPECT_EQ(ed25519::verify(bad, msg, sig).error(), crypto_errc::invalid_public_key) << test::to_hex(bad);
    EXPECT_EQ(ed25519::verify(bad, msg, s_plus_l).error(), crypto_errc::invalid_public_key) << test::to_hex(bad);
    bytes bad_r = bad;
    bad_r.insert(bad_r.end(), sig.begin() + 32, sig.end());
    EXPECT_EQ(ed25519::verify(pub, msg, bad_r).error(), crypto_errc::invalid_signature) << test::to_hex(bad);
  }
  // With A = R = identity and S = 0, [8]0B = [8]R + [8][k]A holds: a
  // small-order key follows the equation like any key (the header says so).
  bytes trivial = identity;
  trivial.resize(64, 0);
  EXPECT_TRUE(ed25519::verify(identity, msg, trivial));
  // The same with R = p + 1 (non-canonical identity) fails.
  bytes trivial_nc = id_noncanonical;
  trivial_nc.resize(64, 0);
  EXPECT_EQ(ed25519::verify(identity, msg, trivial_nc).error(), crypto_errc::invalid_signature);
}

TEST_P(Ed25519, WrongLengthsFail) {
  test::seeded_random rng(1);
  const auto key = ed25519_key(rng.fill(32));
  const bytes msg = rng.fill(10), sig = sign(key, msg);
  const bytes pub(key.public_key().begin(), key.public_key().end());
  EXPECT_EQ(ed25519::verify(bytes(pub.begin(), pub.end() - 1), msg, sig).error(), crypto_errc::invalid_public_key);
  bytes long_pub = pub;
  long_pub.push_back(0);
  EXPECT_EQ(ed25519::verify(long_pub, msg, sig).error(), crypto_errc::invalid_public_key);
  EXPECT_EQ(ed25519::verify(pub, msg, bytes(sig.begin(), sig.end() - 1)).error(), crypto_errc::invalid_signature);
  bytes long_sig = sig;
  long_sig.push_back(0);
  EXPECT_EQ(ed25519::verify(pub, msg, long_sig).error(), crypto_errc::invalid_signature);
  EXPECT_EQ(ed25519::verify(pub, msg, bytes{}).error(), crypto_errc::invalid_signature);
  EXPECT_EQ(ed25519::signing_key::from_seed(bytes(31)).error(), crypto_errc::invalid_key);
  EXPECT_EQ(ed25519::signing_key::from_seed(bytes(33)).error(), crypto_errc::invalid_key);
}

// A key with a torsion component signs what only the cofactored equation
// accepts: ours accepts it (the header's rule), OpenSSL and libsodium (the
// cofactorless equation) reject it.
TEST_P(Ed25519, CofactoredEquationAcceptsTorsionComponents) {
  ASSERT_GE(sodium_init(), 0);
  test::seeded_random rng(8);
  for (int i = 0; i < 4; ++i) {
    const auto t = make_torsion_case(rng);
    EXPECT_TRUE(ed25519::verify(t.public_key, t.message, t.signature)) << i;
    EXPECT_FALSE(test::oracle::evp_ed25519_verify(t.public_key, t.message, t.signature)) << i;
  }
}

TEST_P(Ed25519, GenerateAndMove) {
  test::seeded_random src(99);
  auto* previous = crypto::set_random_source(&src);
  auto k1 = ed25519::signing_key::generate();
  crypto::set_random_source(previous);
  ASSERT_TRUE(k1);
  const bytes msg = test::to_bytes("move me");
  const bytes sig = sign(*k1, msg);
  ed25519::signing_key moved = std::move(*k1);
  EXPECT_EQ(test::to_hex(sign(moved, msg)), test::to_hex(sig));
  EXPECT_TRUE(ed25519::verify(moved.public_key(), msg, sig));

  test::failing_random failing;
  previous = crypto::set_random_source(&failing);
  const auto k2 = ed25519::signing_key::generate();
  crypto::set_random_source(previous);
  ASSERT_FALSE(k2);
  EXPECT_EQ(k2.error(), crypto_errc::rng_failure);
}

TEST(Ed25519Provider, NamesTheFieldArithmetic) {
  const auto p = ed25519::provider();
  EXPECT_TRUE(p == "portable" || p == "bmi2") << p;
  const test::scoped_cpu_level portable(crypto::cpu::level::portable);
  EXPECT_EQ(ed25519::provider(), "portable");
}

// ---- batch verification -------------------------------------------------------

namespace {

struct batch_fixture {
  std::vector<bytes> keys, msgs, sigs;
  std::vector<ed25519::batch_item> items() const {
    std::vector<ed25519::batch_item> out;
    for (std::size_t i = 0; i < keys.size(); ++i) out.push_back({keys[i], msgs[i], sigs[i]});
    return out;
  }
};

// make_batch builds n items: valid ones, a few cofactored-only valid ones
// (torsion keys), and invalid ones of every kind at random positions.
batch_fixture make_batch(test::seeded_random& rng, std::size_t n, std::size_t invalid) {
  batch_fixture b;
  for (std::size_t i = 0; i < n; ++i) {
    if (i % 7 == 3) {
      auto t = make_torsion_case(rng);
      b.keys.push_back(t.public_key);
      b.msgs.push_back(t.message);
      b.sigs.push_back(t.signature);
      continue;
    }
    const auto key = ed25519_key(rng.fill(32));
    const bytes msg = rng.fill(rng.uniform(64));
    b.keys.emplace_back(key.public_key().begin(), key.public_key().end());
    b.msgs.push_back(msg);
    b.sigs.push_back(sign(key, msg));
  }
  for (std::size_t j = 0; j < invalid && n > 0; ++j) {
    const std::size_t i = rng.uniform(n);
    switch (rng.uniform(5)) {
      case 0:  // a flipped signature bit
        b.sigs[i][rng.uniform(b.sigs[i].size())] ^= static_cast<std::uint8_t>(1u << rng.uniform(8));
        break;
      case 1:  // another message
        b.msgs[i].push_back(1);
        break;
      case 2:  // S + L (or, once an earlier change truncated it, another message)
      {
        if (b.sigs[i].size() != 64) {
          b.msgs[i].push_back(2);
          break;
        }
        const bytes s = add_le(bytes(b.sigs[i].begin() + 32, b.sigs[i].end()), hex(order_hex));
        std::copy(s.begin(), s.end(), b.sigs[i].begin() + 32);
        break;
      }
      case 3:  // a key that is not a point
        b.keys[i] = hex("0200000000000000000000000000000000000000000000000000000000000000");
        break;
      default:  // a truncated signature
        b.sigs[i].pop_back();
        break;
    }
  }
  return b;
}

void expect_batch_matches_single(const batch_fixture& b) {
  const auto items = b.items();
  std::unique_ptr<bool[]> valid(new bool[items.size() + 1]);
  const auto r = ed25519::verify_batch(items, std::span<bool>(valid.get(), items.size()));
  bool all = true;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const bool single = ed25519::verify(items[i].public_key, items[i].message, items[i].signature).has_value();
    EXPECT_EQ(valid[i], single) << "item " << i << " of " << items.size();
    all = all && single;
  }
  EXPECT_EQ(r.has_value(), all);
  if (!r) {
    EXPECT_EQ(r.error(), crypto_errc::invalid_signature);
  }
}

}  // namespace

TEST_P(Ed25519, BatchDecidesAsOneByOne) {
  test::seeded_random rng(64);
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{4}, std::size_t{9},
                              std::size_t{64}}) {
    for (const std::size_t bad : {std::size_t{0}, std::size_t{1}, std::size_t{3}}) {
      SCOPED_TRACE("n " + std::to_string(n) + " invalid " + std::to_string(bad));
      expect_batch_matches_single(make_batch(rng, n, bad));
    }
  }
  // Every item invalid.
  expect_batch_matches_single(make_batch(rng, 12, 40));
}

// Longer than one multi-scalar group (128 items): checked group by group.
TEST(Ed25519Batch, SpansSeveralGroups) {
  test::seeded_random rng(200);
  expect_batch_matches_single(make_batch(rng, 200, 5));
}

TEST(Ed25519Batch, RandomSourceFailureFallsBackToOneByOne) {
  test::seeded_random rng(5);
  const auto b = make_batch(rng, 10, 2);
  test::failing_random failing;
  auto* previous = crypto::set_random_source(&failing);
  expect_batch_matches_single(b);
  crypto::set_random_source(previous);
}

TEST(Ed25519Batch, SizeMismatchIsAnError) {
  test::seeded_random rng(6);
  const auto b = make_batch(rng, 3, 0);
  const auto items = b.items();
  bool valid[2] = {true, true};
  EXPECT_EQ(ed25519::verify_batch(items, valid).error(), crypto_errc::invalid_argument);
  EXPECT_TRUE(valid[0] && valid[1]);
}
