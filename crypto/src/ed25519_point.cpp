// SPDX-License-Identifier: Apache-2.0
// Ed25519 group kernels, portable build, and the base-point tables (built
// once, on first use, with the portable arithmetic).
#include "detail/ed25519_point.hpp"

namespace sealwire::crypto::detail {
namespace {

// The base point B (RFC 8032 5.1): y = 4/5, x even.
constexpr fe base_x{{0x62d608f25d51aULL, 0x412a4b4f6592aULL, 0x75b7171a4b31dULL, 0x1ff60527118feULL, 0x216936d3cd6e5ULL}};
constexpr fe base_y{{0x6666666666658ULL, 0x4ccccccccccccULL, 0x1999999999999ULL, 0x3333333333333ULL, 0x6666666666666ULL}};
constexpr fe base_t{{0x68ab3a5b7dda3ULL, 0xeea2a5eadbbULL, 0x2af8df483c27eULL, 0x332b375274732ULL, 0x67875f0fd78b7ULL}};

void store_niels(std::uint64_t out[15], const ge_p3& p) noexcept {
  const ge_niels n = ge_to_niels(p);
  std::memcpy(out, &n, sizeof n);
}

ed25519_tables build_tables() noexcept {
  ed25519_tables t{};
  const ge_p3 b{base_x, base_y, fe_one, base_t};
  ge_p3 p = b;  // 256^i B
  for (int i = 0; i < 32; ++i) {
    const ge_cached pc = ge_to_cached(p);
    ge_p3 q = p;
    for (int j = 0; j < 8; ++j) {
      store_niels(t.base[i][j], q);
      q = ge_to_p3(ge_add(q, pc));
    }
    for (int k = 0; k < 8; ++k) p = ge_to_p3(ge_dbl(p));
  }
  const ge_cached b2 = ge_to_cached(ge_to_p3(ge_dbl(b)));
  ge_p3 q = b;
  for (int j = 0; j < 64; ++j) {
    store_niels(t.odd[j], q);
    q = ge_to_p3(ge_add(q, b2));
  }
  return t;
}

}  // namespace

const ed25519_tables& ed25519_precomputed() noexcept {
  static const ed25519_tables tables = build_tables();
  return tables;
}

const ed25519_kernel ed25519_kernel_portable = {&kernel_base_mul, &kernel_verify, &kernel_batch, &kernel_is_point};

}  // namespace sealwire::crypto::detail
