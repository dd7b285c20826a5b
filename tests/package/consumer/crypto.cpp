// SPDX-License-Identifier: Apache-2.0
// Uses sealwire::crypto from an installed package: the box, a keyed AEAD,
// names, the version header.
#include <sealwire/crypto/aead.hpp>
#include <sealwire/crypto/box.hpp>
#include <sealwire/version.hpp>

#include <cstdio>
#include <string_view>

int main() {
  using namespace sealwire;
  auto key = box::key::generate().value();
  const auto sealed = box::seal(key, bytes_of("hello"), associated_data("v1")).value();
  const auto opened = box::open(key, sealed, associated_data("v1")).value();
  const bool box_ok = std::string_view(reinterpret_cast<const char*>(opened.data()), opened.size()) == "hello" &&
                      !box::open(key, sealed, associated_data("v2"));
  const auto alg = parse<crypto::aead_algorithm>("aes128gcm").value();
  auto k = crypto::aead_key::make(alg, std::span<const std::uint8_t>(sealed.data(), 16)).value();
  std::uint8_t out[64];
  const std::uint8_t nonce[12] = {};
  const bool aead_ok = k.seal(out, bytes_of("x"), {}, nonce).value() == 17;
  std::printf("crypto %s: box %d, %s %d\n", version_string, box_ok, std::string(to_string(alg)).c_str(), aead_ok);
  return box_ok && aead_ok && version_major == SEALWIRE_VERSION_MAJOR ? 0 : 1;
}
