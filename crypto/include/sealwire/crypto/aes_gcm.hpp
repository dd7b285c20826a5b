// SPDX-License-Identifier: Apache-2.0
// AES-GCM (NIST SP 800-38D) with an IV of any length. The 96-bit-nonce
// AES-128-GCM and AES-256-GCM are ordinary AEADs (aead.hpp:
// aead_algorithm::aes128_gcm, aes256_gcm, sealer and opener included); this
// header adds one-shot functions for the other IV lengths the standard
// allows, which form the pre-counter block J0 through GHASH (SP 800-38D 7.1
// step 2). Prefer 96-bit nonces: they are the only ones the AEAD interface,
// HPKE and the record layer use. Start from aead.hpp unless a protocol you
// implement fixes another IV length.
#pragma once

#include <sealwire/crypto/aead.hpp>

#include <cstdint>
#include <span>
#include <string_view>

namespace sealwire::crypto {

// aes_gcm_seal_detached encrypts pt into ct (same start or disjoint) and
// writes the 16-byte tag. The key is 16 (AES-128) or 32 (AES-256) bytes; the
// IV is any non-empty length. Errors: invalid_key (other key lengths,
// including AES-192's 24), invalid_nonce (an empty IV), buffer_too_small.
// A plaintext beyond 2^36 - 32 bytes is a contract failure.
[[nodiscard]] SEALWIRE_API result<void> aes_gcm_seal_detached(std::span<std::uint8_t> ct,
                                                              std::span<std::uint8_t, aead_tag_size> tag, bytes_view pt,
                                                              associated_data ad, bytes_view iv,
                                                              bytes_view key) noexcept;

// aes_gcm_open_detached verifies the tag over ct and only then decrypts into
// out. On failure out's first ct.size() bytes are zeroed. Errors:
// authentication_failed (including a tag that is not 16 bytes), invalid_key,
// invalid_nonce, buffer_too_small, message_too_long.
[[nodiscard]] SEALWIRE_API result<void> aes_gcm_open_detached(std::span<std::uint8_t> out, bytes_view ct,
                                                              bytes_view tag, associated_data ad, bytes_view iv,
                                                              bytes_view key) noexcept;

// aes_gcm_provider names the AES-GCM kernels the current CPU level selects
// ("portable", "aesni+pclmul", "vaes+vpclmul").
[[nodiscard]] SEALWIRE_API std::string_view aes_gcm_provider() noexcept;

}  // namespace sealwire::crypto
