// SPDX-License-Identifier: Apache-2.0
// Randomised differential tests of the ciphers and AEADs against OpenSSL and
// libsodium: random lengths (0-10,000), keys, nonces, AAD and splits. The
// seed is fixed, so a failure reproduces; SEALWIRE_DIFFERENTIAL_CASES raises
// the case count for long runs.
#include <sealwire/crypto/aead.hpp>
#include <sealwire/crypto/chacha.hpp>

#include "aead_helpers.hpp"
#include "oracles.hpp"
#include "stream_helpers.hpp"

#include <openssl/evp.h>
#include <sodium.h>

#include <cstdlib>

using namespace sealwire;
using crypto::aead_algorithm;
using test::bytes;

namespace {

class Differential : public test::cpu_level_test {};
SEALWIRE_INSTANTIATE_CPU_LEVELS(Differential);

std::size_t random_length(test::seeded_random& rng) {
  switch (rng.uniform(4)) {
    case 0: return rng.uniform(64);
    case 1: return rng.uniform(1100);
    default: return rng.uniform(10001);
  }
}

bytes evp_chacha20_poly1305(bool encrypt, const bytes& key, const bytes& nonce, const bytes& aad, const bytes& in,
                            bytes& tag, test::seeded_random& rng, bool* ok) {
  return test::evp_aead(EVP_chacha20_poly1305(), encrypt, key, nonce, aad, in, tag, rng, ok);
}

using test::open_trailing_in_pieces;
using test::seal_in_pieces;

}  // namespace

TEST_P(Differential, ChaCha20Poly1305AgainstOpenSSL) {
  test::seeded_random rng(0xc0ffee);
  const int n = test::differential_cases(400);
  for (int i = 0; i < n; ++i) {
    const bytes key = rng.fill(32), nonce = rng.fill(12), aad = rng.fill(rng.uniform(3) ? rng.uniform(100) : 0);
    const bytes pt = rng.fill(random_length(rng));
    bytes our_tag, evp_tag(16);
    bool ok = false;
    const bytes ours = seal_in_pieces(aead_algorithm::chacha20_poly1305, key, nonce, aad, pt, our_tag, rng);
    const bytes theirs = evp_chacha20_poly1305(true, key, nonce, aad, pt, evp_tag, rng, &ok);
    ASSERT_TRUE(ok);
    ASSERT_EQ(ours, theirs) << "case " << i;
    ASSERT_EQ(our_tag, evp_tag) << "case " << i;
    // And the other way: OpenSSL decrypts ours; we decrypt, sometimes tampered.
    bytes back = evp_chacha20_poly1305(false, key, nonce, aad, ours, our_tag, rng, &ok);
    ASSERT_TRUE(ok);
    ASSERT_EQ(back, pt);
    bytes stream = ours;
    stream.insert(stream.end(), our_tag.begin(), our_tag.end());
    const bool tamper = rng.uniform(4) == 0;
    if (tamper) stream[rng.uniform(stream.size())] ^= static_cast<std::uint8_t>(1u << rng.uniform(8));
    bytes opened;
    ASSERT_EQ(open_trailing_in_pieces(aead_algorithm::chacha20_poly1305, key, nonce, aad, stream, opened, rng), !tamper) << i;
    if (!tamper) {
      ASSERT_EQ(opened, pt);
    }
  }
}

TEST_P(Differential, FamilyAgainstLibsodium) {
  test::seeded_random rng(0x50d1);
  const int n = test::differential_cases(400);
  for (int i = 0; i < n; ++i) {
    const auto alg = static_cast<aead_algorithm>(i % 4);
    const auto& props = crypto::properties(alg);
    const bytes key = rng.fill(32), nonce = rng.fill(props.nonce_size);
    const bytes aad = props.supports_aad ? rng.fill(rng.uniform(80)) : bytes{};
    const bytes pt = rng.fill(random_length(rng));
    bytes ref(pt.size() + 16);
    unsigned long long ref_len = 0;
    switch (alg) {
      case aead_algorithm::chacha20_poly1305:
        crypto_aead_chacha20poly1305_ietf_encrypt(ref.data(), &ref_len, pt.data(), pt.size(), aad.data(), aad.size(),
                                                  nullptr, nonce.data(), key.data());
        break;
      case aead_algorithm::xchacha20_poly1305:
        crypto_aead_xchacha20poly1305_ietf_encrypt(ref.data(), &ref_len, pt.data(), pt.size(), aad.data(), aad.size(),
                                                   nullptr, nonce.data(), key.data());
        break;
      case aead_algorithm::chacha20_poly1305_original:
        crypto_aead_chacha20poly1305_encrypt(ref.data(), &ref_len, pt.data(), pt.size(), aad.data(), aad.size(), nullptr,
                                             nonce.data(), key.data());
        break;
      case aead_algorithm::xsalsa20_poly1305:
        crypto_secretbox_easy(ref.data(), pt.data(), pt.size(), nonce.data(), key.data());
        ref_len = pt.size() + 16;
        break;
      case aead_algorithm::aes128_gcm:
      case aead_algorithm::aes256_gcm:
        break;  // not reached (i % 4); AES-GCM is tested in test_aes_gcm.cpp
    }
    ASSERT_EQ(ref_len, pt.size() + 16);
    // ours, incremental
    bytes tag;
    const bytes ct = seal_in_pieces(alg, key, nonce, aad, pt, tag, rng);
    bytes attached = props.tag_first ? tag : ct;
    attached.insert(attached.end(), props.tag_first ? ct.begin() : tag.begin(), props.tag_first ? ct.end() : tag.end());
    ASSERT_EQ(test::to_hex(attached), test::to_hex(ref)) << props.name << " case " << i;
    // ours, one-shot open of libsodium's output
    bytes back(pt.size());
    ASSERT_TRUE(crypto::aead_open(alg, back, ref, associated_data(aad), nonce, key)) << props.name << " case " << i;
    ASSERT_EQ(back, pt);
  }
}

TEST_P(Differential, StreamCiphersAgainstOpenSSLAndLibsodium) {
  test::seeded_random rng(0x5eed);
  const int n = test::differential_cases(300);
  for (int i = 0; i < n; ++i) {
    const bytes key = rng.fill(32), pt = rng.fill(random_length(rng));
    const auto counter = static_cast<std::uint32_t>(rng.uniform(3) == 0 ? 0xffffffffu - 200 : rng.uniform(1000));
    const std::size_t max_len = (0x100000000ULL - counter) * 64;
    if (pt.size() > max_len) continue;
    const bytes nonce = rng.fill(12);
    const auto ref = test::oracle::evp_chacha20(key, nonce, counter, pt);
    ASSERT_TRUE(ref);
    const auto ours = test::run_stream<crypto::chacha>(key, nonce, 20, std::uint64_t{counter} * 64, pt);
    ASSERT_TRUE(ours);
    ASSERT_EQ(*ours, *ref) << "chacha20 ietf case " << i;

    const bytes xnonce = rng.fill(24);
    bytes xref(pt.size());
    if (!pt.empty()) crypto_stream_xchacha20_xor_ic(xref.data(), pt.data(), pt.size(), xnonce.data(), counter, key.data());
    const auto xours = test::run_stream<crypto::chacha>(key, xnonce, 20, std::uint64_t{counter} * 64, pt);
    ASSERT_TRUE(xours);
    ASSERT_EQ(*xours, xref) << "xchacha20 case " << i;
  }
}
