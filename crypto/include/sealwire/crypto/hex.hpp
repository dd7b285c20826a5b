// SPDX-License-Identifier: Apache-2.0
// Hexadecimal encoding and decoding in constant time, so keys can be printed
// and parsed without leaking their value through timing. A utility beside the
// API proper (box.hpp, hpke/keys.hpp), for keys kept as text.
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/result.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sealwire::crypto {

// hex_encode writes 2 * in.size() lower-case hex digits to out and returns the
// number written. out must be at least that long (a contract).
SEALWIRE_API std::size_t hex_encode(std::span<char> out, std::span<const std::uint8_t> in) noexcept;

// to_hex returns in as a lower-case hex string.
[[nodiscard]] SEALWIRE_API std::string to_hex(std::span<const std::uint8_t> in);

// hex_decode decodes hex (either case, no separators) into out and returns the
// byte count. Errors: invalid_encoding for an odd length or a non-hex digit,
// buffer_too_small when out is shorter than hex.size() / 2 (nothing written).
// After invalid_encoding the bytes that were written are zeroed again.
[[nodiscard]] SEALWIRE_API result<std::size_t> hex_decode(std::span<std::uint8_t> out, std::string_view hex) noexcept;

// from_hex decodes into a new vector.
[[nodiscard]] SEALWIRE_API result<std::vector<std::uint8_t>> from_hex(std::string_view hex);

}  // namespace sealwire::crypto
