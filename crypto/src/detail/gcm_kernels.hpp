// SPDX-License-Identifier: Apache-2.0
// AES-GCM kernels (NIST SP 800-38D): whole 16-byte blocks only. Counters,
// partial blocks and lengths live in the driver (aes_gcm.cpp).
#pragma once

// Only <cstdint>-level headers: the instruction-set files include this one.
#include "gcm_state.hpp"

#include <cstddef>
#include <cstdint>

namespace sealwire::crypto::detail {

// aes_expand_fn writes the round keys of a 16- or 32-byte key and sets rounds.
using aes_expand_fn = void (*)(gcm_key& k, const std::uint8_t* key, std::size_t key_len) noexcept;
// gcm_ctr_fn: out[i] = in[i] ^ E(K, J0[0..12) || BE32(ctr + i)) for nblocks
// blocks (the counter wraps mod 2^32, SP 800-38D inc32). in may equal out.
using gcm_ctr_fn = void (*)(const gcm_key& k, std::uint32_t ctr, std::uint8_t* out, const std::uint8_t* in,
                            std::size_t nblocks) noexcept;
// gcm_ghash_fn absorbs nblocks blocks into k.y.
using gcm_ghash_fn = void (*)(gcm_key& k, const std::uint8_t* in, std::size_t nblocks) noexcept;
// gcm_crypt_fn is CTR and GHASH together: the encrypting form hashes what it
// writes, the decrypting form what it reads (so in may equal out).
using gcm_crypt_fn = void (*)(gcm_key& k, std::uint32_t ctr, std::uint8_t* out, const std::uint8_t* in,
                              std::size_t nblocks) noexcept;
// gcm_powers_fn fills k.hpow from k.h and sets k.have_powers.
using gcm_powers_fn = void (*)(gcm_key& k) noexcept;

void aes_expand_portable(gcm_key& k, const std::uint8_t* key, std::size_t key_len) noexcept;
void gcm_ctr_portable(const gcm_key& k, std::uint32_t ctr, std::uint8_t* out, const std::uint8_t* in,
                      std::size_t nblocks) noexcept;
void gcm_ghash_portable(gcm_key& k, const std::uint8_t* in, std::size_t nblocks) noexcept;

#if SEALWIRE_X86_KERNELS
// AES-NI + PCLMULQDQ (aes_gcm_aesni.cpp): 8 blocks in flight, one reduction
// per 8 blocks.
void aes_expand_aesni(gcm_key& k, const std::uint8_t* key, std::size_t key_len) noexcept;
void gcm_powers_clmul(gcm_key& k) noexcept;
void gcm_ctr_aesni(const gcm_key& k, std::uint32_t ctr, std::uint8_t* out, const std::uint8_t* in,
                   std::size_t nblocks) noexcept;
void gcm_ghash_clmul(gcm_key& k, const std::uint8_t* in, std::size_t nblocks) noexcept;
void gcm_encrypt_aesni(gcm_key& k, std::uint32_t ctr, std::uint8_t* out, const std::uint8_t* in,
                       std::size_t nblocks) noexcept;
void gcm_decrypt_aesni(gcm_key& k, std::uint32_t ctr, std::uint8_t* out, const std::uint8_t* in,
                       std::size_t nblocks) noexcept;

// VAES + VPCLMULQDQ on 512-bit registers (aes_gcm_vaes.cpp): multiples of
// 16 blocks only, one reduction per 16 blocks.
inline constexpr std::size_t gcm_wide_blocks = 16;
void gcm_ctr_x16_vaes(const gcm_key& k, std::uint32_t ctr, std::uint8_t* out, const std::uint8_t* in,
                      std::size_t nblocks) noexcept;
void gcm_ghash_x16_vaes(gcm_key& k, const std::uint8_t* in, std::size_t nblocks) noexcept;
void gcm_encrypt_x16_vaes(gcm_key& k, std::uint32_t ctr, std::uint8_t* out, const std::uint8_t* in,
                          std::size_t nblocks) noexcept;
// gcm_ctr_hash_x16_vaes writes 16 blocks of keystream from counter ctr
// while hashing 16 blocks of `hash` (the two buffers do not overlap): a
// completed unit of pieces hashed beside the next unit's keystream.
void gcm_ctr_hash_x16_vaes(gcm_key& k, std::uint32_t ctr, std::uint8_t* keystream, const std::uint8_t* hash) noexcept;
// gcm_ctr_hash_xor_x16_vaes is gcm_ctr_hash_x16_vaes followed by the first
// n < 256 bytes of text from `in` XORed with the new keystream straight from
// its registers: out gets the result, keep the ciphertext (out's bytes when
// keep_out, else in's). keep may equal hash (read first); in may equal out.
void gcm_ctr_hash_xor_x16_vaes(gcm_key& k, std::uint32_t ctr, std::uint8_t* keystream, const std::uint8_t* hash,
                               std::uint8_t* out, std::uint8_t* keep, const std::uint8_t* in, std::size_t n,
                               bool keep_out) noexcept;
void gcm_decrypt_x16_vaes(gcm_key& k, std::uint32_t ctr, std::uint8_t* out, const std::uint8_t* in,
                          std::size_t nblocks) noexcept;
// gcm_decrypt_lag_x16_vaes decrypts nblocks (a multiple of 16, maybe 0)
// from counter ctr, hashing each unit of 16 blocks one step later beside the
// next unit's AES: first the 16 blocks at `pending` (earlier ciphertext, or
// null for none), and the last unit of in beside 16 blocks of keystream from
// counter ctr + nblocks written to `keystream` (or alone when it is null).
// in may equal out; pending and keystream overlap neither.
// gcm_xor_keep_avx512 writes in ^ ks to out and the ciphertext (out when
// keep_out, else in) to keep, for n bytes; out may equal in, keep overlaps
// neither.
void gcm_xor_keep_avx512(std::uint8_t* out, std::uint8_t* keep, const std::uint8_t* in, const std::uint8_t* ks,
                         std::size_t n, bool keep_out) noexcept;
// gcm_open_joined_avx512 is the decrypting gcm_xor_keep_avx512 of the
// 16 + nb bytes formed by the 16 bytes at a followed by nb >= 64 bytes at
// b; out and keep overlap neither.
void gcm_open_joined_avx512(std::uint8_t* out, std::uint8_t* keep, const std::uint8_t* a, const std::uint8_t* b,
                            std::size_t nb, const std::uint8_t* ks) noexcept;
void gcm_decrypt_lag_x16_vaes(gcm_key& k, std::uint32_t ctr, std::uint8_t* out, const std::uint8_t* in,
                              std::size_t nblocks, const std::uint8_t* pending, std::uint8_t* keystream) noexcept;
#endif

}  // namespace sealwire::crypto::detail
