// SPDX-License-Identifier: Apache-2.0
// ML-KEM NTT, inverse NTT and NTT-domain multiplication (FIPS 203 4.3,
// Algorithms 9-12), with Montgomery multiplication by precomputed twiddles.
#include "poly.hpp"

#include <array>

namespace sealwire::crypto::mlkem {
namespace {

// The twiddle factors are computed at compile time from their definition
// rather than typed in: zeta = 17 is the primitive 256th root of unity mod q
// (FIPS 203 4.3), the NTT uses zeta^BitRev7(i) (Algorithms 9, 10) and the
// base case multiplication gamma_i = zeta^(2 BitRev7(i) + 1) (Algorithm 11).
// Both are kept in Montgomery form (times 2^16 mod q), centred, so one fqmul
// applies them.
constexpr unsigned bitrev7(unsigned i) {
  unsigned r = 0;
  for (int b = 0; b < 7; ++b) r |= ((i >> b) & 1u) << (6 - b);
  return r;
}

constexpr std::int32_t pow_mod(std::int32_t base, unsigned e) {
  std::int64_t r = 1, b = base;
  while (e != 0) {
    if (e & 1u) r = r * b % q;
    b = b * b % q;
    e >>= 1;
  }
  return static_cast<std::int32_t>(r);
}

constexpr std::int16_t to_mont_centred(std::int32_t x) {
  std::int64_t m = (static_cast<std::int64_t>(x) << 16) % q;
  if (m > q / 2) m -= q;
  return static_cast<std::int16_t>(m);
}

constexpr std::array<std::int16_t, 128> make_zetas() {
  std::array<std::int16_t, 128> z{};
  for (unsigned i = 0; i < 128; ++i) z[i] = to_mont_centred(pow_mod(17, bitrev7(i)));
  return z;
}

constexpr std::array<std::int16_t, 128> make_gammas() {
  std::array<std::int16_t, 128> g{};
  for (unsigned i = 0; i < 128; ++i) g[i] = to_mont_centred(pow_mod(17, 2 * bitrev7(i) + 1));
  return g;
}

constexpr auto zetas = make_zetas();
constexpr auto gammas = make_gammas();

// The inverse NTT's final scaling: 128^-1 (Algorithm 10, line 14) times 2^32
// (so the result leaves Montgomery form after one fqmul), i.e. 2^25 mod q,
// centred.
constexpr std::int16_t invntt_scale = [] {
  std::int64_t m = (std::int64_t{1} << 25) % q;
  if (m > q / 2) m -= q;
  return static_cast<std::int16_t>(m);
}();

// 2^32 mod q, for poly_tomont.
constexpr std::int16_t mont_squared = static_cast<std::int16_t>((std::int64_t{1} << 32) % q);

// Sanity checks on the derived constants (FIPS 203: zeta^128 = -1 mod q).
static_assert(pow_mod(17, 128) == q - 1);
static_assert(zetas[0] == to_mont_centred(1));

}  // namespace

void poly_ntt(poly& a) noexcept {
  // Cooley-Tukey butterflies; each layer grows the bound by q, so inputs
  // below q stay below 8q without intermediate reduction.
  unsigned k = 1;
  for (unsigned len = 128; len >= 2; len >>= 1) {
    for (unsigned start = 0; start < n; start += 2 * len) {
      const std::int16_t zeta = zetas[k++];
      for (unsigned j = start; j < start + len; ++j) {
        const std::int16_t t = fqmul(zeta, a.c[j + len]);
        a.c[j + len] = static_cast<std::int16_t>(a.c[j] - t);
        a.c[j] = static_cast<std::int16_t>(a.c[j] + t);
      }
    }
  }
}

void poly_invntt_tomont(poly& a) noexcept {
  // Gentleman-Sande butterflies; the sums are Barrett-reduced each layer.
  unsigned k = 127;
  for (unsigned len = 2; len <= 128; len <<= 1) {
    for (unsigned start = 0; start < n; start += 2 * len) {
      const std::int16_t zeta = zetas[k--];
      for (unsigned j = start; j < start + len; ++j) {
        const std::int16_t t = a.c[j];
        a.c[j] = barrett_reduce(static_cast<std::int16_t>(t + a.c[j + len]));
        a.c[j + len] = fqmul(zeta, static_cast<std::int16_t>(a.c[j + len] - t));
      }
    }
  }
  for (auto& x : a.c) x = fqmul(x, invntt_scale);
}

namespace {

// basemul_add adds (a0 + a1 X)(b0 + b1 X) mod (X^2 - gamma) times 2^-16 into
// r (Algorithm 12).
inline void basemul_add(std::int16_t r[2], const std::int16_t a[2], const std::int16_t b[2],
                        std::int16_t gamma) noexcept {
  r[0] = static_cast<std::int16_t>(r[0] + fqmul(fqmul(a[1], b[1]), gamma) + fqmul(a[0], b[0]));
  r[1] = static_cast<std::int16_t>(r[1] + fqmul(a[0], b[1]) + fqmul(a[1], b[0]));
}

}  // namespace

void poly_basemul_acc_strided(poly& r, const poly* a, std::size_t stride, const poly* b, unsigned k) noexcept {
  for (auto& x : r.c) x = 0;
  for (unsigned j = 0; j < k; ++j) {
    const poly& aj = a[j * stride];
    for (unsigned i = 0; i < n / 2; ++i) basemul_add(&r.c[2 * i], &aj.c[2 * i], &b[j].c[2 * i], gammas[i]);
  }
  poly_reduce(r);
}

void poly_basemul_acc(poly& r, const poly* a, const poly* b, unsigned k) noexcept {
  poly_basemul_acc_strided(r, a, 1, b, k);
}

void poly_tomont(poly& a) noexcept {
  for (auto& x : a.c) x = fqmul(x, mont_squared);
}

void poly_reduce(poly& a) noexcept {
  for (auto& x : a.c) x = barrett_reduce(x);
}

void poly_add(poly& r, const poly& a, const poly& b) noexcept {
  for (unsigned i = 0; i < n; ++i) r.c[i] = static_cast<std::int16_t>(a.c[i] + b.c[i]);
}

void poly_sub(poly& r, const poly& a, const poly& b) noexcept {
  for (unsigned i = 0; i < n; ++i) r.c[i] = static_cast<std::int16_t>(a.c[i] - b.c[i]);
}

}  // namespace sealwire::crypto::mlkem
