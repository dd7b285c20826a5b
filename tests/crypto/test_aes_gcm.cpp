// SPDX-License-Identifier: Apache-2.0
// AES-GCM (NIST SP 800-38D): FIPS 197 block and key-schedule answers, the GCM
// specification's test cases, Wycheproof, every split point of the
// incremental opener, any IV length, each kernel against the portable one,
// and random messages against OpenSSL. (The generic sealer/opener properties
// run for AES-GCM in test_aead_stream.cpp.)
#include <sealwire/crypto/aead.hpp>
#include <sealwire/crypto/aes.hpp>
#include <sealwire/crypto/aes_gcm.hpp>
#include <sealwire/crypto/cpu.hpp>

#include "aead_helpers.hpp"
#include "detail/gcm_kernels.hpp"
#include "vectors.hpp"

#include <nlohmann/json.hpp>

#include <openssl/evp.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <string>
#include <vector>

using namespace sealwire;
using crypto::aead_algorithm;
using crypto::tag_position;
using test::bytes;
using test::hex;

namespace {

class AesGcm : public test::cpu_level_test {};
SEALWIRE_INSTANTIATE_CPU_LEVELS(AesGcm);

aead_algorithm by_key(const bytes& key) {
  return key.size() == 16 ? aead_algorithm::aes128_gcm : aead_algorithm::aes256_gcm;
}

const EVP_CIPHER* evp_gcm(const bytes& key) { return key.size() == 16 ? EVP_aes_128_gcm() : EVP_aes_256_gcm(); }

result<test::sealed_message> seal_any_iv(const bytes& key, const bytes& iv, const bytes& aad, const bytes& pt) {
  test::sealed_message s{bytes(pt.size()), bytes(16)};
  auto r = crypto::aes_gcm_seal_detached(s.ct, std::span<std::uint8_t, 16>(s.tag.data(), 16), pt, associated_data(aad), iv, key);
  if (!r) return r.error();
  return s;
}

result<bytes> open_any_iv(const bytes& key, const bytes& iv, const bytes& aad, const bytes& ct, const bytes& tag) {
  bytes pt(ct.size());
  auto r = crypto::aes_gcm_open_detached(pt, ct, tag, associated_data(aad), iv, key);
  if (!r) return r.error();
  return pt;
}

// check_any_iv checks a known answer through the any-IV functions and, for
// a 96-bit IV, through the AEAD interface too.
void check_any_iv(const bytes& key, const bytes& iv, const bytes& aad, const bytes& pt, const bytes& ct,
                  const bytes& tag, const std::string& where) {
  const auto s = seal_any_iv(key, iv, aad, pt);
  ASSERT_TRUE(s) << where;
  EXPECT_EQ(test::to_hex(s->ct), test::to_hex(ct)) << where;
  EXPECT_EQ(test::to_hex(s->tag), test::to_hex(tag)) << where;
  const auto o = open_any_iv(key, iv, aad, ct, tag);
  ASSERT_TRUE(o) << where;
  EXPECT_EQ(*o, pt) << where;
  if (iv.size() == 12) test::check_aead_case(by_key(key), key, iv, aad, pt, ct, tag, where);
}

// ---- white-box: one AES block and the kernels side by side ----

// aes_block computes E(K, x) with a CTR kernel: J0's prefix is x[0..12) and
// the counter x[12..16).
template <class Ctr>
bytes aes_block(Ctr ctr, const crypto::detail::gcm_key& k, const bytes& x) {
  crypto::detail::gcm_key kk = k;
  std::memcpy(kk.j0, x.data(), 12);
  const std::uint32_t c = (std::uint32_t{x[12]} << 24) | (std::uint32_t{x[13]} << 16) | (std::uint32_t{x[14]} << 8) | x[15];
  std::vector<std::uint8_t> zero(16 * 16), out(16 * 16);
  ctr(kk, c, out.data(), zero.data(), 16);  // 16 blocks: the wide kernels' unit
  return bytes(out.begin(), out.begin() + 16);
}

struct kernel_set {
  const char* name;
  std::uint32_t features;
  crypto::detail::aes_expand_fn expand;
  crypto::detail::gcm_ctr_fn ctr;
  crypto::detail::gcm_ghash_fn ghash;
  crypto::detail::gcm_crypt_fn encrypt, decrypt;
  std::size_t unit;  // blocks per call the kernel requires a multiple of
};

std::vector<kernel_set> available_kernels() {
  std::vector<kernel_set> v;
#if SEALWIRE_X86_KERNELS
  namespace d = crypto::detail;
  namespace c = crypto::cpu;
  const std::uint32_t aesni = c::aesni | c::pclmulqdq | c::sse41 | c::ssse3;
  const std::uint32_t vaes = aesni | c::vaes | c::vpclmulqdq | c::avx512f | c::avx512vl | c::avx512bw;
  if ((c::detected() & aesni) == aesni)
    v.push_back({"aesni", aesni, &d::aes_expand_aesni, &d::gcm_ctr_aesni, &d::gcm_ghash_clmul, &d::gcm_encrypt_aesni,
                 &d::gcm_decrypt_aesni, 1});
  if ((c::detected() & vaes) == vaes)
    v.push_back({"vaes", vaes, &d::aes_expand_aesni, &d::gcm_ctr_x16_vaes, &d::gcm_ghash_x16_vaes,
                 &d::gcm_encrypt_x16_vaes, &d::gcm_decrypt_x16_vaes, 16});
#endif
  return v;
}

}  // namespace

