// SPDX-License-Identifier: Apache-2.0
// Quickstart: seal a message under a secret key and open it back (the box:
// XChaCha20-Poly1305 with a random nonce).
#include <sealwire/crypto/box.hpp>

#include <cstdio>

int main() {
  // [quickstart]
  using namespace sealwire;
  auto key = box::key::generate().value();  // 32 random bytes: keep them secret

  std::vector<std::uint8_t> sealed = box::seal(key, bytes_of("meet at noon")).value();
  // sealed = 24-byte nonce || ciphertext || 16-byte tag: store it, send it

  auto opened = box::open(key, sealed);  // result<std::vector<std::uint8_t>>
  if (!opened) {
    // a wrong key, or the message was changed: nothing to read
    std::printf("refused: %s\n", opened.error().message().c_str());
    return 1;
  }
  // [quickstart]
  std::printf("opened: %.*s\n", static_cast<int>(opened->size()), reinterpret_cast<const char*>(opened->data()));
  sealed[30] ^= 1;  // a forged message is refused
  return box::open(key, sealed).error() == condition::authentication_failed ? 0 : 1;
}
