// SPDX-License-Identifier: Apache-2.0
// HPKE with the post-quantum KEMs of draft-ietf-hpke-pq (ML-KEM-512/768/1024,
// X-Wing). There are no official HPKE vectors for them, so DeriveKeyPair is
// recomputed from the draft's definition (against the ML-KEM and X-Wing
// key expansion), X-Wing's draft vectors run through HPKE's own key loading
// and Encap/Decap, and every suite runs round trips in base and
// psk mode; the auth modes, wrong sizes and bad keys are refused.
#include <sealwire/crypto/ml_kem.hpp>
#include <sealwire/crypto/sha3.hpp>
#include <sealwire/crypto/xwing.hpp>
#include <sealwire/hpke/hpke.hpp>

#include "detail/kem.hpp"
#include "formats.hpp"
#include "vectors.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

using namespace sealwire;
using namespace sealwire::hpke;
using test::bytes;
using test::hex;

namespace {

constexpr kem_id pq_kems[] = {kem_id::ml_kem_512, kem_id::ml_kem_768, kem_id::ml_kem_1024, kem_id::xwing};


// SHAKE256.LabeledDerive(ikm, "DeriveKeyPair", "", Nsk) written out as one
// concatenated input (draft-ietf-hpke-pq 3).
bytes derive_seed(kem_id kem, const bytes& ikm, std::size_t nsk) {
  const auto id = static_cast<unsigned>(kem);
  bytes in = ikm;
  for (char c : std::string_view("HPKE-v1KEM")) in.push_back(static_cast<std::uint8_t>(c));
  in.push_back(static_cast<std::uint8_t>(id >> 8));
  in.push_back(static_cast<std::uint8_t>(id));
  in.push_back(0);
  in.push_back(13);
  for (char c : std::string_view("DeriveKeyPair")) in.push_back(static_cast<std::uint8_t>(c));
  in.push_back(static_cast<std::uint8_t>(nsk >> 8));
  in.push_back(static_cast<std::uint8_t>(nsk));
  bytes out(nsk);
  crypto::shake256::hash(out, in);
  return out;
}

// The public key of a seed, computed by the KEM directly.
bytes public_of_seed(kem_id kem, const bytes& seed) {
  switch (kem) {
    case kem_id::ml_kem_512: return test::copy_of(crypto::ml_kem_512::decapsulation_key::from_seed(seed)->public_key().bytes());
    case kem_id::ml_kem_768: return test::copy_of(crypto::ml_kem_768::decapsulation_key::from_seed(seed)->public_key().bytes());
    case kem_id::ml_kem_1024:
      return test::copy_of(crypto::ml_kem_1024::decapsulation_key::from_seed(seed)->public_key().bytes());
    default: return test::copy_of(crypto::xwing::decapsulation_key::from_seed(seed)->encapsulation_key());
  }
}

}  // namespace

TEST(HpkePq, KemSizesAndNames) {
  struct row {
    kem_id kem;
    unsigned id;
    std::size_t enc, pk, sk;
    std::string_view name;
  };
  const row rows[] = {{kem_id::ml_kem_512, 0x0040, 768, 800, 64, "mlkem512"},
                      {kem_id::ml_kem_768, 0x0041, 1088, 1184, 64, "mlkem768"},
                      {kem_id::ml_kem_1024, 0x0042, 1568, 1568, 64, "mlkem1024"},
                      {kem_id::xwing, 0x647a, 1120, 1216, 32, "xwing"}};
  for (const row& r : rows) {
    EXPECT_EQ(static_cast<unsigned>(r.kem), r.id);
    const auto info = kem_info(r.kem).value();
    EXPECT_EQ(info.secret, 32u);
    EXPECT_EQ(info.enc, r.enc);
    EXPECT_EQ(info.public_key, r.pk);
    EXPECT_EQ(info.private_key, r.sk);
    EXPECT_LE(info.public_key, max_public_key_size);
    EXPECT_LE(info.enc, max_public_key_size);
    EXPECT_FALSE(kem_supports_auth(r.kem));
    EXPECT_EQ(to_string(r.kem), r.name);
    EXPECT_EQ(parse<kem_id>(r.name).value(), r.kem);
    EXPECT_EQ(parse<kem_id>(std::to_string(r.id)).value(), r.kem);
  }
  EXPECT_EQ(parse<kem_id>("0x647a").value(), kem_id::xwing);
  EXPECT_EQ(parse<kem_id>("XWing").value(), kem_id::xwing);
  EXPECT_TRUE(kem_supports_auth(kem_id::x25519));
  EXPECT_FALSE(kem_supports_auth(static_cast<kem_id>(0x0043)));
  EXPECT_EQ(check_suite({static_cast<kem_id>(0x0043), kdf_id::hkdf_sha256, aead_id::aes128_gcm}).error(),
            hpke_errc::unsupported_suite);
}

