// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the stream-cipher tests.
#pragma once

#include "vectors.hpp"

#include <sealwire/crypto/chacha.hpp>
#include <sealwire/crypto/salsa20.hpp>

namespace sealwire::test {

// run_stream keys Cipher, moves to byte `offset` and XORs the keystream into
// `in` (pass zeros for raw keystream).
template <class Cipher>
result<bytes> run_stream(const bytes& key, const bytes& nonce, unsigned rounds, std::uint64_t offset,
                         const bytes& in) {
  Cipher c;
  if (auto r = c.init(key, nonce, rounds); !r) return r.error();
  if (auto r = c.seek(offset / 64, static_cast<std::size_t>(offset % 64)); !r) return r.error();
  bytes out(in.size());
  if (auto r = c.apply(out, in); !r) return r.error();
  return out;
}

// apply_in_pieces XORs `in` through c in random pieces (some of them single
// bytes, some empty) and returns the output.
template <class Cipher>
bytes apply_in_pieces(Cipher& c, const bytes& in, seeded_random& rng) {
  bytes out(in.size());
  std::size_t pos = 0;
  while (pos < in.size()) {
    std::size_t piece;
    switch (rng.uniform(4)) {
      case 0: piece = 1; break;
      case 1: piece = rng.uniform(64); break;
      case 2: piece = rng.uniform(300); break;
      default: piece = rng.uniform(2000); break;
    }
    piece = std::min(piece, in.size() - pos);
    const auto r = c.apply(std::span(out).subspan(pos, piece), std::span(in).subspan(pos, piece));
    EXPECT_TRUE(r) << r.error().message();
    pos += piece;
  }
  return out;
}

}  // namespace sealwire::test
