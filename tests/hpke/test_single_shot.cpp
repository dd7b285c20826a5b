// SPDX-License-Identifier: Apache-2.0
// HPKE in one call each way (single_shot.hpp), key serialization, and the
// names of the HPKE ids.
#include <sealwire/hpke/hpke.hpp>

#include "vectors.hpp"

using namespace sealwire;
using namespace sealwire::hpke;
using test::bytes;

TEST(HpkeOneCall, DefaultSuiteRoundTripAndLayout) {
  const auto bob = generate_key_pair().value();
  EXPECT_EQ(bob.pub.kem(), default_suite.kem);
  const bytes msg = test::to_bytes("one call each way");
  const auto sealed = seal(bob.pub, msg).value();
  ASSERT_EQ(sealed.size(), 32 + msg.size() + 16);  // enc || ct || tag
  EXPECT_EQ(open(bob.priv, sealed).value(), msg);
  // The same bytes through the split form and the span-based context API.
  const bytes enc(sealed.begin(), sealed.begin() + 32), ct(sealed.begin() + 32, sealed.end());
  EXPECT_EQ(open_split(bob.priv, enc, ct).value(), msg);
  auto ctx = setup_recipient(default_suite, enc, bob.priv).value();
  bytes out(msg.size());
  EXPECT_EQ(ctx.open(out, ct, {}).value(), msg.size());
  EXPECT_EQ(out, msg);
}

TEST(HpkeOneCall, EverySuiteWithInfoAndAssociatedData) {
  for (kem_id kem : {kem_id::x25519, kem_id::x448, kem_id::p256, kem_id::p384, kem_id::p521}) {
    for (kdf_id kdf : {kdf_id::hkdf_sha256, kdf_id::hkdf_sha384, kdf_id::hkdf_sha512}) {
      for (aead_id aead : {aead_id::aes128_gcm, aead_id::aes256_gcm, aead_id::chacha20_poly1305}) {
        const suite s{kem, kdf, aead};
        const auto kp = generate_key_pair(kem).value();
        const message_options o{s, bytes_of("app v1"), associated_data("header")};
        const auto parts = seal_split(kp.pub, bytes(33, 3), o).value();
        EXPECT_EQ(parts.enc.size(), kem_info(kem)->enc);
        EXPECT_EQ(open_split(kp.priv, parts.enc, parts.ciphertext, o).value(), bytes(33, 3)) << to_string(s);
        message_options other_info = o;
        other_info.info = bytes_of("app v2");
        EXPECT_EQ(open_split(kp.priv, parts.enc, parts.ciphertext, other_info).error(), hpke_errc::open_failed);
        message_options other_ad = o;
        other_ad.aad = associated_data("other");
        EXPECT_EQ(open_split(kp.priv, parts.enc, parts.ciphertext, other_ad).error(), condition::authentication_failed);
      }
    }
  }
}

TEST(HpkeOneCall, ClearErrors) {
  const auto x = generate_key_pair(kem_id::x25519).value();
  const auto p = generate_key_pair(kem_id::p256).value();
  // A key of another KEM than the suite's.
  EXPECT_EQ(seal(p.pub, bytes(1)).error(), hpke_errc::kem_mismatch);
  const auto sealed = seal(x.pub, bytes(5, 1)).value();
  EXPECT_EQ(open(p.priv, sealed, {.suite = {kem_id::x25519, kdf_id::hkdf_sha256, aead_id::chacha20_poly1305}}).error(),
            hpke_errc::kem_mismatch);
  // Too short to hold enc; a modified enc; a modified or truncated ciphertext.
  EXPECT_EQ(open(x.priv, std::span(sealed).first(31)).error(), hpke_errc::invalid_encapsulation);
  EXPECT_EQ(open(x.priv, std::span(sealed).first(40)).error(), hpke_errc::open_failed);
  for (std::size_t i = 0; i < sealed.size(); ++i) {
    auto bad = sealed;
    bad[i] ^= 0x01;
    EXPECT_FALSE(open(x.priv, bad)) << i;
  }
  // The export-only AEAD cannot seal.
  EXPECT_EQ(seal(x.pub, bytes(1), {.suite = {kem_id::x25519, kdf_id::hkdf_sha256, aead_id::export_only}}).error(),
            hpke_errc::export_only);
  EXPECT_EQ(seal(public_key{}, bytes(1)).error(), hpke_errc::invalid_public_key);
}

