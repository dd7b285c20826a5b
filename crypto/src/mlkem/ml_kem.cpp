// SPDX-License-Identifier: Apache-2.0
// ML-KEM (FIPS 203 section 6 and 7): KeyGen_internal, Encaps_internal and
// Decaps_internal over K-PKE, the input checks of 7.2 and 7.3, and the
// expanded decapsulation-key format.
#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/ml_kem.hpp>
#include <sealwire/crypto/random.hpp>
#include <sealwire/crypto/sha3.hpp>

#include "encode.hpp"
#include "kernels.hpp"
#include "kpke.hpp"
#include "sample.hpp"

#include <cstring>

namespace sealwire::crypto::detail {
namespace {

using mlkem::params;
using mlkem::poly_bytes;

// g is G(x) = SHA3-512(m || h) split into (K, r) (FIPS 203 4.1, Algorithm 17 line 1).
void g_hash(std::uint8_t out[64], const std::uint8_t m[32], const std::uint8_t h[32]) noexcept {
  sha3_512 g;
  g.update(std::span<const std::uint8_t>(m, 32));
  g.update(std::span<const std::uint8_t>(h, 32));
  g.finish(std::span<std::uint8_t, 64>(out, 64));
  g.wipe();
}

}  // namespace

bool ml_kem_load_public(unsigned k, const std::uint8_t* ek, std::uint8_t h[32], ml_kem_poly* a,
                        ml_kem_poly* t_hat) noexcept {
  const params p = mlkem::params_for(k);
  // 7.2 modulus check: ek[0:384k] must equal ByteEncode_12(ByteDecode_12(.)),
  // i.e. every 12-bit value is below q.
  bool ok = true;
  for (unsigned i = 0; i < k; ++i) ok &= mlkem::decode12_checked(t_hat[i], ek + poly_bytes * i);
  if (!ok) return false;
  mlkem::expand_matrix(a, ek + poly_bytes * k, k);
  sha3_256::hash(std::span<std::uint8_t, 32>(h, 32), std::span<const std::uint8_t>(ek, p.ek_bytes()));
  return true;
}

void ml_kem_keygen(unsigned k, const std::uint8_t d[32], std::uint8_t* ek, std::uint8_t h[32], ml_kem_poly* a,
                   ml_kem_poly* t_hat, ml_kem_poly* s_hat) noexcept {
  const params p = mlkem::params_for(k);
  mlkem::kpke_keygen(ek, a, t_hat, s_hat, d, p);
  sha3_256::hash(std::span<std::uint8_t, 32>(h, 32), std::span<const std::uint8_t>(ek, p.ek_bytes()));
}

void ml_kem_encaps(unsigned k, std::uint8_t* ct, std::uint8_t ss[32], const std::uint8_t h[32], const ml_kem_poly* a,
                   const ml_kem_poly* t_hat, const std::uint8_t m[32]) noexcept {
  const params p = mlkem::params_for(k);
  std::uint8_t kr[64];
  g_hash(kr, m, h);
  mlkem::kpke_encrypt(ct, a, t_hat, m, kr + 32, p);
  std::memcpy(ss, kr, 32);
  ct::wipe(kr, sizeof kr);
}

void ml_kem_decaps(unsigned k, std::uint8_t ss[32], const std::uint8_t* ct, const ml_kem_poly* s_hat,
                   const std::uint8_t z[32], const std::uint8_t h[32], const ml_kem_poly* a,
                   const ml_kem_poly* t_hat) noexcept {
  const params p = mlkem::params_for(k);
  const std::size_t ct_len = p.ct_bytes();
  // Algorithm 18: m' = Decrypt(c), (K', r') = G(m' || h), K-bar = J(z || c),
  // c' = Encrypt(ek, m', r'); K' when c' = c, else K-bar.
  std::uint8_t m[32], kr[64], k_bar[32];
  mlkem::kpke_decrypt(m, s_hat, ct, p);
  g_hash(kr, m, h);
  shake256 j;
  j.update(std::span<const std::uint8_t>(z, 32));
  j.update(std::span<const std::uint8_t>(ct, ct_len));
  j.squeeze(k_bar);
  j.wipe();
  std::uint8_t ct2[mlkem::max_k * 352 + 160];  // the largest ciphertext, 1568 bytes
  mlkem::kpke_encrypt(ct2, a, t_hat, m, kr + 32, p);
  // Whether c' = c must stay secret (it is a plaintext-checking oracle), so
  // the comparison and the choice use masks, never ct::equal's declassified
  // verdict or a branch.
  std::uint8_t diff = 0;
  for (std::size_t i = 0; i < ct_len; ++i) diff = static_cast<std::uint8_t>(diff | (ct[i] ^ ct2[i]));
  const auto keep = static_cast<std::uint8_t>(ct::mask_if_zero(diff));
  for (unsigned i = 0; i < 32; ++i)
    ss[i] = static_cast<std::uint8_t>((kr[i] & keep) | (k_bar[i] & static_cast<std::uint8_t>(~keep)));
  ct::wipe(m, sizeof m);
  ct::wipe(kr, sizeof kr);
  ct::wipe(k_bar, sizeof k_bar);
  ct::wipe(ct2, sizeof ct2);
}

bool ml_kem_check_expanded(unsigned k, const std::uint8_t* dk, ml_kem_poly* s_hat) noexcept {
  const params p = mlkem::params_for(k);
  // 7.3 hash check: H(dk[384k : 768k + 32]) = dk[768k + 32 : 768k + 64].
  const std::uint8_t* ek = dk + p.dk_pke_bytes();
  std::uint8_t h[32];
  sha3_256::hash(h, std::span<const std::uint8_t>(ek, p.ek_bytes()));
  if (std::memcmp(h, ek + p.ek_bytes(), 32) != 0) return false;  // public values
  for (unsigned i = 0; i < k; ++i) mlkem::decode12_reduce(s_hat[i], dk + poly_bytes * i);
  return true;
}

void ml_kem_write_expanded(unsigned k, std::uint8_t* out, const ml_kem_poly* s_hat, const std::uint8_t* ek,
                           const std::uint8_t h[32], const std::uint8_t z[32]) noexcept {
  const params p = mlkem::params_for(k);
  for (unsigned i = 0; i < k; ++i) mlkem::encode12(out + poly_bytes * i, s_hat[i]);
  out += p.dk_pke_bytes();
  std::memcpy(out, ek, p.ek_bytes());
  std::memcpy(out + p.ek_bytes(), h, 32);
  std::memcpy(out + p.ek_bytes() + 32, z, 32);
}

std::string_view ml_kem_provider() noexcept { return mlkem::kernels_now().name; }

result<void> ml_kem_random(std::span<std::uint8_t> out) noexcept { return random_bytes(out); }

}  // namespace sealwire::crypto::detail
