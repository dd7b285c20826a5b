// SPDX-License-Identifier: Apache-2.0
// Benchmarks of the foundation helpers: constant-time compare and the CSPRNG.
#include "common.hpp"

#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/random.hpp>

#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <sodium.h>

namespace sealwire::bench {
namespace {

void register_all() {
  for (std::size_t n : {16u, 32u, 64u}) {
    add("ct.equal", n, "sealwire", [n](benchmark::State& st) {
      const bytes a = pattern(n), b = pattern(n);
      measure(st, n, [&] { benchmark::DoNotOptimize(crypto::ct::equal(a, b)); });
    }, "portable");
    add("ct.equal", n, "openssl", [n](benchmark::State& st) {
      const bytes a = pattern(n), b = pattern(n);
      measure(st, n, [&] { benchmark::DoNotOptimize(CRYPTO_memcmp(a.data(), b.data(), n)); });
    });
    add("ct.equal", n, "libsodium", [n](benchmark::State& st) {
      const bytes a = pattern(n), b = pattern(n);
      measure(st, n, [&] { benchmark::DoNotOptimize(sodium_memcmp(a.data(), b.data(), n)); });
    });
  }
  for (std::size_t n : {32u, 4096u}) {
    add("random", n, "sealwire", [n](benchmark::State& st) {
      bytes out(n);
      measure(st, n, [&] {
        if (!crypto::random_bytes(out)) st.SkipWithError("random_bytes failed");
        benchmark::DoNotOptimize(out.data());
      });
    }, "getrandom");
    add("random", n, "openssl", [n](benchmark::State& st) {
      bytes out(n);
      measure(st, n, [&] {
        if (RAND_bytes(out.data(), static_cast<int>(n)) != 1) st.SkipWithError("RAND_bytes failed");
        benchmark::DoNotOptimize(out.data());
      });
    });
    add("random", n, "libsodium", [n](benchmark::State& st) {
      bytes out(n);
      measure(st, n, [&] {
        randombytes_buf(out.data(), n);
        benchmark::DoNotOptimize(out.data());
      });
    });
  }
}

const registrar reg(&register_all);

}  // namespace
}  // namespace sealwire::bench
