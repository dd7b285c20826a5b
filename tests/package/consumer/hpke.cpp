// SPDX-License-Identifier: Apache-2.0
// Uses sealwire::hpke from an installed package: one-call seal and open.
#include <sealwire/hpke/hpke.hpp>

#include <cstdio>

int main() {
  using namespace sealwire;
  auto bob = hpke::generate_key_pair().value();
  auto sealed = hpke::seal(bob.pub, bytes_of("hello")).value();
  const bool ok = hpke::open(bob.priv, sealed).value().size() == 5;
  sealed.back() ^= 1;
  const bool refused = hpke::open(bob.priv, sealed).error() == condition::authentication_failed;
  std::printf("hpke %s: %d %d\n", to_string(hpke::default_suite).c_str(), ok, refused);
  return ok && refused ? 0 : 1;
}
