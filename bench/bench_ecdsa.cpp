// SPDX-License-Identifier: Apache-2.0
// ECDSA signing and verification on P-256, P-384 and P-521 beside OpenSSL's
// EVP_DigestSign / EVP_DigestVerify with the key and digest context reused
// (EVP_MD_CTX_copy_ex from an initialised context, the cheapest EVP path).
#include "common.hpp"

#include <sealwire/crypto/ecdsa.hpp>

#include <openssl/evp.h>

namespace sealwire::bench {
namespace {

constexpr std::size_t message_size = 64;

template <class E>
void register_ecdsa(const std::string& name, const char* group, const char* digest) {
  add(name + ".sign", message_size, "sealwire", [](benchmark::State& st) {
    auto key = E::signing_key::generate();
    if (!key) return st.SkipWithError("keygen");
    const bytes msg = pattern(message_size);
    std::uint8_t sig[E::max_der_signature_size];
    measure(st, 0, [&] { benchmark::DoNotOptimize(key->sign_der(sig, msg)); });
  }, std::string(E::provider()));
  add(name + ".verify", message_size, "sealwire", [](benchmark::State& st) {
    auto key = E::signing_key::generate();
    if (!key) return st.SkipWithError("keygen");
    const bytes msg = pattern(message_size);
    std::uint8_t sig[E::max_der_signature_size];
    const auto n = key->sign_der(sig, msg);
    if (!n) return st.SkipWithError("sign");
    const std::span<const std::uint8_t> s(sig, *n);
    const std::span<const std::uint8_t> pub = key->public_key();
    measure(st, 0, [&] {
      if (!E::verify_der(pub, msg, s)) st.SkipWithError("verify");
    });
  }, std::string(E::provider()));

  add(name + ".sign", message_size, "openssl", [group, digest](benchmark::State& st) {
    EVP_PKEY* k = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", group);
    EVP_MD_CTX* base = EVP_MD_CTX_new();
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    EVP_DigestSignInit_ex(base, nullptr, digest, nullptr, nullptr, k, nullptr);
    const bytes msg = pattern(message_size);
    std::uint8_t sig[160];
    measure(st, 0, [&] {
      std::size_t len = sizeof sig;
      EVP_MD_CTX_copy_ex(ctx, base);
      EVP_DigestSign(ctx, sig, &len, msg.data(), msg.size());
    });
    EVP_MD_CTX_free(ctx);
    EVP_MD_CTX_free(base);
    EVP_PKEY_free(k);
  });
  add(name + ".verify", message_size, "openssl", [group, digest](benchmark::State& st) {
    EVP_PKEY* k = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", group);
    const bytes msg = pattern(message_size);
    std::uint8_t sig[160];
    std::size_t len = sizeof sig;
    EVP_MD_CTX* sctx = EVP_MD_CTX_new();
    EVP_DigestSignInit_ex(sctx, nullptr, digest, nullptr, nullptr, k, nullptr);
    EVP_DigestSign(sctx, sig, &len, msg.data(), msg.size());
    EVP_MD_CTX_free(sctx);
    EVP_MD_CTX* base = EVP_MD_CTX_new();
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    EVP_DigestVerifyInit_ex(base, nullptr, digest, nullptr, nullptr, k, nullptr);
    measure(st, 0, [&] {
      EVP_MD_CTX_copy_ex(ctx, base);
      if (EVP_DigestVerify(ctx, sig, len, msg.data(), msg.size()) != 1) st.SkipWithError("verify");
    });
    EVP_MD_CTX_free(ctx);
    EVP_MD_CTX_free(base);
    EVP_PKEY_free(k);
  });
}

void register_signatures() {
  register_ecdsa<crypto::ecdsa_p256>("ecdsa_p256", "P-256", "SHA256");
  register_ecdsa<crypto::ecdsa_p384>("ecdsa_p384", "P-384", "SHA384");
  register_ecdsa<crypto::ecdsa_p521>("ecdsa_p521", "P-521", "SHA512");
}

const registrar reg(&register_signatures);

}  // namespace
}  // namespace sealwire::bench
