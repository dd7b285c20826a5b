// SPDX-License-Identifier: Apache-2.0
// SHA3-256, SHAKE128 and SHAKE256 (FIPS 202) beside OpenSSL's EVP digests, and
// four SHAKE128 streams at once (shake_multi.hpp) beside four OpenSSL calls.
#include "common.hpp"

#include <sealwire/crypto/sha3.hpp>
#include <sealwire/crypto/shake_multi.hpp>

#include <algorithm>
#include <array>

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

// x4_sealwire measures shake128_x4 on four in_len-byte inputs with out_len
// bytes out per stream.
void x4_sealwire(benchmark::State& st, std::size_t in_len, std::size_t out_len) {
  std::array<bytes, 4> msg, out;
  std::array<std::span<const std::uint8_t>, 4> in;
  std::array<std::span<std::uint8_t>, 4> o;
  for (std::size_t k = 0; k < 4; ++k) {
    msg[k] = pattern(in_len, static_cast<std::uint8_t>(k + 1));
    out[k].assign(out_len, 0);
    in[k] = msg[k];
    o[k] = out[k];
  }
  measure(st, 4 * std::max(in_len, out_len), [&] {
    crypto::shake128_x4::hash(o, in);
    benchmark::DoNotOptimize(out[0].data());
  });
}

// x4_openssl is the same work as four sequential EVP SHAKE128 calls.
void x4_openssl(benchmark::State& st, std::size_t in_len, std::size_t out_len) {
  std::array<bytes, 4> msg, out;
  for (std::size_t k = 0; k < 4; ++k) {
    msg[k] = pattern(in_len, static_cast<std::uint8_t>(k + 1));
    out[k].assign(out_len, 0);
  }
  EVP_MD* md = EVP_MD_fetch(nullptr, "SHAKE128", nullptr);
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  measure(st, 4 * std::max(in_len, out_len), [&] {
    for (std::size_t k = 0; k < 4; ++k) {
      EVP_DigestInit_ex(ctx, md, nullptr);
      EVP_DigestUpdate(ctx, msg[k].data(), in_len);
      EVP_DigestFinalXOF(ctx, out[k].data(), out_len);
    }
    benchmark::DoNotOptimize(out[0].data());
  });
  EVP_MD_CTX_free(ctx);
  EVP_MD_free(md);
}

void register_x4(std::size_t in_len, std::size_t out_len, const char* op, std::size_t size) {
  add(op, size, "sealwire", [=](benchmark::State& st) { x4_sealwire(st, in_len, out_len); },
      std::string(crypto::shake128_x4::provider()));
  add(op, size, "openssl", [=](benchmark::State& st) { x4_openssl(st, in_len, out_len); });
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
    add("shake256", n, "sealwire", [n](benchmark::State& st) {
      const bytes msg = pattern(n);
      std::uint8_t out[32];
      measure(st, n, [&] {
        crypto::shake256::hash(out, msg);
        benchmark::DoNotOptimize(out);
      });
    }, std::string(crypto::shake256::provider()));
    add("shake256", n, "openssl", [n](benchmark::State& st) { openssl_digest(st, "SHAKE256", n, 32, true); });
  }
  // Four SHAKE128 streams: a 34-byte seed each squeezed to 840 bytes (five
  // blocks, an ML-KEM matrix row's worth of rejection sampling), and 16 KiB
  // absorbed each with 32 bytes out. Bytes counted over all four streams.
  register_x4(34, 840, "shake128_x4_squeeze", 840);
  register_x4(16384, 32, "shake128_x4", 16384);
}

const registrar reg(&register_sha3);

}  // namespace
}  // namespace sealwire::bench
