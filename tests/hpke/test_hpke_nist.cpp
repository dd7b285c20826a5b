// SPDX-License-Identifier: Apache-2.0
// HPKE with the NIST DHKEMs (RFC 9180 7.1): P-384 has no official vectors,
// so its DeriveKeyPair is recomputed here from the RFC's definition and its
// suites run round trips in all four modes; key validation for all three
// curves.
#include <sealwire/crypto/ecdh_nist.hpp>
#include <sealwire/crypto/hkdf.hpp>
#include <sealwire/crypto/sha2.hpp>
#include <sealwire/hpke/hpke.hpp>

#include "vectors.hpp"

#include <string_view>

using namespace sealwire;
using namespace sealwire::hpke;
using test::bytes;
using test::hex;

namespace {

std::span<const std::uint8_t> text(std::string_view s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

// RFC 9180 7.1.3 written out for DHKEM(P-384, HKDF-SHA384): dkp_prk =
// LabeledExtract("", "dkp_prk", ikm); candidate k = LabeledExpand(dkp_prk,
// "candidate", I2OSP(k, 1), 48), bitmask 0xff.
bytes p384_candidate(const bytes& ikm, std::uint8_t counter) {
  using h = crypto::hkdf<crypto::sha384>;
  const std::uint8_t suite_id[5] = {'K', 'E', 'M', 0x00, 0x11};
  std::uint8_t prk[48];
  h::extract(prk, {}, {text("HPKE-v1"), suite_id, text("dkp_prk"), ikm});
  const std::uint8_t length[2] = {0, 48};
  bytes sk(48);
  EXPECT_TRUE(h::expand(sk, prk, {length, text("HPKE-v1"), suite_id, text("candidate"), {&counter, 1}}));
  return sk;
}

struct nist_case {
  kem_id kem;
  std::size_t nsk, npk, nsecret;
  const char* n_hex;  // the group order
};

const nist_case nist_kems[] = {
    {kem_id::p256, 32, 65, 32, "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551"},
    {kem_id::p384, 48, 97, 48,
     "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973"},
    {kem_id::p521, 66, 133, 64,
     "01fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa51868783bf2f966b7fcc0148f709a5d03bb5c9b8"
     "899c47aebb6fb71e91386409"},
};

}  // namespace

TEST(HpkeNist, KemSizesAreTable2s) {
  for (const auto& c : nist_kems) {
    const auto info = kem_info(c.kem);
    ASSERT_TRUE(info);
    EXPECT_EQ(info->secret, c.nsecret);
    EXPECT_EQ(info->enc, c.npk);
    EXPECT_EQ(info->public_key, c.npk);
    EXPECT_EQ(info->private_key, c.nsk);
  }
}

TEST(HpkeNist, P384DeriveKeyPairFollowsSection713) {
  for (std::uint8_t seed : {1, 2, 3}) {
    const bytes ikm(48, seed);
    const auto kp = derive_key_pair(kem_id::p384, ikm);
    ASSERT_TRUE(kp);
    // Candidate 0 is below n with probability 1 - 2^-190.
    const bytes sk = p384_candidate(ikm, 0);
    EXPECT_EQ(test::to_hex(kp->priv.bytes()), test::to_hex(sk));
    bytes pk(97);
    ASSERT_TRUE(crypto::p384::public_key(std::span<std::uint8_t, 97>(pk.data(), 97),
                                         std::span<const std::uint8_t, 48>(sk.data(), 48)));
    EXPECT_EQ(test::to_hex(kp->pub.bytes()), test::to_hex(pk));
    EXPECT_EQ(test::to_hex(kp->priv.public_key().bytes()), test::to_hex(pk));
    // Deterministic, and different inputs give different keys.
    EXPECT_EQ(test::to_hex(derive_key_pair(kem_id::p384, ikm)->priv.bytes()), test::to_hex(sk));
    const auto other = derive_key_pair(kem_id::p384, bytes(48, static_cast<std::uint8_t>(seed + 10)));
    ASSERT_TRUE(other);
    EXPECT_NE(test::to_hex(other->priv.bytes()), test::to_hex(sk));
  }
}

TEST(HpkeNist, P384RoundTripsInAllModes) {
  const auto r = derive_key_pair(kem_id::p384, bytes(48, 0x21));
  const auto snd = derive_key_pair(kem_id::p384, bytes(48, 0x22));
  ASSERT_TRUE(r && snd);
  const bytes info = test::to_bytes("p-384 info"), psk(32, 0x33), psk_id = test::to_bytes("psk id");
  const bytes aad = test::to_bytes("aad"), ctx = test::to_bytes("exporter context");
  for (kdf_id kdf : {kdf_id::hkdf_sha384, kdf_id::hkdf_sha256, kdf_id::hkdf_sha512}) {
    for (aead_id aead : {aead_id::chacha20_poly1305, aead_id::aes128_gcm, aead_id::aes256_gcm, aead_id::export_only}) {
      const suite s{kem_id::p384, kdf, aead};
      ASSERT_TRUE(check_suite(s));
      for (mode m : {mode::base, mode::psk, mode::auth, mode::auth_psk}) {
        SCOPED_TRACE("kdf " + std::to_string(static_cast<int>(kdf)) + " aead " +
                     std::to_string(static_cast<int>(aead)) + " mode " + std::to_string(static_cast<int>(m)));
        const bool p = m == mode::psk || m == mode::auth_psk, a = m == mode::auth || m == mode::auth_psk;
        const bytes none;
        sender_options so{.mode = m, .info = info, .psk = p ? psk : none, .psk_id = p ? psk_id : none,
                          .sender_key = a ? &snd->priv : nullptr, .ikm_e = {}};
        recipient_options ro{.mode = m, .info = info, .psk = p ? psk : none, .psk_id = p ? psk_id : none,
                             .sender_key = a ? &snd->pub : nullptr};
        auto sender = setup_sender(s, r->pub, so);
        ASSERT_TRUE(sender) << sender.error().message();
        EXPECT_EQ(sender->enc.size(), 97u);
        EXPECT_EQ(sender->enc.bytes()[0], 0x04);
        auto recipient = setup_recipient(s, sender->enc.bytes(), r->priv, ro);
        ASSERT_TRUE(recipient) << recipient.error().message();
        bytes e1(48), e2(48);
        ASSERT_TRUE(sender->context.export_secret(e1, ctx));
        ASSERT_TRUE(recipient->export_secret(e2, ctx));
        EXPECT_EQ(e1, e2);
        if (aead == aead_id::export_only) continue;
        for (std::size_t len : {0u, 1u, 100u}) {
          const bytes pt(len, static_cast<std::uint8_t>(len));
          bytes ct(len + 16), back(len);
          ASSERT_TRUE(sender->context.seal(ct, pt, associated_data(aad)));
          const auto n = recipient->open(back, ct, associated_data(aad));
          ASSERT_TRUE(n);
          EXPECT_EQ(back, pt);
        }
        // A different recipient key derives other keys: open fails.
        auto wrong = setup_recipient(s, sender->enc.bytes(), snd->priv, ro);
        ASSERT_TRUE(wrong);
        bytes ct(16 + 5), back(5);
        ASSERT_TRUE(sender->context.seal(ct, bytes(5, 1), associated_data(aad)));
        EXPECT_EQ(wrong->open(back, ct, associated_data(aad)).error(), hpke_errc::open_failed);
      }
    }
  }
}

TEST(HpkeNist, GeneratedKeysWorkOnEveryCurve) {
  for (const auto& c : nist_kems) {
    const suite s{c.kem, kdf_id::hkdf_sha256, aead_id::chacha20_poly1305};
    const auto kp = generate_key_pair(c.kem);
    ASSERT_TRUE(kp);
    EXPECT_EQ(kp->priv.size(), c.nsk);
    EXPECT_EQ(kp->pub.size(), c.npk);
    const auto loaded = private_key::from(c.kem, kp->priv.bytes());
    ASSERT_TRUE(loaded);
    EXPECT_EQ(test::to_hex(loaded->public_key().bytes()), test::to_hex(kp->pub.bytes()));
    const bytes pt = test::to_bytes("hello");
    bytes ct(pt.size() + 16), back(pt.size());
    public_key enc;
    ASSERT_TRUE(seal(ct, enc, s, kp->pub, {}, pt, {}));
    ASSERT_TRUE(open(back, s, enc.bytes(), kp->priv, {}, ct, {}));
    EXPECT_EQ(back, pt);
  }
}

TEST(HpkeNist, InvalidKeysAndEncapsulations) {
  for (const auto& c : nist_kems) {
    SCOPED_TRACE(static_cast<int>(c.kem));
    const suite s{c.kem, kdf_id::hkdf_sha256, aead_id::chacha20_poly1305};
    // Private keys: 0 and n are not scalars of the group (RFC 9180 7.1.2).
    EXPECT_EQ(private_key::from(c.kem, bytes(c.nsk, 0)).error(), hpke_errc::invalid_private_key);
    EXPECT_EQ(private_key::from(c.kem, hex(c.n_hex)).error(), hpke_errc::invalid_private_key);
    EXPECT_EQ(private_key::from(c.kem, bytes(c.nsk - 1, 1)).error(), hpke_errc::invalid_private_key);
    const auto kp = derive_key_pair(c.kem, bytes(32, 7));
    ASSERT_TRUE(kp);
    // Public keys: the length is checked on loading, the point when used.
    EXPECT_EQ(public_key::from(c.kem, bytes(c.npk - 1, 4)).error(), hpke_errc::invalid_public_key);
    bytes off(kp->pub.bytes().begin(), kp->pub.bytes().end());
    off.back() ^= 1;
    const auto off_curve = public_key::from(c.kem, off);
    ASSERT_TRUE(off_curve);
    EXPECT_EQ(setup_sender(s, *off_curve).error(), hpke_errc::invalid_public_key);
    // An encapsulation that is not a point, or is compressed, is refused.
    EXPECT_EQ(setup_recipient(s, off, kp->priv).error(), hpke_errc::invalid_encapsulation);
    bytes compressed(kp->pub.bytes().begin(), kp->pub.bytes().begin() + 1 + static_cast<long>(c.nsk));
    compressed[0] = 0x02;
    EXPECT_EQ(setup_recipient(s, compressed, kp->priv).error(), hpke_errc::invalid_encapsulation);
    // An off-curve sender key in the auth modes.
    recipient_options ro{.mode = mode::auth, .info = {}, .psk = {}, .psk_id = {}, .sender_key = &*off_curve};
    auto sender = setup_sender(s, kp->pub, sender_options{.mode = mode::auth, .info = {}, .psk = {}, .psk_id = {},
                                                          .sender_key = &kp->priv, .ikm_e = {}});
    ASSERT_TRUE(sender);
    EXPECT_EQ(setup_recipient(s, sender->enc.bytes(), kp->priv, ro).error(), hpke_errc::invalid_public_key);
  }
}
