// SPDX-License-Identifier: Apache-2.0
// The AEAD fuzz target's algorithms, and the fixed key the seed generator
// seals its messages with (the target reads the key from its input).
#pragma once

#include <sealwire/crypto/aead.hpp>

#include "harness.hpp"

#include <array>
#include <iterator>

namespace sealwire::fuzz {

inline constexpr crypto::aead_algorithm aead_algorithms[] = {
    crypto::aead_algorithm::chacha20_poly1305,
    crypto::aead_algorithm::xchacha20_poly1305,
    crypto::aead_algorithm::xsalsa20_poly1305,
    crypto::aead_algorithm::chacha20_poly1305_original,
    crypto::aead_algorithm::aes128_gcm,
    crypto::aead_algorithm::aes256_gcm,
};

// aead_key is a fixed key of the algorithm's size.
inline std::span<const std::uint8_t> aead_key(crypto::aead_algorithm alg) {
  static const std::array<std::uint8_t, 64> key = [] {
    std::array<std::uint8_t, 64> k{};
    for (std::size_t i = 0; i < k.size(); ++i) k[i] = static_cast<std::uint8_t>(0x40 + i);
    return k;
  }();
  return std::span(key).first(crypto::properties(alg).key_size);
}

}  // namespace sealwire::fuzz