// FIPS 197 appendix A (key expansion: the last round key) and appendices B
// and C (one block), on the portable code and on each kernel this CPU has.
TEST(AesBlock, Fips197) {
  struct kat {
    const char *key, *last_round_key, *pt, *ct;
  };
  const kat kats[] = {
      {"2b7e151628aed2a6abf7158809cf4f3c", "d014f9a8c9ee2589e13f0cc8b6630ca6", "3243f6a8885a308d313198a2e0370734",
       "3925841d02dc09fbdc118597196a0b32"},
      {"603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4", "fe4890d1e6188d0b046df344706c631e",
       nullptr, nullptr},
      {"000102030405060708090a0b0c0d0e0f", nullptr, "00112233445566778899aabbccddeeff",
       "69c4e0d86a7b0430d8cdb78070b4c55a"},
      {"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", nullptr,
       "00112233445566778899aabbccddeeff", "8ea2b7ca516745bfeafc49904b496089"},
  };
  std::vector<kernel_set> sets = available_kernels();
  sets.insert(sets.begin(), kernel_set{"portable", 0, &crypto::detail::aes_expand_portable,
                                       &crypto::detail::gcm_ctr_portable, &crypto::detail::gcm_ghash_portable,
                                       nullptr, nullptr, 1});
  int checked = 0;
  for (const auto& ks : sets) {
    for (const auto& t : kats) {
      const bytes key = hex(t.key);
      crypto::detail::gcm_key k{};
      ks.expand(k, key.data(), key.size());
      EXPECT_EQ(k.rounds, key.size() == 16 ? 10u : 14u);
      if (t.last_round_key != nullptr) {
        EXPECT_EQ(test::to_hex(std::span(k.rk + 16 * k.rounds, 16)), t.last_round_key) << ks.name;
      }
      if (t.pt != nullptr) {
        EXPECT_EQ(test::to_hex(aes_block(ks.ctr, k, hex(t.pt))), t.ct) << ks.name << " " << t.key;
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, 4 * static_cast<int>(sets.size()));
}

// Each kernel against the portable one: key schedules, CTR across the 2^32
// counter wrap, GHASH, and the stitched encrypt/decrypt, at several lengths.
TEST(AesGcmKernels, MatchPortable) {
  const auto sets = available_kernels();
  // Which kernels are compared is recorded and printed; with none the test is
  // skipped here, before any comparison.
  test::comparison_report report;
  for (const char* name : {"aesni", "vaes"}) {
    const bool found = std::any_of(sets.begin(), sets.end(), [&](const kernel_set& k) { return std::string(k.name) == name; });
    if (found) {
      report.compared(name);
    } else {
      report.not_runnable(name);
    }
  }
  report.report("AES-GCM kernels");
  if (sets.empty()) GTEST_SKIP() << "no AES-GCM kernel of this build runs on this CPU";
  test::seeded_random rng(0x6c3);
  for (const auto& ks : sets) {
    for (int trial = 0; trial < 40; ++trial) {
      const bytes key = rng.fill(trial % 2 ? 16 : 32);
      crypto::detail::gcm_key ref{}, k{};
      crypto::detail::aes_expand_portable(ref, key.data(), key.size());
      ks.expand(k, key.data(), key.size());
      ASSERT_EQ(test::to_hex(std::span(k.rk, 16 * (ref.rounds + 1))),
                test::to_hex(std::span(ref.rk, 16 * (ref.rounds + 1))))
          << ks.name;
      const bytes j0 = rng.fill(16), h = rng.fill(16), y = rng.fill(16);
      std::memcpy(ref.j0, j0.data(), 16);
      std::memcpy(ref.h, h.data(), 16);
      std::memcpy(ref.y, y.data(), 16);
      k = ref;
      crypto::detail::gcm_powers_clmul(k);
      const std::size_t blocks = ks.unit * (1 + rng.uniform(trial < 20 ? 3 : 40));
      // Counters near 2^32 - 1 wrap to 0 inside the run (inc32).
      const std::uint32_t ctr =
          trial % 3 == 0 ? 0xffffffffu - static_cast<std::uint32_t>(rng.uniform(blocks)) : static_cast<std::uint32_t>(rng.next());
      const bytes in = rng.fill(16 * blocks);
      bytes want(in.size()), got(in.size());
      crypto::detail::gcm_ctr_portable(ref, ctr, want.data(), in.data(), blocks);
      ks.ctr(k, ctr, got.data(), in.data(), blocks);
      ASSERT_EQ(got, want) << ks.name << " ctr " << ctr << " blocks " << blocks;

      crypto::detail::gcm_key r2 = ref, k2 = k;
      crypto::detail::gcm_ghash_portable(r2, in.data(), blocks);
      ks.ghash(k2, in.data(), blocks);
      ASSERT_EQ(test::to_hex(k2.y), test::to_hex(r2.y)) << ks.name << " ghash blocks " << blocks;

      // encrypt = CTR then GHASH of the output; decrypt = GHASH of the input then CTR; in place too.
      r2 = ref;
      k2 = k;
      crypto::detail::gcm_ctr_portable(r2, ctr, want.data(), in.data(), blocks);
      crypto::detail::gcm_ghash_portable(r2, want.data(), blocks);
      bytes buf = in;
      ks.encrypt(k2, ctr, buf.data(), buf.data(), blocks);
      ASSERT_EQ(buf, want) << ks.name;
      ASSERT_EQ(test::to_hex(k2.y), test::to_hex(r2.y)) << ks.name << " encrypt blocks " << blocks;
      r2 = ref;
      k2 = k;
      crypto::detail::gcm_ghash_portable(r2, in.data(), blocks);
      crypto::detail::gcm_ctr_portable(r2, ctr, want.data(), in.data(), blocks);
      ks.decrypt(k2, ctr, got.data(), in.data(), blocks);
      ASSERT_EQ(got, want) << ks.name;
      ASSERT_EQ(test::to_hex(k2.y), test::to_hex(r2.y)) << ks.name << " decrypt blocks " << blocks;
    }
  }
}

// ---- the GCM specification's test cases (McGrew and Viega, "The Galois/
// Counter Mode of Operation", appendix B: cases 1-6 and 13-18) ----

TEST_P(AesGcm, SpecificationTestCases) {
  const bytes k3 = hex("feffe9928665731c6d6a8f9467308308");
  const bytes k15 = test::concat({k3, k3});
  const bytes p = hex(
      "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba"
      "637b391aafd255");
  const bytes p60(p.begin(), p.begin() + 60);
  const bytes a = hex("feedfacedeadbeeffeedfacedeadbeefabaddad2");
  const bytes iv96 = hex("cafebabefacedbaddecaf888"), iv64 = hex("cafebabefacedbad");
  const bytes iv480 = hex(
      "9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2a318a728c3c0c95156809539fcf0e2429a6b525416aedbf5a0de6a57a6"
      "37b39b");
  struct tc {
    int n;
    bytes key, iv, pt, aad;
    const char *ct, *tag;
  };
  const tc cases[] = {
      {1, bytes(16, 0), bytes(12, 0), {}, {}, "", "58e2fccefa7e3061367f1d57a4e7455a"},
      {2, bytes(16, 0), bytes(12, 0), bytes(16, 0), {}, "0388dace60b6a392f328c2b971b2fe78",
       "ab6e47d42cec13bdf53a67b21257bddf"},
      {3, k3, iv96, p, {},
       "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac97"
       "3d58e091473f5985",
       "4d5c2af327cd64a62cf35abd2ba6fab4"},
      {4, k3, iv96, p60, a,
       "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac97"
       "3d58e091",
       "5bc94fbc3221a5db94fae95ae7121a47"},
      {5, k3, iv64, p60, a,
       "61353b4c2806934a777ff51fa22a4755699b2a714fcdc6f83766e5f97b6c742373806900e49f24b22b097544d4896b424989b5e1ebac0f07"
       "c23f4598",
       "3612d2e79e3b0785561be14aaca2fccb"},
      {6, k3, iv480, p60, a,
       "8ce24998625615b603a033aca13fb894be9112a5c3a211a8ba262a3cca7e2ca701e4a9a4fba43c90ccdcb281d48c7c6fd62875d2aca41703"
       "4c34aee5",
       "619cc5aefffe0bfa462af43c1699d050"},
      {13, bytes(32, 0), bytes(12, 0), {}, {}, "", "530f8afbc74536b9a963b4f1c4cb738b"},
      {14, bytes(32, 0), bytes(12, 0), bytes(16, 0), {}, "cea7403d4d606b6e074ec5d3baf39d18",
       "d0d1c8a799996bf0265b98b5d48ab919"},
      {15, k15, iv96, p, {},
       "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0a"
       "bcc9f662898015ad",
       "b094dac5d93471bdec1a502270e3cc6c"},
      {16, k15, iv96, p60, a,
       "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0a"
       "bcc9f662",
       "76fc6ece0f4e1768cddf8853bb2d551b"},
      {17, k15, iv64, p60, a,
       "c3762df1ca787d32ae47c13bf19844cbaf1ae14d0b976afac52ff7d79bba9de0feb582d33934a4f0954cc2363bc73f7862ac430e64abe499"
       "f47c9b1f",
       "3a337dbf46a792c45e454913fe2ea8f2"},
      {18, k15, iv480, p60, a,
       "5a8def2f0c9e53f1f75d7853659e2a20eeb2b22aafde6419a058ab4f6f746bf40fc0c3b780f244452da3ebf1c5d82cdea2418997200ef82e"
       "44ae7e3f",
       "a44a8266ee1c8eb0c8b5d4cf5ae9f19a"},
  };
  for (const auto& c : cases) {
    check_any_iv(c.key, c.iv, c.aad, c.pt, hex(c.ct), hex(c.tag), "GCM test case " + std::to_string(c.n));
  }
}

TEST(AesGcmParameters, ErrorsAndProperties) {
  const auto& p128 = crypto::properties(aead_algorithm::aes128_gcm);
  const auto& p256 = crypto::properties(aead_algorithm::aes256_gcm);
  EXPECT_EQ(p128.name, "AES-128-GCM");
  EXPECT_EQ(p128.key_size, 16u);
  EXPECT_EQ(p256.key_size, 32u);
  EXPECT_EQ(p128.nonce_size, 12u);
  EXPECT_EQ(p128.tag_size, 16u);
  EXPECT_EQ(p128.max_message_size, (1ULL << 36) - 32);  // 2^39 - 256 bits
  EXPECT_TRUE(p256.supports_aad);
  EXPECT_FALSE(p256.tag_first);
  static_assert(crypto::aes128_gcm::key_size == 16 && crypto::aes256_gcm::key_size == 32);
  static_assert(crypto::aes128_gcm::nonce_size == 12 && crypto::aes256_gcm::nonce_size == 12);

  const bytes pt(10, 3), nonce(12, 2);
  bytes out(26, 0xee);
  EXPECT_EQ(crypto::aead_seal(aead_algorithm::aes128_gcm, out, pt, {}, nonce, bytes(32, 0)).error(),
            crypto_errc::invalid_key);
  EXPECT_EQ(crypto::aead_seal(aead_algorithm::aes256_gcm, out, pt, {}, nonce, bytes(24, 0)).error(),
            crypto_errc::invalid_key);
  EXPECT_EQ(crypto::aead_seal(aead_algorithm::aes128_gcm, out, pt, {}, bytes(16, 0), bytes(16, 0)).error(),
            crypto_errc::invalid_nonce);
  EXPECT_EQ(out, bytes(26, 0xee));
  std::uint8_t tag[16];
  bytes ct(10);
  EXPECT_EQ(crypto::aes_gcm_seal_detached(ct, tag, pt, {}, {}, bytes(16, 0)).error(), crypto_errc::invalid_nonce);
  EXPECT_EQ(crypto::aes_gcm_seal_detached(ct, tag, pt, {}, nonce, bytes(24, 0)).error(), crypto_errc::invalid_key);
  EXPECT_EQ(crypto::aes_gcm_seal_detached(std::span(ct).first(9), tag, pt, {}, nonce, bytes(16, 0)).error(),
            crypto_errc::buffer_too_small);
  EXPECT_EQ(crypto::aes_gcm_open_detached(ct, pt, bytes(15, 0), {}, nonce, bytes(16, 0)).error(),
            crypto_errc::authentication_failed);
  EXPECT_EQ(crypto::aead_open(aead_algorithm::aes256_gcm, out, bytes(15, 0), {}, nonce, bytes(32, 0)).error(),
            crypto_errc::authentication_failed);
}

// ---- Wycheproof ----

// Every AES-128 and AES-256 case: valid ones seal and open to the listed
// values, invalid ones (modified tags, empty IVs, ...) are rejected. AES-192
// is not offered; its cases are counted as skipped.
TEST_P(AesGcm, Wycheproof) {
  const char* file = "wycheproof/testvectors_v1/aes_gcm_test.json";
  SEALWIRE_REQUIRE_VECTOR(path, file);
  const auto j = test::load_json(path);
  int valid = 0, invalid = 0, skipped = 0, via_aead = 0;
  test::seeded_random rng(11);
  for (const auto& g : j["testGroups"]) {
    ASSERT_EQ(g["tagSize"].get<int>(), 128);
    for (const auto& t : g["tests"]) {
      auto h = [&](const char* k) { return hex(t[k].get<std::string>()); };
      const bytes key = h("key"), iv = h("iv"), aad = h("aad"), msg = h("msg"), ct = h("ct"), tag = h("tag");
      const std::string result = t["result"];
      const std::string where = std::string(file) + " tcId " + std::to_string(t["tcId"].get<int>());
      if (key.size() == 24) {
        // AES-192 is refused as a key size, not misread.
        EXPECT_EQ(open_any_iv(key, iv, aad, ct, tag).error(), crypto_errc::invalid_key) << where;
        ++skipped;
        continue;
      }
      const auto opened = open_any_iv(key, iv, aad, ct, tag);
      if (result == "valid") {
        ASSERT_TRUE(opened) << where;
        EXPECT_EQ(*opened, msg) << where;
        const auto s = seal_any_iv(key, iv, aad, msg);
        ASSERT_TRUE(s) << where;
        EXPECT_EQ(s->ct, ct) << where;
        EXPECT_EQ(s->tag, tag) << where;
        ++valid;
      } else {
        ASSERT_EQ(result, "invalid") << where;
        EXPECT_FALSE(opened) << where << " " << t["comment"];
        ++invalid;
      }
      if (iv.size() == 12) {
        // The AEAD interface: one-shot, and the trailing-tag opener in pieces.
        const aead_algorithm alg = by_key(key);
        EXPECT_EQ(static_cast<bool>(test::open_detached(alg, key, iv, aad, ct, tag)), result == "valid") << where;
        bytes pt;
        EXPECT_EQ(test::open_trailing_in_pieces(alg, key, iv, aad, test::concat({ct, tag}), pt, rng), result == "valid")
            << where;
        if (result == "valid") {
          EXPECT_EQ(pt, msg) << where;
        }
        ++via_aead;
      }
    }
  }
  EXPECT_EQ(valid + invalid + skipped, j["numberOfTests"].get<int>());
  EXPECT_EQ(valid, 155);
  EXPECT_EQ(invalid, 58);
  EXPECT_EQ(skipped, 103);
  EXPECT_EQ(via_aead, 133);
  std::cout << "[ wycheproof ] aes_gcm_test.json: " << valid << " valid and " << invalid
            << " invalid cases checked, " << skipped << " AES-192 cases skipped\n";
  RecordProperty("skipped_aes192", skipped);
}

// ---- the incremental opener at every split point ----

TEST_P(AesGcm, EverySplitPointBothPositions) {
  test::seeded_random rng(77);
  for (aead_algorithm alg : {aead_algorithm::aes128_gcm, aead_algorithm::aes256_gcm}) {
    for (std::size_t len : {0u, 1u, 15u, 16u, 17u, 127u, 128u, 255u, 256u, 257u, 300u, 529u}) {
      const bytes key = rng.fill(crypto::properties(alg).key_size), nonce = rng.fill(12);
      const bytes aad = rng.fill(rng.uniform(40)), pt = rng.fill(len);
      const auto want = test::seal_detached(alg, key, nonce, aad, pt);
      ASSERT_TRUE(want);
      const bytes stream = test::concat({want->ct, want->tag});
      // Two pieces, split at every point, both positions and the sealer.
      for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
        crypto::aead_opener o;
        ASSERT_TRUE(o.init(alg, key, nonce, tag_position::trailing));
        o.aad(aad);
        bytes out(len + 16);
        std::size_t got = 0;
        for (const auto piece : {std::span(stream).first(cut), std::span(stream).subspan(cut)}) {
          const auto w = o.update(std::span(out).subspan(got), piece);
          ASSERT_TRUE(w);
          got += *w;
        }
        ASSERT_EQ(got, len);
        ASSERT_TRUE(o.finish()) << "len " << len << " cut " << cut;
        ASSERT_EQ(bytes(out.begin(), out.begin() + static_cast<long>(len)), pt);
        if (cut > len) continue;
        crypto::aead_opener d;
        ASSERT_TRUE(d.init(alg, key, nonce, tag_position::detached));
        d.aad(aad);
        bytes plain(len);
        ASSERT_TRUE(d.update(std::span(plain).first(cut), std::span(want->ct).first(cut)));
        ASSERT_TRUE(d.update(std::span(plain).subspan(cut), std::span(want->ct).subspan(cut)));
        ASSERT_TRUE(d.finish(want->tag));
        ASSERT_EQ(plain, pt);
        crypto::aead_sealer s;
        ASSERT_TRUE(s.init(alg, key, nonce));
        s.aad(aad);
        bytes ct(len), tag(16);
        ASSERT_TRUE(s.update(std::span(ct).first(cut), std::span(pt).first(cut)));
        ASSERT_TRUE(s.update(std::span(ct).subspan(cut), std::span(pt).subspan(cut)));
        s.finish(std::span<std::uint8_t, 16>(tag.data(), 16));
        ASSERT_EQ(ct, want->ct);
        ASSERT_EQ(tag, want->tag);
      }
      // Random splits, with a flipped bit now and then.
      for (int trial = 0; trial < 20; ++trial) {
        bytes s = stream;
        const bool tamper = trial % 4 == 3;
        if (tamper) s[rng.uniform(s.size())] ^= static_cast<std::uint8_t>(1u << rng.uniform(8));
        bytes opened;
        ASSERT_EQ(test::open_trailing_in_pieces(alg, key, nonce, aad, s, opened, rng), !tamper) << len;
        if (!tamper) {
          ASSERT_EQ(opened, pt);
        }
      }
    }
  }
}

// ---- many small pieces ----

// gcm_pieces_schedule gives the piece sizes for a text of n bytes: one fixed
// size (0: random sizes of 1 to 300 bytes).
std::vector<std::size_t> gcm_pieces_schedule(std::size_t n, std::size_t fixed, test::seeded_random& rng) {
  std::vector<std::size_t> sizes;
  for (std::size_t at = 0; at < n;) {
    const std::size_t p = std::min<std::size_t>(fixed != 0 ? fixed : 1 + rng.uniform(300), n - at);
    sizes.push_back(p);
    at += p;
  }
  return sizes;
}

// gcm_open_pieces opens `in` (the ciphertext, or ciphertext || tag when
// trailing) in the given pieces, apart or in place, and returns finish's
// verdict with the released text in pt.
bool gcm_open_pieces(aead_algorithm alg, const bytes& key, const bytes& nonce, const bytes& aad, const bytes& in,
                     const bytes& tag, tag_position position, bool in_place, const std::vector<std::size_t>& sizes,
                     bytes& pt) {
  crypto::aead_opener o;
  EXPECT_TRUE(o.init(alg, key, nonce, position));
  o.aad(aad);
  bytes buf = in;  // in place: each piece's output lands over its input
  pt.clear();
  std::size_t at = 0;
  for (const std::size_t p : sizes) {
    const std::size_t release = o.output_size(p);
    bytes apart(release);
    const auto piece = std::span(buf).subspan(at, p);
    const auto w = in_place ? o.update(piece, piece) : o.update(apart, std::span(in).subspan(at, p));
    EXPECT_TRUE(w);
    if (!w) return false;
    EXPECT_EQ(*w, release);
    const std::uint8_t* got = in_place ? buf.data() + at : apart.data();
    pt.insert(pt.end(), got, got + release);
    at += p;
  }
  return static_cast<bool>(position == tag_position::trailing ? o.finish() : o.finish(tag));
}

// Texts of several 16-block units opened in many pieces of one size or of
// random sizes: pieces inside the keystream generated ahead, pieces that
// complete a unit (with and without a remainder), pieces ending exactly at
// a unit's end, the trailing opener's held block and piece read as one
// (pieces of 64 bytes and more) or apart; in place and apart, both tag
// positions, every CPU level, against OpenSSL's sealing; tampered copies
// must fail.
TEST_P(AesGcm, ManySmallPiecesAcrossUnits) {
  test::seeded_random rng(0x9c3);
  for (aead_algorithm alg : {aead_algorithm::aes128_gcm, aead_algorithm::aes256_gcm}) {
    for (const std::size_t fixed : {1u, 15u, 16u, 17u, 48u, 63u, 64u, 65u, 79u, 80u, 81u, 100u, 240u, 255u, 256u,
                                    257u, 0u, 0u}) {
      const bytes key = rng.fill(crypto::properties(alg).key_size), nonce = rng.fill(12);
      const bytes aad = rng.fill(rng.uniform(30));
      const bytes pt = rng.fill(1500 + rng.uniform(1300));
      bytes tag(16);
      bool ok = false;
      const bytes ct = test::evp_aead(evp_gcm(key), true, key, nonce, aad, pt, tag, rng, &ok);
      ASSERT_TRUE(ok);
      const bytes stream = test::concat({ct, tag});
      for (const bool in_place : {false, true}) {
        bytes opened;
        ASSERT_TRUE(gcm_open_pieces(alg, key, nonce, aad, ct, tag, tag_position::detached, in_place,
                                    gcm_pieces_schedule(ct.size(), fixed, rng), opened))
            << "detached, pieces of " << fixed << (in_place ? ", in place" : ", apart");
        ASSERT_EQ(opened, pt) << fixed;
        ASSERT_TRUE(gcm_open_pieces(alg, key, nonce, aad, stream, {}, tag_position::trailing, in_place,
                                    gcm_pieces_schedule(stream.size(), fixed, rng), opened))
            << "trailing, pieces of " << fixed << (in_place ? ", in place" : ", apart");
        ASSERT_EQ(opened, pt) << fixed;
        // One flipped bit anywhere in the stream fails the open.
        bytes bad = stream;
        bad[rng.uniform(bad.size())] ^= static_cast<std::uint8_t>(1u << rng.uniform(8));
        EXPECT_FALSE(gcm_open_pieces(alg, key, nonce, aad, bad, {}, tag_position::trailing, in_place,
                                     gcm_pieces_schedule(bad.size(), fixed, rng), opened))
            << "tampered, pieces of " << fixed;
        const bytes bad_ct(bad.begin(), bad.begin() + static_cast<long>(ct.size()));
        const bytes bad_tag(bad.begin() + static_cast<long>(ct.size()), bad.end());
        EXPECT_FALSE(gcm_open_pieces(alg, key, nonce, aad, bad_ct, bad_tag, tag_position::detached, in_place,
                                     gcm_pieces_schedule(bad_ct.size(), fixed, rng), opened))
            << "tampered detached, pieces of " << fixed;
      }
    }
  }
}

// An opener or sealer moved to another CPU level mid-message keeps working.
TEST(AesGcmLevels, SwitchingLevelsMidMessage) {
  const auto levels = test::cpu_levels();
  test::seeded_random rng(5);
  const bytes key = rng.fill(32), nonce = rng.fill(12), aad = rng.fill(21), pt = rng.fill(3000);
  const auto want = test::seal_detached(aead_algorithm::aes256_gcm, key, nonce, aad, pt);
  ASSERT_TRUE(want);
  crypto::aead_sealer s;
  crypto::aead_opener o;
  {
    test::scoped_cpu_level l(levels.front());
    ASSERT_TRUE(s.init(aead_algorithm::aes256_gcm, key, nonce));
    ASSERT_TRUE(o.init(aead_algorithm::aes256_gcm, key, nonce));
    s.aad(aad);
    o.aad(aad);
  }
  bytes ct(pt.size()), back(pt.size());
  std::size_t at = 0;
  for (std::size_t i = 0; at < pt.size(); ++i) {
    test::scoped_cpu_level l(levels[i % levels.size()]);
    const std::size_t p = std::min<std::size_t>(1 + rng.uniform(700), pt.size() - at);
    ASSERT_TRUE(s.update(std::span(ct).subspan(at, p), std::span(pt).subspan(at, p)));
    ASSERT_TRUE(o.update(std::span(back).subspan(at, p), std::span(want->ct).subspan(at, p)));
    at += p;
  }
  bytes tag(16);
  s.finish(std::span<std::uint8_t, 16>(tag.data(), 16));
  EXPECT_EQ(ct, want->ct);
  EXPECT_EQ(tag, want->tag);
  EXPECT_TRUE(o.finish(want->tag));
  EXPECT_EQ(back, pt);
  test::report_levels("AES-GCM switching levels mid-message");
}

// ---- against OpenSSL ----

TEST_P(AesGcm, AgainstOpenSSL) {
  test::seeded_random rng(0xae5);
  const int n = test::differential_cases(300);
  for (int i = 0; i < n; ++i) {
    const bytes key = rng.fill(i % 2 ? 16 : 32), nonce = rng.fill(12);
    const aead_algorithm alg = by_key(key);
    const bytes aad = rng.fill(rng.uniform(3) ? rng.uniform(100) : 0);
    const bytes pt = rng.fill(rng.uniform(2) ? rng.uniform(300) : rng.uniform(5001));
    bytes our_tag, evp_tag(16);
    bool ok = false;
    const bytes ours = test::seal_in_pieces(alg, key, nonce, aad, pt, our_tag, rng);
    const bytes theirs = test::evp_aead(evp_gcm(key), true, key, nonce, aad, pt, evp_tag, rng, &ok);
    ASSERT_TRUE(ok);
    ASSERT_EQ(ours, theirs) << "case " << i;
    ASSERT_EQ(our_tag, evp_tag) << "case " << i;
    // OpenSSL opens ours; we open ours in pieces (sometimes tampered) and one-shot.
    const bytes back = test::evp_aead(evp_gcm(key), false, key, nonce, aad, ours, our_tag, rng, &ok);
    ASSERT_TRUE(ok);
    ASSERT_EQ(back, pt);
    bytes stream = test::concat({ours, our_tag});
    const bool tamper = rng.uniform(4) == 0;
    if (tamper) stream[rng.uniform(stream.size())] ^= static_cast<std::uint8_t>(1u << rng.uniform(8));
    bytes opened;
    ASSERT_EQ(test::open_trailing_in_pieces(alg, key, nonce, aad, stream, opened, rng), !tamper) << i;
    if (!tamper) {
      ASSERT_EQ(opened, pt);
    }
    bytes one_shot(pt.size() + 16);
    const auto r = crypto::aead_open(alg, one_shot, stream, associated_data(aad), nonce, key);
    ASSERT_EQ(static_cast<bool>(r), !tamper) << i;
    if (tamper) {
      ASSERT_EQ(one_shot, bytes(pt.size() + 16, 0)) << "a failed open releases nothing";
    }
  }
}

TEST_P(AesGcm, AnyIvLengthAgainstOpenSSL) {
  test::seeded_random rng(0x1f);
  const int n = test::differential_cases(200);
  for (int i = 0; i < n; ++i) {
    const bytes key = rng.fill(i % 2 ? 16 : 32);
    // OpenSSL takes IVs of up to 128 bytes (Wycheproof has a longer one).
    const bytes iv = rng.fill(1 + rng.uniform(i % 5 == 0 ? 128 : 40));
    const bytes aad = rng.fill(rng.uniform(50)), pt = rng.fill(rng.uniform(2000));
    bytes evp_tag(16);
    bool ok = false;
    const bytes theirs = test::evp_aead(evp_gcm(key), true, key, iv, aad, pt, evp_tag, rng, &ok);
    ASSERT_TRUE(ok);
    const auto ours = seal_any_iv(key, iv, aad, pt);
    ASSERT_TRUE(ours);
    ASSERT_EQ(ours->ct, theirs) << "case " << i << " iv " << iv.size();
    ASSERT_EQ(ours->tag, evp_tag) << "case " << i;
    const auto back = open_any_iv(key, iv, aad, theirs, evp_tag);
    ASSERT_TRUE(back);
    ASSERT_EQ(*back, pt);
    bytes bad = evp_tag;
    bad[rng.uniform(16)] ^= 0x80;
    ASSERT_FALSE(open_any_iv(key, iv, aad, theirs, bad));
  }
}

TEST_P(AesGcm, ProviderNamesTheKernel) {
  const std::string_view p = crypto::aes_gcm_provider();
  crypto::aead_sealer s;
  ASSERT_TRUE(s.init(aead_algorithm::aes128_gcm, bytes(16, 1), bytes(12, 2)));
  EXPECT_EQ(s.cipher_provider(), p);
  namespace c = crypto::cpu;
  const bool aesni = c::has(c::aesni | c::pclmulqdq | c::sse41 | c::ssse3);
  const bool vaes = aesni && c::has(c::vaes | c::vpclmulqdq | c::avx512f | c::avx512vl | c::avx512bw);
  EXPECT_EQ(p, vaes ? "vaes+vpclmul" : aesni ? "aesni+pclmul" : "portable");
  if (GetParam() == c::level::portable) {
    EXPECT_EQ(p, "portable");
  }
  if (GetParam() == c::level::avx2) {
    EXPECT_NE(p, "vaes+vpclmul");
  }
}

// The public single-block cipher (aes.hpp): FIPS 197 appendix C, random
// blocks against OpenSSL's AES-ECB, in-place use, and the key checks, at
// every CPU level.
TEST_P(AesGcm, BlockCipherApi) {
  const bytes pt = hex("00112233445566778899aabbccddeeff");
  const struct {
    const char *key, *ct;
  } kats[] = {{"000102030405060708090a0b0c0d0e0f", "69c4e0d86a7b0430d8cdb78070b4c55a"},
              {"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
               "8ea2b7ca516745bfeafc49904b496089"}};
  for (const auto& t : kats) {
    crypto::aes_block_cipher aes;
    ASSERT_TRUE(aes.init(hex(t.key)));
    std::array<std::uint8_t, 16> out{}, in{};
    std::copy(pt.begin(), pt.end(), in.begin());
    aes.encrypt_block(out, in);
    EXPECT_EQ(test::to_hex(out), t.ct);
    aes.encrypt_block(in, in);  // in place
    EXPECT_EQ(test::to_hex(in), t.ct);
    crypto::aes_block_cipher moved(std::move(aes));
    EXPECT_FALSE(aes.keyed());
    moved.encrypt_block(out, std::span<const std::uint8_t, 16>(pt.data(), 16));
    EXPECT_EQ(test::to_hex(out), t.ct);
  }
  crypto::aes_block_cipher bad;
  EXPECT_EQ(bad.init(bytes(24, 1)).error(), crypto_errc::invalid_key);
  EXPECT_FALSE(bad.keyed());

  test::seeded_random rng(0xecb);
  for (int i = 0; i < 64; ++i) {
    const bytes key = rng.fill(i % 2 ? 16 : 32), block = rng.fill(16);
    crypto::aes_block_cipher aes;
    ASSERT_TRUE(aes.init(key));
    std::array<std::uint8_t, 16> ours{};
    aes.encrypt_block(ours, std::span<const std::uint8_t, 16>(block.data(), 16));
    bytes theirs(32);
    EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
    int len = 0;
    ASSERT_EQ(EVP_EncryptInit_ex(ctx, key.size() == 16 ? EVP_aes_128_ecb() : EVP_aes_256_ecb(), nullptr, key.data(),
                                 nullptr), 1);
    EVP_CIPHER_CTX_set_padding(ctx, 0);
    ASSERT_EQ(EVP_EncryptUpdate(ctx, theirs.data(), &len, block.data(), 16), 1);
    EVP_CIPHER_CTX_free(ctx);
    ASSERT_EQ(len, 16);
    theirs.resize(16);
    ASSERT_EQ(bytes(ours.begin(), ours.end()), theirs) << i;
  }
}
