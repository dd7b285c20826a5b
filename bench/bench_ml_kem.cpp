// SPDX-License-Identifier: Apache-2.0
// ML-KEM-512/768/1024 (FIPS 203) and X-Wing: KeyGen, Encaps, Decaps in TSC
// cycles. No peer: OpenSSL 3.0 and libsodium 1.0.18 have no ML-KEM; the
// targets (issue 19) are compared by hand against mlkem-native's figures.
#include "common.hpp"

#include <sealwire/crypto/ml_kem.hpp>
#include <sealwire/crypto/xwing.hpp>

namespace sealwire::bench {
namespace {

template <class Kem>
void register_kem(const std::string& name) {
  const std::string provider(Kem::provider());
  // KeyGen_internal from the 64-byte seed, matrix expansion included.
  add(name + ".keygen", 0, "sealwire", [](benchmark::State& st) {
    const bytes seed = pattern(64);
    measure(st, 0, [&] { benchmark::DoNotOptimize(Kem::decapsulation_key::from_seed(seed).has_value()); });
  }, provider);
  // Encaps from the encoded key: the 7.2 check and the matrix expansion
  // included, as one-shot users (HPKE) pay them.
  add(name + ".encaps", 0, "sealwire", [](benchmark::State& st) {
    const auto dk = Kem::decapsulation_key::from_seed(pattern(64)).value();
    const bytes m = pattern(32, 9);
    bytes ct(Kem::ciphertext_size), ss(32);
    measure(st, 0, [&] {
      benchmark::DoNotOptimize(Kem::encapsulate(std::span<std::uint8_t, Kem::ciphertext_size>(ct),
                                                std::span<std::uint8_t, 32>(ss), dk.public_key().bytes(),
                                                std::span<const std::uint8_t, 32>(m.data(), 32))
                                   .has_value());
    });
  }, provider);
  // Encaps with a loaded (expanded) encapsulation_key object.
  add(name + ".encaps_loaded", 0, "sealwire", [](benchmark::State& st) {
    const auto dk = Kem::decapsulation_key::from_seed(pattern(64)).value();
    const bytes m = pattern(32, 9);
    bytes ct(Kem::ciphertext_size), ss(32);
    measure(st, 0, [&] {
      dk.public_key().encapsulate(std::span<std::uint8_t, Kem::ciphertext_size>(ct), std::span<std::uint8_t, 32>(ss),
                                  std::span<const std::uint8_t, 32>(m.data(), 32));
      benchmark::DoNotOptimize(ss.data());
    });
  }, provider);
  // Decaps with the key object (its matrix expanded at load).
  add(name + ".decaps", 0, "sealwire", [](benchmark::State& st) {
    const auto dk = Kem::decapsulation_key::from_seed(pattern(64)).value();
    const bytes m = pattern(32, 9);
    bytes ct(Kem::ciphertext_size), ss(32);
    dk.public_key().encapsulate(std::span<std::uint8_t, Kem::ciphertext_size>(ct), std::span<std::uint8_t, 32>(ss),
                                std::span<const std::uint8_t, 32>(m.data(), 32));
    measure(st, 0, [&] { benchmark::DoNotOptimize(dk.decapsulate(std::span<std::uint8_t, 32>(ss), ct).has_value()); });
  }, provider);
}

void register_ml_kem() {
  register_kem<crypto::ml_kem_512>("mlkem512");
  register_kem<crypto::ml_kem_768>("mlkem768");
  register_kem<crypto::ml_kem_1024>("mlkem1024");
  const std::string provider(crypto::xwing::provider());
  add("xwing.keygen", 0, "sealwire", [](benchmark::State& st) {
    const bytes seed = pattern(32);
    measure(st, 0, [&] { benchmark::DoNotOptimize(crypto::xwing::decapsulation_key::from_seed(seed).has_value()); });
  }, provider);
  add("xwing.encaps", 0, "sealwire", [](benchmark::State& st) {
    const auto dk = crypto::xwing::decapsulation_key::from_seed(pattern(32)).value();
    const bytes eseed = pattern(64, 3);
    bytes ct(crypto::xwing::ciphertext_size), ss(32);
    measure(st, 0, [&] {
      benchmark::DoNotOptimize(crypto::xwing::encapsulate(std::span<std::uint8_t, 1120>(ct),
                                                          std::span<std::uint8_t, 32>(ss), dk.encapsulation_key(),
                                                          std::span<const std::uint8_t, 64>(eseed.data(), 64))
                                   .has_value());
    });
  }, provider);
  add("xwing.decaps", 0, "sealwire", [](benchmark::State& st) {
    const auto dk = crypto::xwing::decapsulation_key::from_seed(pattern(32)).value();
    const bytes eseed = pattern(64, 3);
    bytes ct(crypto::xwing::ciphertext_size), ss(32);
    (void)crypto::xwing::encapsulate(std::span<std::uint8_t, 1120>(ct), std::span<std::uint8_t, 32>(ss),
                                     dk.encapsulation_key(), std::span<const std::uint8_t, 64>(eseed.data(), 64));
    measure(st, 0, [&] { benchmark::DoNotOptimize(dk.decapsulate(std::span<std::uint8_t, 32>(ss), ct).has_value()); });
  }, provider);
}

const registrar reg(&register_ml_kem);

}  // namespace
}  // namespace sealwire::bench
