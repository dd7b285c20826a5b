// SPDX-License-Identifier: Apache-2.0
// Internal: what tests and the vector checker read of a context (the key
// schedule's outputs) and the sequence number they move (the message limit).
#pragma once

#include <sealwire/hpke/context.hpp>

#include <cstddef>
#include <cstdint>
#include <span>

namespace sealwire::hpke::detail {

struct context_test_access {
  static std::span<const std::uint8_t> key(const context& c, std::size_t n) { return c.key_.span().first(n); }
  static std::span<const std::uint8_t> base_nonce(const context& c) { return c.base_nonce_.span(); }
  static std::span<const std::uint8_t> exporter_secret(const context& c, std::size_t n) {
    return c.exporter_secret_.span().first(n);
  }
  static void set_sequence(context& c, std::uint64_t low, std::uint32_t high) { c.seq_ = {low, high}; }
};

}  // namespace sealwire::hpke::detail