TEST(HpkeKeys, SerializeAndLoadInAFewLines) {
  const auto kp = generate_key_pair(kem_id::x448).value();
  const bytes pub(kp.pub.bytes().begin(), kp.pub.bytes().end());
  const bytes priv(kp.priv.bytes().begin(), kp.priv.bytes().end());
  const auto pub2 = public_key::from(kem_id::x448, pub).value();
  const auto priv2 = private_key::from(kem_id::x448, priv).value();
  EXPECT_TRUE(pub2 == kp.pub);
  EXPECT_TRUE(priv2.public_key() == kp.pub);
  EXPECT_FALSE(pub2 == public_key::from(kem_id::x448, bytes(56, 9)).value());
  const message_options o{.suite = {kem_id::x448, kdf_id::hkdf_sha512, aead_id::chacha20_poly1305}};
  EXPECT_EQ(open(priv2, seal(pub2, bytes(4, 4), o).value(), o).value(), bytes(4, 4));
  EXPECT_EQ(public_key::from(static_cast<kem_id>(0x99), pub).error(), hpke_errc::unsupported_suite);
}

TEST(HpkeNames, EveryIdRoundTripsByNameAndNumber) {
  for (kem_id k : {kem_id::x25519, kem_id::x448, kem_id::p256, kem_id::p384, kem_id::p521}) {
    EXPECT_EQ(parse<kem_id>(to_string(k)).value(), k);
    EXPECT_EQ(parse<kem_id>(std::to_string(static_cast<unsigned>(k))).value(), k);
  }
  for (kdf_id k : {kdf_id::hkdf_sha256, kdf_id::hkdf_sha384, kdf_id::hkdf_sha512})
    EXPECT_EQ(parse<kdf_id>(to_string(k)).value(), k);
  for (aead_id a : {aead_id::aes128_gcm, aead_id::aes256_gcm, aead_id::chacha20_poly1305, aead_id::export_only})
    EXPECT_EQ(parse<aead_id>(to_string(a)).value(), a);
  for (mode m : {mode::base, mode::psk, mode::auth, mode::auth_psk}) EXPECT_EQ(parse<mode>(to_string(m)).value(), m);
  EXPECT_EQ(parse<aead_id>("0xffff").value(), aead_id::export_only);
  EXPECT_EQ(parse<kem_id>("0x20").value(), kem_id::x25519);
  EXPECT_EQ(parse<kem_id>("X25519").value(), kem_id::x25519);
  EXPECT_EQ(parse<kem_id>("0x13").error(), crypto_errc::unknown_algorithm);
  EXPECT_EQ(to_string(static_cast<kem_id>(0x13)), "unknown");
  EXPECT_EQ(to_string(default_suite), "x25519,hkdf-sha256,chacha20poly1305");
  EXPECT_EQ(parse<suite>("x448,3,aes256gcm").value(), (suite{kem_id::x448, kdf_id::hkdf_sha512, aead_id::aes256_gcm}));
  for (const char* bad : {"", "x25519", "x25519,hkdf-sha256", "x25519,hkdf-sha256,chacha20poly1305,",
                          "x25519,,chacha20poly1305", "x25519,sha256,chacha20poly1305"})
    EXPECT_FALSE(parse<suite>(bad)) << bad;
  EXPECT_EQ(kdf_hash(kdf_id::hkdf_sha384).value(), crypto::hash_algorithm::sha2_384);
}
