// SPDX-License-Identifier: Apache-2.0
// Ed448 (RFC 8032 5.2): the RFC's 7.4 vectors (the context one included),
// the Wycheproof ed448 file, byte-identical signatures and cross
// verification against OpenSSL, and rejection of malformed keys and
// signatures (S >= L, non-canonical or off-curve points, tampering, context
// mismatch, wrong lengths).
#include <sealwire/crypto/ed448.hpp>

#include "vectors.hpp"

#include <nlohmann/json.hpp>

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>

using namespace sealwire;
using crypto::ed448;
using test::bytes;
using test::add_le;
using test::hex;

namespace {

struct rfc_vector {
  const char* name;
  const char* seed;
  const char* public_key;
  const char* message;
  const char* context;
  const char* signature;
};

// RFC 8032 section 7.4.
const rfc_vector rfc8032_vectors[] = {
    {"blank",
     "6c82a562cb808d10d632be89c8513ebf6c929f34ddfa8c9f63c9960ef6e348a3528c8a3fcc2f044e39a3fc5b94492f8f032e7549"
     "a20098f95b",
     "5fd7449b59b461fd2ce787ec616ad46a1da1342485a70e1f8a0ea75d80e96778edf124769b46c7061bd6783df1e50f6cd1fa1abe"
     "afe8256180",
     "",
     "",
     "533a37f6bbe457251f023c0d88f976ae2dfb504a843e34d2074fd823d41a591f2b233f034f628281f2fd7a22ddd47d7828c59bd0"
     "a21bfd3980ff0d2028d4b18a9df63e006c5d1c2d345b925d8dc00b4104852db99ac5c7cdda8530a113a0f4dbb61149f05a736326"
     "8c71d95808ff2e652600"},
    {"1 octet",
     "c4eab05d357007c632f3dbb48489924d552b08fe0c353a0d4a1f00acda2c463afbea67c5e8d2877c5e3bc397a659949ef8021e95"
     "4e0a12274e",
     "43ba28f430cdff456ae531545f7ecd0ac834a55d9358c0372bfa0c6c6798c0866aea01eb00742802b8438ea4cb82169c23516062"
     "7b4c3a9480",
     "03",
     "",
     "26b8f91727bd62897af15e41eb43c377efb9c610d48f2335cb0bd0087810f4352541b143c4b981b7e18f62de8ccdf633fc1bf037"
     "ab7cd779805e0dbcc0aae1cbcee1afb2e027df36bc04dcecbf154336c19f0af7e0a6472905e799f1953d2a0ff3348ab21aa4adaf"
     "d1d234441cf807c03a00"},
    {"1 octet (with context)",
     "c4eab05d357007c632f3dbb48489924d552b08fe0c353a0d4a1f00acda2c463afbea67c5e8d2877c5e3bc397a659949ef8021e95"
     "4e0a12274e",
     "43ba28f430cdff456ae531545f7ecd0ac834a55d9358c0372bfa0c6c6798c0866aea01eb00742802b8438ea4cb82169c23516062"
     "7b4c3a9480",
     "03",
     "666f6f",
     "d4f8f6131770dd46f40867d6fd5d5055de43541f8c5e35abbcd001b32a89f7d2151f7647f11d8ca2ae279fb842d607217fce6e04"
     "2f6815ea000c85741de5c8da1144a6a1aba7f96de42505d7a7298524fda538fccbbb754f578c1cad10d54d0d5428407e85dcbc98"
     "a49155c13764e66c3c00"},
    {"11 octets",
     "cd23d24f714274e744343237b93290f511f6425f98e64459ff203e8985083ffdf60500553abc0e05cd02184bdb89c4ccd67e1879"
     "51267eb328",
     "dcea9e78f35a1bf3499a831b10b86c90aac01cd84b67a0109b55a36e9328b1e365fce161d71ce7131a543ea4cb5f7e9f1d8b0069"
     "6447001400",
     "0c3e544074ec63b0265e0c",
     "",
     "1f0a8888ce25e8d458a21130879b840a9089d999aaba039eaf3e3afa090a09d389dba82c4ff2ae8ac5cdfb7c55e94d5d961a29fe"
     "0109941e00b8dbdeea6d3b051068df7254c0cdc129cbe62db2dc957dbb47b51fd3f213fb8698f064774250a5028961c9bf8ffd97"
     "3fe5d5c206492b140e00"},
    {"12 octets",
     "258cdd4ada32ed9c9ff54e63756ae582fb8fab2ac721f2c8e676a72768513d939f63dddb55609133f29adf86ec9929dccb52c1c5"
     "fd2ff7e21b",
     "3ba16da0c6f2cc1f30187740756f5e798d6bc5fc015d7c63cc9510ee3fd44adc24d8e968b6e46e6f94d19b945361726bd75e149e"
     "f09817f580",
     "64a65f3cdedcdd66811e2915",
     "",
     "7eeeab7c4e50fb799b418ee5e3197ff6bf15d43a14c34389b59dd1a7b1b85b4ae90438aca634bea45e3a2695f1270f07fdcdf7c6"
     "2b8efeaf00b45c2c96ba457eb1a8bf075a3db28e5c24f6b923ed4ad747c3c9e03c7079efb87cb110d3a99861e72003cbae6d6b8b"
     "827e4e6c143064ff3c00"},
    {"13 octets",
     "7ef4e84544236752fbb56b8f31a23a10e42814f5f55ca037cdcc11c64c9a3b2949c1bb60700314611732a6c2fea98eebc0266a11"
     "a93970100e",
     "b3da079b0aa493a5772029f0467baebee5a8112d9d3a22532361da294f7bb3815c5dc59e176b4d9f381ca0938e13c6c07b174be6"
     "5dfa578e80",
     "64a65f3cdedcdd66811e2915e7",
     "",
     "6a12066f55331b6c22acd5d5bfc5d71228fbda80ae8dec26bdd306743c5027cb4890810c162c027468675ecf645a83176c0d7323"
     "a2ccde2d80efe5a1268e8aca1d6fbc194d3f77c44986eb4ab4177919ad8bec33eb47bbb5fc6e28196fd1caf56b4e7e0ba5519234"
     "d047155ac727a1053100"},
    {"64 octets",
     "d65df341ad13e008567688baedda8e9dcdc17dc024974ea5b4227b6530e339bff21f99e68ca6968f3cca6dfe0fb9f4fab4fa135d"
     "5542ea3f01",
     "df9705f58edbab802c7f8363cfe5560ab1c6132c20a9f1dd163483a26f8ac53a39d6808bf4a1dfbd261b099bb03b3fb50906cb28"
     "bd8a081f00",
     "bd0f6a3747cd561bdddf4640a332461a4a30a12a434cd0bf40d766d9c6d458e5512204a30c17d1f50b5079631f64eb3112182da3"
     "005835461113718d1a5ef944",
     "",
     "554bc2480860b49eab8532d2a533b7d578ef473eeb58c98bb2d0e1ce488a98b18dfde9b9b90775e67f47d4a1c3482058efc9f40d"
     "2ca033a0801b63d45b3b722ef552bad3b4ccb667da350192b61c508cf7b6b5adadc2c8d9a446ef003fb05cba5f30e88e36ec2703"
     "b349ca229c2670833900"},
    {"256 octets",
     "2ec5fe3c17045abdb136a5e6a913e32ab75ae68b53d2fc149b77e504132d37569b7e766ba74a19bd6162343a21c8590aa9cebca9"
     "014c636df5",
     "79756f014dcfe2079f5dd9e718be4171e2ef2486a08f25186f6bff43a9936b9bfe12402b08ae65798a3d81e22e9ec80e7690862e"
     "f3d4ed3a00",
     "15777532b0bdd0d1389f636c5f6b9ba734c90af572877e2d272dd078aa1e567cfa80e12928bb542330e8409f3174504107ecd5ef"
     "ac61ae7504dabe2a602ede89e5cca6257a7c77e27a702b3ae39fc769fc54f2395ae6a1178cab4738e543072fc1c177fe71e92e25"
     "bf03e4ecb72f47b64d0465aaea4c7fad372536c8ba516a6039c3c2a39f0e4d832be432dfa9a706a6e5c7e19f397964ca4258002f"
     "7c0541b590316dbc5622b6b2a6fe7a4abffd96105eca76ea7b98816af0748c10df048ce012d901015a51f189f3888145c03650aa"
     "23ce894c3bd889e030d565071c59f409a9981b51878fd6fc110624dcbcde0bf7a69ccce38fabdf86f3bef6044819de11",
     "",
     "c650ddbb0601c19ca11439e1640dd931f43c518ea5bea70d3dcde5f4191fe53f00cf966546b72bcc7d58be2b9badef28743954e3"
     "a44a23f880e8d4f1cfce2d7a61452d26da05896f0a50da66a239a8a188b6d825b3305ad77b73fbac0836ecc60987fd08527c1a8e"
     "80d5823e65cafe2a3d00"},
    {"1023 octets",
     "872d093780f5d3730df7c212664b37b8a0f24f56810daa8382cd4fa3f77634ec44dc54f1c2ed9bea86fafb7632d8be199ea165f5"
     "ad55dd9ce8",
     "a81b2e8a70a5ac94ffdbcc9badfc3feb0801f258578bb114ad44ece1ec0e799da08effb81c5d685c0c56f64eecaef8cdf11cc387"
     "37838cf400",
     "6ddf802e1aae4986935f7f981ba3f0351d6273c0a0c22c9c0e8339168e675412a3debfaf435ed651558007db4384b650fcc07e3b"
     "586a27a4f7a00ac8a6fec2cd86ae4bf1570c41e6a40c931db27b2faa15a8cedd52cff7362c4e6e23daec0fbc3a79b6806e316efc"
     "c7b68119bf46bc76a26067a53f296dafdbdc11c77f7777e972660cf4b6a9b369a6665f02e0cc9b6edfad136b4fabe723d2813db3"
     "136cfde9b6d044322fee2947952e031b73ab5c603349b307bdc27bc6cb8b8bbd7bd323219b8033a581b59eadebb09b3c4f3d2277"
     "d4f0343624acc817804728b25ab797172b4c5c21a22f9c7839d64300232eb66e53f31c723fa37fe387c7d3e50bdf9813a30e5bb1"
     "2cf4cd930c40cfb4e1fc622592a49588794494d56d24ea4b40c89fc0596cc9ebb961c8cb10adde976a5d602b1c3f85b9b9a001ed"
     "3c6a4d3b1437f52096cd1956d042a597d561a596ecd3d1735a8d570ea0ec27225a2c4aaff26306d1526c1af3ca6d9cf5a2c98f47"
     "e1c46db9a33234cfd4d81f2c98538a09ebe76998d0d8fd25997c7d255c6d66ece6fa56f11144950f027795e653008f4bd7ca2dee"
     "85d8e90f3dc315130ce2a00375a318c7c3d97be2c8ce5b6db41a6254ff264fa6155baee3b0773c0f497c573f19bb4f4240281f0b"
     "1f4f7be857a4e59d416c06b4c50fa09e1810ddc6b1467baeac5a3668d11b6ecaa901440016f389f80acc4db977025e7f5924388c"
     "7e340a732e554440e76570f8dd71b7d640b3450d1fd5f0410a18f9a3494f707c717b79b4bf75c98400b096b21653b5d217cf3565"
     "c9597456f70703497a078763829bc01bb1cbc8fa04eadc9a6e3f6699587a9e75c94e5bab0036e0b2e711392cff0047d0d6b05bd2"
     "a588bc109718954259f1d86678a579a3120f19cfb2963f177aeb70f2d4844826262e51b80271272068ef5b3856fa8535aa2a88b2"
     "d41f2a0e2fda7624c2850272ac4a2f561f8f2f7a318bfd5caf9696149e4ac824ad3460538fdc25421beec2cc6818162d06bbed0c"
     "40a387192349db67a118bada6cd5ab0140ee273204f628aad1c135f770279a651e24d8c14d75a6059d76b96a6fd857def5e0b354"
     "b27ab937a5815d16b5fae407ff18222c6d1ed263be68c95f32d908bd895cd76207ae726487567f9a67dad79abec316f683b17f2d"
     "02bf07e0ac8b5bc6162cf94697b3c27cd1fea49b27f23ba2901871962506520c392da8b6ad0d99f7013fbc06c2c17a569500c8a7"
     "696481c1cd33e9b14e40b82e79a5f5db82571ba97bae3ad3e0479515bb0e2b0f3bfcd1fd33034efc6245eddd7ee2086ddae2600d"
     "8ca73e214e8c2b0bdb2b047c6a464a562ed77b73d2d841c4b34973551257713b753632efba348169abc90a68f42611a40126d7cb"
     "21b58695568186f7e569d2ff0f9e745d0487dd2eb997cafc5abf9dd102e62ff66cba87",
     "",
     "e301345a41a39a4d72fff8df69c98075a0cc082b802fc9b2b6bc503f926b65bddf7f4c8f1cb49f6396afc8a70abe6d8aef0db478"
     "d4c6b2970076c6a0484fe76d76b3a97625d79f1ce240e7c576750d295528286f719b413de9ada3e8eb78ed573603ce30d8bb7617"
     "85dc30dbc320869e1a00"},
};

bytes sign(const ed448::signing_key& key, const bytes& msg, const bytes& context = {}) {
  bytes sig(ed448::signature_size);
  key.sign(std::span<std::uint8_t, ed448::signature_size>(sig.data(), sig.size()), msg, context);
  return sig;
}

ed448::signing_key ed448_key(const bytes& seed) {
  auto k = ed448::signing_key::from_seed(seed);
  EXPECT_TRUE(k);
  return std::move(k).value();
}

// OpenSSL's Ed448 (pure, empty context) through EVP with raw keys.
struct openssl_ed448 {
  EVP_PKEY* key = nullptr;
  explicit openssl_ed448(const bytes& seed)
      : key(EVP_PKEY_new_raw_private_key(EVP_PKEY_ED448, nullptr, seed.data(), seed.size())) {}
  openssl_ed448(const openssl_ed448&) = delete;
  openssl_ed448& operator=(const openssl_ed448&) = delete;
  ~openssl_ed448() { EVP_PKEY_free(key); }

