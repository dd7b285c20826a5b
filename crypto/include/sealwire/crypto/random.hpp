// SPDX-License-Identifier: Apache-2.0
// The CSPRNG entry point: the operating system's generator (getrandom), with a
// replaceable source so tests can be deterministic. The API draws its keys
// and nonces from it by itself (box.hpp, hpke/keys.hpp); call random_bytes
// for other needs.
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/result.hpp>

#include <cstdint>
#include <span>

namespace sealwire::crypto {

// random_source produces random bytes. Implementations must fill the whole
// buffer or return an error.
class SEALWIRE_API random_source {
 public:
  virtual ~random_source() = default;
  // fill writes out.size() random bytes, or returns an error.
  [[nodiscard]] virtual result<void> fill(std::span<std::uint8_t> out) noexcept = 0;
};

// random_bytes fills out from the installed source (by default the OS
// generator via getrandom(2)). On failure it returns crypto_errc::rng_failure
// (or the source's error) and out is zeroed, never left half random.
[[nodiscard]] SEALWIRE_API result<void> random_bytes(std::span<std::uint8_t> out) noexcept;

// set_random_source installs src for every later random_bytes call in the
// process (nullptr restores the OS generator) and returns the previous one.
// Meant for tests and deterministic tools; the caller keeps src alive.
SEALWIRE_API random_source* set_random_source(random_source* src) noexcept;

// os_random_source is the getrandom(2) source used by default.
[[nodiscard]] SEALWIRE_API random_source& os_random_source() noexcept;

}  // namespace sealwire::crypto