TEST(HpkePq, DeriveKeyPairIsTheDraftsLabeledDerive) {
  for (kem_id kem : pq_kems) {
    const std::size_t nsk = kem_info(kem)->private_key;
    for (std::size_t ikm_len : {std::size_t{0}, std::size_t{32}, std::size_t{77}}) {
      const bytes ikm(ikm_len, static_cast<std::uint8_t>(ikm_len + 1));
      const auto kp = derive_key_pair(kem, ikm).value();
      const bytes seed = derive_seed(kem, ikm, nsk);
      EXPECT_EQ(test::copy_of(kp.priv.bytes()), seed) << to_string(kem);
      EXPECT_EQ(test::copy_of(kp.pub.bytes()), public_of_seed(kem, seed)) << to_string(kem);
      EXPECT_EQ(kp.priv.public_key(), kp.pub);
      EXPECT_EQ(kp.pub.kem(), kem);
      // The private key serializes as the seed and loads back to the same pair.
      const auto loaded = private_key::from(kem, kp.priv.bytes()).value();
      EXPECT_EQ(loaded.public_key(), kp.pub);
    }
  }
}

// X-Wing's draft vectors through HPKE: the seed loads as the private key to
// the vector's pk, Encap with eseed as ikm_e gives its ct and ss, Decap
// recovers ss.
TEST(HpkePq, XWingDraftVectorsThroughHpke) {
  SEALWIRE_REQUIRE_VECTOR(path, "pq/xwing-test-vectors.json");
  const auto vectors = test::read_xwing_vectors(path);
  ASSERT_EQ(vectors.size(), 3u);
  for (const auto& [seed, sk_hex, eseed, pk, ct, ss] : vectors) {
    EXPECT_EQ(sk_hex, seed);
    const auto sk = private_key::from(kem_id::xwing, seed).value();
    EXPECT_EQ(test::copy_of(sk.public_key().bytes()), pk);
    const auto pub = public_key::from(kem_id::xwing, pk).value();
    std::uint8_t shared[64];
    public_key enc;
    ASSERT_EQ(hpke::detail::encapsulate(kem_id::xwing, shared, enc, pub, nullptr, eseed).value(), 32u);
    EXPECT_EQ(test::copy_of(enc.bytes()), ct);
    EXPECT_EQ(bytes(shared, shared + 32), ss);
    std::uint8_t shared2[64];
    ASSERT_EQ(hpke::detail::decapsulate(kem_id::xwing, shared2, ct, sk, nullptr).value(), 32u);
    EXPECT_EQ(bytes(shared2, shared2 + 32), ss);
  }
}

TEST(HpkePq, EverySuiteInBaseAndPskMode) {
  const bytes psk(32, 0x5a), psk_id = test::to_bytes("pq psk");
  for (kem_id kem : pq_kems) {
    const auto kp = generate_key_pair(kem).value();
    EXPECT_EQ(kp.priv.size(), kem_info(kem)->private_key);
    for (kdf_id kdf : {kdf_id::hkdf_sha256, kdf_id::hkdf_sha384, kdf_id::hkdf_sha512}) {
      for (aead_id aead : {aead_id::aes128_gcm, aead_id::aes256_gcm, aead_id::chacha20_poly1305,
                           aead_id::export_only}) {
        const suite s{kem, kdf, aead};
        for (mode m : {mode::base, mode::psk}) {
          sender_options so;
          so.mode = m;
          so.info = bytes_of("pq info");
          recipient_options ro;
          ro.mode = m;
          ro.info = so.info;
          if (m == mode::psk) {
            so.psk = ro.psk = psk;
            so.psk_id = ro.psk_id = psk_id;
          }
          auto sender = setup_sender(s, kp.pub, so).value();
          EXPECT_EQ(sender.enc.size(), kem_info(kem)->enc);
          auto recipient = setup_recipient(s, sender.enc.bytes(), kp.priv, ro).value();
          std::uint8_t e1[32], e2[32];
          ASSERT_TRUE(sender.context.export_secret(e1, bytes_of("x")));
          ASSERT_TRUE(recipient.export_secret(e2, bytes_of("x")));
          EXPECT_EQ(bytes(e1, e1 + 32), bytes(e2, e2 + 32)) << to_string(s);
          if (aead == aead_id::export_only) continue;
          const bytes pt = test::to_bytes("post-quantum");
          bytes ct(pt.size() + 16), out(pt.size());
          ASSERT_EQ(sender.context.seal(ct, pt, {}).value(), ct.size());
          ASSERT_EQ(recipient.open(out, ct, {}).value(), pt.size()) << to_string(s);
          EXPECT_EQ(out, pt);
        }
      }
    }
  }
}

