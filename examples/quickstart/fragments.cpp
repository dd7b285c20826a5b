// SPDX-License-Identifier: Apache-2.0
// Quickstart: open a message that arrives in fragments, as a socket read
// returns it, with the incremental opener; the plaintext counts only once
// finish() has verified the tag.
#include <sealwire/crypto/aead.hpp>
#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/random.hpp>

#include <cstdio>
#include <vector>

int main() {
  using namespace sealwire;
  std::uint8_t key[32], nonce[12] = {};  // a nonce must never repeat under a key
  crypto::random_bytes(key).value();
  const std::vector<std::uint8_t> message(5000, 'x');
  std::vector<std::uint8_t> wire(message.size() + 16);  // ciphertext || tag
  crypto::aead_seal(crypto::aead_algorithm::chacha20_poly1305, wire, message, associated_data("v1"), nonce, key).value();

  // [quickstart]
  crypto::aead_opener opener;
  opener.init(crypto::aead_algorithm::chacha20_poly1305, key, nonce, crypto::tag_position::trailing).value();
  opener.aad(bytes_of("v1"));
  std::vector<std::uint8_t> plaintext;
  for (std::size_t at = 0; at < wire.size(); at += 1448) {  // one TCP segment's payload at a time
    const bytes_view piece = bytes_view(wire).subspan(at, std::min<std::size_t>(1448, wire.size() - at));
    std::vector<std::uint8_t> out(opener.output_size(piece.size()));  // the last 16 bytes are held back
    opener.update(out, piece).value();
    plaintext.insert(plaintext.end(), out.begin(), out.end());  // NOT verified yet: do not use
  }
  if (!opener.finish()) {  // the tag did not verify: throw the plaintext away
    crypto::ct::wipe(plaintext);
    return 1;
  }
  // [quickstart]
  std::printf("opened %zu bytes in %zu pieces\n", plaintext.size(), (wire.size() + 1447) / 1448);
  return plaintext == message ? 0 : 1;
}
