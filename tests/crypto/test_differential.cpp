// Randomised differential tests of the ciphers and AEADs against OpenSSL and
// libsodium: random lengths (0-10,000), keys, nonces, AAD and splits. The
// seed is fixed, so a failure reproduces; SEALWIRE_DIFFERENTIAL_CASES raises
// the case count for long runs.
#include <sealwire/crypto/aead.hpp>
#include <sealwire/crypto/chacha.hpp>

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

int case_count(int fallback) {
  if (const char* env = std::getenv("SEALWIRE_DIFFERENTIAL_CASES")) return std::atoi(env);
  return fallback;
}

std::size_t random_length(test::seeded_random& rng) {
  switch (rng.uniform(4)) {
    case 0: return rng.uniform(64);
    case 1: return rng.uniform(1100);
    default: return rng.uniform(10001);
  }
}

// Encrypt or decrypt with OpenSSL's EVP ChaCha20-Poly1305, feeding it in pieces.
bytes evp_chacha20_poly1305(bool encrypt, const bytes& key, const bytes& nonce, const bytes& aad, const bytes& in,
                            bytes& tag, test::seeded_random& rng, bool* ok) {
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  EXPECT_EQ(EVP_CipherInit_ex(ctx, EVP_chacha20_poly1305(), nullptr, nullptr, nullptr, encrypt ? 1 : 0), 1);
  EXPECT_EQ(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, 12, nullptr), 1);
  EXPECT_EQ(EVP_CipherInit_ex(ctx, nullptr, nullptr, key.data(), nonce.data(), encrypt ? 1 : 0), 1);
  int len = 0;
  if (!aad.empty()) {
    EXPECT_EQ(EVP_CipherUpdate(ctx, nullptr, &len, aad.data(), static_cast<int>(aad.size())), 1);
  }
  bytes out(in.size() + 16);
  std::size_t at = 0, written = 0;
  while (at < in.size()) {
    const std::size_t p = std::min<std::size_t>(1 + rng.uniform(3000), in.size() - at);
    EXPECT_EQ(EVP_CipherUpdate(ctx, out.data() + written, &len, in.data() + at, static_cast<int>(p)), 1);
    written += static_cast<std::size_t>(len);
    at += p;
  }
  if (!encrypt) {
    EXPECT_EQ(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, tag.data()), 1);
  }
  *ok = EVP_CipherFinal_ex(ctx, out.data() + written, &len) == 1;
  written += static_cast<std::size_t>(len);
  if (encrypt) {
    EXPECT_EQ(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag.data()), 1);
  }
  EVP_CIPHER_CTX_free(ctx);
  out.resize(written);
  return out;
}

// Ours, incremental, in random pieces; tag detached.
bytes our_seal(aead_algorithm alg, const bytes& key, const bytes& nonce, const bytes& aad, const bytes& pt, bytes& tag,
               test::seeded_random& rng) {
  crypto::aead_sealer s;
  EXPECT_TRUE(s.init(alg, key, nonce));
  s.aad(aad);
  bytes ct(pt.size());
  std::size_t at = 0;
  while (at < pt.size()) {
    const std::size_t p = std::min<std::size_t>(rng.uniform(2) ? 1 + rng.uniform(200) : 1 + rng.uniform(4000), pt.size() - at);
    EXPECT_TRUE(s.update(std::span(ct).subspan(at, p), std::span(pt).subspan(at, p)));
    at += p;
  }
  tag.resize(16);
  s.finish(std::span<std::uint8_t, 16>(tag.data(), 16));
  return ct;
}

bool our_open_trailing(aead_algorithm alg, const bytes& key, const bytes& nonce, const bytes& aad, const bytes& stream,
                       bytes& pt, test::seeded_random& rng) {
  crypto::aead_opener o;
  EXPECT_TRUE(o.init(alg, key, nonce, crypto::tag_position::trailing));
  o.aad(aad);
  pt.clear();
  std::size_t at = 0;
  while (at < stream.size()) {
    const std::size_t p = std::min<std::size_t>(1 + rng.uniform(rng.uniform(2) ? 100 : 3000), stream.size() - at);
    bytes chunk(o.output_size(p));
    EXPECT_TRUE(o.update(chunk, std::span(stream).subspan(at, p)));
    pt.insert(pt.end(), chunk.begin(), chunk.end());
    at += p;
  }
  return static_cast<bool>(o.finish());
}

}  // namespace