  bytes public_key() const {
    bytes out(57);
    std::size_t len = out.size();
    EXPECT_EQ(EVP_PKEY_get_raw_public_key(key, out.data(), &len), 1);
    return out;
  }
  bytes sign(const bytes& msg) const {
    bytes sig(114);
    std::size_t len = sig.size();
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    EXPECT_EQ(EVP_DigestSignInit(ctx, nullptr, nullptr, nullptr, key), 1);
    EXPECT_EQ(EVP_DigestSign(ctx, sig.data(), &len, msg.data(), msg.size()), 1);
    EVP_MD_CTX_free(ctx);
    return sig;
  }
};

// openssl_verify is OpenSSL's verdict on (public key, message, signature).
bool openssl_verify(const bytes& pub, const bytes& msg, const bytes& sig) {
  EVP_PKEY* key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED448, nullptr, pub.data(), pub.size());
  if (key == nullptr) return false;
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  bool ok = EVP_DigestVerifyInit(ctx, nullptr, nullptr, nullptr, key) == 1 &&
            EVP_DigestVerify(ctx, sig.data(), sig.size(), msg.data(), msg.size()) == 1;
  EVP_MD_CTX_free(ctx);
  EVP_PKEY_free(key);
  return ok;
}

// L, the group order, little-endian in 57 bytes (RFC 8032 5.2).
bytes group_order() {
  return hex("f34458ab92c27823558fc58d72c26c219036d6ae49db4ec4e923ca7cffffffffffffffffffffffffffffffffffffffffffffffff"
             "ffffff3f00");
}

