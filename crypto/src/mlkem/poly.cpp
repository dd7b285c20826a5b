// SPDX-License-Identifier: Apache-2.0
// ML-KEM NTT, inverse NTT and NTT-domain multiplication (FIPS 203 4.3,
// Algorithms 9-12), with Montgomery multiplication by precomputed twiddles:
// the portable kernels and the poly.hpp entry points that dispatch to the
// kernel table of the CPU level (kernels.hpp).
#include "poly.hpp"

#include "kernels.hpp"
#include "twiddles.hpp"

namespace sealwire::crypto::mlkem {

using twiddles::gammas;
using twiddles::invntt_scale;
using twiddles::mont_squared;
using twiddles::zetas;

void ntt_portable(std::int16_t* c) noexcept {
  // Cooley-Tukey butterflies; each layer grows the bound by q, so inputs
  // below q stay below 8q without intermediate reduction.
  unsigned k = 1;
  for (unsigned len = 128; len >= 2; len >>= 1) {
    for (unsigned start = 0; start < n; start += 2 * len) {
      const std::int16_t zeta = zetas.v[k++];
      for (unsigned j = start; j < start + len; ++j) {
        const std::int16_t t = fqmul(zeta, c[j + len]);
        c[j + len] = static_cast<std::int16_t>(c[j] - t);
        c[j] = static_cast<std::int16_t>(c[j] + t);
      }
    }
  }
}

void invntt_portable(std::int16_t* c) noexcept {
  // Gentleman-Sande butterflies; the sums are Barrett-reduced each layer.
  unsigned k = 127;
  for (unsigned len = 2; len <= 128; len <<= 1) {
    for (unsigned start = 0; start < n; start += 2 * len) {
      const std::int16_t zeta = zetas.v[k--];
      for (unsigned j = start; j < start + len; ++j) {
        const std::int16_t t = c[j];
        c[j] = barrett_reduce(static_cast<std::int16_t>(t + c[j + len]));
        c[j + len] = fqmul(zeta, static_cast<std::int16_t>(c[j + len] - t));
      }
    }
  }
  for (unsigned i = 0; i < n; ++i) c[i] = fqmul(c[i], invntt_scale);
}

void reduce_portable(std::int16_t* c) noexcept {
  for (unsigned i = 0; i < n; ++i) c[i] = barrett_reduce(c[i]);
}

void tomont_portable(std::int16_t* c) noexcept {
  for (unsigned i = 0; i < n; ++i) c[i] = fqmul(c[i], mont_squared);
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

void basemul_acc_portable(std::int16_t* r, const std::int16_t* a, std::size_t a_stride, const std::int16_t* b,
                          unsigned k) noexcept {
  for (unsigned i = 0; i < n; ++i) r[i] = 0;
  for (unsigned j = 0; j < k; ++j) {
    const std::int16_t* aj = a + j * a_stride;
    const std::int16_t* bj = b + j * n;
    for (unsigned i = 0; i < n / 2; ++i) basemul_add(&r[2 * i], &aj[2 * i], &bj[2 * i], gammas.v[i]);
  }
  reduce_portable(r);
}

void poly_ntt(poly& a) noexcept { kernels_now().ntt(a.c); }

void poly_invntt_tomont(poly& a) noexcept { kernels_now().invntt(a.c); }

void poly_basemul_acc_strided(poly& r, const poly* a, std::size_t stride, const poly* b, unsigned k) noexcept {
  kernels_now().basemul_acc(r.c, a[0].c, stride * n, b[0].c, k);
}

void poly_basemul_acc(poly& r, const poly* a, const poly* b, unsigned k) noexcept {
  poly_basemul_acc_strided(r, a, 1, b, k);
}

void poly_tomont(poly& a) noexcept { kernels_now().tomont(a.c); }

void poly_reduce(poly& a) noexcept { kernels_now().reduce(a.c); }

void poly_add(poly& r, const poly& a, const poly& b) noexcept {
  for (unsigned i = 0; i < n; ++i) r.c[i] = static_cast<std::int16_t>(a.c[i] + b.c[i]);
}

void poly_sub(poly& r, const poly& a, const poly& b) noexcept {
  for (unsigned i = 0; i < n; ++i) r.c[i] = static_cast<std::int16_t>(a.c[i] - b.c[i]);
}

}  // namespace sealwire::crypto::mlkem
