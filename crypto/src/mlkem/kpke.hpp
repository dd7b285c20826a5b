// SPDX-License-Identifier: Apache-2.0
// K-PKE, the public-key encryption scheme inside ML-KEM (FIPS 203 section 5):
// key generation, encryption and decryption over the expanded matrix A-hat.
#pragma once

#include "params.hpp"
#include "poly.hpp"

#include <cstdint>

namespace sealwire::crypto::mlkem {

// kpke_keygen is K-PKE.KeyGen(d) (Algorithm 13): writes ek (384 k + 32
// bytes), the matrix a (k x k, row-major, coefficients in [0, q)), t-hat and
// s-hat (k polynomials each, |coefficient| <= q/2). Constant time in d.
void kpke_keygen(std::uint8_t* ek, poly* a, poly* t_hat, poly* s_hat, const std::uint8_t d[32],
                 const params& p) noexcept;

// kpke_encrypt is K-PKE.Encrypt (Algorithm 14) with the matrix and t-hat
// already expanded from ek: writes the ct_bytes()-byte ciphertext of m under
// randomness r. Constant time in m and r.
void kpke_encrypt(std::uint8_t* ct, const poly* a, const poly* t_hat, const std::uint8_t m[32],
                  const std::uint8_t r[32], const params& p) noexcept;

// kpke_decrypt is K-PKE.Decrypt (Algorithm 15): writes the 32-byte message.
// Constant time in s-hat and the ciphertext.
void kpke_decrypt(std::uint8_t m[32], const poly* s_hat, const std::uint8_t* ct, const params& p) noexcept;

}  // namespace sealwire::crypto::mlkem
