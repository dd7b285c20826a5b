// SPDX-License-Identifier: Apache-2.0
// K-PKE (FIPS 203 section 5, Algorithms 13-15).
#include "kpke.hpp"

#include "encode.hpp"
#include "sample.hpp"

#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/sha3.hpp>

#include <cstring>
#include <span>

namespace sealwire::crypto::mlkem {

void kpke_keygen(std::uint8_t* ek, poly* a, poly* t_hat, poly* s_hat, const std::uint8_t d[32],
                 const params& p) noexcept {
  const unsigned k = p.k;
  // (rho, sigma) = G(d || k), G = SHA3-512 (Algorithm 13 line 1, 4.1).
  std::uint8_t in[33];
  std::memcpy(in, d, 32);
  in[32] = static_cast<std::uint8_t>(k);
  std::uint8_t g[64];
  sha3_512::hash(std::span<std::uint8_t, 64>(g), in);
  const std::uint8_t* rho = g;
  const std::uint8_t* sigma = g + 32;
  // rho is public (it ends ek); the matrix expansion's rejection loop may
  // branch on it.
  ct::declassify(rho, 32);

  // A-hat (lines 3-7); s and e use PRF nonces 0..k-1 and k..2k-1 (lines
  // 8-15).
  poly e[max_k];
  poly* noise[2 * max_k];
  for (unsigned i = 0; i < k; ++i) {
    noise[i] = &s_hat[i];
    noise[k + i] = &e[i];
  }
  sample_matrix_and_noise(a, rho, k, noise, 2 * k, p.eta1, sigma);
  for (unsigned i = 0; i < k; ++i) {
    poly_ntt(s_hat[i]);
    poly_reduce(s_hat[i]);
    poly_ntt(e[i]);
  }
  // t-hat = A-hat o s-hat + e-hat (line 18); the product carries 2^-16,
  // poly_tomont removes it.
  for (unsigned i = 0; i < k; ++i) {
    poly_basemul_acc(t_hat[i], &a[i * k], s_hat, k);
    poly_tomont(t_hat[i]);
    poly_add(t_hat[i], t_hat[i], e[i]);
    poly_reduce(t_hat[i]);
    encode12(ek + poly_bytes * i, t_hat[i]);
  }
  std::memcpy(ek + poly_bytes * k, rho, 32);
  ct::wipe(in, sizeof in);
  ct::wipe(g, sizeof g);
  ct::wipe(e, sizeof e);
}

void kpke_encrypt(std::uint8_t* ct, const poly* a, const poly* t_hat, const std::uint8_t m[32],
                  const std::uint8_t r[32], const params& p) noexcept {
  const unsigned k = p.k;
  poly y[max_k], e1[max_k], e2;
  poly* noise[max_k + 1] = {};
  // y uses nonces 0..k-1 with eta1; e1 and e2 use k..2k with eta2 (Algorithm 14 lines 9-17).
  for (unsigned i = 0; i < k; ++i) noise[i] = &y[i];
  sample_noise(noise, k, p.eta1, r, 0);
  for (unsigned i = 0; i < k; ++i) noise[i] = &e1[i];
  noise[k] = &e2;
  sample_noise(noise, k + 1, p.eta2, r, static_cast<std::uint8_t>(k));
  for (unsigned i = 0; i < k; ++i) {
    poly_ntt(y[i]);
    poly_reduce(y[i]);
  }
  // u = NTT^-1(A-hat^T o y-hat) + e1 (line 19): column i of A-hat.
  poly u;
  for (unsigned i = 0; i < k; ++i) {
    poly_basemul_acc_strided(u, &a[i], k, y, k);
    poly_invntt_tomont(u);
    poly_add(u, u, e1[i]);
    poly_reduce(u);
    compress_encode(ct + 32 * p.du * i, u, p.du);
  }
  // v = NTT^-1(t-hat^T o y-hat) + e2 + mu (lines 20-21).
  poly v, mu;
  poly_basemul_acc(v, t_hat, y, k);
  poly_invntt_tomont(v);
  poly_from_message(mu, m);
  poly_add(v, v, e2);
  poly_add(v, v, mu);
  poly_reduce(v);
  compress_encode(ct + p.u_bytes(), v, p.dv);
  ct::wipe(y, sizeof y);
  ct::wipe(e1, sizeof e1);
  ct::wipe_object(e2);
  ct::wipe_object(u);
  ct::wipe_object(v);
  ct::wipe_object(mu);
}

void kpke_decrypt(std::uint8_t m[32], const poly* s_hat, const std::uint8_t* ct, const params& p) noexcept {
  const unsigned k = p.k;
  poly u[max_k];
  for (unsigned i = 0; i < k; ++i) {
    decode_decompress(u[i], ct + 32 * p.du * i, p.du);
    poly_ntt(u[i]);
  }
  // w = v' - NTT^-1(s-hat^T o NTT(u')) (Algorithm 15 line 6).
  poly w, v;
  poly_basemul_acc(w, s_hat, u, k);
  poly_invntt_tomont(w);
  decode_decompress(v, ct + p.u_bytes(), p.dv);
  poly_sub(w, v, w);
  poly_reduce(w);
  poly_to_message(m, w);
  ct::wipe(u, sizeof u);
  ct::wipe_object(w);
  ct::wipe_object(v);
}

}  // namespace sealwire::crypto::mlkem