TEST_P(Differential, ChaCha20Poly1305AgainstOpenSSL) {
  test::seeded_random rng(0xc0ffee);
  const int n = case_count(400);
  for (int i = 0; i < n; ++i) {
    const bytes key = rng.fill(32), nonce = rng.fill(12), aad = rng.fill(rng.uniform(3) ? rng.uniform(100) : 0);
    const bytes pt = rng.fill(random_length(rng));
    bytes our_tag, evp_tag(16);
    bool ok = false;
    const bytes ours = our_seal(aead_algorithm::chacha20_poly1305, key, nonce, aad, pt, our_tag, rng);
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
    ASSERT_EQ(our_open_trailing(aead_algorithm::chacha20_poly1305, key, nonce, aad, stream, opened, rng), !tamper) << i;
    if (!tamper) {
      ASSERT_EQ(opened, pt);
    }
  }
}

TEST_P(Differential, FamilyAgainstLibsodium) {
  test::seeded_random rng(0x50d1);
  const int n = case_count(400);
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
    }
    ASSERT_EQ(ref_len, pt.size() + 16);
    // ours, incremental
    bytes tag;
    const bytes ct = our_seal(alg, key, nonce, aad, pt, tag, rng);
    bytes attached = props.tag_first ? tag : ct;
    attached.insert(attached.end(), props.tag_first ? ct.begin() : tag.begin(), props.tag_first ? ct.end() : tag.end());
    ASSERT_EQ(test::to_hex(attached), test::to_hex(ref)) << props.name << " case " << i;
    // ours, one-shot open of libsodium's output
    bytes back(pt.size());
    ASSERT_TRUE(crypto::aead_open(alg, back, ref, aad, nonce, key)) << props.name << " case " << i;
    ASSERT_EQ(back, pt);
  }
}

TEST_P(Differential, StreamCiphersAgainstOpenSSLAndLibsodium) {
  test::seeded_random rng(0x5eed);
  const int n = case_count(300);
  for (int i = 0; i < n; ++i) {
    const bytes key = rng.fill(32), pt = rng.fill(random_length(rng));
    const auto counter = static_cast<std::uint32_t>(rng.uniform(3) == 0 ? 0xffffffffu - 200 : rng.uniform(1000));
    const std::size_t max_len = (0x100000000ULL - counter) * 64;
    if (pt.size() > max_len) continue;
    // OpenSSL EVP_chacha20: 16-byte IV = 32-bit counter (LE) || 96-bit nonce.
    const bytes nonce = rng.fill(12);
    bytes iv(16);
    for (int b = 0; b < 4; ++b) iv[static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(counter >> (8 * b));
    std::copy(nonce.begin(), nonce.end(), iv.begin() + 4);
    EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
    bytes ref(pt.size());
    int len = 0;
    EVP_EncryptInit_ex(ctx, EVP_chacha20(), nullptr, key.data(), iv.data());
    if (!pt.empty()) EVP_EncryptUpdate(ctx, ref.data(), &len, pt.data(), static_cast<int>(pt.size()));
    EVP_CIPHER_CTX_free(ctx);
    const auto ours = test::run_stream<crypto::chacha>(key, nonce, 20, std::uint64_t{counter} * 64, pt);
    ASSERT_TRUE(ours);
    ASSERT_EQ(*ours, ref) << "chacha20 ietf case " << i;

    const bytes xnonce = rng.fill(24);
    bytes xref(pt.size());
    if (!pt.empty()) crypto_stream_xchacha20_xor_ic(xref.data(), pt.data(), pt.size(), xnonce.data(), counter, key.data());
    const auto xours = test::run_stream<crypto::chacha>(key, xnonce, 20, std::uint64_t{counter} * 64, pt);
    ASSERT_TRUE(xours);
    ASSERT_EQ(*xours, xref) << "xchacha20 case " << i;
  }
}
