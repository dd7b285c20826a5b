// SPDX-License-Identifier: Apache-2.0
// Independent AEAD implementations for the AEAD fuzz target (test oracles
// only): libsodium for the ChaCha20/XChaCha20/XSalsa20 constructions,
// OpenSSL's EVP for AES-GCM. Same attached layouts as sealwire's
// (secretbox: tag || ciphertext; the others: ciphertext || tag).
#pragma once

#include <sealwire/crypto/aead.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace sealwire::fuzz::oracle {

using bytes = std::vector<std::uint8_t>;
using view = std::span<const std::uint8_t>;

// seal returns the sealed message, or nullopt when the oracle refused (it
// must not for the sizes the fuzz target uses).
[[nodiscard]] std::optional<bytes> seal(crypto::aead_algorithm alg, view key, view nonce, view aad, view pt);

// open returns the plaintext when the tag verifies, nullopt otherwise.
[[nodiscard]] std::optional<bytes> open(crypto::aead_algorithm alg, view key, view nonce, view aad, view input);

}  // namespace sealwire::fuzz::oracle
