// SPDX-License-Identifier: Apache-2.0
// Ed25519 through OpenSSL's EVP interface (pure Ed25519, RFC 8032 5.1), for
// the differential tests and the fuzz target's oracle. No GoogleTest here:
// an oracle failure comes back as nullopt or false.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace sealwire::test::oracle {

// evp_ed25519_public is the public key of a 32-byte seed.
[[nodiscard]] std::optional<std::vector<std::uint8_t>> evp_ed25519_public(std::span<const std::uint8_t> seed);

// evp_ed25519_sign signs message with the key of a 32-byte seed (EVP_DigestSign).
[[nodiscard]] std::optional<std::vector<std::uint8_t>> evp_ed25519_sign(std::span<const std::uint8_t> seed,
                                                                      std::span<const std::uint8_t> message);

// evp_ed25519_verify is EVP_DigestVerify's verdict; false also when OpenSSL
// refuses the public key.
[[nodiscard]] bool evp_ed25519_verify(std::span<const std::uint8_t> public_key, std::span<const std::uint8_t> message,
                                      std::span<const std::uint8_t> signature);

}  // namespace sealwire::test::oracle
