// SPDX-License-Identifier: Apache-2.0
// SHA3-256 and SHAKE128 (FIPS 202) beside OpenSSL's EVP digests.
#include "common.hpp"

#include <sealwire/crypto/sha3.hpp>

#include <openssl/evp.h>

namespace sealwire::bench {
namespace {

// openssl_digest measures EVP one-shot hashing with the digest fetched once;
// XOFs squeeze out_len bytes through EVP_DigestFinalXOF.
void openssl_digest(benchmark::State& st, const char* name, std::size_t n, std::size_t out_len, bool xof) {
  const bytes msg = pattern(n);
  EVP_MD* md = EVP_MD_fetch(nullptr, name, nullptr);
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  std::uint8_t out[64];
  measure(st, n, [&] {
    EVP_DigestInit_ex(ctx, md, nullptr);
    EVP_DigestUpdate(ctx, msg.data(), n);
    if (xof) {
      EVP_DigestFinalXOF(ctx, out, out_len);
    } else {
      unsigned len = 0;
      EVP_DigestFinal_ex(ctx, out, &len);
    }
    benchmark::DoNotOptimize(out);
  });
  EVP_MD_CTX_free(ctx);
  EVP_MD_free(md);
}

void register_sha3() {
  for (std::size_t n : {64u, 1024u, 16384u}) {
    add("sha3_256", n, "sealwire", [n](benchmark::State& st) {
      const bytes msg = pattern(n);
      std::uint8_t out[32];
      measure(st, n, [&] {
        crypto::sha3_256::hash(out, msg);
        benchmark::DoNotOptimize(out);
      });
    }, std::string(crypto::sha3_256::provider()));
    add("sha3_256", n, "openssl", [n](benchmark::State& st) { openssl_digest(st, "SHA3-256", n, 32, false); });
    // SHAKE128 with 32 bytes of output (a seed-sized squeeze).
    add("shake128", n, "sealwire", [n](benchmark::State& st) {
      const bytes msg = pattern(n);
      std::uint8_t out[32];
      measure(st, n, [&] {
        crypto::shake128::hash(out, msg);
        benchmark::DoNotOptimize(out);
      });
    }, std::string(crypto::shake128::provider()));
    add("shake128", n, "openssl", [n](benchmark::State& st) { openssl_digest(st, "SHAKE128", n, 32, true); });
  }
}

const registrar reg(&register_sha3);

}  // namespace
}  // namespace sealwire::bench
