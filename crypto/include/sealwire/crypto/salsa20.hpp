// SPDX-License-Identifier: Apache-2.0
// Salsa20 (Bernstein 2005) with 8, 12 or 20 rounds, 64-bit nonce and counter,
// and XSalsa20 ("Extending the Salsa20 nonce", 2008) via HSalsa20. The raw
// keystream, unauthenticated: for encryption start from box.hpp, or aead.hpp
// for XSalsa20-Poly1305.
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/stream_cipher.hpp>

namespace sealwire::crypto {

// salsa20 is a Salsa20 keystream. The nonce length picks the variant:
//  -  8 bytes: Salsa20 with a 16- or 32-byte key;
//  - 24 bytes: XSalsa20: subkey = HSalsa20(key, nonce[0..16)), then Salsa20
//    with nonce[16..24); 32-byte key.
// The block counter is 64 bits.
class SEALWIRE_API salsa20 : public stream_cipher {
 public:
  salsa20() noexcept = default;

  // init keys the cipher at block 0. rounds is 8, 12 or 20. Errors:
  // invalid_key, invalid_nonce, invalid_argument (rounds).
  [[nodiscard]] result<void> init(std::span<const std::uint8_t> key, std::span<const std::uint8_t> nonce,
                                  unsigned rounds = 20) noexcept;
};

// hsalsa derives a 32-byte subkey from a key and a 16-byte input (the XSalsa20
// paper, section 2); rounds is 8, 12 or 20 (a contract).
SEALWIRE_API void hsalsa(std::span<std::uint8_t, 32> out, std::span<const std::uint8_t, 32> key,
            std::span<const std::uint8_t, 16> nonce, unsigned rounds = 20) noexcept;

// hsalsa20 is hsalsa with 20 rounds, the HSalsa20 of XSalsa20.
inline void hsalsa20(std::span<std::uint8_t, 32> out, std::span<const std::uint8_t, 32> key,
                     std::span<const std::uint8_t, 16> nonce) noexcept {
  hsalsa(out, key, nonce, 20);
}

}  // namespace sealwire::crypto
