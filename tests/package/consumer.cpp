// SPDX-License-Identifier: Apache-2.0
// Builds against the installed headers and libraries of every component.
#include <sealwire/crypto/ct.hpp>
#include <sealwire/hpke/error.hpp>
#include <sealwire/record/error.hpp>

#include <cstdio>

int main() {
  const std::error_code a = sealwire::hpke_errc::open_failed;
  const std::error_code b = sealwire::record_errc::truncated;
  const unsigned char x[2] = {1, 2};
  const bool ok = sealwire::crypto::ct::equal(x, x) && a != b;
  std::printf("%s / %s\n", a.message().c_str(), b.message().c_str());
  return ok ? 0 : 1;
}
