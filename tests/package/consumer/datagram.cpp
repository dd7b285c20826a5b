// SPDX-License-Identifier: Apache-2.0
// Uses sealwire::datagram (the sans-IO datagram channel, no Boost) from an
// installed package: two channels keyed from fixed secrets, one message.
#include <sealwire/record/datagram/channel.hpp>

#include <cstdio>
#include <vector>

int main() {
  using namespace sealwire;
  using record::datagram::channel;
  const std::vector<std::uint8_t> a(32, 1), b(32, 2);
  auto x = channel::from_secrets(record::record_aead::chacha20_poly1305, hpke::kdf_id::hkdf_sha256, a, b).value();
  auto y = channel::from_secrets(record::record_aead::chacha20_poly1305, hpke::kdf_id::hkdf_sha256, b, a).value();
  std::vector<std::uint8_t> d(1200);
  d.resize(x.seal(d, bytes_of("hello")).value());
  std::vector<record::datagram::message> out;
  const bool ok = y.open(d, out).value() == 1 && out[0].data.size() == 5;
  std::printf("datagram: %d\n", ok);
  return ok ? 0 : 1;
}
