// SPDX-License-Identifier: Apache-2.0
// The CSPRNG entry point: the operating system's generator (getrandom), with a
// replaceable source so tests can be deterministic.
#pragma once

#include <cstdint>
#include <span>
#include <system_error>

namespace sealwire::crypto {

// random_source produces random bytes. Implementations must fill the whole
// buffer or return an error.
class random_source {
 public:
  virtual ~random_source() = default;
  [[nodiscard]] virtual std::error_code fill(std::span<std::uint8_t> out) noexcept = 0;
};

// random_bytes fills out from the installed source (by default the OS
// generator via getrandom(2)). On failure it returns crypto_errc::rng_failure
// (or the source's error) and out is zeroed, never left half random.
[[nodiscard]] std::error_code random_bytes(std::span<std::uint8_t> out) noexcept;

// set_random_source installs src for every later random_bytes call in the
// process (nullptr restores the OS generator) and returns the previous one.
// Meant for tests and deterministic tools; the caller keeps src alive.
random_source* set_random_source(random_source* src) noexcept;

// os_random_source is the getrandom(2) source used by default.
random_source& os_random_source() noexcept;

}  // namespace sealwire::crypto
