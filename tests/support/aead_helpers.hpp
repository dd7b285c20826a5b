// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the AEAD tests: one-shot seal/open with a detached tag, a
// known-answer check both ways, our incremental sealer and trailing-tag
// opener fed in random pieces, and OpenSSL's EVP AEADs fed in pieces.
#pragma once

#include "vectors.hpp"

#include <sealwire/crypto/aead.hpp>

#include <openssl/evp.h>

#include <string>

namespace sealwire::test {

// Every AEAD the library offers.
inline constexpr crypto::aead_algorithm all_aead_algorithms[] = {
    crypto::aead_algorithm::chacha20_poly1305, crypto::aead_algorithm::xchacha20_poly1305,
    crypto::aead_algorithm::xsalsa20_poly1305, crypto::aead_algorithm::chacha20_poly1305_original,
    crypto::aead_algorithm::aes128_gcm,        crypto::aead_algorithm::aes256_gcm};

struct sealed_message {
  bytes ct, tag;
};

// seal_detached and open_detached run the one-shot functions and, when the
// key is valid, the same message through an aead_key, and check that both
// paths agree (output, or the error); every known answer checks both.
inline result<sealed_message> seal_detached(crypto::aead_algorithm alg, const bytes& key, const bytes& nonce,
                                            const bytes& aad, const bytes& pt) {
  sealed_message s{bytes(pt.size()), bytes(16)};
  auto r = crypto::aead_seal_detached(alg, s.ct, std::span<std::uint8_t, 16>(s.tag.data(), 16), pt,
                                      associated_data(aad), nonce, key);
  if (auto k = crypto::aead_key::make(alg, key)) {
    sealed_message t{bytes(pt.size()), bytes(16)};
    auto rk = k->seal_detached(t.ct, std::span<std::uint8_t, 16>(t.tag.data(), 16), pt, associated_data(aad), nonce);
    EXPECT_EQ(rk.error(), r.error()) << "keyed and one-shot seal disagree";
    if (r && rk) {
      EXPECT_EQ(t.ct, s.ct) << "keyed and one-shot seal disagree";
      EXPECT_EQ(t.tag, s.tag) << "keyed and one-shot seal disagree";
    }
  }
  if (!r) return r.error();
  return s;
}

inline result<bytes> open_detached(crypto::aead_algorithm alg, const bytes& key, const bytes& nonce, const bytes& aad,
                                   const bytes& ct, const bytes& tag) {
  bytes pt(ct.size());
  auto r = crypto::aead_open_detached(alg, pt, ct, tag, associated_data(aad), nonce, key);
  if (auto k = crypto::aead_key::make(alg, key)) {
    bytes pk(ct.size(), 0xaa);
    auto rk = k->open_detached(pk, ct, tag, associated_data(aad), nonce);
    EXPECT_EQ(rk.error(), r.error()) << "keyed and one-shot open disagree";
    if (r || r.error() == crypto_errc::authentication_failed) {
      EXPECT_EQ(pk, pt) << "keyed and one-shot open disagree (a failed open leaves zeros)";
    }
  }
  if (!r) return r.error();
  return pt;
}

// check_aead_case seals and opens one known answer both ways.
inline void check_aead_case(crypto::aead_algorithm alg, const bytes& key, const bytes& nonce, const bytes& aad,
                            const bytes& pt, const bytes& ct, const bytes& tag, const std::string& where) {
  const auto s = seal_detached(alg, key, nonce, aad, pt);
  ASSERT_TRUE(s) << where << ": " << s.error().message();
  EXPECT_EQ(to_hex(s->ct), to_hex(ct)) << where;
  EXPECT_EQ(to_hex(s->tag), to_hex(tag)) << where;
  const auto o = open_detached(alg, key, nonce, aad, ct, tag);
  ASSERT_TRUE(o) << where;
  EXPECT_EQ(*o, pt) << where;
}

// seal_in_pieces runs our incremental sealer over pt in random pieces; the
// tag is detached.
inline bytes seal_in_pieces(crypto::aead_algorithm alg, const bytes& key, const bytes& nonce, const bytes& aad,
                            const bytes& pt, bytes& tag, seeded_random& rng) {
  crypto::aead_sealer s;
  EXPECT_TRUE(s.init(alg, key, nonce));
  s.aad(aad);
  bytes ct(pt.size());
  std::size_t at = 0;
  while (at < pt.size()) {
    const std::size_t p =
        std::min<std::size_t>(rng.uniform(2) ? 1 + rng.uniform(200) : 1 + rng.uniform(4000), pt.size() - at);
    EXPECT_TRUE(s.update(std::span(ct).subspan(at, p), std::span(pt).subspan(at, p)));
    at += p;
  }
  tag.resize(16);
  s.finish(std::span<std::uint8_t, 16>(tag.data(), 16));
  return ct;
}

// open_trailing_in_pieces runs our trailing-tag opener over ct || tag in
// random pieces and returns finish's verdict.
inline bool open_trailing_in_pieces(crypto::aead_algorithm alg, const bytes& key, const bytes& nonce, const bytes& aad,
                                    const bytes& stream, bytes& pt, seeded_random& rng) {
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

// evp_aead encrypts or decrypts with an OpenSSL EVP AEAD (ChaCha20-Poly1305,
// AES-GCM), feeding it in random pieces; any nonce length the cipher takes.
// *ok is the final verdict (always true when encrypting).
inline bytes evp_aead(const EVP_CIPHER* cipher, bool encrypt, const bytes& key, const bytes& nonce, const bytes& aad,
                      const bytes& in, bytes& tag, seeded_random& rng, bool* ok) {
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  EXPECT_EQ(EVP_CipherInit_ex(ctx, cipher, nullptr, nullptr, nullptr, encrypt ? 1 : 0), 1);
  EXPECT_EQ(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, static_cast<int>(nonce.size()), nullptr), 1);
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

}  // namespace sealwire::test