// p_plus_one is y = p + 1 (p = 2^448 - 2^224 - 1) as a 57-byte point
// encoding, sign bit 0: a non-canonical encoding of y = 1.
bytes p_plus_one() {
  // p is 28 bytes of ff, fe, then 27 bytes of ff (little-endian); adding 1
  // clears the low 28 bytes and carries into the fe.
  bytes e(57, 0xff);
  for (int i = 0; i < 28; ++i) e[i] = 0;
  e[56] = 0;
  return e;
}


}  // namespace

TEST(Ed448, Provider) { EXPECT_EQ(ed448::provider(), "portable"); }

TEST(Ed448, Rfc8032Section74) {
  for (const auto& v : rfc8032_vectors) {
    SCOPED_TRACE(v.name);
    const bytes seed = hex(v.seed), msg = hex(v.message), ctx = hex(v.context), want = hex(v.signature);
    const auto key = ed448_key(seed);
    EXPECT_EQ(test::to_hex(key.public_key()), v.public_key);
    const bytes sig = sign(key, msg, ctx);
    EXPECT_EQ(test::to_hex(sig), v.signature);
    EXPECT_TRUE(ed448::verify(hex(v.public_key), msg, want, ctx));
    // Another context (or none for the context vector) fails.
    const bytes other_ctx = ctx.empty() ? test::to_bytes("foo") : bytes{};
    EXPECT_EQ(ed448::verify(hex(v.public_key), msg, want, other_ctx).error(), crypto_errc::invalid_signature);
  }
}

