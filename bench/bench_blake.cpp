// SPDX-License-Identifier: Apache-2.0
// BLAKE3 and BLAKE2b benchmarks beside libsodium's BLAKE2b and OpenSSL's
// BLAKE2b-512 and SHA-256, and multithreaded BLAKE3 beside one thread.
#include "common.hpp"

#include <sealwire/crypto/blake2b.hpp>
#include <sealwire/crypto/blake3.hpp>

#include <openssl/evp.h>
#include <sodium.h>

#if SEALWIRE_BENCH_BLAKE3_C
#include <blake3.h>
#endif

#include <string>

namespace sealwire::bench {
namespace {

constexpr std::size_t sizes[] = {64, 1024, 16384, 1 << 20};

void openssl_digest(benchmark::State& st, std::size_t n, const EVP_MD* md) {
  const bytes in = pattern(n);
  std::uint8_t out[EVP_MAX_MD_SIZE];
  unsigned out_len = 0;
  measure(st, n, [&] {
    EVP_Digest(in.data(), n, out, &out_len, md, nullptr);
    benchmark::DoNotOptimize(out);
  });
}

void libsodium_blake2b(benchmark::State& st, std::size_t n, std::size_t out_len) {
  const bytes in = pattern(n);
  std::uint8_t out[64];
  measure(st, n, [&] {
    crypto_generichash(out, out_len, in.data(), n, nullptr, 0);
    benchmark::DoNotOptimize(out);
  });
}

void register_all() {
  for (std::size_t n : sizes) {
    // BLAKE3 in one table with the hashes it is usually compared with.
    add("blake3", n, "sealwire", [n](benchmark::State& st) {
      const bytes in = pattern(n);
      std::uint8_t out[32];
      measure(st, n, [&] {
        crypto::blake3::hash(out, in);
        benchmark::DoNotOptimize(out);
      });
    }, std::string(crypto::blake3::provider()));
#if SEALWIRE_BENCH_BLAKE3_C
    // The official C implementation (its assembly kernels, chosen at run
    // time as ours are), through its one-shot hasher calls.
    add("blake3", n, "blake3c", [n](benchmark::State& st) {
      const bytes in = pattern(n);
      std::uint8_t out[32];
      measure(st, n, [&] {
        blake3_hasher h;
        blake3_hasher_init(&h);
        blake3_hasher_update(&h, in.data(), n);
        blake3_hasher_finalize(&h, out, sizeof out);
        benchmark::DoNotOptimize(out);
      });
    });
#endif
    add("blake3", n, "libsodium_blake2b256", [n](benchmark::State& st) { libsodium_blake2b(st, n, 32); });
    add("blake3", n, "openssl_sha256", [n](benchmark::State& st) { openssl_digest(st, n, EVP_sha256()); });

    for (std::size_t out_len : {32u, 64u}) {
      const std::string op = "blake2b_" + std::to_string(8 * out_len);
      add(op, n, "sealwire", [n, out_len](benchmark::State& st) {
        const bytes in = pattern(n);
        std::uint8_t out[64];
        measure(st, n, [&] {
          (void)crypto::blake2b::hash(std::span(out, out_len), in);
          benchmark::DoNotOptimize(out);
        });
      }, std::string(crypto::blake2b::provider()));
      add(op, n, "libsodium", [n, out_len](benchmark::State& st) { libsodium_blake2b(st, n, out_len); });
      // OpenSSL's EVP interface has BLAKE2b with the 64-byte digest only.
      if (out_len == 64) add(op, n, "openssl", [n](benchmark::State& st) { openssl_digest(st, n, EVP_blake2b512()); });
    }
  }

  // Multithreaded BLAKE3 (2 threads) against our single thread. The figures
  // are wall-clock time per hash: a bytes-per-second rate would be computed
  // from the main thread's CPU time, which misses the helper thread.
  for (std::size_t big : {std::size_t{1} << 20, std::size_t{4} << 20, std::size_t{16} << 20}) {
    for (unsigned threads : {2u, 1u}) {
      add("blake3_parallel", big, threads == 1 ? "single_thread" : "sealwire", [big, threads](benchmark::State& st) {
        const bytes in = pattern(big);
        std::uint8_t out[32];
        measure(st, 0, [&] {
          crypto::blake3::hash_parallel(out, in, threads);
          benchmark::DoNotOptimize(out);
        });
      }, std::string(crypto::blake3::provider()) + (threads == 1 ? ", 1 thread" : ", 2 threads"));
    }
  }
}

const registrar reg(&register_all);

}  // namespace
}  // namespace sealwire::bench
