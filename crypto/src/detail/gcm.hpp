// SPDX-License-Identifier: Apache-2.0
// The AES-GCM driver (NIST SP 800-38D) behind the AEAD interface: keying, the
// buffered GHASH and CTR streams, and the tag. Kernels are chosen per call
// from the enabled CPU features, so a state may move between levels.
#pragma once

#include "gcm_state.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace sealwire::crypto::detail {

// gcm_set_key expands a 16- or 32-byte key (checked by the caller) into k:
// the round keys, H and, when the current level's kernels use them, the
// powers of H. The per-message fields (J0, the GHASH accumulator) are zeroed.
// A key set this way serves any number of messages (gcm_start).
void gcm_set_key(gcm_key& k, std::span<const std::uint8_t> key) noexcept;
// gcm_start begins a message under a key made by gcm_set_key (which st may
// itself hold) with a non-empty IV of any length: 12 bytes form J0 directly,
// others through GHASH.
void gcm_start(gcm_state& st, const gcm_key& k, std::span<const std::uint8_t> iv) noexcept;
// gcm_init is gcm_set_key into st, then gcm_start.
void gcm_init(gcm_state& st, std::span<const std::uint8_t> key, std::span<const std::uint8_t> iv) noexcept;
// gcm_hash absorbs AAD or ciphertext; gcm_pad zero-pads to a block boundary
// (between the AAD and the text).
void gcm_hash(gcm_state& st, const std::uint8_t* in, std::size_t n) noexcept;
void gcm_pad(gcm_state& st) noexcept;
// gcm_crypt runs CTR only; gcm_encrypt and gcm_decrypt also hash the
// ciphertext (in may equal out), through the unit buffers for pieces (see
// gcm_state). A message's text goes through one or the other family, not both.
void gcm_crypt(gcm_state& st, std::uint8_t* out, const std::uint8_t* in, std::size_t n) noexcept;
void gcm_encrypt(gcm_state& st, std::uint8_t* out, const std::uint8_t* in, std::size_t n) noexcept;
void gcm_decrypt(gcm_state& st, std::uint8_t* out, const std::uint8_t* in, std::size_t n) noexcept;
// gcm_decrypt_joined is gcm_decrypt of the text a[0..na) followed by
// b[0..nb) into out (na + nb bytes), without joining them first when the
// piece falls inside keystream generated ahead: the trailing-tag opener's
// held-back bytes and the next piece. Neither a nor b overlaps out.
inline constexpr std::size_t gcm_joined_max = 16 + 512;
void gcm_decrypt_joined(gcm_state& st, std::uint8_t* out, const std::uint8_t* a, std::size_t na,
                        const std::uint8_t* b, std::size_t nb) noexcept;
// gcm_tag absorbs the length block and writes the tag.
void gcm_tag(gcm_state& st, std::uint64_t aad_len, std::uint64_t text_len, std::span<std::uint8_t, 16> tag) noexcept;
void gcm_wipe(gcm_state& st) noexcept;
// aes_set_key expands a 16- or 32-byte key (checked by the caller) into k's
// round keys only (no H): for aes_encrypt_block.
void aes_set_key(gcm_key& k, std::span<const std::uint8_t> key) noexcept;
// aes_encrypt_block writes CIPH_K(in) to out (FIPS 197 5.1) through the CTR
// kernel of the current level: J0's first 12 bytes and the counter are the
// input block, and the keystream XORs a zero block. It uses k.j0 as scratch.
void aes_encrypt_block(gcm_key& k, std::uint8_t* out, const std::uint8_t* in) noexcept;
// gcm_provider names the kernels the current CPU level selects.
[[nodiscard]] std::string_view gcm_provider() noexcept;

}  // namespace sealwire::crypto::detail
