// SPDX-License-Identifier: Apache-2.0
// Benchmark helpers: cycle counting with the time-stamp counter and a naming
// scheme "operation/size/implementation" that scripts/bench turns into ratio tables.
#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>
#include <x86intrin.h>

namespace sealwire::bench {

using bytes = std::vector<std::uint8_t>;

// measure runs body once per benchmark iteration and reports reference cycles
// (the TSC, which ticks at the nominal clock) per operation and, when bytes is
// non-zero, per byte, plus the throughput.
template <class F>
void measure(benchmark::State& st, std::size_t bytes_per_op, F&& body) {
  const std::uint64_t t0 = __rdtsc();
  for (auto _ : st) body();
  const std::uint64_t ticks = __rdtsc() - t0;
  const auto iters = static_cast<double>(st.iterations());
  st.counters["cycles_per_op"] = static_cast<double>(ticks) / iters;
  if (bytes_per_op != 0) {
    st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations()) * static_cast<std::int64_t>(bytes_per_op));
    st.counters["cycles_per_byte"] = static_cast<double>(ticks) / (iters * static_cast<double>(bytes_per_op));
  }
}

// add registers a benchmark named "op/size/impl". For sealwire's own entries
// pass the kernel name (provider()) as label; it appears in the tables.
void add(const std::string& op, std::size_t size, const std::string& impl, std::function<void(benchmark::State&)> fn,
         const std::string& label = "");

// registrar runs a registration function during static initialisation.
struct registrar {
  explicit registrar(void (*fn)()) { fn(); }
};

// pattern fills a buffer with a deterministic non-trivial byte pattern.
bytes pattern(std::size_t n, std::uint8_t seed = 1);

// openssl_raw_derive measures OpenSSL's shared secret for a raw-key curve
// (EVP_PKEY_X25519, EVP_PKEY_X448) of `size`-byte keys, with one context
// reused across iterations.
void openssl_raw_derive(benchmark::State& st, int evp_type, std::size_t size);
// openssl_raw_keygen measures OpenSSL's key generation for such a curve.
void openssl_raw_keygen(benchmark::State& st, int evp_type);

}  // namespace sealwire::bench
