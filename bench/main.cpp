// SPDX-License-Identifier: Apache-2.0
// sealwire's benchmark executable: our code and the peers (OpenSSL, libsodium)
// in one run, so every figure can be read as a ratio.
#include "common.hpp"

#include <openssl/evp.h>

#include <sealwire/crypto/cpu.hpp>

#include <openssl/opensslv.h>
#include <sodium.h>

#if SEALWIRE_BENCH_BLAKE3_C
#include <blake3.h>
#endif

#include <string>

namespace sealwire::bench {

void add(const std::string& op, std::size_t size, const std::string& impl, std::function<void(benchmark::State&)> fn,
         const std::string& label) {
  const std::string name = op + "/" + std::to_string(size) + "/" + impl;
  benchmark::RegisterBenchmark(name.c_str(), [fn = std::move(fn), label](benchmark::State& st) {
    fn(st);
    if (!label.empty()) st.SetLabel(label);
  });
}

bytes pattern(std::size_t n, std::uint8_t seed) {
  bytes b(n);
  std::uint32_t x = seed * 2654435761u + 1;
  for (auto& v : b) {
    x = x * 1103515245u + 12345u;
    v = static_cast<std::uint8_t>(x >> 24);
  }
  return b;
}

void openssl_raw_derive(benchmark::State& st, int evp_type, std::size_t size) {
  const bytes a = pattern(size, 1), b = pattern(size, 2);
  EVP_PKEY* ka = EVP_PKEY_new_raw_private_key(evp_type, nullptr, a.data(), size);
  EVP_PKEY* kb = EVP_PKEY_new_raw_private_key(evp_type, nullptr, b.data(), size);
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new(ka, nullptr);
  EVP_PKEY_derive_init(ctx);
  EVP_PKEY_derive_set_peer(ctx, kb);
  bytes out(size);
  measure(st, 0, [&] {
    std::size_t len = size;
    EVP_PKEY_derive(ctx, out.data(), &len);
  });
  EVP_PKEY_CTX_free(ctx);
  EVP_PKEY_free(ka);
  EVP_PKEY_free(kb);
}

void openssl_raw_keygen(benchmark::State& st, int evp_type) {
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_id(evp_type, nullptr);
  EVP_PKEY_keygen_init(ctx);
  measure(st, 0, [&] {
    EVP_PKEY* k = nullptr;
    EVP_PKEY_keygen(ctx, &k);
    EVP_PKEY_free(k);
  });
  EVP_PKEY_CTX_free(ctx);
}

}  // namespace sealwire::bench

int main(int argc, char** argv) {
  namespace cpu = sealwire::crypto::cpu;
  if (sodium_init() < 0) return 1;
  std::string features;
  for (std::uint32_t bit = 1; bit != 0 && bit <= cpu::vpclmulqdq; bit <<= 1) {
    if ((cpu::detected() & bit) != 0) {
      if (!features.empty()) features += ' ';
      features += cpu::feature_name(static_cast<cpu::feature>(bit));
    }
  }
  benchmark::AddCustomContext("sealwire_cpu_features", features);
  benchmark::AddCustomContext("sealwire_cpu_level", std::string(cpu::name(cpu::active_level())));
  benchmark::AddCustomContext("openssl", OPENSSL_VERSION_TEXT);
  benchmark::AddCustomContext("libsodium", sodium_version_string());
#if SEALWIRE_BENCH_BLAKE3_C
  benchmark::AddCustomContext("blake3c", blake3_version());
#endif
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
