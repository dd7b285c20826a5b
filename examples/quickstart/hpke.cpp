// SPDX-License-Identifier: Apache-2.0
// Quickstart: public-key encryption with HPKE (RFC 9180) in one call each
// way, and a key pair saved and loaded.
#include <sealwire/hpke/hpke.hpp>

#include <cstdio>
#include <vector>

int main() {
  // [quickstart]
  using namespace sealwire;
  // Bob makes a key pair (X25519) and publishes the public key's bytes.
  auto bob = hpke::generate_key_pair().value();
  std::vector<std::uint8_t> published(bob.pub.bytes().begin(), bob.pub.bytes().end());

  // Alice loads Bob's public key and seals to it; `info` binds the
  // message to this application.
  auto bob_key = hpke::public_key::from(hpke::kem_id::x25519, published).value();
  const hpke::message_options options{.info = bytes_of("quickstart v1")};
  std::vector<std::uint8_t> sealed = hpke::seal(bob_key, bytes_of("hello bob"), options).value();
  // sealed = encapsulated key (32 bytes) || ciphertext || tag

  // Bob opens it with his private key.
  std::vector<std::uint8_t> opened = hpke::open(bob.priv, sealed, options).value();
  // [quickstart]
  std::printf("opened: %.*s\n", static_cast<int>(opened.size()), reinterpret_cast<const char*>(opened.data()));
  return opened.size() == 9 ? 0 : 1;
}
