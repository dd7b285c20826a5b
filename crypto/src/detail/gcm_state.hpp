// SPDX-License-Identifier: Apache-2.0
// The state of one AES-GCM message (NIST SP 800-38D): a plain aggregate that
// the portable driver and every instruction-set kernel share.
#pragma once

// Only <cstdint>-level headers: the instruction-set files include this one.
#include <cstddef>
#include <cstdint>

namespace sealwire::crypto::detail {

// How many powers of H the wide kernels aggregate over (one reduction per
// gcm_powers blocks).
inline constexpr std::size_t gcm_powers = 16;

// gcm_key holds what the kernels read: the AES round keys in FIPS 197 byte
// order (the layout AES-NI loads), and H in two forms. Kernels never keep
// state of their own, so any kernel may continue a message another began.
struct gcm_key {
  alignas(64) std::uint8_t rk[15 * 16];  // round keys 0..rounds
  // hpow[16 * j] is H^(gcm_powers - j) * x^-1 as a bit-reflected 128-bit
  // little-endian integer (the carry-less multiply form; see aes_gcm.cpp),
  // valid when have_powers is set. The clmul kernels fill it on first use.
  alignas(64) std::uint8_t hpow[gcm_powers * 16];
  // hkar[16 * j] holds hpow[16 * j]'s two 64-bit halves XORed together, in
  // both halves (the Karatsuba middle factor).
  alignas(64) std::uint8_t hkar[gcm_powers * 16];
  std::uint8_t h[16];   // H = E(K, 0^128), as a block
  std::uint8_t j0[16];  // the pre-counter block J0
  std::uint8_t y[16];   // the GHASH accumulator, as a block
  std::uint32_t rounds;
  std::uint32_t have_powers;
};

// gcm_state adds the driver's buffers: a partial keystream block and a
// partial GHASH block (AAD, and text through gcm_crypt/gcm_hash), and for
// the text through gcm_encrypt/gcm_decrypt a unit of gcm_powers blocks: the
// keystream generated ahead for it (the wide kernel's width at once when the
// text comes in pieces) and its ciphertext, which GHASH takes whole with one
// reduction. Text arriving in pieces shorter than the unit costs an XOR and
// a copy; whole units at a unit boundary go through the stitched kernels.
struct gcm_state {
  gcm_key key;
  alignas(64) std::uint8_t unit_ks[16 * gcm_powers];  // keystream for the unit, unit_ks_len bytes
  alignas(64) std::uint8_t unit_ct[16 * gcm_powers];  // ciphertext of the unit so far, unit_pos bytes
  std::uint8_t ks[16];     // keystream of the current block; ks_pos..16 unused
  std::uint8_t gbuf[16];   // pending GHASH input, glen bytes
  std::uint32_t ctr;       // counter of the next keystream block (inc32, wraps)
  std::uint16_t unit_pos;  // bytes of the unit done (0: at a unit boundary)
  std::uint16_t unit_ks_len;  // keystream bytes generated for the unit (a multiple of 16)
  std::uint8_t ks_pos;     // 16 when no keystream is buffered
  std::uint8_t glen;
  std::uint8_t calls;      // text calls so far (saturating): pieces generate keystream ahead
};

}  // namespace sealwire::crypto::detail