TEST(Ed448, WycheproofFile) {
  SEALWIRE_REQUIRE_VECTOR(path, "wycheproof/testvectors_v1/ed448_test.json");
  const auto j = test::load_json(path);
  int valid = 0, invalid = 0;
  for (const auto& g : j["testGroups"]) {
    ASSERT_EQ(g["publicKey"]["curve"].get<std::string>(), "edwards448");
    const bytes pub = hex(g["publicKey"]["pk"].get<std::string>());
    for (const auto& c : g["tests"]) {
      const std::string id = "tcId " + std::to_string(c["tcId"].get<int>()) + ": " + c["comment"].get<std::string>();
      const bytes msg = hex(c["msg"].get<std::string>());
      const bytes sig = hex(c["sig"].get<std::string>());
      const std::string verdict = c["result"].get<std::string>();
      const auto r = ed448::verify(pub, msg, sig);
      if (verdict == "valid") {
        EXPECT_TRUE(r) << id << ": " << r.error().message();
        ++valid;
      } else {
        // The file has no "acceptable" cases; anything not valid must fail.
        ASSERT_EQ(verdict, "invalid") << id;
        ASSERT_FALSE(r) << id;
        EXPECT_EQ(r.error(), crypto_errc::invalid_signature) << id;
        EXPECT_FALSE(test::has_flag(c, "Valid")) << id;
        ++invalid;
      }
    }
  }
  std::printf("wycheproof ed448: %d valid, %d invalid\n", valid, invalid);
  EXPECT_EQ(valid + invalid, j["numberOfTests"].get<int>());
  EXPECT_EQ(valid, 17);
  EXPECT_EQ(invalid, 70);
}

