// SPDX-License-Identifier: Apache-2.0
// HPKE against an independent implementation (tests/support/hpke_oracle: the
// RFC 9180 key schedule and DHKEM on OpenSSL and libsodium). The oracle is
// first held to the RFC's own vectors; then it checks what the vector file
// cannot: DHKEM(P-384) in every mode, KDF and AEAD, both directions and byte
// for byte, and nonces at sequence numbers at and above 2^64, which the
// vectors (257 encryptions) never reach.
#include <sealwire/hpke/hpke.hpp>

#include "detail/test_access.hpp"
#include "hpke_oracle.hpp"
#include "oracles.hpp"
#include "vectors.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <functional>
#include <string>

using namespace sealwire;
using namespace sealwire::hpke;
using sealwire::test::bytes;
using sealwire::test::hex;
using sealwire::test::to_hex;
namespace ref = sealwire::test::oracle::hpke;

namespace {


// The oracle reproduces every case of the RFC 9180 vector file: key pairs,
// enc and shared secret, key schedule, the first and last encryptions and
// every export. A wrong oracle would make the comparisons below meaningless.
TEST(HpkeOracle, ReproducesTheRfcVectors) {
  SEALWIRE_REQUIRE_VECTOR(path, "hpke/test-vectors.json");
  const auto all = test::load_json(path);
  int checked = 0;
  for (const auto& j : all) {
    auto f = [&](const char* k) { return j.contains(k) ? hex(j[k].get<std::string>()) : bytes{}; };
    const auto kem = static_cast<std::uint16_t>(j["kem_id"].get<int>());
    const auto kdf = static_cast<std::uint16_t>(j["kdf_id"].get<int>());
    const auto aead = static_cast<std::uint16_t>(j["aead_id"].get<int>());
    const auto mode = static_cast<std::uint8_t>(j["mode"].get<int>());
    SCOPED_TRACE("mode " + std::to_string(mode) + " kem " + std::to_string(kem) + " kdf " + std::to_string(kdf) +
                 " aead " + std::to_string(aead));
    const auto r = ref::derive_key_pair(kem, f("ikmR"));
    const auto e = ref::derive_key_pair(kem, f("ikmE"));
    ASSERT_TRUE(r && e);
    EXPECT_EQ(to_hex(r->sk), j["skRm"].get<std::string>());
    EXPECT_EQ(to_hex(r->pk), j["pkRm"].get<std::string>());
    EXPECT_EQ(to_hex(e->sk), j["skEm"].get<std::string>());
    const bool auth = mode == ref::mode_auth || mode == ref::mode_auth_psk;
    std::optional<ref::key_pair> s;
    if (auth) {
      s = ref::derive_key_pair(kem, f("ikmS"));
      ASSERT_TRUE(s);
      EXPECT_EQ(to_hex(s->pk), j["pkSm"].get<std::string>());
    }
    const auto enc = ref::encap(kem, r->pk, *e, auth ? &*s : nullptr);
    ASSERT_TRUE(enc);
    EXPECT_EQ(to_hex(enc->enc), j["enc"].get<std::string>());
    EXPECT_EQ(to_hex(enc->shared_secret), j["shared_secret"].get<std::string>());
    const auto dec = ref::decap(kem, enc->enc, *r, auth ? &s->pk : nullptr);
    ASSERT_TRUE(dec);
    EXPECT_EQ(*dec, enc->shared_secret);
    auto c = ref::key_schedule(kem, kdf, aead, enc->shared_secret, {mode, f("info"), f("psk"), f("psk_id")});
    ASSERT_TRUE(c);
    EXPECT_EQ(to_hex(c->exporter_secret), j["exporter_secret"].get<std::string>());
    if (aead != 0xffff) {
      EXPECT_EQ(to_hex(c->key), j["key"].get<std::string>());
      EXPECT_EQ(to_hex(c->base_nonce), j["base_nonce"].get<std::string>());
      const auto& encs = j["encryptions"];
      ASSERT_EQ(encs.size(), 257u);
      for (std::size_t i : {std::size_t{0}, std::size_t{1}, std::size_t{256}}) {
        c->seq_low = i;
        const auto ct = ref::seal(*c, hex(encs[i]["aad"].get<std::string>()), hex(encs[i]["pt"].get<std::string>()));
        ASSERT_TRUE(ct) << i;
        EXPECT_EQ(to_hex(*ct), encs[i]["ct"].get<std::string>()) << i;
      }
    }
    for (const auto& x : j["exports"]) {
      const auto out = ref::export_secret(*c, hex(x["exporter_context"].get<std::string>()), x["L"].get<std::size_t>());
      ASSERT_TRUE(out);
      EXPECT_EQ(to_hex(*out), x["exported_value"].get<std::string>());
    }
    ++checked;
  }
  EXPECT_EQ(checked, 128);
}

// ---- P-384 -------------------------------------------------------------------

struct p384_case {
  kdf_id kdf;
  aead_id aead;
  mode m;
};

std::string case_name(const testing::TestParamInfo<p384_case>& i) {
  std::string n = std::string(to_string(i.param.kdf)) + "_" + std::string(to_string(i.param.aead)) + "_" +
                  std::string(to_string(i.param.m));
  for (char& ch : n)
    if (ch == '-') ch = '_';
  return n;
}

class HpkeOracleP384 : public testing::TestWithParam<p384_case> {};

// The library and the oracle derive the same P-384 key pairs (DeriveKeyPair
// with its rejection sampling), the same enc for the same ikmE, the same
// key schedule; messages sealed by either open with the other and are
// equal byte for byte; exports agree. A fresh random recipient key (the
// oracle reads its scalar) checks the same without DeriveKeyPair.
void p384_agreement(const p384_case& p) {
  const suite s{kem_id::p384, p.kdf, p.aead};
  const auto kem = static_cast<std::uint16_t>(kem_id::p384);
  const auto kdf = static_cast<std::uint16_t>(p.kdf);
  const auto aead = static_cast<std::uint16_t>(p.aead);
  const bool auth = p.m == mode::auth || p.m == mode::auth_psk;
  const bool psk_mode = p.m == mode::psk || p.m == mode::auth_psk;
  sealwire::test::seeded_random rng(0x384000 + kdf * 16 + aead + 256 * static_cast<unsigned>(p.m));

  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    const bytes ikm_r = rng.fill(48), ikm_s = rng.fill(48), ikm_e = rng.fill(48);
    const bytes info = rng.fill(rng.uniform(40)), psk = psk_mode ? rng.fill(32) : bytes{},
                psk_id = psk_mode ? rng.fill(1 + rng.uniform(20)) : bytes{};

    // Recipient: derived on both sides (round 0, 1) or drawn at random by
    // the library (round 2).
    std::optional<key_pair> lib_r;
    if (round < 2) {
      auto k = derive_key_pair(kem_id::p384, ikm_r);
      ASSERT_TRUE(k);
      lib_r = std::move(*k);
    } else {
      auto k = generate_key_pair(kem_id::p384);
      ASSERT_TRUE(k);
      lib_r = std::move(*k);
    }
    const ref::key_pair ref_r{test::copy_of(lib_r->priv.bytes()), test::copy_of(lib_r->pub.bytes())};
    if (round < 2) {
      const auto d = ref::derive_key_pair(kem, ikm_r);
      ASSERT_TRUE(d);
      EXPECT_EQ(to_hex(d->sk), to_hex(ref_r.sk)) << "DeriveKeyPair differs";
      EXPECT_EQ(to_hex(d->pk), to_hex(ref_r.pk)) << "DeriveKeyPair differs";
    } else {
      EXPECT_EQ(to_hex(sealwire::test::oracle::evp_ec_public("P-384", ref_r.sk, 97).value_or(bytes{})), to_hex(ref_r.pk))
          << "a generated key's public half is not its scalar times G";
    }
    auto lib_s = derive_key_pair(kem_id::p384, ikm_s);
    ASSERT_TRUE(lib_s);
    const ref::key_pair ref_s{test::copy_of(lib_s->priv.bytes()), test::copy_of(lib_s->pub.bytes())};
    const auto ref_e = ref::derive_key_pair(kem, ikm_e);
    ASSERT_TRUE(ref_e);

    // Library sender, oracle recipient.
    sender_options so{.mode = p.m, .info = info, .psk = psk, .psk_id = psk_id,
                      .sender_key = auth ? &lib_s->priv : nullptr, .ikm_e = ikm_e};
    auto snd = setup_sender(s, lib_r->pub, so);
    ASSERT_TRUE(snd) << snd.error().message();
    EXPECT_EQ(to_hex(snd->enc.bytes()), to_hex(ref_e->pk)) << "enc is not the derived ephemeral public key";
    const bytes enc = test::copy_of(snd->enc.bytes());
    const auto ss = ref::decap(kem, enc, ref_r, auth ? &ref_s.pk : nullptr);
    ASSERT_TRUE(ss);
    const auto ss_sender = ref::encap(kem, ref_r.pk, *ref_e, auth ? &ref_s : nullptr);
    ASSERT_TRUE(ss_sender);
    EXPECT_EQ(*ss, ss_sender->shared_secret);
    const ref::schedule_input in{static_cast<std::uint8_t>(p.m), info, psk, psk_id};
    auto ref_open = ref::key_schedule(kem, kdf, aead, *ss, in);
    auto ref_seal = ref::key_schedule(kem, kdf, aead, *ss, in);
    ASSERT_TRUE(ref_open && ref_seal);

    // Library recipient of the same enc.
    recipient_options ro{.mode = p.m, .info = info, .psk = psk, .psk_id = psk_id,
                         .sender_key = auth ? &lib_s->pub : nullptr};
    auto rcv = setup_recipient(s, enc, lib_r->priv, ro);
    ASSERT_TRUE(rcv) << rcv.error().message();

    for (int i = 0; i < 5; ++i) {
      const bytes pt = rng.fill(rng.uniform(100)), aad = rng.fill(rng.uniform(30));
      bytes ct(pt.size() + 16);
      auto n = snd->context.seal(ct, pt, associated_data(aad));
      ASSERT_TRUE(n) << i;
      ct.resize(*n);
      const auto back = ref::open(*ref_open, aad, ct);
      ASSERT_TRUE(back) << "the oracle cannot open message " << i << " the library sealed";
      EXPECT_EQ(*back, pt);
      const auto ref_ct = ref::seal(*ref_seal, aad, pt);
      ASSERT_TRUE(ref_ct);
      EXPECT_EQ(to_hex(*ref_ct), to_hex(ct)) << "message " << i << " differs";
      bytes out(pt.size());
      auto m = rcv->open(out, *ref_ct, associated_data(aad));
      ASSERT_TRUE(m) << "the library cannot open message " << i << " the oracle sealed";
      EXPECT_EQ(out, pt);
    }
    // A message the oracle sealed under a different info does not open.
    ref::schedule_input other = in;
    other.info.push_back(0x01);
    auto wrong = ref::key_schedule(kem, kdf, aead, *ss, other);
    ASSERT_TRUE(wrong);
    wrong->seq_low = 5;
    const auto bad = ref::seal(*wrong, {}, bytes(8, 7));
    ASSERT_TRUE(bad);
    bytes out(8);
    EXPECT_EQ(rcv->open(out, *bad, {}).error(), hpke_errc::open_failed);

    for (std::size_t len : {std::size_t{1}, std::size_t{48}, std::size_t{100}}) {
      const bytes ctx = rng.fill(rng.uniform(20));
      bytes mine(len), theirs(len);
      ASSERT_TRUE(snd->context.export_secret(mine, ctx));
      ASSERT_TRUE(rcv->export_secret(theirs, ctx));
      const auto want = ref::export_secret(*ref_open, ctx, len);
      ASSERT_TRUE(want);
      EXPECT_EQ(to_hex(mine), to_hex(*want));
      EXPECT_EQ(to_hex(theirs), to_hex(*want));
    }
  }
}


