// SPDX-License-Identifier: Apache-2.0
// ChaCha (Bernstein 2008) with 8, 12 or 20 rounds: the original variant
// (64-bit nonce and counter), the IETF variant (RFC 8439: 96-bit nonce, 32-bit
// counter) and XChaCha (draft-irtf-cfrg-xchacha: 192-bit nonce via HChaCha).
// The raw keystream, unauthenticated: for encryption start from box.hpp, or
// aead.hpp for ChaCha20-Poly1305.
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/stream_cipher.hpp>

namespace sealwire::crypto {

// chacha is a ChaCha keystream. Choose the variant with the nonce length:
//  -  8 bytes: original ChaCha, 64-bit block counter; 16- or 32-byte key;
//  - 12 bytes: IETF ChaCha (RFC 8439 2.4), 32-bit counter; 32-byte key.
//    Running past counter 2^32 - 1 is counter_exhausted, never a wrap into
//    the nonce;
//  - 24 bytes: XChaCha: subkey = HChaCha(key, nonce[0..16)), then original
//    ChaCha with nonce[16..24) and a 64-bit counter (as libsodium's
//    crypto_stream_xchacha20); 32-byte key.
class SEALWIRE_API chacha : public stream_cipher {
 public:
  chacha() noexcept = default;

  // init keys the cipher at block 0. rounds is 8, 12 or 20. Errors:
  // invalid_key (length), invalid_nonce (length), invalid_argument (rounds).
  [[nodiscard]] result<void> init(std::span<const std::uint8_t> key, std::span<const std::uint8_t> nonce,
                                  unsigned rounds = 20) noexcept;
};

// hchacha derives a 32-byte subkey from a 32-byte key and a 16-byte input
// (draft-irtf-cfrg-xchacha 2.2); rounds is 8, 12 or 20 (a contract).
SEALWIRE_API void hchacha(std::span<std::uint8_t, 32> out, std::span<const std::uint8_t, 32> key,
             std::span<const std::uint8_t, 16> nonce, unsigned rounds = 20) noexcept;

// hchacha20 is hchacha with 20 rounds, the HChaCha20 of XChaCha20.
inline void hchacha20(std::span<std::uint8_t, 32> out, std::span<const std::uint8_t, 32> key,
                      std::span<const std::uint8_t, 16> nonce) noexcept {
  hchacha(out, key, nonce, 20);
}

}  // namespace sealwire::crypto