TEST(Ed448, DifferentialAgainstOpenSsl) {
  test::seeded_random rng(8032);
  const int cases = test::differential_cases(40);
  for (int i = 0; i < cases; ++i) {
    const bytes seed = rng.fill(57);
    const bytes msg = rng.fill(rng.uniform(300));
    const openssl_ed448 theirs(seed);
    ASSERT_NE(theirs.key, nullptr);
    const auto ours = ed448_key(seed);
    const bytes pub = theirs.public_key();
    ASSERT_EQ(test::to_hex(ours.public_key()), test::to_hex(pub)) << i;
    const bytes sig = sign(ours, msg);
    // Deterministic: byte-identical signatures.
    ASSERT_EQ(test::to_hex(sig), test::to_hex(theirs.sign(msg))) << i;
    EXPECT_TRUE(openssl_verify(pub, msg, sig)) << i;
    EXPECT_TRUE(ed448::verify(pub, msg, sig)) << i;
    // A tampered copy fails for both.
    bytes bad = sig;
    bad[rng.uniform(bad.size())] ^= static_cast<std::uint8_t>(1u << rng.uniform(8));
    EXPECT_FALSE(ed448::verify(pub, msg, bad)) << i;
    EXPECT_FALSE(openssl_verify(pub, msg, bad)) << i;
  }
}

