// SPDX-License-Identifier: Apache-2.0
// Ed448 (RFC 8032) signing and verification beside OpenSSL's EVP Ed448 with
// a key made once and reused.
#include "common.hpp"

#include <sealwire/crypto/ed448.hpp>

#include <openssl/evp.h>

namespace sealwire::bench {
namespace {

constexpr std::size_t message_size = 64;

void register_ed448() {
  add("ed448.sign", message_size, "sealwire", [](benchmark::State& st) {
    auto key = crypto::ed448::signing_key::from_seed(pattern(57, 3));
    if (!key) return st.SkipWithError("key");
    const bytes msg = pattern(message_size, 4);
    std::uint8_t sig[114];
    measure(st, 0, [&] {
      key->sign(sig, msg);
      benchmark::DoNotOptimize(sig);
    });
  }, std::string(crypto::ed448::provider()));
  add("ed448.sign", message_size, "openssl", [](benchmark::State& st) {
    const bytes seed = pattern(57, 3), msg = pattern(message_size, 4);
    EVP_PKEY* key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED448, nullptr, seed.data(), seed.size());
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    std::uint8_t sig[114];
    measure(st, 0, [&] {
      std::size_t len = sizeof sig;
      EVP_DigestSignInit(ctx, nullptr, nullptr, nullptr, key);
      EVP_DigestSign(ctx, sig, &len, msg.data(), msg.size());
      benchmark::DoNotOptimize(sig);
    });
    EVP_MD_CTX_free(ctx);
    EVP_PKEY_free(key);
  });
  add("ed448.verify", message_size, "sealwire", [](benchmark::State& st) {
    auto key = crypto::ed448::signing_key::from_seed(pattern(57, 3));
    if (!key) return st.SkipWithError("key");
    const bytes msg = pattern(message_size, 4);
    std::uint8_t sig[114];
    key->sign(sig, msg);
    measure(st, 0, [&] { benchmark::DoNotOptimize(crypto::ed448::verify(key->public_key(), msg, sig)); });
  }, std::string(crypto::ed448::provider()));
  add("ed448.verify", message_size, "openssl", [](benchmark::State& st) {
    const bytes seed = pattern(57, 3), msg = pattern(message_size, 4);
    EVP_PKEY* priv = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED448, nullptr, seed.data(), seed.size());
    std::uint8_t pub[57], sig[114];
    std::size_t pub_len = sizeof pub, sig_len = sizeof sig;
    EVP_PKEY_get_raw_public_key(priv, pub, &pub_len);
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    EVP_DigestSignInit(ctx, nullptr, nullptr, nullptr, priv);
    EVP_DigestSign(ctx, sig, &sig_len, msg.data(), msg.size());
    EVP_PKEY* key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED448, nullptr, pub, pub_len);
    int ok = 0;
    measure(st, 0, [&] {
      EVP_DigestVerifyInit(ctx, nullptr, nullptr, nullptr, key);
      ok = EVP_DigestVerify(ctx, sig, sig_len, msg.data(), msg.size());
      benchmark::DoNotOptimize(ok);
    });
    if (ok != 1) st.SkipWithError("openssl verify failed");
    EVP_MD_CTX_free(ctx);
    EVP_PKEY_free(key);
    EVP_PKEY_free(priv);
  });
}

const registrar reg(&register_ed448);

}  // namespace
}  // namespace sealwire::bench