TEST_P(HpkeOracleP384, AgreesWithTheIndependentImplementation) {
  sealwire::test::at_every_level([&] { p384_agreement(GetParam()); });
}

std::vector<p384_case> p384_cases() {
  std::vector<p384_case> out;
  for (kdf_id k : {kdf_id::hkdf_sha256, kdf_id::hkdf_sha384, kdf_id::hkdf_sha512})
    for (aead_id a : {aead_id::aes128_gcm, aead_id::aes256_gcm, aead_id::chacha20_poly1305})
      for (mode m : {mode::base, mode::psk, mode::auth, mode::auth_psk}) out.push_back({k, a, m});
  return out;
}

INSTANTIATE_TEST_SUITE_P(AllSuitesAndModes, HpkeOracleP384, testing::ValuesIn(p384_cases()), case_name);

// An encapsulation the oracle made to a P-384 key opens in the library in
// every mode (the library as the recipient of a foreign sender, with an
// ephemeral key the library never derived).
TEST(HpkeOracleP384Recipient, OpensForeignEncapsulations) {
  sealwire::test::seeded_random rng(0x384384);
  const auto kem = static_cast<std::uint16_t>(kem_id::p384);
  int opened = 0;
  for (mode m : {mode::base, mode::psk, mode::auth, mode::auth_psk}) {
    const bool auth = m == mode::auth || m == mode::auth_psk;
    const bool psk_mode = m == mode::psk || m == mode::auth_psk;
    auto r = generate_key_pair(kem_id::p384);
    auto snd = generate_key_pair(kem_id::p384);
    ASSERT_TRUE(r && snd);
    bytes e_sk, e_pk;
    ASSERT_TRUE(sealwire::test::oracle::evp_ec_key_pair("P-384", rng, 48, 97, e_sk, e_pk));
    const ref::key_pair e{e_sk, e_pk};
    const ref::key_pair s{test::copy_of(snd->priv.bytes()), test::copy_of(snd->pub.bytes())};
    const auto enc = ref::encap(kem, test::copy_of(r->pub.bytes()), e, auth ? &s : nullptr);
    ASSERT_TRUE(enc);
    const bytes info = rng.fill(12), psk = psk_mode ? rng.fill(32) : bytes{}, psk_id = psk_mode ? rng.fill(4) : bytes{};
    auto c = ref::key_schedule(kem, 2, 2, enc->shared_secret, {static_cast<std::uint8_t>(m), info, psk, psk_id});
    ASSERT_TRUE(c);
    const bytes pt = rng.fill(33);
    const auto ct = ref::seal(*c, bytes{1, 2, 3}, pt);
    ASSERT_TRUE(ct);
    recipient_options ro{.mode = m, .info = info, .psk = psk, .psk_id = psk_id, .sender_key = auth ? &snd->pub : nullptr};
    auto rcv = setup_recipient({kem_id::p384, kdf_id::hkdf_sha384, aead_id::aes256_gcm}, enc->enc, r->priv, ro);
    ASSERT_TRUE(rcv) << rcv.error().message();
    bytes out(pt.size());
    ASSERT_TRUE(rcv->open(out, *ct, associated_data(bytes{1, 2, 3}))) << to_string(m);
    EXPECT_EQ(out, pt);
    ++opened;
  }
  EXPECT_EQ(opened, 4);
}