TEST(Ed448, RandomBytesAgreeWithOpenSsl) {
  // Random signature bytes under a real key, and random key bytes: never
  // accepted, and OpenSSL agrees.
  test::seeded_random rng(448448);
  const auto key = ed448_key(rng.fill(57));
  const bytes pub(key.public_key().begin(), key.public_key().end());
  for (int i = 0; i < 40; ++i) {
    const bytes msg = rng.fill(16), sig = rng.fill(114), junk_pub = rng.fill(57);
    EXPECT_FALSE(ed448::verify(pub, msg, sig)) << i;
    EXPECT_FALSE(openssl_verify(pub, msg, sig)) << i;
    EXPECT_FALSE(ed448::verify(junk_pub, msg, sig)) << i;
  }
}

TEST(Ed448, RejectsScalarsNotBelowOrder) {
  const auto key = ed448_key(bytes(57, 7));
  const bytes pub(key.public_key().begin(), key.public_key().end());
  const bytes msg = test::to_bytes("malleable");
  bytes sig = sign(key, msg);
  ASSERT_TRUE(ed448::verify(pub, msg, sig));
  // S + L verifies the same equation but is not canonical (RFC 8032 5.2.7).
  bytes s(sig.begin() + 57, sig.end());
  const bytes s_plus_l = add_le(s, group_order());
  bytes malleated = sig;
  std::copy(s_plus_l.begin(), s_plus_l.end(), malleated.begin() + 57);
  EXPECT_EQ(ed448::verify(pub, msg, malleated).error(), crypto_errc::invalid_signature);
  EXPECT_FALSE(openssl_verify(pub, msg, malleated));
  // S = L exactly, and a nonzero top byte.
  bytes s_is_l = sig;
  const bytes l = group_order();
  std::copy(l.begin(), l.end(), s_is_l.begin() + 57);
  EXPECT_EQ(ed448::verify(pub, msg, s_is_l).error(), crypto_errc::invalid_signature);
  bytes top = sig;
  top[113] = 1;
  EXPECT_EQ(ed448::verify(pub, msg, top).error(), crypto_errc::invalid_signature);
}

TEST(Ed448, RejectsBadPointEncodings) {
  const auto key = ed448_key(bytes(57, 9));
  const bytes pub(key.public_key().begin(), key.public_key().end());
  const bytes msg = test::to_bytes("points");
  const bytes sig = sign(key, msg);
  ASSERT_TRUE(ed448::verify(pub, msg, sig));

  bytes identity(57, 0);
  identity[0] = 1;  // (0, 1), canonical
  bytes identity_signed = identity;
  identity_signed[56] = 0x80;  // x = 0 with the sign bit set
  bytes minus_one_signed(57, 0xff);  // y = p - 1 = -1 gives x = 0; with the sign bit
  minus_one_signed[0] = 0xfe;
  minus_one_signed[28] = 0xfe;
  minus_one_signed[56] = 0x80;
  bytes off_curve(57, 0);
  off_curve[0] = 2;  // y = 2: (y^2 - 1) / (d y^2 - 1) is not a square
  bytes unused_bits = pub;
  unused_bits[56] |= 0x01;
  const bytes non_canonical = p_plus_one();  // y = p + 1, the encoding of 1 plus p

  const std::initializer_list<const bytes*> bad_points = {&identity_signed, &minus_one_signed, &off_curve,
                                                            &unused_bits, &non_canonical};
  for (const bytes* bad : bad_points) {
    SCOPED_TRACE(test::to_hex(*bad));
    EXPECT_EQ(ed448::verify(*bad, msg, sig).error(), crypto_errc::invalid_public_key);
    bytes bad_r = sig;
    std::copy(bad->begin(), bad->end(), bad_r.begin());
    EXPECT_EQ(ed448::verify(pub, msg, bad_r).error(), crypto_errc::invalid_signature);
  }
  // The canonical identity decodes; a signature with it as R does not verify.
  bytes r_identity = sig;
  std::copy(identity.begin(), identity.end(), r_identity.begin());
  EXPECT_EQ(ed448::verify(pub, msg, r_identity).error(), crypto_errc::invalid_signature);
}