TEST(HpkePq, AuthModesAreRefused) {
  for (kem_id kem : pq_kems) {
    const suite s{kem, kdf_id::hkdf_sha256, aead_id::chacha20_poly1305};
    const auto r = generate_key_pair(kem).value();
    const auto snd = generate_key_pair(kem).value();
    for (mode m : {mode::auth, mode::auth_psk}) {
      sender_options so;
      so.mode = m;
      so.sender_key = &snd.priv;
      if (m == mode::auth_psk) {
        so.psk = bytes_of("0123456789abcdef0123456789abcdef");
        so.psk_id = bytes_of("id");
      }
      EXPECT_EQ(setup_sender(s, r.pub, so).error(), hpke_errc::auth_not_supported) << to_string(kem);
      // Even without the sender key the answer names the real reason.
      so.sender_key = nullptr;
      EXPECT_EQ(setup_sender(s, r.pub, so).error(), hpke_errc::auth_not_supported);
      recipient_options ro;
      ro.mode = m;
      ro.sender_key = &snd.pub;
      ro.psk = so.psk;
      ro.psk_id = so.psk_id;
      const bytes enc(kem_info(kem)->enc, 1);
      EXPECT_EQ(setup_recipient(s, enc, r.priv, ro).error(), hpke_errc::auth_not_supported);
    }
    // The KEM layer refuses AuthEncap/AuthDecap too.
    std::uint8_t shared[64];
    public_key enc;
    EXPECT_EQ(hpke::detail::encapsulate(kem, shared, enc, r.pub, &snd.priv, {}).error(), hpke_errc::auth_not_supported);
    const auto e = setup_sender(s, r.pub).value();
    EXPECT_EQ(hpke::detail::decapsulate(kem, shared, e.enc.bytes(), r.priv, &snd.pub).error(),
              hpke_errc::auth_not_supported);
  }
  EXPECT_NE(std::error_code(hpke_errc::auth_not_supported).message().find("not supported by this KEM"),
            std::string::npos);
}

TEST(HpkePq, WrongSizesAndBadKeysAreRefused) {
  for (kem_id kem : pq_kems) {
    const auto info = kem_info(kem).value();
    const suite s{kem, kdf_id::hkdf_sha256, aead_id::aes128_gcm};
    const auto kp = generate_key_pair(kem).value();
    const bytes pk = test::copy_of(kp.pub.bytes());
    for (std::size_t n : {std::size_t{0}, info.public_key - 1, info.public_key + 1})
      EXPECT_EQ(public_key::from(kem, bytes(n, 7)).error(), hpke_errc::invalid_public_key);
    for (std::size_t n : {std::size_t{0}, info.private_key - 1, info.private_key + 1})
      EXPECT_EQ(private_key::from(kem, bytes(n, 7)).error(), hpke_errc::invalid_private_key);
    const auto sender = setup_sender(s, kp.pub).value();
    const bytes enc = test::copy_of(sender.enc.bytes());
    for (std::size_t n : {std::size_t{0}, info.enc - 1, info.enc + 1, std::size_t{32}})
      EXPECT_EQ(setup_recipient(s, bytes(n, 7), kp.priv).error(), hpke_errc::invalid_encapsulation);
    // An encapsulation key with a coefficient >= q fails the FIPS 203 7.2
    // check (the first 12 bits are 0xfff = 4095).
    bytes bad = pk;
    bad[0] = 0xff;
    bad[1] |= 0x0f;
    EXPECT_EQ(setup_sender(s, public_key::from(kem, bad).value()).error(), hpke_errc::invalid_public_key);
    // ikm_e is the Encaps randomness: of the KEM's size, and deterministic.
    const std::size_t nrandom = kem == kem_id::xwing ? 64 : 32;
    sender_options so;
    const bytes r1(nrandom, 9);
    so.ikm_e = r1;
    const auto d1 = setup_sender(s, kp.pub, so).value();
    const auto d2 = setup_sender(s, kp.pub, so).value();
    EXPECT_EQ(d1.enc, d2.enc);
    EXPECT_NE(d1.enc, sender.enc);
    const bytes r2(nrandom + 1, 9);
    so.ikm_e = r2;
    EXPECT_EQ(setup_sender(s, kp.pub, so).error(), hpke_errc::invalid_length);
    // A key of another KEM.
    const auto x = generate_key_pair(kem_id::x25519).value();
    EXPECT_EQ(setup_sender(s, x.pub).error(), hpke_errc::kem_mismatch);
    EXPECT_EQ(setup_recipient(s, enc, x.priv).error(), hpke_errc::kem_mismatch);
  }
}

// A changed enc decapsulates (implicit rejection) to an unrelated secret,
// so the message fails to open; so does the wrong recipient key.
TEST(HpkePq, TamperedEncFailsToOpen) {
  for (kem_id kem : pq_kems) {
    const auto kp = generate_key_pair(kem).value();
    const auto other = generate_key_pair(kem).value();
    const message_options o{{kem, kdf_id::hkdf_sha256, aead_id::chacha20_poly1305}};
    const bytes msg = test::to_bytes("harvest now, decrypt never");
    const auto parts = seal_split(kp.pub, msg, o).value();
    EXPECT_EQ(open_split(kp.priv, parts.enc, parts.ciphertext, o).value(), msg);
    for (std::size_t i : {std::size_t{0}, parts.enc.size() / 2, parts.enc.size() - 1}) {
      bytes enc = parts.enc;
      enc[i] ^= 0x01;
      EXPECT_EQ(open_split(kp.priv, enc, parts.ciphertext, o).error(), hpke_errc::open_failed) << i;
    }
    EXPECT_EQ(open_split(other.priv, parts.enc, parts.ciphertext, o).error(), hpke_errc::open_failed);
  }
}