// ---- sequence numbers at and above 2^64 ------------------------------------

// With the sequence number moved (test hook) to values at and above 2^64,
// the library's ciphertext (at every CPU level) is the raw AEAD of OpenSSL with nonce base_nonce
// XOR I2OSP(seq, 12), the key and base nonce coming from the oracle's key
// schedule; and the library's recipient at the same position opens OpenSSL's
// ciphertext. Each AEAD; a few KEMs.
void high_sequence_numbers() {
  struct position {
    std::uint64_t low;
    std::uint32_t high;
  };
  const position positions[] = {{~0ULL, 0},        {0, 1},         {1, 1},         {0x0123456789abcdefULL, 1},
                                {0, 0x80000000u},  {~0ULL, 0x7fu}, {5, 0xfedcba98u}, {~0ULL - 1, ~0u}};
  sealwire::test::seeded_random rng(0x2064);
  int compared = 0;
  for (kem_id kem : {kem_id::x25519, kem_id::p384, kem_id::x448}) {
    for (aead_id a : {aead_id::aes128_gcm, aead_id::aes256_gcm, aead_id::chacha20_poly1305}) {
      const suite s{kem, kdf_id::hkdf_sha256, a};
      SCOPED_TRACE(to_string(s));
      const auto ikm_r = rng.fill(64), ikm_e = rng.fill(64), info = rng.fill(9);
      auto r = derive_key_pair(kem, ikm_r);
      ASSERT_TRUE(r);
      auto snd = setup_sender(s, r->pub, {.info = info, .ikm_e = ikm_e});
      ASSERT_TRUE(snd);
      auto rcv = setup_recipient(s, snd->enc.bytes(), r->priv, {.info = info});
      ASSERT_TRUE(rcv);
      const ref::key_pair ref_r{test::copy_of(r->priv.bytes()), test::copy_of(r->pub.bytes())};
      const auto ss = ref::decap(static_cast<std::uint16_t>(kem), test::copy_of(snd->enc.bytes()), ref_r);
      ASSERT_TRUE(ss);
      const auto c = ref::key_schedule(static_cast<std::uint16_t>(kem), 1, static_cast<std::uint16_t>(a), *ss,
                                       {ref::mode_base, info, {}, {}});
      ASSERT_TRUE(c);
      for (const position& p : positions) {
        SCOPED_TRACE("seq high " + std::to_string(p.high) + " low " + std::to_string(p.low));
        // base_nonce XOR I2OSP(seq, 12), written out here.
        bytes nonce = c->base_nonce;
        for (int i = 0; i < 8; ++i) nonce[11 - static_cast<std::size_t>(i)] ^= static_cast<std::uint8_t>(p.low >> (8 * i));
        for (int i = 0; i < 4; ++i) nonce[3 - static_cast<std::size_t>(i)] ^= static_cast<std::uint8_t>(p.high >> (8 * i));
        const bytes pt = rng.fill(1 + rng.uniform(64)), aad = rng.fill(rng.uniform(16));
        const auto want = sealwire::test::oracle::evp_aead_seal(ref::aead_cipher(static_cast<std::uint16_t>(a)), c->key,
                                                                nonce, aad, pt);
        ASSERT_TRUE(want);
        hpke::detail::context_test_access::set_sequence(snd->context, p.low, p.high);
        bytes ct(pt.size() + 16);
        auto n = snd->context.seal(ct, pt, associated_data(aad));
        ASSERT_TRUE(n);
        EXPECT_EQ(to_hex(ct), to_hex(*want));
        hpke::detail::context_test_access::set_sequence(*rcv, p.low, p.high);
        bytes out(pt.size());
        ASSERT_TRUE(rcv->open(out, *want, associated_data(aad)));
        EXPECT_EQ(out, pt);
        // One position further on, the same ciphertext is refused; after the
        // last usable sequence number (2^96 - 2) both sides stop.
        const bool last = p.low == ~0ULL - 1 && p.high == ~0u;
        EXPECT_EQ(rcv->open(out, *want, associated_data(aad)).error(),
                  last ? hpke_errc::message_limit_reached : hpke_errc::open_failed);
        if (last) {
          EXPECT_EQ(snd->context.seal(ct, pt, associated_data(aad)).error(), hpke_errc::message_limit_reached);
        }
        ++compared;
      }
    }
  }
  EXPECT_EQ(compared, 3 * 3 * 8);
}

TEST(HpkeOracleNonce, SequenceNumbersAtAndAbove2To64) { sealwire::test::at_every_level(high_sequence_numbers); }

}  // namespace