TEST(Ed448, RejectsTamperingAndWrongLengths) {
  const auto key = ed448_key(bytes(57, 3));
  const bytes pub(key.public_key().begin(), key.public_key().end());
  const bytes msg = test::to_bytes("tamper with me");
  const bytes ctx = test::to_bytes("context");
  const bytes sig = sign(key, msg, ctx);
  ASSERT_TRUE(ed448::verify(pub, msg, sig, ctx));
  for (std::size_t i = 0; i < sig.size(); i += 5) {
    bytes bad = sig;
    bad[i] ^= 0x10;
    EXPECT_FALSE(ed448::verify(pub, msg, bad, ctx)) << i;
  }
  bytes bad_msg = msg;
  bad_msg[0] ^= 1;
  EXPECT_EQ(ed448::verify(pub, bad_msg, sig, ctx).error(), crypto_errc::invalid_signature);
  EXPECT_EQ(ed448::verify(pub, msg, sig).error(), crypto_errc::invalid_signature);
  EXPECT_EQ(ed448::verify(pub, msg, sig, test::to_bytes("contexT")).error(), crypto_errc::invalid_signature);
  // Another key's public key.
  const auto other = ed448_key(bytes(57, 4));
  EXPECT_EQ(ed448::verify(other.public_key(), msg, sig, ctx).error(), crypto_errc::invalid_signature);
  // Lengths.
  EXPECT_EQ(ed448::verify(bytes(pub.begin(), pub.end() - 1), msg, sig, ctx).error(), crypto_errc::invalid_public_key);
  EXPECT_EQ(ed448::verify(pub, msg, bytes(sig.begin(), sig.end() - 1), ctx).error(), crypto_errc::invalid_signature);
  bytes longer = sig;
  longer.push_back(0);
  EXPECT_EQ(ed448::verify(pub, msg, longer, ctx).error(), crypto_errc::invalid_signature);
  EXPECT_EQ(ed448::verify(pub, msg, bytes{}, ctx).error(), crypto_errc::invalid_signature);
  EXPECT_EQ(ed448::verify(pub, msg, sig, bytes(256, 1)).error(), crypto_errc::invalid_argument);
  EXPECT_EQ(ed448::signing_key::from_seed(bytes(56, 1)).error(), crypto_errc::invalid_key);
  EXPECT_EQ(ed448::signing_key::from_seed(bytes(58, 1)).error(), crypto_errc::invalid_key);
}

TEST(Ed448, LongestContext) {
  const auto key = ed448_key(bytes(57, 5));
  const bytes msg = test::to_bytes("m"), ctx(255, 0xcc);
  const bytes sig = sign(key, msg, ctx);
  EXPECT_TRUE(ed448::verify(key.public_key(), msg, sig, ctx));
  EXPECT_FALSE(ed448::verify(key.public_key(), msg, sig, bytes(254, 0xcc)));
}

TEST(Ed448Contract, OverlongContextIsAContractFailure) {
  EXPECT_DEATH(
      {
        const auto key = ed448_key(bytes(57, 5));
        (void)sign(key, bytes{}, bytes(256, 0));
      },
      "max_context_size");
}

TEST(Ed448, GenerateUsesTheRandomSource) {
  test::seeded_random det(57);
  auto* prev = crypto::set_random_source(&det);
  auto key = ed448::signing_key::generate();
  crypto::set_random_source(prev);
  ASSERT_TRUE(key);
  test::seeded_random replay(57);
  const auto expected = ed448_key(replay.fill(57));
  EXPECT_EQ(test::to_hex(key->public_key()), test::to_hex(expected.public_key()));
  const bytes msg = test::to_bytes("generated");
  EXPECT_TRUE(ed448::verify(key->public_key(), msg, sign(*key, msg)));
  // A moved-to key signs the same.
  const ed448::signing_key moved = std::move(key).value();
  EXPECT_TRUE(ed448::verify(moved.public_key(), msg, sign(moved, msg)));

  test::failing_random bad;
  prev = crypto::set_random_source(&bad);
  const auto failed = ed448::signing_key::generate();
  crypto::set_random_source(prev);
  EXPECT_EQ(failed.error(), crypto_errc::rng_failure);
}
